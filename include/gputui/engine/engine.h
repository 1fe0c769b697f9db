/* engine.h - the run controller: one worker thread that owns the device
 * and does every back-end call, and a bounded queue of samples.
 *
 * The UI (or batch driver) thread:
 *   gt_engine_start()          opens the device on the worker, waits for it
 *                              (or gt_engine_begin, then gt_engine_wait_open,
 *                              to draw something while the context starts)
 *   gt_engine_configure()      new configuration -> new generation number
 *   poll(gt_engine_fd()) ...   readable when samples or the status changed
 *   gt_engine_drain()          takes queued samples (never blocks)
 *   gt_engine_status()         copies the status
 *   gt_engine_stop()           finishes the iteration in flight, tears
 *                              down, closes the device, joins, frees
 * A configuration change sets a cancel flag: the worker finishes the
 * iteration in flight, tears down, sets up the new configuration, warms up
 * (warm-up iterations are not queued) and goes on. */
#ifndef GPUTUI_ENGINE_H
#define GPUTUI_ENGINE_H

#include <stdbool.h>

#include "gputui/engine/backend.h"
#include "gputui/measure/trace.h"

/* While another program holds a context on the GPU, the worker counts
 * the PCIe link's traffic in a quiet window (backend.h) at a
 * configuration's start and then at most every GT_QUIET_EVERY_S; a window
 * that saw more than GT_FOREIGN_FLOOR_BPS, both directions together, saw
 * the other program move data, and the samples after it, up to the next
 * window, are marked disturbed. On an idle H200 with another context open
 * the counters read 0.4 to 2.1 MB/s. */
#define GT_QUIET_EVERY_S 0.25
#define GT_FOREIGN_FLOOR_BPS 64e6

typedef enum {
    GT_ST_IDLE,        /* no configuration yet */
    GT_ST_SETUP,       /* allocating / preparing */
    GT_ST_WARMUP,
    GT_ST_RUNNING,
    GT_ST_PAUSED,
    GT_ST_ERROR,       /* set-up or run failed; waits for a new config */
    GT_ST_DONE         /* the back-end has no more samples (replay) */
} gt_state;

/* Turns with other gputui processes on the GPU (share.h). */
typedef struct gt_share_status {
    bool on;                   /* this process takes turns */
    char note[200];            /* the lock file, or why there is none */
    int others;                /* other gputui processes on the file */
    bool waiting;              /* waiting for the turn now, held by: */
    int holder_pid;
    unsigned holder_uid;
    double holder_since;       /* seconds since the epoch, 0 unknown */
    uint64_t turns, timeouts;  /* this generation's iterations; those run anyway */
    uint64_t rewarms;          /* untimed iterations after another's turn */
    double waited;             /* seconds waited in all, this generation */
    /* Other programs on the GPU, as the driver sees them (backend.h). */
    bool users_known;          /* the back-end can tell */
    char users_note[160];      /* why it cannot, or MIG, MPS */
    int foreign;               /* processes other than gputui's */
    bool foreign_busy;         /* one had work in the last look's window */
    char foreign_text[200];    /* "pid 1234 python (3.2 GiB), ..." */
    uint64_t foreign_disturbed;/* this generation's iterations marked for them */
    /* Their traffic on the link, from the quiet windows (backend.h). */
    char traffic_source[64];   /* the counters, "" when there are none */
    double foreign_Bps;        /* the last quiet window's bytes a second, -1 none yet */
    bool foreign_moving;       /* ... above GT_FOREIGN_FLOOR_BPS */
    bool cannot_tell;          /* others hold a context and nothing says what they do */
} gt_share_status;

typedef struct gt_status {
    gt_state state;
    uint32_t gen;              /* generation the state refers to */
    uint64_t iterations;       /* timed iterations of this generation */
    int warmup_done, warmup_total;
    double since;              /* gt_now() when the state was entered */
    gt_setup_info info;        /* of the current generation */
    char msg[512];             /* error text in GT_ST_ERROR */
    int code;                  /* its GT_EXIT_* code: GT_EXIT_USAGE where the set-up found
                                  the device refuses the configuration */
    gt_share_status share;
} gt_status;

typedef struct gt_engine gt_engine;

const char *gt_state_name(gt_state s);
/* What the other programs on the GPU (sh->foreign of them) were seen
 * doing, for a status line: "moving 54.2 GB/s on the link", "busy",
 * "no counter can say what they do", or "idle"; into buf. */
const char *gt_share_foreign_doing(const gt_share_status *sh, char *buf, size_t n);
/* Who they are and that: "pid 4242 nvbandwidth (512 MiB): moving 54.1
 * GB/s on the link", or "" when there are none; into buf. */
const char *gt_share_others_text(const gt_share_status *sh, char *buf, size_t n);

int gt_engine_start(gt_engine **out, const gt_backend *be, int device,
                    gt_err *err);
/* The worker starts opening the device; gt_engine_wait_open says when it
 * has: 1 open, 0 not yet after timeout_s (< 0: waits as long as it
 * takes), -1 it failed (err says why; the engine is freed and *e NULL).
 * The engine's fd turns readable when the open ends. */
int gt_engine_begin(gt_engine **out, const gt_backend *be, int device, gt_err *err);
int gt_engine_wait_open(gt_engine **e, double timeout_s, gt_err *err);
uint32_t gt_engine_configure(gt_engine *e, const gt_experiment *exp,
                             const int64_t *vals);
void gt_engine_set_paused(gt_engine *e, bool paused);
/* Whether live iterations take turns with other gputui processes on this
 * GPU (on unless this says otherwise), in dir (NULL: share.h's default),
 * waiting at most wait_s for a turn (0: 2 s) before an iteration runs
 * anyway, its samples marked disturbed. Before the first
 * gt_engine_configure. */
void gt_engine_set_share(gt_engine *e, bool on, const char *dir, double wait_s);
int gt_engine_fd(const gt_engine *e);
size_t gt_engine_drain(gt_engine *e, gt_sample *buf, size_t max);
void gt_engine_status(gt_engine *e, gt_status *st);
void gt_engine_props(gt_engine *e, gt_devprops *p);
/* The latest timeline of the current generation, when it is newer than
 * *seq (which is updated): true when tl was filled. */
bool gt_engine_timeline(gt_engine *e, gt_timeline *tl, uint32_t *seq);
/* Tears the current configuration down now, with what the back-end kept,
 * and waits until it is; the properties then show the free memory with
 * nothing held. The engine idles until the next gt_engine_configure. */
void gt_engine_release(gt_engine *e);
/* The CUDA calls of generation gen while the engine still holds them (the
 * current generation, or the one before it with its teardown): true when
 * out was filled. */
bool gt_engine_trace(gt_engine *e, uint32_t gen, gt_trace *out);
/* The calls of the generation torn down last, with its teardown; its
 * generation, or 0 when there is none. */
uint32_t gt_engine_trace_prev(gt_engine *e, gt_trace *out);
/* Changes whenever a trace is published: a caller copies them again only
 * then. */
uint32_t gt_engine_trace_seq(gt_engine *e);
void gt_engine_stop(gt_engine *e);

#endif
