/* coalesce_kernels.h - the launchers of the coalesce experiment's kernels
 * (coalesce_kernels.cu), for its GPU side (coalesce_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_COALESCE_KERNELS_H
#define GPUTUI_COALESCE_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Coalescing (the experiment's _kernels.cu): thread i < n moves the element of
 * 'width' bytes (4, 8 or 16) in[i * si + oi] to out[i * so + oo], adding
 * k to each of its 32-bit words; blocks of 256 threads, one element each. */
cudaError_t gt_k_co_move(void *out, const void *in, uint64_t n, unsigned width, uint32_t si,
                         uint32_t oi, uint32_t so, uint32_t oo, uint32_t k, cudaStream_t stream);
/* *bad += 32-bit words of out (len elements of 'width' bytes, device or
 * host-mapped) that differ from what gt_k_co_move(k) wrote there from an
 * input of gt_pattern_word(seed); with 'all', also the words of the gaps
 * between written elements that differ from GT_CO_POISON (without it,
 * only the written elements are read). */
cudaError_t gt_k_co_check(const void *out, uint64_t len, unsigned width, uint64_t n,
                          uint32_t si, uint32_t oi, uint32_t so, uint32_t oo, uint32_t k,
                          uint32_t seed, int all, unsigned long long *bad, int blocks,
                          cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
