/* atomics_kernels.h - the launchers of the atomics experiment's kernels
 * (atomics_kernels.cu), for its GPU side (atomics_gpu.c). Each launches on
 * 'stream' and returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_ATOMICS_KERNELS_H
#define GPUTUI_ATOMICS_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A configuration as the kernels take it: where, op, type, scope and
 * aggregation (GT_AT_*), K targets 'stride' targets apart (own: each
 * thread its own), 'ops' operations a thread, the min and max values'
 * seed. cudaErrorInvalidValue for a shape the row refuses. */
typedef struct gt_at_shape {
    int where, op, type, scope, agg, own;
    unsigned long long k;
    uint32_t stride, ops, seed;
} gt_at_shape;

/* Every target set to the operation's identity (0; ~0 for min; 1 for mul). */
cudaError_t gt_k_at_reset(const gt_at_shape *sh, void *targets, cudaStream_t stream);
/* The sample: 'blocks' blocks of GT_AT_THREADS threads. */
cudaError_t gt_k_at_run(const gt_at_shape *sh, void *targets, int blocks, cudaStream_t stream);
/* *bad += targets whose bits differ from expect[a] (K of them, packed). */
cudaError_t gt_k_at_check(const gt_at_shape *sh, const void *targets, const void *expect,
                          unsigned long long *bad, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
