/* exp_runtime.h - parameter indices and series of the CUDA runtime
 * experiment, shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_RUNTIME_H
#define GPUTUI_EXP_RUNTIME_H

#include "gputui/measure/experiment.h"

enum { GT_RT_OP, GT_RT_WARMUP, GT_RT_NPARAMS };
/* init: a new process's first calls, cudaDeviceReset and the call after. */
enum { GT_RT_OP_INIT };
enum { GT_RT_S_START, GT_RT_S_FIRST, GT_RT_S_RESET, GT_RT_S_AGAIN };

extern const gt_experiment gt_exp_runtime;

#endif
