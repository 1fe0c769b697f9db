/* The soak's harness (soak_run.h). */
#define _POSIX_C_SOURCE 200809L
#include "soak_run.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/base/units.h"
#include "experiments/managed/managed.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/experiment.h"
#include "gputui/record/record.h"

void soak_opts_init(soak_opts *o)
{
    memset(o, 0, sizeof *o);
    o->changes = 1000;
    o->seed = 1;
    o->samples = 3;
    o->slow_s = 0.5;
    o->timeout_s = 30;
    o->max_hangs = 3;
}

/* ---- random valid values ---- */

typedef struct soak {
    const soak_opts *o;
    soak_result *r;
    gt_engine *e;
    gt_devprops props;
    uint64_t rng;
    int hangs_in_row;
    char last_refusal[120];         /* why the set-up refused the last change it refused */
    /* Bit v of covered[x][k]: value v of choice k of experiment x ran. */
    uint64_t covered[SOAK_MAX_EXP][GT_MAX_PARAMS];
    char why[SOAK_MAX_EXP][GT_MAX_PARAMS][64][120];   /* why a value did not run */
} soak;

static uint64_t next(soak *s)
{
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return s->rng;
}

static int64_t pick(soak *s, int64_t lo, int64_t hi)
{
    return hi <= lo ? lo : lo + (int64_t)(next(s) % (uint64_t)(hi - lo + 1));
}

/* A random value of p, kept to sizes and counts that run in well under a
 * second (64 MiB, 16 steps or 16x the least): the soak is about changes,
 * not sizes (a first version allowed 64 chunks of 256 MiB: 16 GiB pinned). */
static int64_t random_value(soak *s, const gt_param *p)
{
    int64_t hi = p->max;

    switch (p->type) {
    case GT_P_ENUM:
    case GT_P_BOOL:
        return pick(s, p->min, p->max);
    case GT_P_SIZE:
        if (hi > (64ll << 20))
            hi = 64ll << 20;
        break;
    case GT_P_INT:
        if (p->step > 0) {
            int64_t steps = (hi - p->min) / p->step;
            return p->min + p->step * pick(s, 0, steps < 16 ? steps : 16);
        }
        if (hi > (p->min > 0 ? p->min * 16 : 16))
            hi = p->min > 0 ? p->min * 16 : 16;
        break;
    }
    if (p->step > 0) {      /* a stepped size */
        int64_t steps = (hi - p->min) / p->step;
        return p->min + p->step * pick(s, 0, steps);
    }
    /* Powers of two from min (or 1) up to hi, aligned. */
    int64_t v = p->min > 0 ? p->min : 1, top = v;
    int n = 0;
    while (top * 2 <= hi) {
        top *= 2;
        n++;
    }
    v <<= pick(s, 0, n);
    if (p->align > 1 && v % p->align)
        v = (v / p->align + 1) * p->align;
    return v < p->min ? p->min : v > p->max ? p->max : v;
}

static bool is_choice(const gt_experiment *x, int k)
{
    const gt_param *p = &x->params[k];
    return k != x->warmup_param && (p->type == GT_P_ENUM || p->type == GT_P_BOOL) &&
           p->max - p->min < 64;
}

/* The choices a configuration that ran exercised: those that apply. */
static void cover(soak *s, int xi, const int64_t *v)
{
    const gt_experiment *x = gt_experiments[xi];

    for (int k = 0; k < x->nparams; k++) {
        const char *why;
        if (is_choice(x, k) && gt_param_applies(&x->params[k], v, &why))
            s->covered[xi][k] |= 1ull << (v[k] - x->params[k].min);
    }
}

/* ---- one change ---- */

/* The engine's samples of this change into the recording (its config line
 * before its first sample, as the TUI writes them), at most 'batches' of
 * them: a few a wake-up, since writing a fast configuration's samples must
 * not keep the loop from seeing that the change is done. */
static void take(soak *s, const gt_experiment *x, const int64_t *v, uint32_t gen,
                 bool *recorded, int batches)
{
    gt_sample buf[256];
    gt_status st;
    size_t n;

    for (int b = 0; b < batches && (n = gt_engine_drain(s->e, buf, 256)) > 0; b++)
        for (size_t i = 0; i < n; i++) {
            if (buf[i].gen != gen)
                continue;
            s->r->failed += buf[i].verify == GT_V_FAILED;
            if (s->o->record && !*recorded) {
                gt_engine_status(s->e, &st);
                gt_recorder_config(s->o->record, x, v, gen, &st.info, "", "");
                *recorded = true;
            }
            gt_recorder_sample(s->o->record, &buf[i]);
        }
    gt_recorder_tick(s->o->record);
}

