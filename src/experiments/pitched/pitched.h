/* pitched.h - parameter indices and series of the pitched-memory
 * experiment, shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_PITCHED_H
#define GPUTUI_EXP_PITCHED_H

#include "gputui/measure/experiment.h"
#include "gputui/experiments/patterns.h"

enum { GT_PI_DIMS, GT_PI_MEASURE, GT_PI_WIDTH, GT_PI_HEIGHT, GT_PI_DEPTH, GT_PI_WARMUP,
       GT_PI_NPARAMS };
enum { GT_PI_2D, GT_PI_3D };
enum { GT_PI_H2D, GT_PI_D2H, GT_PI_KERNEL };
enum { GT_PI_S_PACKED, GT_PI_S_PITCHED };

extern const gt_experiment gt_exp_pitched;

#endif
