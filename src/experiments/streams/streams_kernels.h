/* streams_kernels.h - the launchers of the streams experiment's kernels
 * (streams_kernels.cu), for its GPU side (streams_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_STREAMS_KERNELS_H
#define GPUTUI_STREAMS_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x = x * GT_ST_LCG_A + c, 'work' times, on every word, in place
 * (streams.h), with blocks x 256 threads. */
cudaError_t gt_k_lcg(uint32_t *p, size_t nwords, uint32_t work, uint32_t c, int blocks,
                     cudaStream_t stream);
/* An empty kernel<<<1, 1>>> (work on the legacy default stream). */
cudaError_t gt_k_empty(cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