/* Runs the configuration until enough timed iterations, an error or the
 * time-out: 0 sampled, 1 failed (msg), -1 hung (msg). */
static int run_change(soak *s, const gt_experiment *x, const int64_t *v, char *msg,
                      size_t msglen)
{
    uint32_t gen = gt_engine_configure(s->e, x, v);
    double t0 = gt_now();

    /* Freed managed memory goes back to the driver's unified-memory pool,
     * which returns it to the device when it likes: on an H200, 30 rounds
     * of buffers up to 64 MiB left 28 to 118 MiB out, not growing. */
    if (x == &gt_exp_managed && 2 * v[GT_MG_SIZE] > s->r->uvm)
        s->r->uvm = 2 * v[GT_MG_SIZE];
    gt_status st;
    bool recorded = false;

    for (;;) {
        struct pollfd pfd = {gt_engine_fd(s->e), POLLIN, 0};

        poll(&pfd, 1, 20);
        take(s, x, v, gen, &recorded, 8);
        gt_engine_status(s->e, &st);
        if (st.gen == gen && st.state == GT_ST_ERROR) {
            snprintf(msg, msglen, "%s", st.msg);
            return st.code == GT_EXIT_USAGE ? 2 : 1;
        }
        if (st.gen == gen && (st.iterations >= (uint64_t)s->o->samples ||
                              (st.iterations >= 1 && gt_now() - t0 >= s->o->slow_s))) {
            /* The worker queues an iteration's samples before it counts
             * it: where none was drained yet (a loaded machine), the
             * queue is read on until the first is, so that a change that
             * ran is recorded (33 batches hold the engine's whole queue,
             * 8192). */
            for (int b = 0; b < 33 && !recorded; b++)
                take(s, x, v, gen, &recorded, 1);
            return 0;
        }
        if (gt_now() - t0 > s->o->timeout_s) {
            snprintf(msg, msglen, "no %d samples in %.0f s (state %s)", s->o->samples,
                     s->o->timeout_s, gt_state_name(st.state));
            return -1;
        }
    }
}

/* One change to x with v, judged and logged; false when the soak must stop. */
static bool change(soak *s, int xi, const int64_t *v, const char *what)
{
    const gt_experiment *x = gt_experiments[xi];
    char msg[512], desc[512];
    int rc = run_change(s, x, v, msg, sizeof msg);

    s->r->changes++;
    s->r->per_exp[xi]++;
    if (rc == 0) {
        s->r->sampled++;
        s->hangs_in_row = 0;
        cover(s, xi, v);
        return true;
    }
    gt_experiment_describe(x, v, desc, sizeof desc);
    if (rc == 2) {      /* the set-up found the device refuses it, and said why */
        s->r->refused_setup++;
        s->hangs_in_row = 0;
        snprintf(s->last_refusal, sizeof s->last_refusal, "%s", msg);
        return true;
    }
    if (s->o->log)
        fprintf(s->o->log, "soak: %s %d, -e %s %s: %s\n", what, s->r->changes, x->name, desc,
                msg);
    if (rc > 0) {
        s->r->errors++;
        s->hangs_in_row = 0;
        return true;
    }
    s->r->hangs++;
    if (++s->hangs_in_row >= s->o->max_hangs) {
        s->r->stopped = true;
        return false;
    }
    return true;
}

/* Every experiment's defaults once (not counted as changes). */
static void defaults_pass(soak *s)
{
    for (int i = 0; i < gt_nexperiments && i < SOAK_MAX_EXP; i++) {
        const gt_experiment *x = gt_experiments[i];
        int64_t v[GT_MAX_PARAMS];
        char msg[512];
        gt_experiment_defaults(x, v);
        if (gt_experiment_check(x, v, &s->props, msg, sizeof msg))
            continue;
        int rc = run_change(s, x, v, msg, sizeof msg);
        if (rc == 0) {
            cover(s, i, v);
        } else if (rc == 2) {
            s->r->refused_setup++;      /* the device refuses its defaults: said, not failed */
        } else {
            if (rc > 0)
                s->r->errors++;
            else
                s->r->hangs++;
            if (s->o->log)
                fprintf(s->o->log, "soak: the defaults, -e %s: %s\n", x->name, msg);
        }
    }
    gt_engine_release(s->e);
}

/* Value 'val' of choice k from x's defaults, with another choice moved
 * where k applies only under it (runtime's call needs op=return). */
