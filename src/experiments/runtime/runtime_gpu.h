/* runtime_gpu.h - what the runtime experiment's GPU files share: op=return
 * (runtime_gpu_return.c), which runtime_gpu.c hands its configuration to,
 * and the child process (runtime_gpu_probe.c). */
#ifndef GPUTUI_RUNTIME_GPU_H
#define GPUTUI_RUNTIME_GPU_H

#include "gpu/gpu.h"

int gt_rt_return_setup(void **state, const int64_t *v, gt_setup_info *info, gt_err *err);
int gt_rt_return_run(void *state, gt_sample *out, gt_err *err);
void gt_rt_return_teardown(void *state);
/* The child (runtime_gpu_probe.c): "init DEVICE" makes a new process's
 * first calls on DEVICE, resets it and calls again, and prints the clock
 * after each (t_main: the clock read first thing in main); "jit DEVICE"
 * times loading one module as cubins and as PTX. */
int gt_runtime_child(int argc, char **argv, double t_main);

#endif
