/* banks.h - parameter indices, series and address arithmetic of the
 * shared-memory bank experiment (lane l of every warp reads the word of
 * 4, 8 or 16 bytes at l * stride, again and again), shared by its table
 * row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_BANKS_H
#define GPUTUI_EXP_BANKS_H

#include <stdint.h>

#include "gputui/experiments/patterns.h"
#include "gputui/experiments/smem.h"
#include "gputui/measure/experiment.h"

enum { GT_BK_STRIDE, GT_BK_WIDTH, GT_BK_READS, GT_BK_WARMUP, GT_BK_NPARAMS };
enum { GT_BK_FLOAT, GT_BK_FLOAT2, GT_BK_FLOAT4 };
enum {
    GT_BK_S_STRIDED,    /* lane l reads element l * stride */
    GT_BK_S_UNIT,       /* the same kernel at stride 1: no conflict */
    GT_BK_NSERIES
};

/* Shared memory a block fills and reads: room for lane 31 at stride 64 of
 * 16-byte words (31,744 B) plus the 7 x 128 B steps below. */
#define GT_BK_SMEM 32768u
/* A thread's reads cycle through 8 steps of 128 bytes (one row of the 32
 * banks each: the same bank for every step). */
#define GT_BK_STEPS 8u
#define GT_BK_STRIDE_MAX 64
/* The grid: this many blocks of GT_BK_THREADS an SM (4 x 32 KiB of shared
 * memory fit an SM from compute capability 8.0; before, they take turns). */
#define GT_BK_BLOCKS_PER_SM 4
#define GT_BK_THREADS 256

extern const gt_experiment gt_exp_banks;

unsigned gt_bk_width(int64_t width_choice);     /* 4, 8 or 16 bytes */

/* Byte of shared memory lane l reads at step k (< GT_BK_STEPS). */
static inline GT_PAT_HD uint32_t gt_bk_addr(uint32_t lane, uint32_t stride, uint32_t width,
                                            uint32_t k)
{
    return lane * stride * width + k * 128u;
}

/* The 32-bit word q of what every block writes into its shared memory. */
static inline GT_PAT_HD uint32_t gt_bk_word(uint32_t q, uint32_t seed)
{
    return q * 0x9E3779B1u ^ seed;
}

/* What one warp's request (lane l reading 'width' bytes at l * stride *
 * width) costs the 32 banks of 4 bytes: the most distinct words any one
 * bank must deliver (*wavefronts; the same word for several lanes is one
 * broadcast), against the fewest a request of that width needs
 * (width / 4). The conflict degree is their ratio: gcd(stride, 32) for
 * 4-byte words, 1 at stride 33. */
void gt_bk_wavefronts(uint32_t stride, unsigned width, int *wavefronts, int *fewest);

/* What lane l's sum over 'reads' reads (a multiple of GT_BK_STEPS) must
 * be: every 32-bit word of each element read, added with wrap-around. */
uint32_t gt_bk_expected(uint32_t lane, uint32_t stride, unsigned width, uint32_t reads,
                        uint32_t seed);

#endif
