/* transpose_kernels.h - the launchers of the transpose experiment's kernels
 * (transpose_kernels.cu), for its GPU side (transpose_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_TRANSPOSE_KERNELS_H
#define GPUTUI_TRANSPOSE_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The transpose (transpose_kernels.cu) of an n x n matrix of words by
 * 'kind' (GT_TP_S_*: copy, naive, tiled, padded), blocks of tile x rows
 * threads over n / tile x n / tile tiles. */
cudaError_t gt_k_tp(int kind, uint32_t *out, const uint32_t *in, int n, int tile, int rows,
                    cudaStream_t stream);
/* 1 when gt_k_tp has kernels compiled for tile x rows (constants, the
 * loops unrolled, as NVIDIA's article has them), 0 when it takes them at
 * run time. */
int gt_k_tp_compiled(int tile, int rows);
/* *bad += words of out that differ from the input gt_pattern_word(seed),
 * transposed or (copy) not. */
cudaError_t gt_k_tp_check(const uint32_t *out, int n, int transposed, uint32_t seed,
                          unsigned long long *bad, int blocks, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
