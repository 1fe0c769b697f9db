/* The soak's harness (tests/tools/soak_run.h) on a fake back-end with the
 * bundled two H200s' properties (GPU 0): every experiment and every value of every
 * choice takes part; a second process that cannot start is one line and
 * the soak goes on; memory or a child left behind, and a change that
 * hangs, fail it. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "gputui/engine/engine.h"
#include "gputui/experiments/registry.h"
#include "gputui/record/record.h"
#include "../tools/soak_run.h"
#include "testutil.h"

#define TOTAL (8ll << 30)
#define MIB (1ll << 20)

static gt_devprops h200;
static _Atomic long long used;      /* fake device memory held */
static _Atomic int alive;           /* fake child processes */
static const char *fail_exp, *leak_exp, *orphan_exp, *hang_exp, *refuse_exp;

typedef struct fstate {
    const gt_experiment *x;
    int nseries;
    bool leak, child;
} fstate;

static const gt_experiment *current;

static int f_setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                   gt_err *err)
{
    const char *names[GT_MAX_SERIES];
    fstate *f;

    (void)p, (void)info;
    if (refuse_exp && !strcmp(current->name, refuse_exp) && v[0] != 0) {
        gt_err_set(err, GT_EXIT_USAGE, "%s: this device runs at most 8 blocks at once; "
                   "allowed here: 2, 4 or 8", current->name);
        return -1;
    }
    if (fail_exp && !strcmp(current->name, fail_exp)) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: the second process did not start on GPU 0: it "
                   "exited with status 1", current->name);
        return -1;
    }
    f = calloc(1, sizeof *f);
    f->x = current;
    f->nseries = current->series(v, names);
    f->leak = leak_exp && !strcmp(current->name, leak_exp);
    f->child = orphan_exp && !strcmp(current->name, orphan_exp);
    used += MIB;
    alive += f->child;
    *st = f;
    return 0;
}

