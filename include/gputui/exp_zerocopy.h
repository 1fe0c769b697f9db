/* exp_zerocopy.h - parameter indices and variants of the zero-copy
 * experiment, shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_ZEROCOPY_H
#define GPUTUI_EXP_ZEROCOPY_H

#include "gputui/experiment.h"

enum { GT_ZC_COUNT, GT_ZC_BLOCKS, GT_ZC_THREADS, GT_ZC_PASSES, GT_ZC_WC, GT_ZC_ONLY,
       GT_ZC_WARMUP, GT_ZC_NPARAMS };

/* The variants, run one after another in every iteration; each is a series.
 * The 'variant' parameter is GT_ZC_ALL or 1 + one of them (run alone). */
enum { GT_ZC_EXPLICIT, GT_ZC_MAPPED, GT_ZC_MANAGED, GT_ZC_PREFETCH, GT_ZC_NVARIANTS };
#define GT_ZC_ALL 0

extern const gt_experiment gt_exp_zerocopy;

/* The inputs of iteration 'seed': small whole numbers, so every sum is
 * exact in float and the CPU can check each element without reading the
 * (possibly write-combined) inputs back. */
static inline float gt_zc_a(size_t i, uint32_t seed)
{
    return (float)(((uint32_t)i * 7u + seed) & 1023u);
}

static inline float gt_zc_b(size_t i, uint32_t seed)
{
    return (float)(((uint32_t)i * 13u + seed * 5u) & 1023u);
}

#endif
