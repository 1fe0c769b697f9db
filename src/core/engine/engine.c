/* The run controller (engine.h): one worker thread owns the device and
 * makes every back-end call; the UI or batch thread configures it, drains
 * its bounded sample queue and reads its status, woken through one fd. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/engine/engine.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/base/port.h"

#define QUEUE_CAP 8192

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
};

const char *gt_state_name(gt_state s)
{
    static const char *const n[] = {"IDLE", "SETUP", "WARM-UP", "RUNNING",
                                    "PAUSED", "ERROR", "END"};
    return s <= GT_ST_DONE ? n[s] : "?";
}

static void notify(gt_engine *e)
{
    gt_wake_signal(&e->wake);
}

/* Called with mu held. */
static void set_state(gt_engine *e, gt_state s, uint32_t gen)
{
    if (e->st.state != s || e->st.gen != gen)
        e->st.since = gt_now();
    e->st.state = s;
    e->st.gen = gen;
    notify(e);
}

static bool cancelled(gt_engine *e, uint32_t gen)
{
    return e->quit || e->want_gen != gen;
}

/* Called with mu held: the worker's trace of 'gen' becomes visible. */
static void publish_trace(gt_engine *e, traced *to, const gt_trace *t, uint32_t gen)
{
    if (to && t) {
        to->t = *t;
        to->gen = gen;
        e->tr_seq++;
    }
}

/* One iteration; the first of a configuration is traced (timed
 * iterations after it make no trace calls beyond a thread-local check). */
static int run_traced(const gt_exp_ops *ops, void *state, gt_sample *buf, gt_err *err,
                      gt_trace *tr, bool *traced_run)
{
    int rc;

    if (*traced_run || !tr)
        return ops->run(state, buf, err);
    gt_trace_capture(tr, GT_TR_RUN);
    rc = ops->run(state, buf, err);
    gt_trace_capture(NULL, GT_TR_RUN);
    *traced_run = rc != 0 || (ops->replayed);
    return rc;
}

