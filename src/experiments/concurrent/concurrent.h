/* concurrent.h - parameter indices and series of the concurrent
 * kernels experiment, shared by its table row (core) and its back-end
 * (gpu). */
#ifndef GPUTUI_EXP_CONCURRENT_H
#define GPUTUI_EXP_CONCURRENT_H

#include "gputui/measure/experiment.h"

enum { GT_CK_KERNELS, GT_CK_SPIN, GT_CK_BLOCKS, GT_CK_WARMUP, GT_CK_NPARAMS };
/* The same kernels queued on one stream, then on a stream each. */
enum { GT_CK_S_ONE, GT_CK_S_EACH };

extern const gt_experiment gt_exp_concurrent;

#endif
