/* pool_kernels.h - the launchers of the pool experiment's kernels
 * (pool_kernels.cu), for its GPU side (pool_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_POOL_KERNELS_H
#define GPUTUI_POOL_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stream-ordered allocator (pool_kernels.cu): buffer b < n of the
 * device array ptrs gets word w = gt_pattern_word(w, seed + b), w < words;
 * the check adds the words that differ to *bad; wait: one thread that
 * runs for ns of the GPU's global timer. */
cudaError_t gt_k_pool_fill(void *const *ptrs, int n, size_t words, uint32_t seed, int blocks,
                           cudaStream_t stream);
cudaError_t gt_k_pool_check(void *const *ptrs, int n, size_t words, uint32_t seed,
                            unsigned long long *bad, int blocks, cudaStream_t stream);
cudaError_t gt_k_pool_wait(unsigned long long ns, cudaStream_t stream);
/* *flag = value (host-mapped memory the host polls), in stream order. */
cudaError_t gt_k_pool_signal(int *flag, int value, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
