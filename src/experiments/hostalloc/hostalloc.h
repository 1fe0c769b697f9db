/* hostalloc.h - parameter indices of the host-allocation experiment,
 * shared by its table row (core) and its back-end (gpu). The memory kinds
 * are GT_HOST_* values (gputui/experiments/host.h). */
#ifndef GPUTUI_EXP_HOSTALLOC_H
#define GPUTUI_EXP_HOSTALLOC_H

#include "gputui/measure/experiment.h"

enum { GT_HA_OP, GT_HA_KIND, GT_HA_PORTABLE, GT_HA_WC, GT_HA_MAPPED, GT_HA_SIZE,
       GT_HA_WARMUP, GT_HA_NPARAMS };
enum { GT_HA_OP_ALLOC, GT_HA_OP_CPU };

/* Pages whose first word is written and read back after each allocation
 * (evenly spread; all of them for buffers of fewer pages). */
#define GT_HA_CHECK_PAGES 4096

extern const gt_experiment gt_exp_hostalloc;

#endif
