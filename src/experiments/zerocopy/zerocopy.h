/* zerocopy.h - parameter indices and variants of the zero-copy
 * experiment, shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_ZEROCOPY_H
#define GPUTUI_EXP_ZEROCOPY_H

#include "gputui/measure/experiment.h"
#include "gputui/experiments/patterns.h"

enum { GT_ZC_COUNT, GT_ZC_BLOCKS, GT_ZC_THREADS, GT_ZC_PASSES, GT_ZC_WC, GT_ZC_ONLY,
       GT_ZC_CHECK, GT_ZC_REPEAT, GT_ZC_WARMUP, GT_ZC_NPARAMS };

/* Where the explicit and mapped outputs are poisoned and checked. */
enum { GT_ZC_CHECK_GPU, GT_ZC_CHECK_CPU };

/* The variants, run one after another in every iteration; each is a series.
 * The 'variant' parameter is GT_ZC_ALL or 1 + one of them (run alone). */
enum { GT_ZC_EXPLICIT, GT_ZC_MAPPED, GT_ZC_MANAGED, GT_ZC_PREFETCH, GT_ZC_NVARIANTS };
#define GT_ZC_ALL 0

extern const gt_experiment gt_exp_zerocopy;

#endif
