/* transpose.h - parameter indices and series of the transpose
 * experiment (an N x N matrix of 32-bit words copied, transposed naively,
 * through a shared-memory tile, and through a padded tile), shared by its
 * table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_TRANSPOSE_H
#define GPUTUI_EXP_TRANSPOSE_H

#include <stdint.h>

#include "gputui/measure/experiment.h"

enum { GT_TP_N, GT_TP_TILE, GT_TP_ROWS, GT_TP_WARMUP, GT_TP_NPARAMS };
enum {
    GT_TP_S_COPY,       /* out = in, tile by tile: the ceiling */
    GT_TP_S_NAIVE,      /* out[x][y] = in[y][x]: coalesced reads, strided writes */
    GT_TP_S_TILED,      /* through a tile x tile shared array: both coalesced, bank conflicts */
    GT_TP_S_PADDED,     /* the same with a row of tile + 1 words: no conflicts */
    GT_TP_NSERIES
};

/* Shared memory a block may have without opting in to more
 * (cudaDevAttrMaxSharedMemoryPerBlock: 48 KiB on every GPU since
 * compute capability 2.0). */
#define GT_TP_SMEM_MAX 49152u

extern const gt_experiment gt_exp_transpose;

/* The bank conflict degree of a warp reading a column of a tile x tile
 * shared array whose rows are tile + pad words (lane l is thread
 * (l mod tile, l / tile) of the block): the most distinct words one of
 * the 32 banks must deliver. */
int gt_tp_conflict(int tile, int pad);

/* Whether the matrix and its result fit in the L2 together: then no
 * ceiling of device memory holds, and the GPU side does not empty the L2
 * before each kernel. */
bool gt_tp_fits_l2(const int64_t *v, const gt_devprops *p);

#endif
