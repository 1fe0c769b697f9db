/* gpu.h - private to src/gpu: checked CUDA calls, fault injection for the
 * unwind tests, and the experiments' operation tables.
 *
 * Every CUDA runtime call goes through GT_CUDA (or GT_CUDA_ALLOC for calls
 * that take memory): on failure it writes "call: cudaErrorName (text)
 * [file:line]" into the gt_err and evaluates to -1, so callers unwind with
 * 'goto fail' and nothing exits from here. */
#ifndef GPUTUI_GPU_PRIVATE_H
#define GPUTUI_GPU_PRIVATE_H

#include <cuda_runtime_api.h>

#include "gputui/backend.h"
#include "gputui/cuda_backend.h"

int gt_cuda_check(cudaError_t rc, const char *expr, const char *file, int line,
                  gt_err *err);

/* GPUTUI_FAULT_ALLOC=N makes the N-th allocation through GT_CUDA_ALLOC
 * fail with cudaErrorMemoryAllocation (tests of the unwind paths). */
void gt_fault_init(void);
void gt_fault_set(long n);
int gt_fault_hit(void);

#define GT_CUDA(err, expr) gt_cuda_check((expr), #expr, __FILE__, __LINE__, (err))
#define GT_CUDA_ALLOC(err, expr)                                              \
    gt_cuda_check(gt_fault_hit() ? cudaErrorMemoryAllocation : (expr), #expr, \
                  __FILE__, __LINE__, (err))

/* Multiprocessors of the current device (grid sizing). */
int gt_gpu_sms(void);

extern const gt_exp_ops gt_transfer_ops;
extern const gt_exp_ops gt_zerocopy_ops;

#endif
