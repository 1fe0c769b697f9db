/* The engine's worker thread (engine.h): it opens the device, sets up each
 * configuration the controller (engine.c) asks for, warms it up and runs
 * its iterations, each in this process's turn on the GPU (share.h), and
 * queues their samples. */
#define _POSIX_C_SOURCE 200809L
#include "engine_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/base/units.h"

/* Called with mu held: the worker's trace of 'gen' becomes visible. */
static void publish_trace(gt_engine *e, traced *to, const gt_trace *t, uint32_t gen)
{
    if (to && t) {
        to->t = *t;
        to->gen = gen;
        e->tr_seq++;
    }
}

/* A change of parameters that need no new set-up (gt_param.iteration)
 * keeps the one in place: the back-end takes the new values (retune), the
 * trace lists the set-up calls as kept, the set-up times say so, and no
 * warm-up runs (nothing new to warm). False when the change needs a set-up,
 * or retune refused. */
static bool keep_setup(const gt_experiment *exp, const gt_exp_ops *ops, void *state,
                       const int64_t *from, const int64_t *to, const gt_setup_info *was,
                       gt_setup_info *info)
{
    char what[96];
    gt_err err;

    if (!state || !ops || ops->replayed ||
        !gt_experiment_iteration_only(exp, from, to, ops->retune != NULL, what, sizeof what))
        return false;
    gt_err_clear(&err);
    if (ops->retune && ops->retune(state, to, &err))
        return false;
    *info = *was;
    info->ntimes = 0;
    gt_setup_info_time(info, 0, "set-up kept: only %s changed", what);
    info->kept = true;
    return true;
}

/* A back-end call that failed without saying why (a bug in it) still
 * ends in an error that says which and where; never in a run on a state
 * its set-up freed. */
static void unexplained(gt_err *err, const gt_experiment *exp, const char *when)
{
    if (!err->code)
        gt_err_set(err, GT_EXIT_FAIL, "%s: its %s failed without saying why (a gputui bug: "
                   "please report it with the command line)", exp ? exp->name : "the experiment",
                   when);
}

void *gt_engine_worker(void *arg)
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
    int64_t active_vals[GT_MAX_PARAMS];     /* what 'state' was set up for */
    gt_setup_info active_info;              /* ... and what its set-up said */
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
    notify(e);                  /* a UI waiting on the fd (gt_engine_wait_open) */
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
            if (e->share.held) {        /* idle: the turn goes back first */
                pthread_mutex_unlock(&e->mu);
                gt_engine_turn_end(e);
                pthread_mutex_lock(&e->mu);
                continue;
            }
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
            e->st.share.turns = e->st.share.timeouts = e->st.share.foreign_disturbed = 0;
            e->st.share.rewarms = 0;
            e->st.share.waited = 0;
            e->st.msg[0] = '\0';
            e->st.code = 0;
            e->st.warmup_done = e->st.warmup_total = 0;
            if (exp && exp == prev_exp && e->st.state != GT_ST_ERROR && active &&
                keep_setup(exp, ops, state, active_vals, vals, &active_info, &info)) {
                publish_trace(e, e->tr_prev, tr, active);
                if (tr)
                    gt_trace_keep_setup(tr);
                active = gen;
                memcpy(active_vals, vals, sizeof vals);
                e->st.info = info;
                traced_run = false;
                publish_trace(e, e->tr_cur, tr, gen);
                set_state(e, e->paused ? GT_ST_PAUSED : GT_ST_RUNNING, gen);
                continue;
            }
            set_state(e, GT_ST_SETUP, gen);
            pthread_mutex_unlock(&e->mu);
            gt_engine_turn_end(e);      /* teardown and set-up are outside the turns */

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
            if (ops && !ops->replayed && !e->share_tried)
                gt_engine_share_open(e, &props);
            nwarm = exp->warmup_param >= 0 && ops && !ops->replayed ?
                (int)vals[exp->warmup_param] : 0;
            if (!ops)
                gt_err_set(&err, GT_EXIT_FAIL, "experiment '%s' is not available "
                           "in the %s back-end", exp->name, e->be->name);
            else if (gt_experiment_check(exp, vals, &props, msg, sizeof msg))
                gt_err_set(&err, GT_EXIT_USAGE, "%s", msg);
            else {
                gt_trace_capture(tr, GT_TR_SETUP);
                if (ops->setup(&state, vals, &props, &info, &err))
                    unexplained(&err, exp, "set-up");
                gt_trace_capture(NULL, GT_TR_SETUP);
            }
            if (had_state && ops && !ops->replayed)
                gt_setup_info_time(&info, t_down, "previous configuration: free all");
            e->be->refresh(&props);

            pthread_mutex_lock(&e->mu);
            active = gen;
            memcpy(active_vals, vals, sizeof vals);
            active_info = info;
            e->props = props;
            e->st.info = info;
            publish_trace(e, e->tr_cur, tr, gen);
            e->st.warmup_total = nwarm;
            if (err.code) {
                set_error(e, &err, gen);
                continue;
            }
            /* Warm-up: module load, first touch, clocks; not queued. */
            rc = 0;
            for (int w = 0; w < nwarm && !cancelled(e, gen); w++) {
                set_state(e, GT_ST_WARMUP, gen);
                pthread_mutex_unlock(&e->mu);
                rc = gt_engine_iteration(e, gen, ops, state, buf, &err, tr, &traced_run);
                pthread_mutex_lock(&e->mu);
                if (w == 0)
                    publish_trace(e, e->tr_cur, tr, gen);
                if (rc < 0) {
                    unexplained(&err, exp, "warm-up");
                    break;
                }
                e->st.warmup_done = w + 1;
            }
            if (rc < 0 && err.code) {
                set_error(e, &err, gen);
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
        rc = gt_engine_iteration(e, active, ops, state, buf, &err, tr, &traced_run);
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
            unexplained(&err, prev_exp, "iteration");
            set_error(e, &err, active);
            continue;
        }
        if (rc == 0) {
            if (ops->done && ops->done(state))
                set_state(e, GT_ST_DONE, active);
            continue;
        }
        if (e->qlen + (size_t)rc > QUEUE_CAP && e->share.held) {
            pthread_mutex_unlock(&e->mu);
            gt_engine_turn_end(e);      /* no turn held while the queue is full */
            pthread_mutex_lock(&e->mu);
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
    gt_share_close(&e->share);
    e->be->close();
    return NULL;
}
