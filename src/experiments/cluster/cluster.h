/* cluster.h - parameter indices, series and address arithmetic of the
 * cluster experiment (every thread of a cluster's blocks reads shared
 * memory, its own block's and then another's through the cluster's
 * distributed shared memory), shared by its table row (core) and its
 * back-end (gpu). */
#ifndef GPUTUI_EXP_CLUSTER_H
#define GPUTUI_EXP_CLUSTER_H

#include <stdint.h>

#include "gputui/experiments/patterns.h"
#include "gputui/measure/experiment.h"

enum { GT_CL_CLUSTER, GT_CL_ACCESS, GT_CL_SIZE, GT_CL_READS, GT_CL_WARMUP, GT_CL_NPARAMS };
enum { GT_CL_COALESCED, GT_CL_SCATTERED };
enum {
    GT_CL_S_OWN,        /* each block reads its own shared memory */
    GT_CL_S_REMOTE,     /* each block reads the next block's of its cluster */
    GT_CL_NSERIES
};

/* A block: this many threads. */
#define GT_CL_THREADS 256
/* Scattered: lane l's word is this many words past lane l - 1's: each
 * lane in another 128-byte line and another bank. */
#define GT_CL_SCATTER 33u

extern const gt_experiment gt_exp_cluster;

/* Blocks in a cluster: 2, 4, 8 or 16. */
int gt_cl_blocks(int64_t choice);

/* The word thread t reads at its read k, of 'words' in a block's shared
 * memory: (k x GT_CL_THREADS + t) x (GT_CL_SCATTER or 1) mod words. The
 * kernel steps it along without the division (gt_cl_step). */
static inline GT_PAT_HD uint32_t gt_cl_index(uint32_t t, uint32_t k, uint32_t words,
                                             int scattered)
{
    uint64_t i = (uint64_t)k * GT_CL_THREADS + t;

    return (uint32_t)((scattered ? i * GT_CL_SCATTER : i) % words);
}

/* From one read's word to the next one's: add this, less 'words' if past. */
static inline GT_PAT_HD uint32_t gt_cl_step(uint32_t words, int scattered)
{
    return (uint32_t)((uint64_t)GT_CL_THREADS * (scattered ? GT_CL_SCATTER : 1) % words);
}

/* The 32-bit word q every block writes into its shared memory. */
static inline GT_PAT_HD uint32_t gt_cl_word(uint32_t q, uint32_t seed)
{
    return q * 0x9E3779B1u ^ seed;
}

/* What thread t's sum of its 'reads' words must be (with wrap-around). */
uint32_t gt_cl_expected(uint32_t t, uint32_t reads, uint32_t words, int scattered, uint32_t seed);

#endif
