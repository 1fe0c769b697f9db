/* managed.h - parameter indices and series of the managed-memory
 * experiment (cudaMallocManaged: first touch, prefetch and advice), shared
 * by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_MANAGED_H
#define GPUTUI_EXP_MANAGED_H

#include "gputui/measure/experiment.h"

enum {
    GT_MG_SIZE, GT_MG_TOUCH, GT_MG_PREFETCH, GT_MG_READ_MOSTLY, GT_MG_PREFERRED,
    GT_MG_ACCESSED_BY, GT_MG_ACCESS, GT_MG_WARMUP, GT_MG_NPARAMS
};
/* Who writes the buffer first, after cudaMallocManaged and the advice. */
enum { GT_MG_TOUCH_HOST, GT_MG_TOUCH_DEVICE };
/* cudaMemAdviseSetPreferredLocation: none, this GPU, or the host. */
enum { GT_MG_PREF_NONE, GT_MG_PREF_DEVICE, GT_MG_PREF_HOST };
/* once: the GPU reads every word once; repeat: then three times more;
 * pingpong: the GPU and then the CPU each check and rewrite every word. */
enum { GT_MG_ACCESS_ONCE, GT_MG_ACCESS_REPEAT, GT_MG_ACCESS_PINGPONG };

/* The series, in this order; a configuration has those that apply
 * (gt_mg_series gives each one's slot, -1 where it has none). */
enum {
    GT_MG_S_TOUCH,      /* first touch: the CPU's loop, or a kernel's */
    GT_MG_S_PREFETCH,   /* cudaMemPrefetchAsync to the GPU (prefetch=on) */
    GT_MG_S_READ,       /* the GPU's first read (pingpong: its pass) */
    GT_MG_S_AGAIN,      /* access=repeat: the three reads after it, each */
    GT_MG_S_CPU,        /* access=pingpong: the CPU's pass */
    GT_MG_S_COPY,       /* pinned cudaMemcpy H2D of the same bytes: the reference */
    GT_MG_S_COUNT
};

/* Managed memory is never asked for beyond this share of the device's
 * free memory: oversubscription pages to the host and can stall a GPU that
 * others share. */
#define GT_MG_FREE_SHARE 2

extern const gt_experiment gt_exp_managed;

/* slot[k]: the index of series k (GT_MG_S_*) in this configuration, -1
 * when it has none; returns how many it has. */
int gt_mg_series(const int64_t *v, int *slot);

#endif
