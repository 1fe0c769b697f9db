/* async.h - parameter indices, series and tile geometry of the async
 * experiment (global memory into shared memory four ways: plain loads,
 * cp.async, bulk copies, a TMA tile), shared by its table row (core) and
 * its back-end (gpu). */
#ifndef GPUTUI_EXP_ASYNC_H
#define GPUTUI_EXP_ASYNC_H

#include <stdint.h>

#include "gputui/measure/experiment.h"

enum { GT_AS_WAY, GT_AS_TILE, GT_AS_STAGES, GT_AS_WIDTH, GT_AS_BLOCKS, GT_AS_COMPUTE,
       GT_AS_SIZE, GT_AS_WARMUP, GT_AS_NPARAMS };
enum { GT_AS_PLAIN, GT_AS_CPASYNC, GT_AS_BULK, GT_AS_TMA, GT_AS_NWAYS };
enum {
    GT_AS_S_WAY,        /* the way asked for: bytes into shared memory */
    GT_AS_S_D2D,        /* cudaMemcpy device to device of the same bytes */
    GT_AS_NSERIES
};

/* A block: this many threads; at most this many blocks an SM. The
 * kernels carry no launch bounds: asking for four blocks an SM
 * (__launch_bounds__(256, 4)) made CUDA 13's code for one block an SM
 * 18% slower at 8 KiB tiles (24 registers a thread, against 30 without).
 * Without them CUDA 13 gives the kernels at most 40 registers a thread on
 * sm_80 to sm_90, 44 on sm_75 and 56 on sm_100 and sm_120, so four blocks
 * still fit in 64 each; the occupancy API checks each launch's blocks an
 * SM (async_gpu.c). */
#define GT_AS_THREADS 256
#define GT_AS_MAX_BLOCKS 4
/* A plain load: each thread has up to this many 16-byte loads in flight
 * before it stores them (the kernel's unrolling). */
#define GT_AS_PLAIN_LOADS 4
/* The TMA's view of the buffer: rows of this many 32-bit words; a tile
 * is a box GT_AS_BOX_W words wide and tile / (4 x GT_AS_BOX_W) rows high. */
#define GT_AS_ROW_WORDS 1024u
#define GT_AS_BOX_W 64u
/* Shared memory a block asks beyond its stages: alignment to 128 bytes
 * and the mbarriers (bulk, tma). */
#define GT_AS_SMEM_EXTRA 256u
/* Shared memory the driver keeps for each block (1 KiB since sm_80). */
#define GT_AS_SMEM_RESERVED 1024u

extern const gt_experiment gt_exp_async;

/* The way's name ("plain", "cp.async", "bulk", "tma"). */
const char *gt_as_way_name(int64_t way);
/* Bytes of cp.async a copy moves (4, 8 or 16). */
unsigned gt_as_width(int64_t width_choice);
/* Stages a way uses: plain loads have one. */
int gt_as_stages(const int64_t *v);
/* Dynamic shared memory a block asks for. */
uint32_t gt_as_smem(const int64_t *v);
/* Bytes one SM has on their way into shared memory at once, at most. */
uint64_t gt_as_in_flight(const int64_t *v);
/* The compute capability a way needs (plain 0, cp.async 80, bulk and tma 90). */
int gt_as_needs_cc(int way);

#endif
