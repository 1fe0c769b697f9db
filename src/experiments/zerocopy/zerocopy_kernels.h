/* zerocopy_kernels.h - the launchers of the zerocopy experiment's kernels
 * (zerocopy_kernels.cu), for its GPU side (zerocopy_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_ZEROCOPY_KERNELS_H
#define GPUTUI_ZEROCOPY_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = a[i] + b[i] over a grid-stride loop of blocks x threads; with
 * passes > 1, (sum over 'passes' re-reads of a[i] + b[i]) / passes, with
 * volatile loads so that every pass reads memory again. */
cudaError_t gt_k_add_passes(float *out, const float *a, const float *b, size_t n,
                            int passes, int blocks, int threads, cudaStream_t stream);
/* *bad += elements of out (device or host-mapped) that differ from
 * gt_zc_a(i, seed) + gt_zc_b(i, seed) (zc_pattern.h). */
cudaError_t gt_k_zc_check(const float *out, size_t n, uint32_t seed, unsigned long long *bad,
                          int blocks, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
