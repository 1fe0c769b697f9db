/* The replay back-end (replay.h). */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/replay.h"
#include "gputui/measure/trace.h"
#include "gputui/experiments/registry.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const gt_recording *rec;
static const gt_experiment *requested;   /* set by ops(), read by setup() */
static _Atomic double speed = 1.0;

typedef struct rp {
    const gt_rec_config *c;
    size_t next;
    double vclock, last;    /* recorded seconds played so far; wall clock */
    double base;            /* recorded seconds before this pass began */
    double period;          /* one pass: first to last sample, and one gap */
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
    int idx = requested ? gt_recording_find(rec, requested, vals) : -1;
    rp *r;

    (void)p;
    *state = NULL;
    if (idx < 0) {
        gt_err_set(err, GT_EXIT_FAIL, "the recording has no configuration %s",
                   requested ? gt_experiment_describe(requested, vals, desc, sizeof desc) : "");
        return -1;
    }
    gt_trace_replay(rec->cfg[idx].trace);   /* the recorded calls stand for ours */
    if (rec->cfg[idx].n == 0 && rec->cfg[idx].error[0]) {
        *info = rec->cfg[idx].info;
        gt_err_set(err, GT_EXIT_FAIL, "recorded: %s", rec->cfg[idx].error);
        return -1;
    }
    r = calloc(1, sizeof *r);
    if (!r) {
        gt_err_set(err, GT_EXIT_FAIL, "out of memory");
        return -1;
    }
    r->c = &rec->cfg[idx];
    r->last = gt_now();
    r->period = r->c->n ? pass_period(r->c) : 0;
    *info = r->c->info;
    *state = r;
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    rp *r = state;
    const gt_rec_config *c = r->c;
    double now = gt_now(), dt = now - r->last, due;
    int k = 0;

    (void)err;
    if (c->n == 0)
        return 0;
    /* Played out: the same samples again, in recorded order and at the
     * recorded pace, for as long as the configuration is on screen. */
    if (r->next >= c->n) {
        r->next = 0;
        r->base += r->period;
    }
    /* A pause (the engine stops calling) does not jump the clock. */
    r->vclock += (dt < 0.25 ? dt : 0.25) * speed;
    r->last = now;
    due = r->base + c->t[r->next] - c->t[0];
    if (r->vclock < due) {
        double wait = (due - r->vclock) / speed;
        struct timespec ts;
        if (wait > 0.05)
            wait = 0.05;        /* stay responsive to changes */
        ts.tv_sec = 0;
        ts.tv_nsec = (long)(wait * 1e9);
        nanosleep(&ts, NULL);
        return 0;
    }
    /* Samples recorded at the same moment came from one iteration. */
    do
        out[k++] = c->s[r->next++];
    while (k < GT_MAX_SERIES && r->next < c->n && c->t[r->next] == c->t[r->next - 1]);
    return k;
}

static void teardown(void *state)
{
    free(state);
}

/* Only a configuration recorded without samples has nothing to give. */
static bool done(void *state)
{
    rp *r = state;
    return r->c->n == 0;
}

/* The recorded timeline, once per configuration. */
static bool timeline(void *state, gt_timeline *tl)
{
    rp *r = state;

    if (!r->c->tl || r->tl_given)
        return false;
    *tl = *r->c->tl;
    r->tl_given = true;
    return true;
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
    *p = rec->props;
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
    requested = gt_experiment_find(name);
    for (size_t i = 0; requested && i < rec->ncfg; i++)
        if (rec->cfg[i].exp == requested)
            return &replay_ops;
    return NULL;
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
