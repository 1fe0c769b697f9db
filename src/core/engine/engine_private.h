/* engine_private.h - the engine's state, shared by its two halves: the
 * controller the UI thread calls (engine.c) and the worker thread that
 * owns the device (worker.c). Private to src/core/engine. */
#ifndef GPUTUI_ENGINE_PRIVATE_H
#define GPUTUI_ENGINE_PRIVATE_H

#include <pthread.h>
#include <stdio.h>

#include "gputui/base/port.h"
#include "gputui/engine/engine.h"
#include "gputui/engine/share.h"

#define QUEUE_CAP 8192
/* How long an iteration waits for its turn on the GPU before it runs
 * anyway, its samples marked disturbed. */
#define SHARE_WAIT_MAX 2.0
/* A turn on the GPU lasts this long (seconds of iterations) at most. */
#define TURN_S 0.02

/* A configuration's calls (trace.h) as last published. */
typedef struct traced {
    uint32_t gen;
    gt_trace t;
} traced;

struct gt_engine {
    const gt_backend *be;
    int device;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;       /* the worker waits on it; so does start() */
    gt_wake wake;              /* readable when samples or the status changed */

    /* requested by the UI */
    const gt_experiment *exp;
    int64_t vals[GT_MAX_PARAMS];
    uint32_t want_gen;
    bool paused, quit;

    /* published by the worker */
    gt_status st;
    gt_devprops props;
    bool opened;
    int open_rc;
    gt_err open_err;

    gt_timeline *tl;         /* latest timeline, NULL until one exists */
    uint32_t tl_seq;
    traced *tr_cur, *tr_prev;   /* the current generation's calls; the one
                                   before, with its teardown; NULL if no memory */
    uint32_t tr_seq;            /* counts what publish_trace published */

    gt_sample q[QUEUE_CAP];
    size_t qhead, qlen;

    /* Turns on the GPU (share.h): the wish, set before the first
     * configuration; the lock file and when its processes were last
     * counted are the worker's. */
    bool share_off, share_tried;
    char share_dir[256];
    double share_wait;
    gt_share share;
    double share_counted, share_wait_w;     /* the worker's copy of share_wait */
    double users_at;            /* the worker's last look at the GPU's other programs */
    bool foreign_busy;          /* ... found one of them with work */
    int foreign_n;              /* ... counted this many (0 unknown or none) */
    bool activity_known;        /* ... and the driver said who had work */
    double quiet_at;            /* the last quiet window (engine.h), for */
    uint32_t quiet_gen;         /* ... this generation */
    bool traffic_known;         /* its counters answered */
    bool foreign_moving;        /* ... and saw another program's traffic */
    double turn_start;          /* when the worker's turn began */
    bool turn_timed_out;        /* it runs without the turn (waited too long) */
};

/* The worker thread (worker.c); arg is the engine. */
void *gt_engine_worker(void *arg);
/* turns.c, on the worker: the lock file, once; one iteration in this
 * process's turn (0 when the configuration changed while it waited); the
 * end of the turn, before anything but iterations. */
void gt_engine_share_open(gt_engine *e, const gt_devprops *p);
int gt_engine_iteration(gt_engine *e, uint32_t gen, const gt_exp_ops *ops, void *state,
                        gt_sample *buf, gt_err *err, gt_trace *tr, bool *traced_run);
void gt_engine_turn_end(gt_engine *e);

static inline void notify(gt_engine *e)
{
    gt_wake_signal(&e->wake);
}

/* Called with mu held. */
static inline void set_state(gt_engine *e, gt_state s, uint32_t gen)
{
    if (e->st.state != s || e->st.gen != gen)
        e->st.since = gt_now();
    e->st.state = s;
    e->st.gen = gen;
    notify(e);
}

/* Called with mu held: generation gen ended in err, its text and code kept. */
static inline void set_error(gt_engine *e, const gt_err *err, uint32_t gen)
{
    snprintf(e->st.msg, sizeof e->st.msg, "%s", err->msg);
    e->st.code = err->code;
    set_state(e, GT_ST_ERROR, gen);
}

static inline bool cancelled(gt_engine *e, uint32_t gen)
{
    return e->quit || e->want_gen != gen;
}

#endif
