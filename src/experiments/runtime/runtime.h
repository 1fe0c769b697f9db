/* runtime.h - parameter indices and series of the CUDA runtime
 * experiment, shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_RUNTIME_H
#define GPUTUI_EXP_RUNTIME_H

#include "gputui/measure/experiment.h"

enum { GT_RT_OP, GT_RT_CALL, GT_RT_SIZE, GT_RT_AHEAD, GT_RT_WARMUP, GT_RT_NPARAMS };
/* init: a new process's first calls, cudaDeviceReset and the call after.
 * jit: a new process loads one module as cubins, then as PTX (twice).
 * return: when a memcpy or memset call returns, behind a busy kernel. */
enum { GT_RT_OP_INIT, GT_RT_OP_JIT, GT_RT_OP_RETURN };
enum { GT_RT_S_START, GT_RT_S_FIRST, GT_RT_S_RESET, GT_RT_S_AGAIN };
enum { GT_RT_S_CUBIN, GT_RT_S_PTX_FIRST, GT_RT_S_PTX_AGAIN };
enum { GT_RT_S_RETURNS, GT_RT_S_IDLE, GT_RT_S_LEFT };
/* op=return: the call under test. */
enum { GT_RT_CALL_H2D_PAGEABLE, GT_RT_CALL_H2D_PINNED, GT_RT_CALL_D2H_PAGEABLE, GT_RT_CALL_D2D,
       GT_RT_CALL_MEMSET, GT_RT_NCALLS };

extern const gt_experiment gt_exp_runtime;
/* "cudaMemcpy H2D from pageable memory" for a call index. */
const char *gt_rt_call_text(int call);

#endif
