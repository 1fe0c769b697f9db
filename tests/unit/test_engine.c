/* The run controller against a scripted back-end: generations, warm-up,
 * errors, pause, and that every set-up is torn down exactly once. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
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

#include "testutil.h"

#include "gputui/report/batch.h"
#include "gputui/input/cli.h"
#include "gputui/engine/engine.h"
#include "gputui/engine/share.h"
#include "experiments/transfer/transfer.h"
#include "experiments/zerocopy/zerocopy.h"
#include "gputui/measure/run.h"

#include "fake_engine.h"

/* The same back-end, with one other program on the GPU: busy while
 * foreign_busy says so. */
static _Atomic int foreign_busy, looks, no_nvml, no_activity;
static void f_users(gt_gpu_users *u, const int *skip, int nskip)
{
    (void)skip, (void)nskip;
    memset(u, 0, sizeof *u);
    looks++;
    if (no_nvml) {
        snprintf(u->note, sizeof u->note, "NVML not found (libnvidia-ml.so.1)");
        return;
    }
    u->known = true;
    u->activity_known = u->fresh = !no_activity;
    u->n = 1;
    u->p[0] = (gt_gpu_proc){4242, "trainer", 3ull << 30, foreign_busy != 0};
    u->busy = foreign_busy != 0;
}
/* ... and the link's counters: the other program copies (50 GB/s), or
 * its context sits idle (the counters' own noise), or there are none. */
static _Atomic int copying, no_counters, quiet_windows;
static void f_traffic(gt_link_traffic *t)
{
    memset(t, 0, sizeof *t);
    quiet_windows++;
    if (no_counters)
        return;
    t->known = true;
    t->rx_Bps = copying ? 50e9 : 0.5e6;
    t->tx_Bps = copying ? 4e9 : 1.5e6;
    t->window_s = 0.02;
    snprintf(t->source, sizeof t->source, "fake counters");
}
static const gt_backend fake_counted = {.name = "fake", .device_count = f_count,
                                        .query = f_query, .open = f_open,
                                        .refresh = f_refresh, .close = f_close, .ops = f_ops,
                                        .users = f_users, .traffic = f_traffic};
static const gt_backend fake_shared = {.name = "fake", .device_count = f_count,
                                       .query = f_query, .open = f_open,
                                       .refresh = f_refresh, .close = f_close, .ops = f_ops,
                                       .users = f_users};

static void samples_flow_and_generations(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_run r;
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    (void)state;
    reset();
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    gt_engine_props(e, &p);
    assert_string_equal(p.name, "Fake GPU");
    configure(e, v, &r);
    collect(e, &r, 100, &st);
    assert_true(gt_run_count(&r) >= 100);
    assert_int_equal(st.warmup_done, 3);
    assert_int_equal(st.info.ntimes, 1);
    assert_string_equal(r.s[0].name, "H2D");
    /* A new configuration: new generation, old samples are not mixed in. */
    v[GT_TR_SIZE] = 128ll << 20;
    gt_run_free(&r);
    configure(e, v, &r);
    assert_int_equal(r.gen, 2);
    collect(e, &r, 50, &st);
    assert_true(gt_run_count(&r) >= 50);
    assert_int_equal(last_size, 128ll << 20);
    assert_near(gt_dist_percentile(&r.s[0].bw, 0.5), (double)(128ll << 20) / 1e-3, 1);
    gt_engine_stop(e);
    gt_run_free(&r);
    assert_int_equal(setups, 2);
    assert_int_equal(teardowns, 2);    /* nothing left allocated */
}

static void setup_error_is_reported_and_recoverable(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_run r;
    int64_t v[GT_MAX_PARAMS];
    (void)state;
    reset();
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    fail_setup = 1;
    configure(e, v, &r);
    collect(e, &r, 1, &st);
    assert_int_equal(st.state, GT_ST_ERROR);
    assert_non_null(strstr(st.msg, "cudaErrorMemoryAllocation"));
    fail_setup = 0;
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_true(gt_run_count(&r) >= 10);
    /* A back-end that fails without saying why (a bug in it): an error
     * that says so, with no run on the state its set-up never made, and
     * so for a run that fails so. */
    for (int k = 0; k < 2; k++) {
        fail_setup = k == 0 ? 2 : 0;
        silent_run = k == 1;
        gt_run_free(&r);
        v[GT_TR_SIZE] *= 2;
        configure(e, v, &r);
        collect(e, &r, 1, &st);
        assert_int_equal(st.state, GT_ST_ERROR);
        assert_non_null(strstr(st.msg, k == 0 ? "transfer: its set-up failed without saying why"
                                              : "failed without saying why"));
        assert_int_equal(null_runs, 0);
    }
    fail_setup = 0;
    silent_run = 0;
    gt_engine_stop(e);
    gt_run_free(&r);
    assert_int_equal(setups, teardowns);
}

