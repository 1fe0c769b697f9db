/* cluster_kernels.h - the launchers of the cluster experiment's kernels
 * (cluster_kernels.cu), for its GPU side (cluster_gpu.c). Each launches on
 * 'stream' and returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_CLUSTER_KERNELS_H
#define GPUTUI_CLUSTER_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How many clusters of 'blocks' blocks with 'smem' bytes of shared memory
 * each the GPU runs at once (*active; cudaOccupancyMaxActiveClusters),
 * and the largest cluster it could (*most). cudaErrorNotSupported before
 * CUDA 11.8. */
cudaError_t gt_k_cl_fit(int blocks, size_t smem, int *active, int *most);
/* 'clusters' clusters of 'blocks' blocks of GT_CL_THREADS threads: every
 * block fills its 'words' words of shared memory with gt_cl_word(seed +
 * its rank in the cluster);
 * every thread adds the 'reads' words gt_cl_index gives, of its own
 * block's memory or (remote) of the next block's of its cluster, into
 * out[thread]. */
cudaError_t gt_k_cl_read(int clusters, int blocks, uint32_t words, uint32_t reads, int scattered,
                         int remote, uint32_t seed, uint32_t *out, cudaStream_t stream);
/* *bad += threads t < n whose out[t] differs from what its block read:
 * expect[r x GT_CL_THREADS + t mod GT_CL_THREADS] for the block of rank r
 * whose memory it read (its own, or with remote the next one's). */
cudaError_t gt_k_cl_check(const uint32_t *out, size_t n, int blocks, int remote,
                          const uint32_t *expect, unsigned long long *bad, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