static int f_run(void *st, gt_sample *out, gt_err *err)
{
    fstate *f = st;

    (void)err;
    if (hang_exp && !strcmp(f->x->name, hang_exp)) {
        struct timespec ts = {0, 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < f->nseries; i++)
        out[i] = (gt_sample){.series = (uint8_t)i, .verify = GT_V_FULL, .sec = 1e-5,
                             .bytes = 4096};
    return f->nseries;
}

static void f_teardown(void *st)
{
    fstate *f = st;
    if (!f)
        return;
    if (!f->leak)
        used -= MIB;
    else
        used += 255 * MIB;  /* 256 MiB each: past what managed memory's pool may keep */
    free(f);
}

static const gt_exp_ops fops = {.setup = f_setup, .run = f_run, .teardown = f_teardown};

static int f_count(int *n, gt_err *e) { (void)e; *n = 2; return 0; }
static int f_query(int o, gt_devprops *p, gt_err *e) { (void)o, (void)e; *p = h200; return 0; }
static void f_refresh(gt_devprops *p) { (void)p; }
static void f_close(void) {}
static const gt_exp_ops *f_ops(const char *n)
{
    current = gt_experiment_find(n);    /* the worker calls ops() just before setup() */
    return &fops;
}
static const gt_backend fake = {.name = "fake", .device_count = f_count, .query = f_query,
                                .open = f_query, .refresh = f_refresh, .close = f_close,
                                .ops = f_ops};

static void measure(soak_figures *f, void *ctx)
{
    (void)ctx;
    memset(f, 0, sizeof *f);
    f->dev_free = TOTAL - used;
    f->children = alive;
}

static int load(void **state)
{
    (void)state;
    return recording_props("share/gputui/2xh200.gtr.gz", &h200);
}

/* A soak of n changes on the fake; its printed report in out. */
static int soak_rec(int n, double timeout, soak_result *r, char *out, size_t len,
                    gt_recorder *rec)
{
    gt_engine *e;
    gt_err err;
    soak_opts o;
    FILE *log = fmemopen(out, len, "w");
    int rc;

    soak_opts_init(&o);
    o.changes = n;
    o.seed = 7;
    o.timeout_s = timeout;
    o.slow_s = 0.2;
    o.measure = measure;
    o.log = log;
    o.record = rec;
    gt_err_clear(&err);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    gt_engine_set_share(e, false, NULL, 0);
    rc = soak_run(e, &o, r);
    soak_print(log, r);
    gt_engine_stop(e);
    fclose(log);
    return rc;
}

static int soak(int n, double timeout, soak_result *r, char *out, size_t len)
{
    return soak_rec(n, timeout, r, out, len, NULL);
}

static void reset(void)
{
    used = 0;
    alive = 0;
    fail_exp = leak_exp = orphan_exp = hang_exp = refuse_exp = NULL;
}

static char report[1 << 16];

static void clean_soak_covers_everything(void **state)
{
    soak_result r;

    gt_recorder *w;
    gt_recording rec;
    gt_err err = {0};
    char path[] = "/tmp/gputui-soak-test-XXXXXX";
    (void)state;
    reset();
    close(mkstemp(path));
    assert_int_equal(gt_recorder_open(&w, path, true, &h200, &err), 0);
    int rc = soak_rec(300, 5, &r, report, sizeof report, w);
    /* recorded as the TUI records: a configuration a change that ran */
    assert_int_equal(gt_recorder_close(w, &err), 0);
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_true(rec.ended);
    assert_true(rec.ncfg >= (size_t)r.sampled);
    gt_recording_free(&rec);
    unlink(path);
    assert_int_equal(rc, 0);
    assert_true(r.ok);
    assert_int_equal(r.changes, 300);
    assert_int_equal(r.errors + r.hangs, 0);
    for (int i = 0; i < gt_nexperiments; i++)
        assert_true(r.per_exp[i] > 0);
    /* On one GPU the peer experiment's two-GPU values (and atomics on a
     * peer's memory) are refused by their checks; every other value of
     * every choice ran. */
    assert_true(r.choices > 50);
    assert_true(r.choices_run > r.choices - 11);
    assert_int_equal(r.before.dev_free, TOTAL);
    assert_int_equal(r.after.dev_free, TOTAL);
    assert_non_null(strstr(report, "soak: ok"));
}

static void child_that_cannot_start_is_one_line_and_the_soak_goes_on(void **state)
{
    soak_result r;
    int lines = 0;

    (void)state;
    reset();
    fail_exp = "sharing";
    assert_int_equal(soak(200, 5, &r, report, sizeof report), -1);
    assert_false(r.ok);
    assert_int_equal(r.changes, 200);       /* it went on to the end */
    assert_true(r.errors > 0);
    /* the defaults pass meets it twice, each change of sharing once */
    for (const char *p = report; (p = strstr(p, "-e sharing")); p++)
        lines++;
    assert_int_equal(lines, r.errors);
    assert_non_null(strstr(report, "the second process did not start on GPU 0"));
    assert_non_null(strstr(report, "soak: FAIL"));
    assert_int_equal(r.per_exp[gt_nexperiments - 1] > 0, 1);
}

/* A set-up that finds the device refuses a configuration (exit 64, naming
 * what it allows) is a refusal, said in the report, not a failure. */
static void refused_at_setup_is_said_not_failed(void **state)
{
    soak_result r;

    (void)state;
    reset();
    refuse_exp = "transfer";            /* every value of its first choice but the first */
    assert_int_equal(soak(200, 5, &r, report, sizeof report), 0);
    assert_true(r.ok);
    assert_int_equal(r.errors, 0);
    assert_true(r.refused_setup > 0);
    assert_non_null(strstr(report, "refused by the device at set-up"));
    assert_non_null(strstr(r.not_run, "transfer: this device runs at most 8 blocks at once"));
    assert_non_null(strstr(report, "soak: ok"));
}

static void memory_or_child_left_behind_fails(void **state)
{
    soak_result r;

    (void)state;
    reset();
    leak_exp = "pitched";
    assert_int_equal(soak(100, 5, &r, report, sizeof report), -1);
    assert_int_equal(r.errors, 0);
    assert_true(r.uvm > 0);     /* managed memory ran: its pool's allowance */
    assert_true(r.after.dev_free < r.before.dev_free - r.slack - r.uvm);
    assert_non_null(strstr(report, "soak: FAIL"));

    reset();
    orphan_exp = "runtime";
    assert_int_equal(soak(100, 5, &r, report, sizeof report), -1);
    assert_true(r.after.children > r.before.children);
    assert_non_null(strstr(report, "child processes"));
}

static void a_hang_is_reported_and_the_soak_goes_on(void **state)
{
    soak_result r;

    (void)state;
    reset();
    hang_exp = "constant";      /* each iteration 0.3 s, the time-out 0.1 s */
    assert_int_equal(soak(200, 0.1, &r, report, sizeof report), -1);
    assert_true(r.hangs > 0);
    assert_non_null(strstr(report, "no 3 samples in 0 s"));
    assert_non_null(strstr(report, "soak: FAIL"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_soak_covers_everything),
        cmocka_unit_test(child_that_cannot_start_is_one_line_and_the_soak_goes_on),
        cmocka_unit_test(refused_at_setup_is_said_not_failed),
        cmocka_unit_test(memory_or_child_left_behind_fails),
        cmocka_unit_test(a_hang_is_reported_and_the_soak_goes_on),
    };
    return cmocka_run_group_tests(tests, load, NULL);
}