static void *worker(void *arg)
{
    gt_engine *e = arg;
    const gt_exp_ops *ops = NULL;       /* the operations that own 'state' */
    void *state = NULL;
    uint32_t active = 0;
    gt_devprops props;
    gt_err err;
    gt_sample buf[GT_MAX_SERIES];
    gt_timeline *tl = NULL;
    gt_trace *tr = NULL;        /* the calls of 'active', the worker's copy */
    bool traced_run = false;    /* its first iteration is in tr */
    bool have_tl = false;
    const gt_experiment *prev_exp = NULL;  /* whose buffers the back-end may keep */
    int rc;

    gt_err_clear(&err);
    gt_devprops_init(&props);
    rc = e->be->open(e->device, &props, &err);
    pthread_mutex_lock(&e->mu);
    e->opened = true;
    e->open_rc = rc;
    e->open_err = err;
    e->props = props;
    pthread_cond_broadcast(&e->cv);
    if (rc) {
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    tl = calloc(1, sizeof *tl);     /* no timelines if this fails; nothing else changes */
    tr = calloc(1, sizeof *tr);     /* the same for traces */

    for (;;) {
        while (!e->quit && (e->want_gen == 0 ||
                            (active == e->want_gen &&
                             (e->paused || e->st.state == GT_ST_ERROR ||
                              e->st.state == GT_ST_DONE || e->st.state == GT_ST_IDLE)))) {
            if (e->paused && active == e->want_gen && e->st.state == GT_ST_RUNNING)
                set_state(e, GT_ST_PAUSED, active);
            pthread_cond_wait(&e->cv, &e->mu);
        }
        if (e->quit)
            break;

        if (active != e->want_gen) {
            if (e->tl)
                e->tl->gen = 0;     /* the old generation's timeline is stale */
            const gt_experiment *exp = e->exp;
            int64_t vals[GT_MAX_PARAMS];
            uint32_t gen = e->want_gen;
            gt_setup_info info;
            char msg[sizeof err.msg];
            int nwarm;

            memcpy(vals, e->vals, sizeof vals);
            memset(&e->st.info, 0, sizeof e->st.info);
            e->st.iterations = 0;
            e->st.msg[0] = '\0';
            e->st.warmup_done = e->st.warmup_total = 0;
            set_state(e, GT_ST_SETUP, gen);
            pthread_mutex_unlock(&e->mu);

            memset(&info, 0, sizeof info);
            double t0 = gt_now();
            gt_trace_capture(tr, GT_TR_TEARDOWN);
            if (state)
                ops->teardown(state);
            gt_trace_capture(NULL, GT_TR_SETUP);
            double t_down = gt_now() - t0;
            bool had_state = state != NULL;
            state = NULL;
            if (active) {
                pthread_mutex_lock(&e->mu);
                publish_trace(e, e->tr_prev, tr, active);
                pthread_mutex_unlock(&e->mu);
            }
            if (tr)
                gt_trace_clear(tr);
            traced_run = false;
            if (e->be->release && (!exp || exp != prev_exp))
                e->be->release();   /* what the last experiment kept */
            prev_exp = exp;
            if (!exp) {             /* gt_engine_release */
                e->be->refresh(&props);     /* the free memory, with nothing held */
                pthread_mutex_lock(&e->mu);
                e->props = props;
                active = gen;
                set_state(e, GT_ST_IDLE, gen);
                pthread_cond_broadcast(&e->cv);
                continue;
            }
            gt_err_clear(&err);
            e->be->refresh(&props);
            ops = e->be->ops(exp->name);
            nwarm = exp->warmup_param >= 0 && ops && !ops->replayed ?
                (int)vals[exp->warmup_param] : 0;
            if (!ops)
                gt_err_set(&err, GT_EXIT_FAIL, "experiment '%s' is not available "
                           "in the %s back-end", exp->name, e->be->name);
            else if (gt_experiment_check(exp, vals, &props, msg, sizeof msg))
                gt_err_set(&err, GT_EXIT_USAGE, "%s", msg);
            else {
                gt_trace_capture(tr, GT_TR_SETUP);
                ops->setup(&state, vals, &props, &info, &err);
                gt_trace_capture(NULL, GT_TR_SETUP);
            }
            if (had_state && ops && !ops->replayed)
                gt_setup_info_time(&info, t_down, "previous configuration: free all");
            e->be->refresh(&props);

            pthread_mutex_lock(&e->mu);
            active = gen;
            e->props = props;
            e->st.info = info;
            publish_trace(e, e->tr_cur, tr, gen);
            e->st.warmup_total = nwarm;
            if (err.code) {
                snprintf(e->st.msg, sizeof e->st.msg, "%s", err.msg);
                set_state(e, GT_ST_ERROR, gen);
                continue;
            }
            /* Warm-up: module load, first touch, clocks; not queued. */
            rc = 0;
            for (int w = 0; w < nwarm && !cancelled(e, gen); w++) {
                set_state(e, GT_ST_WARMUP, gen);
                pthread_mutex_unlock(&e->mu);
                rc = run_traced(ops, state, buf, &err, tr, &traced_run);
                pthread_mutex_lock(&e->mu);
                if (w == 0)
                    publish_trace(e, e->tr_cur, tr, gen);
                if (rc < 0)
                    break;
                e->st.warmup_done = w + 1;
            }
            if (rc < 0 && err.code) {
                snprintf(e->st.msg, sizeof e->st.msg, "%s", err.msg);
                set_state(e, GT_ST_ERROR, gen);
                continue;
            }
            if (!cancelled(e, gen))
                set_state(e, e->paused ? GT_ST_PAUSED : GT_ST_RUNNING, gen);
            continue;
        }

        if (e->st.state != GT_ST_RUNNING)
            set_state(e, GT_ST_RUNNING, active);
        pthread_mutex_unlock(&e->mu);
        gt_err_clear(&err);
        bool first = !traced_run;
        rc = run_traced(ops, state, buf, &err, tr, &traced_run);
        if (first) {
            pthread_mutex_lock(&e->mu);
            publish_trace(e, e->tr_cur, tr, active);
            pthread_mutex_unlock(&e->mu);
        }
        if (rc > 0 && tl && ops->timeline && ops->timeline(state, tl)) {
            tl->gen = active;
            have_tl = true;
        }
        pthread_mutex_lock(&e->mu);
        if (have_tl && e->tl && !cancelled(e, active)) {
            gt_timeline *t = e->tl;     /* swap: the worker's buffer becomes the published one */
            e->tl = tl;
            tl = t;
            e->tl_seq++;
        }
        have_tl = false;
        if (rc < 0) {
            snprintf(e->st.msg, sizeof e->st.msg, "%s", err.msg);
            set_state(e, GT_ST_ERROR, active);
            continue;
        }
        if (rc == 0) {
            if (ops->done && ops->done(state))
                set_state(e, GT_ST_DONE, active);
            continue;
        }
        while (e->qlen + (size_t)rc > QUEUE_CAP && !cancelled(e, active))
            pthread_cond_wait(&e->cv, &e->mu);
        if (cancelled(e, active))
            continue;
        for (int i = 0; i < rc; i++) {
            buf[i].gen = active;
            e->q[(e->qhead + e->qlen++) % QUEUE_CAP] = buf[i];
        }
        e->st.iterations++;
        if (e->qlen == (size_t)rc)
            notify(e);
    }
    pthread_mutex_unlock(&e->mu);
    if (state)
        ops->teardown(state);
    if (e->be->release)
        e->be->release();
    free(tl);
    free(tr);
    e->be->close();
    return NULL;
}

/* What gt_engine_start made, once the worker thread is gone (or was never
 * started). */
static void engine_free(gt_engine *e)
{
    gt_wake_close(&e->wake);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv);
    free(e->tl);
    free(e->tr_cur);
    free(e->tr_prev);
    free(e);
}

