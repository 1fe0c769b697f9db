/* The run controller (engine.h): one worker thread (worker.c) owns the
 * device and makes every back-end call; the UI or batch thread configures
 * it, drains its bounded sample queue and reads its status, woken through
 * one fd. */
#define _POSIX_C_SOURCE 200809L
#include "engine_private.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *gt_share_foreign_doing(const gt_share_status *sh, char *buf, size_t n)
{
    if (sh->foreign_moving)
        snprintf(buf, n, "moving %.1f GB/s on the link", sh->foreign_Bps / 1e9);
    else if (sh->foreign_busy)
        snprintf(buf, n, "busy");
    else if (sh->cannot_tell)
        snprintf(buf, n, "no counter can say what they do");
    else
        snprintf(buf, n, "idle");
    return buf;
}

const char *gt_share_others_text(const gt_share_status *sh, char *buf, size_t n)
{
    char doing[64];

    if (sh->foreign <= 0)
        snprintf(buf, n, "%s", "");
    else
        snprintf(buf, n, "%s: %s", sh->foreign_text[0] ? sh->foreign_text : "another program",
                 gt_share_foreign_doing(sh, doing, sizeof doing));
    return buf;
}

const char *gt_state_name(gt_state s)
{
    static const char *const n[] = {"IDLE", "SETUP", "WARM-UP", "RUNNING",
                                    "PAUSED", "ERROR", "END"};
    return s <= GT_ST_DONE ? n[s] : "?";
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

int gt_engine_begin(gt_engine **out, const gt_backend *be, int device, gt_err *err)
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
    e->share.fd = -1;
    e->share_wait = SHARE_WAIT_MAX;
    e->st.share.foreign_Bps = -1;       /* no quiet window yet */
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
    rc = pthread_create(&e->thread, NULL, gt_engine_worker, e);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        gt_err_set(err, GT_EXIT_FAIL, "cannot start the worker thread: %s", strerror(rc));
        engine_free(e);
        return -1;
    }
    *out = e;
    return 0;
}

int gt_engine_wait_open(gt_engine **ep, double timeout_s, gt_err *err)
{
    gt_engine *e = *ep;
    struct timespec until;
    int rc;

    if (timeout_s >= 0) {       /* the condition variable's clock: CLOCK_REALTIME */
        clock_gettime(CLOCK_REALTIME, &until);
        long ns = until.tv_nsec + (long)((timeout_s - (double)(long)timeout_s) * 1e9);
        until.tv_sec += (time_t)timeout_s + ns / 1000000000L;
        until.tv_nsec = ns % 1000000000L;
    }
    pthread_mutex_lock(&e->mu);
    while (!e->opened) {
        if (timeout_s < 0)
            pthread_cond_wait(&e->cv, &e->mu);
        else if (pthread_cond_timedwait(&e->cv, &e->mu, &until) == ETIMEDOUT)
            break;
    }
    if (!e->opened) {
        pthread_mutex_unlock(&e->mu);
        return 0;
    }
    rc = e->open_rc;
    if (rc)
        *err = e->open_err;
    pthread_mutex_unlock(&e->mu);
    if (rc) {
        pthread_join(e->thread, NULL);
        engine_free(e);
        *ep = NULL;
        return -1;
    }
    return 1;
}

int gt_engine_start(gt_engine **out, const gt_backend *be, int device, gt_err *err)
{
    if (gt_engine_begin(out, be, device, err))
        return -1;
    return gt_engine_wait_open(out, -1, err) == 1 ? 0 : -1;
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

void gt_engine_set_share(gt_engine *e, bool on, const char *dir, double wait_s)
{
    pthread_mutex_lock(&e->mu);
    e->share_off = !on;
    e->share_wait = wait_s > 0 ? wait_s : SHARE_WAIT_MAX;
    snprintf(e->share_dir, sizeof e->share_dir, "%s", dir ? dir : "");
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
