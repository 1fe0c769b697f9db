/* l2_kernels.h - the launchers of the l2 experiment's kernels
 * (l2_kernels.cu), for its GPU side (l2_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_L2_KERNELS_H
#define GPUTUI_L2_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* L2 persistence: for i = t + j (tiles t of np words), v = ++persist[j];
 * stream[i] += v; the grid sweeps one tile at a time; blocks x 256. */
cudaError_t gt_k_l2_touch(uint32_t *stream, size_t ns, uint32_t *persist, size_t np,
                          int blocks, cudaStream_t stream_);
/* *bad += words of stream and persist that differ from what k launches of
 * gt_k_l2_touch make of stream = pattern(seed), persist = pattern(pseed). */
cudaError_t gt_k_l2_check(const uint32_t *stream, size_t ns, const uint32_t *persist, size_t np,
                          uint32_t seed, uint32_t pseed, uint32_t k, unsigned long long *bad,
                          int blocks, cudaStream_t stream_);

#ifdef __cplusplus
}
#endif

#endif
