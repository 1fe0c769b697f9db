/* transfer.h - parameter indices and enum values of the transfer
 * experiment, shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_TRANSFER_H
#define GPUTUI_EXP_TRANSFER_H

#include "gputui/experiments/host.h"
#include "gputui/measure/experiment.h"

enum {
    GT_TR_DIR, GT_TR_METHOD, GT_TR_HOST, GT_TR_PORTABLE, GT_TR_WC,
    GT_TR_MAPPED, GT_TR_SIZE, GT_TR_ITERS, GT_TR_CACHE, GT_TR_OWNER, GT_TR_RO, GT_TR_WARMUP,
    GT_TR_NPARAMS
};
/* Which GPU was current when the pinned host memory was allocated or
 * registered (GT_TR_OWNER): this one, or another (portable memory). */
enum { GT_OWNER_THIS, GT_OWNER_OTHER };
/* Where a pageable source is before each copy (GT_TR_CACHE). */
enum { GT_CACHE_FLUSHED, GT_CACHE_WARM };
/* What a flush of the CPU's caches writes: more than any last-level cache
 * a pageable source could sit in (bandwidthTest's figure). */
#define GT_TR_FLUSH_BYTES (256ull << 20)
enum { GT_DIR_H2D, GT_DIR_D2H, GT_DIR_D2D, GT_DIR_BIDIR };
enum { GT_METHOD_CE, GT_METHOD_SM };

/* Host buffers above this size are verified on sampled blocks when the
 * CPU has to do the check (pageable memory). */
#define GT_TR_FULL_CHECK_MAX (256ull << 20)

extern const gt_experiment gt_exp_transfer;

/* Device buffers a configuration allocates (for the free-memory check). */
uint64_t gt_transfer_device_bytes(const int64_t *vals);

#endif