static void open_failure(void **state)
{
    gt_engine *e = (gt_engine *)1;
    gt_err err;
    (void)state;
    reset();
    fail_open = 1;
    gt_err_clear(&err);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), -1);
    assert_null(e);
    assert_non_null(strstr(err.msg, "no usable CUDA device"));
}

static void pause_stops_sampling(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_run r;
    int64_t v[GT_MAX_PARAMS];
    gt_sample buf[64];
    int before;
    (void)state;
    reset();
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    gt_engine_set_paused(e, true);
    for (int i = 0; i < 200; i++) {     /* wait for the pause to take */
        gt_engine_drain(e, buf, 64);
        gt_engine_status(e, &st);
        if (st.state == GT_ST_PAUSED)
            break;
        poll(NULL, 0, 2);
    }
    assert_int_equal(st.state, GT_ST_PAUSED);
    before = runs;
    poll(NULL, 0, 50);
    assert_int_equal(runs, before);
    gt_engine_set_paused(e, false);
    /* The queue may still hold samples from before the pause: wait for
     * the worker itself to run again. */
    for (int i = 0; i < 2000 && runs == before; i++) {
        gt_engine_drain(e, buf, 64);
        poll(NULL, 0, 5);
    }
    assert_true(runs > before);
    gt_engine_stop(e);
    gt_run_free(&r);
    assert_int_equal(setups, teardowns);
}

/* Batch mode finishes when every series the device can produce has its
 * samples, instead of waiting for the ones it never will. */
static void batch_skips_unproducible_series(void **state)
{
    char *argv[] = {"gputui", "--batch", "-e", "zerocopy", "--samples", "5", "--format", "csv", NULL};
    gt_cli cli;
    gt_engine *e;
    gt_err err;
    (void)state;
    reset();
    gt_err_clear(&err);
    assert_int_equal(gt_cli_parse(8, argv, &cli, &err), 0);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    assert_int_equal(gt_batch_run(&cli, e), GT_EXIT_OK);
    gt_engine_stop(e);
}

/* One of two configurations fails: the other is reported, and the exit
 * status says so. */
static void batch_reports_a_failed_configuration(void **state)
{
    char *argv[] = {"gputui", "--batch", "--size", "4K,64K", "--samples", "5", "--format",
                    "csv", NULL};
    gt_cli cli;
    gt_engine *e;
    gt_err err;
    (void)state;
    reset();
    fail_size = 64 << 10;
    gt_err_clear(&err);
    assert_int_equal(gt_cli_parse(8, argv, &cli, &err), 0);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    assert_int_equal(gt_batch_run(&cli, e), GT_EXIT_FAIL);
    assert_true(runs >= 5);
    gt_engine_stop(e);
    fail_size = 0;
}

/* Turns on the GPU (share.h) through the engine: while another holder
 * keeps the turn, each iteration waits its bound and runs anyway, its
 * samples counted as disturbed; once the turn is free, none are. */
static void turns_and_disturbed_samples(void **state)
{
    char dir[64] = "/tmp/gputui-engine-XXXXXX", why[600], lock[160];
    gt_engine *e;
    gt_share other;
    gt_err err;
    gt_status st;
    gt_run r;
    int64_t v[GT_MAX_PARAMS];
    (void)state;
    reset();
    with_uuid = 1;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(gt_share_open(&other, dir, "GPU-00000000-0000-0000-0000-000000000001", why,
                                   sizeof why), 0);
    snprintf(lock, sizeof lock, "%s", other.path);
    assert_int_equal(gt_share_take(&other, 1, NULL, NULL, NULL), GT_SHARE_TAKEN);
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    gt_engine_set_share(e, true, dir, 0.02);
    configure(e, v, &r);
    collect(e, &r, 5, &st);
    assert_true(gt_run_count(&r) >= 5);
    assert_true(st.share.on);
    assert_string_equal(st.share.note, lock);
    assert_int_equal(r.s[0].disturbed, gt_run_count(&r));
    assert_true(st.share.timeouts >= 5);
    /* The turn is free: a new configuration's samples are clean. */
    gt_share_give(&other);
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 20, &st);
    assert_true(gt_run_count(&r) >= 20);
    assert_int_equal(r.s[0].disturbed, 0);
    assert_int_equal(st.share.timeouts, 0);
    assert_true(st.share.turns >= 20);
    assert_false(st.share.waiting);
    gt_engine_stop(e);
    gt_run_free(&r);
    gt_share_close(&other);
    unlink(lock);
    rmdir(dir);
    /* Opted out: no file, and the status says why. */
    reset();
    with_uuid = 1;
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    gt_engine_set_share(e, false, NULL, 0);
    configure(e, v, &r);
    collect(e, &r, 3, &st);
    assert_false(st.share.on);
    assert_non_null(strstr(st.share.note, "--no-share-lock"));
    gt_engine_stop(e);
    gt_run_free(&r);
    /* No UUID (the fake back-end's default): no file either. */
    reset();
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    configure(e, v, &r);
    collect(e, &r, 3, &st);
    assert_false(st.share.on);
    assert_non_null(strstr(st.share.note, "no usable GPU UUID"));
    gt_engine_stop(e);
    gt_run_free(&r);
}