static void with_choice(const gt_experiment *x, int k, int64_t val, int64_t *v)
{
    const char *why;

    gt_experiment_defaults(x, v);
    v[k] = val;
    for (int j = 0; j < x->nparams && !gt_param_applies(&x->params[k], v, &why); j++) {
        if (j == k || x->params[j].type != GT_P_ENUM)
            continue;
        for (int64_t w = x->params[j].min; w <= x->params[j].max; w++) {
            v[j] = w;
            if (gt_param_applies(&x->params[k], v, &why))
                break;
        }
        if (!gt_param_applies(&x->params[k], v, &why))
            v[j] = x->params[j].def;
    }
}

/* v: every parameter of x drawn at random but k (-1: none), kept, and the
 * warm-up at its least; the configuration check's answer. */
static int draw(soak *s, const gt_experiment *x, int k, int64_t *v, char *msg, size_t n)
{
    for (int j = 0; j < x->nparams; j++)
        if (j != k && j != x->warmup_param)
            v[j] = random_value(s, &x->params[j]);
    if (x->warmup_param >= 0 && x->warmup_param != k)
        v[x->warmup_param] = x->params[x->warmup_param].min;
    return gt_experiment_check(x, v, &s->props, msg, n);
}

/* One value of one choice: experiment xi, its parameter k, value val. */
typedef struct choice {
    int xi, k;
    int64_t val;
} choice;

/* Steps c to the next value of a choice, from {.xi = 0, .k = -1}; false
 * after the last. */
static bool next_choice(choice *c)
{
    for (; c->xi < gt_nexperiments && c->xi < SOAK_MAX_EXP; c->xi++, c->k = -1) {
        const gt_experiment *x = gt_experiments[c->xi];
        if (c->k >= 0 && c->val < x->params[c->k].max) {
            c->val++;
            return true;
        }
        while (++c->k < x->nparams)
            if (is_choice(x, c->k)) {
                c->val = x->params[c->k].min;
                return true;
            }
    }
    return false;
}

static bool ran(const soak *s, const choice *c)
{
    return s->covered[c->xi][c->k] >> (c->val - gt_experiments[c->xi]->params[c->k].min) & 1;
}

static char *why_not(soak *s, const choice *c)
{
    return s->why[c->xi][c->k][c->val - gt_experiments[c->xi]->params[c->k].min];
}

/* Every value of every choice that has not run yet, once. */
static bool choices_pass(soak *s)
{
    for (choice c = {.k = -1}; next_choice(&c);) {
        const gt_experiment *x = gt_experiments[c.xi];
        int64_t v[GT_MAX_PARAMS];
        if (ran(s, &c))
            continue;
        if (s->r->changes >= s->o->changes)
            return true;
        with_choice(x, c.k, c.val, v);
        if (gt_experiment_check(x, v, &s->props, why_not(s, &c), 120)) {
            /* Refused beside the defaults (atomics' where=mapped beside one
             * hot address): on up to 32 draws of the other parameters. */
            char msg[512];
            int tries = 0, rc;
            s->r->refused++;
            do {
                rc = draw(s, x, c.k, v, msg, sizeof msg);
            } while (rc && ++tries < 32);
            if (rc)
                continue;
        }
        s->last_refusal[0] = '\0';
        if (!change(s, c.xi, v, "choice"))
            return false;
        if (!ran(s, &c) && s->last_refusal[0])
            snprintf(why_not(s, &c), 120, "%s", s->last_refusal);
        else if (!ran(s, &c))
            snprintf(why_not(s, &c), 120, "failed at change %d", s->r->changes);
    }
    return true;
}

/* Random changes up to o->changes. */
static void random_pass(soak *s)
{
    while (s->r->changes < s->o->changes) {
        const gt_experiment *x;
        int64_t v[GT_MAX_PARAMS];
        char msg[512];
        int xi, tries = 0, rc;

        /* A valid configuration: draws the configuration check refuses
         * here (two-GPU parts on one GPU, sizes over a limit) are the
         * expected refusals, counted and drawn again. */
        do {
            xi = (int)pick(s, 0, gt_nexperiments - 1);
            x = gt_experiments[xi];
            gt_experiment_defaults(x, v);
            rc = draw(s, x, -1, v, msg, sizeof msg);
            s->r->refused += rc != 0;
        } while (rc && ++tries < 50);
        if (rc) {
            s->r->changes++;    /* 50 refusals in a row: counted, so the soak ends */
            continue;
        }
        if (!change(s, xi, v, "change"))
            return;
    }
}

