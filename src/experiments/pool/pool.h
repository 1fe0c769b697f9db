/* pool.h - parameter indices and series of the stream-ordered
 * allocator experiment (cudaMalloc against cudaMallocAsync on the
 * device's default pool and on a pool of its own; reuse across streams
 * under the pool's reuse policies; cudaFree against cudaFreeAsync while a
 * kernel runs), shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_POOL_H
#define GPUTUI_EXP_POOL_H

#include <stdint.h>

#include "gputui/measure/experiment.h"

enum { GT_PL_OP, GT_PL_COUNT, GT_PL_SIZE, GT_PL_THRESHOLD, GT_PL_TRIM, GT_PL_ORDER,
       GT_PL_FOLLOW, GT_PL_OPPORTUNISTIC, GT_PL_INTERNAL, GT_PL_SPIN, GT_PL_WARMUP,
       GT_PL_NPARAMS };
/* alloc: what allocating and freeing costs; reuse: free on stream A,
 * allocate on stream B; sync: cudaFree against cudaFreeAsync while a
 * kernel runs. */
enum { GT_PL_ALLOC, GT_PL_REUSE, GT_PL_SYNC };
/* The own pool's release threshold: 0, or keep everything (UINT64_MAX). */
enum { GT_PL_ZERO, GT_PL_KEEP };
/* Where B's allocation stands to A's free: while A's kernel still runs;
 * after the host saw A's frees done (a flag A writes after them, read
 * with no CUDA call); after cudaStreamSynchronize(A); or behind an event
 * recorded after the frees, which B waits for. */
enum { GT_PL_RUNNING, GT_PL_DONE, GT_PL_SYNCED, GT_PL_EVENT };

enum { GT_PL_S_MALLOC, GT_PL_S_DEFAULT, GT_PL_S_OWN, GT_PL_NALLOC };
enum { GT_PL_S_A, GT_PL_S_B, GT_PL_NREUSE };
enum { GT_PL_S_FREE, GT_PL_S_FREEASYNC, GT_PL_NSYNC };

extern const gt_experiment gt_exp_pool;

/* Device memory the configuration may hold at once. */
uint64_t gt_pl_footprint(const int64_t *v);

#endif