/* Another program on the GPU (the back-end's users()): named in the
 * status; while it has work, samples are marked disturbed. */
static void foreign_program(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_run r;
    int64_t v[GT_MAX_PARAMS];
    (void)state;
    reset();
    foreign_busy = 1;
    looks = 0;
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_engine_start(&e, &fake_shared, 0, &err), 0);
    configure(e, v, &r);
    collect(e, &r, 20, &st);
    assert_true(looks >= 1);
    assert_true(st.share.users_known);
    assert_int_equal(st.share.foreign, 1);
    assert_true(st.share.foreign_busy);
    assert_string_equal(st.share.foreign_text, "pid 4242 trainer (3 GiB)");
    assert_int_equal(r.s[0].disturbed, gt_run_count(&r));
    assert_true(st.share.foreign_disturbed >= 20);
    /* It goes idle: after the next look, new samples are clean. */
    foreign_busy = 0;
    {
        struct timespec ts = {0, 300000000};
        nanosleep(&ts, NULL);
    }
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 20, &st);
    assert_false(st.share.foreign_busy);
    assert_int_equal(r.s[0].disturbed, 0);
    gt_engine_stop(e);
    gt_run_free(&r);
    /* No NVML: the status says it cannot tell, and nothing is marked. */
    reset();
    no_nvml = 1;
    foreign_busy = 1;
    assert_int_equal(gt_engine_start(&e, &fake_shared, 0, &err), 0);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_false(st.share.users_known);
    assert_string_equal(st.share.users_note, "NVML not found (libnvidia-ml.so.1)");
    assert_int_equal(st.share.foreign, 0);
    assert_int_equal(r.s[0].disturbed, 0);
    gt_engine_stop(e);
    gt_run_free(&r);
    no_nvml = 0;
}

/* A program that only copies: NVML's per-process samples show no work,
 * the quiet windows see its traffic, and every sample is marked from the
 * first. Its context alone marks nothing; with neither activity samples
 * nor counters, every sample is marked: the GPU is shared, and nothing
 * can say how. */
static void copying_neighbour(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_run r;
    int64_t v[GT_MAX_PARAMS];
    (void)state;
    reset();
    gt_experiment_defaults(&gt_exp_transfer, v);
    foreign_busy = 0;
    copying = 1;
    quiet_windows = 0;
    assert_int_equal(gt_engine_start(&e, &fake_counted, 0, &err), 0);
    configure(e, v, &r);
    collect(e, &r, 30, &st);
    assert_true(quiet_windows >= 1);
    assert_int_equal(r.s[0].disturbed, gt_run_count(&r));
    assert_true(st.share.foreign_moving);
    assert_false(st.share.foreign_busy);
    assert_string_equal(st.share.traffic_source, "fake counters");
    assert_true(st.share.foreign_Bps > 50e9);
    /* The neighbour stops copying: the next configuration's first quiet
     * window sees the counters' noise only. */
    copying = 0;
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 30, &st);
    assert_int_equal(r.s[0].disturbed, 0);
    assert_false(st.share.foreign_moving);
    assert_true(st.share.foreign_Bps >= 0 && st.share.foreign_Bps < GT_FOREIGN_FLOOR_BPS);
    assert_false(st.share.cannot_tell);
    gt_engine_stop(e);
    gt_run_free(&r);
    /* No activity samples and no counters: cannot tell, all marked. */
    reset();
    no_activity = no_counters = 1;
    assert_int_equal(gt_engine_start(&e, &fake_counted, 0, &err), 0);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_true(st.share.cannot_tell);
    assert_int_equal(r.s[0].disturbed, gt_run_count(&r));
    assert_string_equal(st.share.traffic_source, "");
    gt_engine_stop(e);
    gt_run_free(&r);
    no_activity = no_counters = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(samples_flow_and_generations),
        cmocka_unit_test(setup_error_is_reported_and_recoverable),
        cmocka_unit_test(open_failure), cmocka_unit_test(pause_stops_sampling),
        cmocka_unit_test(batch_skips_unproducible_series),
        cmocka_unit_test(batch_reports_a_failed_configuration),
        cmocka_unit_test(turns_and_disturbed_samples),
        cmocka_unit_test(foreign_program),
        cmocka_unit_test(copying_neighbour),
    };
    return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
