/* The replay back-end (replay.h). */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/replay.h"
#include "gputui/measure/trace.h"
#include "gputui/experiments/registry.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const gt_recording *rec;
static const gt_experiment *requested;   /* set by ops(), read by setup() */
static _Atomic double speed = 1.0;

/* A followed recording grows while it plays: its reader holds rec->lock
 * while it adds lines, and this back-end holds it while it reads. */
static void lock(void)
{
    if (rec->lock)
        pthread_mutex_lock(rec->lock);
}

static void unlock(void)
{
    if (rec->lock)
        pthread_mutex_unlock(rec->lock);
}

/* The configuration still being written (the newest of a followed
 * recording that has not ended) or read (the last read so far of a file
 * still loading). Its samples play as they arrive. */
static bool growing(size_t idx)
{
    return idx + 1 == rec->ncfg && (rec->loading || (rec->followed && !rec->ended));
}


typedef struct rp {
    size_t idx;             /* rec->cfg[idx]: an index, the array grows when followed */
    size_t next;
    double vclock, last;    /* recorded seconds played so far; wall clock */
    double base;            /* recorded seconds before this pass began */
    bool tl_given;
} rp;

/* A pass lasts from the first recorded sample to the last, plus the mean
 * gap between iterations, so that the next pass keeps the recorded pace. */
static double pass_period(const gt_rec_config *c)
{
    double span = c->t[c->n - 1] - c->t[0];
    size_t iters = 1;

    for (size_t i = 1; i < c->n; i++)
        iters += c->t[i] != c->t[i - 1];
    return iters > 1 ? span + span / (double)(iters - 1) : 0.01;
}

void gt_replay_set_speed(double x)
{
    if (x < GT_REPLAY_MIN_SPEED)
        x = GT_REPLAY_MIN_SPEED;
    if (x > GT_REPLAY_MAX_SPEED)
        x = GT_REPLAY_MAX_SPEED;
    speed = x;
}

double gt_replay_speed(void)
{
    return speed;
}

static int setup(void **state, const int64_t *vals, const gt_devprops *p,
                 gt_setup_info *info, gt_err *err)
{
    char desc[400];
    const gt_rec_config *c;
    int idx;
    rp *r;

    (void)p;
    *state = NULL;
    lock();
    idx = requested ? gt_recording_find(rec, requested, vals) : -1;
    if (idx < 0) {
        unlock();
        gt_err_set(err, GT_EXIT_FAIL, "the recording has no configuration %s",
                   requested ? gt_experiment_describe(requested, vals, desc, sizeof desc) : "");
        return -1;
    }
    c = &rec->cfg[idx];
    gt_trace_replay(c->trace);      /* the recorded calls stand for ours */
    *info = *c->info;
    if (!growing((size_t)idx))
        gt_rec_config_skip_unrecorded(c, info);
    if (c->n == 0 && c->error) {
        gt_err_set(err, GT_EXIT_FAIL, "recorded: %s", c->error);
        unlock();
        return -1;
    }
    unlock();
    r = calloc(1, sizeof *r);
    if (!r) {
        gt_err_set(err, GT_EXIT_FAIL, "out of memory");
        return -1;
    }
    r->idx = (size_t)idx;
    r->last = gt_now();
    *state = r;
    return 0;
}

static void nap(double s)
{
    struct timespec ts = {0, (long)(s * 1e9)};
    nanosleep(&ts, NULL);
}

/* Samples recorded at the same moment came from one iteration. */
static int one_iteration(rp *r, const gt_rec_config *c, gt_sample *out)
{
    int k = 0;

    do
        out[k++] = c->s[r->next++];
    while (k < GT_MAX_SERIES && r->next < c->n && c->t[r->next] == c->t[r->next - 1]);
    return k;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    rp *r = state;
    const gt_rec_config *c;
    double now = gt_now(), dt = now - r->last, due, wait;
    int k;

    lock();
    c = &rec->cfg[r->idx];
    if (c->n == 0 && c->error) {     /* followed: the writer's set-up failed */
        gt_err_set(err, GT_EXIT_FAIL, "recorded: %s", c->error);
        unlock();
        return -1;
    }
    if (growing(r->idx)) {
        /* Being written: each sample as it arrives, and the clock kept on
         * the last one, so that a replay of it later goes on at its pace. */
        r->last = now;
        if (r->next >= c->n) {
            unlock();
            nap(0.02);
            return 0;
        }
        k = one_iteration(r, c, out);
        r->vclock = r->base + c->t[r->next - 1] - c->t[0];
        unlock();
        return k;
    }
    if (c->n == 0) {
        unlock();
        return 0;
    }
    /* Played out: the same samples again, in recorded order and at the
     * recorded pace, for as long as the configuration is on screen. */
    if (r->next >= c->n) {
        r->next = 0;
        r->base += pass_period(c);
    }
    /* A pause (the engine stops calling) does not jump the clock. */
    r->vclock += (dt < 0.25 ? dt : 0.25) * speed;
    r->last = now;
    due = r->base + c->t[r->next] - c->t[0];
    if (r->vclock < due) {
        unlock();
        wait = (due - r->vclock) / speed;
        nap(wait > 0.05 ? 0.05 : wait);     /* stay responsive to changes */
        return 0;
    }
    k = one_iteration(r, c, out);
    for (int i = 0; r->base > 0 && i < k; i++)
        out[i].again = 1;       /* a pass after the first: shown, not counted again */
    unlock();
    return k;
}

static void teardown(void *state)
{
    free(state);
}

/* Only a configuration recorded without samples, and no longer being
 * written, has nothing to give. */
static bool done(void *state)
{
    rp *r = state;
    bool none;

    lock();
    none = rec->cfg[r->idx].n == 0 && !growing(r->idx);
    unlock();
    return none;
}

/* The recorded timeline, once per configuration (a followed one's when
 * it arrives). */
static bool timeline(void *state, gt_timeline *tl)
{
    rp *r = state;
    bool given = false;

    lock();
    if (rec->cfg[r->idx].tl && !r->tl_given) {
        *tl = *rec->cfg[r->idx].tl;
        r->tl_given = given = true;
    }
    unlock();
    return given;
}

static const gt_exp_ops replay_ops = {.setup = setup, .run = run, .teardown = teardown,
                                      .done = done, .timeline = timeline, .replayed = true};

static int device_count(int *n, gt_err *err)
{
    (void)err;
    *n = 1;
    return 0;
}

static int query(int ordinal, gt_devprops *p, gt_err *err)
{
    (void)ordinal;
    (void)err;
    lock();
    *p = rec->props;
    unlock();
    return 0;
}

static void refresh(gt_devprops *p)
{
    (void)p;
}

static void close_rec(void)
{
}

static const gt_exp_ops *ops(const char *name)
{
    const gt_exp_ops *o = NULL;

    requested = gt_experiment_find(name);
    lock();
    for (size_t i = 0; requested && i < rec->ncfg && !o; i++)
        if (rec->cfg[i].exp == requested)
            o = &replay_ops;
    unlock();
    return o;
}

static const gt_backend replay_backend = {
    .name = "replay",
    .device_count = device_count,
    .query = query,
    .open = query,
    .refresh = refresh,
    .close = close_rec,
    .ops = ops,
};

const gt_backend *gt_replay_backend(const gt_recording *r)
{
    rec = r;
    return &replay_backend;
}
