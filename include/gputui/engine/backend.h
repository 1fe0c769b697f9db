/* backend.h - the one narrow interface between the engine and whatever
 * produces samples. The CUDA back-end (gpu/) implements it; a replay
 * source can implement the same table.
 *
 * Call order, all on the engine's worker thread:
 *   open -> { ops(name)->setup -> run* -> teardown }* -> close
 * device_count and list may be called before open from any one thread.
 * Every function reports failure through gt_err and never exits. */
#ifndef GPUTUI_BACKEND_H
#define GPUTUI_BACKEND_H

#include "gputui/base/common.h"
#include "gputui/device/devprops.h"
#include "gputui/device/health.h"
#include "gputui/measure/experiment.h"
#include "gputui/measure/timeline.h"

typedef struct gt_exp_ops {
    /* Allocates and prepares one configuration and fills info. On failure
     * it has freed everything it took, and returns -1 with err set. */
    int (*setup)(void **state, const int64_t *vals, const gt_devprops *p,
                 gt_setup_info *info, gt_err *err);
    /* One timed, verified iteration: writes 1..GT_MAX_SERIES samples
     * (series, verify, sec, bytes) and returns how many, or -1. */
    int (*run)(void *state, gt_sample *out, gt_err *err);
    /* Optional: takes the values of parameters marked 'iteration'
     * (param.h) into a set-up made for other values of them; the rest are
     * as at set-up. 0, or -1 with err set (the set-up then stays whole,
     * and is torn down). */
    int (*retune)(void *state, const int64_t *vals, gt_err *err);
    /* Frees everything setup took. state may be NULL. */
    void (*teardown)(void *state);
    /* Optional: true when run() has nothing more to give (a replayed
     * configuration that has played out). run() returning 0 samples
     * without being done just means "nothing yet". */
    bool (*done)(void *state);
    /* Optional: the timeline of the last run() (experiments that overlap
     * work); returns true when it filled tl. */
    bool (*timeline)(void *state, gt_timeline *tl);
    /* Optional: what must run in a process of its own (a fault that would
     * end the contexts, a process's first CUDA call, a second process on
     * the GPU): "gputui --internal NAME ARGS..." runs it with ARGS (argc
     * of them; t_main: the clock read first thing in main); its exit
     * status. */
    int (*child)(int argc, char **argv, double t_main);
    /* Plays a recording back: no warm-up iterations, and no set-up or
     * teardown figures of its own (the recorded ones stand). */
    bool replayed;
} gt_exp_ops;

/* The other processes on the device, as the driver (NVML) sees them. */
#define GT_USERS_MAX 8
typedef struct gt_gpu_proc {
    int pid;
    char name[48];          /* the executable's name, "" if unknown */
    uint64_t mem;           /* device memory it holds, bytes; 0 unknown */
    bool busy;              /* it had work on the GPU since the last look */
} gt_gpu_proc;
typedef struct gt_gpu_users {
    bool known;             /* the driver answered */
    bool activity_known;    /* ... and said which processes had work */
    char note[160];         /* why not, or what else it sees (MIG, MPS) */
    int n;                  /* other processes with a context here (up to GT_USERS_MAX in p) */
    gt_gpu_proc p[GT_USERS_MAX];
    bool busy;              /* one of them had work since the last look */
    bool fresh;             /* the driver had new activity samples since then */
} gt_gpu_users;

/* What crossed the device's PCIe link during one short window in which
 * this process had no work on the GPU (and, taking turns, no other gputui
 * process either): whatever moved was another program's. */
typedef struct gt_link_traffic {
    bool known;             /* the driver has the counters */
    double rx_Bps, tx_Bps;  /* into and out of the GPU, bytes a second */
    double window_s;        /* how long each direction was counted */
    char source[64];        /* "NVML PCIe throughput, 20 ms a direction" */
} gt_link_traffic;

typedef struct gt_backend {
    const char *name;
    /* Number of devices; -1 with a message naming the CUDA error when
     * there is no driver or no device. */
    int (*device_count)(int *n, gt_err *err);
    /* Reads properties of device 'ordinal' without keeping a context. */
    int (*query)(int ordinal, gt_devprops *p, gt_err *err);
    /* Optional: what is known of device 'ordinal' before any CUDA call
     * (its name, its memory), from any thread, in a few milliseconds: 0,
     * or -1 when nothing is. */
    int (*peek)(int ordinal, gt_devprops *p);
    /* Makes 'ordinal' current on the calling thread and fills p. */
    int (*open)(int ordinal, gt_devprops *p, gt_err *err);
    /* Re-reads what changes (free memory). */
    void (*refresh)(gt_devprops *p);
    void (*close)(void);
    /* The operations for an experiment, NULL if this back-end lacks it. */
    const gt_exp_ops *(*ops)(const char *experiment);
    /* Optional: the open device's other processes, leaving out this one
     * and the pids in skip (gputui processes that take turns with it);
     * 'busy' covers the time since the previous call. */
    void (*users)(gt_gpu_users *u, const int *skip, int nskip);
    /* Optional: the open device's PCIe traffic over a window it blocks
     * for; called between iterations, with nothing of this process's
     * queued. */
    void (*traffic)(gt_link_traffic *t);
    /* Optional: what the driver says of device p's health now (NVML,
     * sysfs); needs no context, and may be called from any thread. */
    void (*health)(const gt_devprops *p, gt_health *h);
    /* Optional: frees what experiments keep across configurations (see
     * gputui/engine/keep.h). The engine calls it when the experiment changes,
     * when it is released and before close. */
    void (*release)(void);
} gt_backend;

#endif
