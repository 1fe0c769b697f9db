/* banks_kernels.h - the launchers of the banks experiment's kernels
 * (banks_kernels.cu), for its GPU side (banks_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_BANKS_KERNELS_H
#define GPUTUI_BANKS_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Shared-memory banks (the experiment's _kernels.cu): every block fills GT_BK_SMEM
 * bytes with gt_bk_word(seed); lane l of each warp then reads 'reads'
 * elements of 'width' bytes at gt_bk_addr(l, stride, width, r mod 8) with
 * volatile loads, and writes their words' sum to out[thread]. */
cudaError_t gt_k_bk_read(uint32_t *out, unsigned width, uint32_t stride, uint32_t reads,
                         uint32_t seed, int blocks, int threads, cudaStream_t stream);
/* *bad += threads t < n whose out[t] differs from expect[t mod 32]. */
cudaError_t gt_k_bk_check(const uint32_t *out, size_t n, const uint32_t *expect,
                          unsigned long long *bad, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