int gt_engine_start(gt_engine **out, const gt_backend *be, int device, gt_err *err)
{
    gt_engine *e = calloc(1, sizeof *e);
    sigset_t all, old;
    int rc;

    *out = NULL;
    if (!e) {
        gt_err_set(err, GT_EXIT_FAIL, "out of memory");
        return -1;
    }
    e->be = be;
    e->device = device;
    if (gt_wake_open(&e->wake)) {
        gt_err_set(err, GT_EXIT_FAIL, "cannot make the engine's wake-up: %s", strerror(errno));
        free(e);
        return -1;
    }
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv, NULL);
    gt_devprops_init(&e->props);
    e->tl = calloc(1, sizeof *e->tl);
    e->tr_cur = calloc(1, sizeof *e->tr_cur);
    e->tr_prev = calloc(1, sizeof *e->tr_prev);

    /* Signals belong to the main thread, which restores the terminal. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&e->thread, NULL, worker, e);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        gt_err_set(err, GT_EXIT_FAIL, "cannot start the worker thread: %s", strerror(rc));
        engine_free(e);
        return -1;
    }
    pthread_mutex_lock(&e->mu);
    while (!e->opened)
        pthread_cond_wait(&e->cv, &e->mu);
    rc = e->open_rc;
    if (rc)
        *err = e->open_err;
    pthread_mutex_unlock(&e->mu);
    if (rc) {
        pthread_join(e->thread, NULL);
        engine_free(e);
        return -1;
    }
    *out = e;
    return 0;
}

uint32_t gt_engine_configure(gt_engine *e, const gt_experiment *exp, const int64_t *vals)
{
    uint32_t gen;

    pthread_mutex_lock(&e->mu);
    e->exp = exp;
    memcpy(e->vals, vals, sizeof e->vals);
    gen = ++e->want_gen;
    e->qlen = 0;        /* samples of older generations are stale */
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    return gen;
}

void gt_engine_set_paused(gt_engine *e, bool paused)
{
    pthread_mutex_lock(&e->mu);
    e->paused = paused;
    if (!paused && e->st.state == GT_ST_PAUSED)
        set_state(e, GT_ST_RUNNING, e->st.gen);
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
}

int gt_engine_fd(const gt_engine *e)
{
    return e->wake.rfd;
}

size_t gt_engine_drain(gt_engine *e, gt_sample *buf, size_t max)
{
    size_t n = 0;

    gt_wake_drain(&e->wake);
    pthread_mutex_lock(&e->mu);
    while (n < max && e->qlen) {
        buf[n++] = e->q[e->qhead];
        e->qhead = (e->qhead + 1) % QUEUE_CAP;
        e->qlen--;
    }
    if (e->qlen)
        notify(e);      /* more left: stay readable */
    if (n)
        pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    return n;
}

void gt_engine_status(gt_engine *e, gt_status *st)
{
    pthread_mutex_lock(&e->mu);
    *st = e->st;
    pthread_mutex_unlock(&e->mu);
}

void gt_engine_props(gt_engine *e, gt_devprops *p)
{
    pthread_mutex_lock(&e->mu);
    *p = e->props;
    pthread_mutex_unlock(&e->mu);
}

void gt_engine_stop(gt_engine *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    e->quit = true;
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    pthread_join(e->thread, NULL);
    engine_free(e);
}

void gt_engine_release(gt_engine *e)
{
    uint32_t gen;

    pthread_mutex_lock(&e->mu);
    e->exp = NULL;
    gen = ++e->want_gen;
    e->qlen = 0;
    pthread_cond_broadcast(&e->cv);
    while (!(e->st.gen == gen && e->st.state == GT_ST_IDLE))
        pthread_cond_wait(&e->cv, &e->mu);
    pthread_mutex_unlock(&e->mu);
}

bool gt_engine_trace(gt_engine *e, uint32_t gen, gt_trace *out)
{
    bool found = false;

    pthread_mutex_lock(&e->mu);
    for (int i = 0; i < 2 && !found; i++) {
        const traced *t = i ? e->tr_cur : e->tr_prev;     /* torn down first: complete */
        if (t && gen && t->gen == gen) {
            *out = t->t;
            found = true;
        }
    }
    pthread_mutex_unlock(&e->mu);
    return found;
}

uint32_t gt_engine_trace_seq(gt_engine *e)
{
    uint32_t seq;

    pthread_mutex_lock(&e->mu);
    seq = e->tr_seq;
    pthread_mutex_unlock(&e->mu);
    return seq;
}

uint32_t gt_engine_trace_prev(gt_engine *e, gt_trace *out)
{
    uint32_t gen = 0;

    pthread_mutex_lock(&e->mu);
    if (e->tr_prev && e->tr_prev->gen) {
        *out = e->tr_prev->t;
        gen = e->tr_prev->gen;
    }
    pthread_mutex_unlock(&e->mu);
    return gen;
}

bool gt_engine_timeline(gt_engine *e, gt_timeline *tl, uint32_t *seq)
{
    bool fresh = false;

    pthread_mutex_lock(&e->mu);
    if (e->tl && e->tl_seq != *seq && e->tl->gen && e->tl->gen == e->want_gen) {
        *tl = *e->tl;
        *seq = e->tl_seq;
        fresh = true;
    }
    pthread_mutex_unlock(&e->mu);
    return fresh;
}