/* What never ran, and the counts. */
static void coverage(soak *s)
{
    size_t off = 0;

    for (choice c = {.k = -1}; next_choice(&c);) {
        const gt_param *p = &gt_experiments[c.xi]->params[c.k];
        char name[48];
        s->r->choices++;
        if (ran(s, &c)) {
            s->r->choices_run++;
            continue;
        }
        gt_param_format(p, c.val, name, sizeof name);
        if (off < sizeof s->r->not_run)
            off += (size_t)snprintf(s->r->not_run + off, sizeof s->r->not_run - off,
                                    "%s%s %s=%s (%s)", off ? "; " : "",
                                    gt_experiments[c.xi]->name, p->name, name,
                                    why_not(s, &c)[0] ? why_not(s, &c) : "not drawn");
    }
}

int soak_run(gt_engine *e, const soak_opts *o, soak_result *r)
{
    soak *s = calloc(1, sizeof *s);
    soak_figures first;
    double t0;

    memset(r, 0, sizeof *r);
    if (!s) {
        snprintf(r->not_run, sizeof r->not_run, "out of memory");
        return -1;
    }
    s->o = o;
    s->r = r;
    s->e = e;
    s->rng = o->seed | 1;
    gt_engine_props(e, &s->props);
    /* Twice over the defaults: the driver's first-use allocations (modules,
     * pools) are not what this looks for, and the free memory's difference
     * between two identical passes is its own slack at rest. */
    defaults_pass(s);
    o->measure(&first, o->ctx);
    defaults_pass(s);
    o->measure(&r->before, o->ctx);
    r->slack = llabs(first.dev_free - r->before.dev_free);
    t0 = gt_now();
    if (choices_pass(s))
        random_pass(s);
    r->seconds = gt_now() - t0;
    if (!r->stopped)
        gt_engine_release(e);
    o->measure(&r->after, o->ctx);
    coverage(s);
    r->ok = !r->stopped && r->errors == 0 && r->hangs == 0 && r->failed == 0 &&
            r->after.dev_free >= r->before.dev_free - r->slack - r->uvm &&
            r->after.vmlck_kb == r->before.vmlck_kb && r->after.vmpin_kb == r->before.vmpin_kb &&
            r->after.fds == r->before.fds && r->after.children == r->before.children &&
            r->after.persist == r->before.persist;
    free(s);
    return r->ok ? 0 : -1;
}

void soak_print(FILE *f, const soak_result *r)
{
    fprintf(f, "soak: %d changes in %.0f s: %d sampled, %d failed to run, %d hung, %d draws "
            "refused by the configuration check (drawn again), %d refused by the device at "
            "set-up, %ld samples failed verification%s\n", r->changes, r->seconds, r->sampled,
            r->errors, r->hangs, r->refused, r->refused_setup, r->failed,
            r->stopped ? "; stopped: the engine no longer answers" : "");
    fprintf(f, "soak: changes per experiment:");
    for (int i = 0; i < gt_nexperiments && i < SOAK_MAX_EXP; i++)
        fprintf(f, " %s %d", gt_experiments[i]->name, r->per_exp[i]);
    fprintf(f, "\n");
    fprintf(f, "soak: values of choices run: %d of %d%s%s\n", r->choices_run, r->choices,
            r->not_run[0] ? "; not run: " : "", r->not_run);
    fprintf(f, "soak: device free memory  %lld -> %lld bytes (allowed below: the slack at "
            "rest, %lld bytes between two passes over the defaults, and %lld bytes the "
            "driver's unified-memory pool may keep of freed managed memory, twice the largest "
            "managed buffer)\n", (long long)r->before.dev_free, (long long)r->after.dev_free,
            (long long)r->slack, (long long)r->uvm);
    fprintf(f, "soak: VmLck               %ld -> %ld kB\n", r->before.vmlck_kb,
            r->after.vmlck_kb);
    fprintf(f, "soak: VmPin               %ld -> %ld kB\n", r->before.vmpin_kb,
            r->after.vmpin_kb);
    fprintf(f, "soak: open descriptors    %d -> %d\n", r->before.fds, r->after.fds);
    fprintf(f, "soak: child processes     %d -> %d\n", r->before.children, r->after.children);
    fprintf(f, "soak: persisting L2 limit %lld -> %lld bytes\n", (long long)r->before.persist,
            (long long)r->after.persist);
    fprintf(f, "soak: %s\n", r->ok ? "ok" : "FAIL");
}
