/* The L2 and pitched experiments' table rows, SIZE parameters with a named
 * zero, and the sweep plot of batch reports. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "experiments/l2/l2.h"
#include "experiments/pitched/pitched.h"
#include "gputui/report/report.h"
#include "gputui/measure/run.h"
#include "gputui/measure/sweep.h"

static void h200(gt_devprops *p)
{
    gt_devprops_init(p);
    snprintf(p->name, sizeof p->name, "Test H200");
    gt_dp_set(p, GT_DP_CC, 90);
    gt_dp_set(p, GT_DP_L2, 60ll << 20);
    gt_dp_set(p, GT_DP_PERSIST_MAX, 39321600);      /* 37.5 MiB */
    gt_dp_set(p, GT_DP_WINDOW_MAX, 128ll << 20);
    gt_dp_set(p, GT_DP_MEM_FREE, 100ll << 30);
}

static void l2_values(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400], buf[64];
    int64_t out;
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_l2, v);
    assert_int_equal(gt_l2_setaside(v, &p), 39321600);
    v[GT_L2_SETASIDE] = 50;
    assert_int_equal(gt_l2_setaside(v, &p), 19660800);
    /* window "region" = the region, capped by accessPolicyMaxWindowSize */
    assert_int_equal(gt_l2_window(v, &p), 32ll << 20);
    v[GT_L2_REGION] = 512ll << 20;
    assert_int_equal(gt_l2_window(v, &p), 128ll << 20);
    /* SIZE with a named zero: parses, formats and names it in the range */
    const gt_param *w = &gt_exp_l2.params[GT_L2_WINDOW];
    assert_int_equal(gt_param_parse(w, "region", &out, err, sizeof err), 0);
    assert_int_equal(out, 0);
    assert_string_equal(gt_param_format(w, 0, buf, sizeof buf), "region");
    assert_int_equal(gt_param_parse(w, "16M", &out, err, sizeof err), 0);
    assert_int_equal(out, 16ll << 20);
    assert_int_equal(gt_param_parse(w, "lots", &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "allowed: region or 1 B to 4 GiB"));
    assert_int_equal(gt_param_step(w, 0, 1), 1 << 20);
    /* hitRatio: 0 to 100 in steps of 5 */
    const gt_param *h = &gt_exp_l2.params[GT_L2_HIT];
    assert_int_equal(gt_param_step(h, 95, 1), 100);
    assert_int_equal(gt_param_step(h, 100, 1), 100);
    assert_int_equal(gt_param_parse(h, "101", &out, err, sizeof err), -1);
}

static void l2_checks(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400];
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_l2, v);
    assert_int_equal(gt_experiment_check(&gt_exp_l2, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_CC, 75);
    assert_int_equal(gt_experiment_check(&gt_exp_l2, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs compute capability 8.0 or newer; this device is 7.5"));
    h200(&p);
    gt_dp_set(&p, GT_DP_PERSIST_MAX, 0);
    assert_int_equal(gt_experiment_check(&gt_exp_l2, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "persistingL2CacheMaxSize = 0"));
    h200(&p);
    v[GT_L2_WINDOW] = 64ll << 20;
    assert_int_equal(gt_experiment_check(&gt_exp_l2, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "window: 64 MiB is larger than the persisting region (32 MiB)"));
    v[GT_L2_REGION] = 512ll << 20;
    v[GT_L2_WINDOW] = 256ll << 20;
    assert_int_equal(gt_experiment_check(&gt_exp_l2, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "above accessPolicyMaxWindowSize (128 MiB)"));
    /* missProp must be streaming or normal (cudaAccessPolicyWindow); the
     * soak found the runtime's cudaErrorInvalidValue for persisting. */
    gt_experiment_defaults(&gt_exp_l2, v);
    v[GT_L2_MISSPROP] = GT_L2_PROP_PERSISTING;
    assert_int_equal(gt_experiment_check(&gt_exp_l2, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "miss-prop: persisting is not allowed"));
    v[GT_L2_MISSPROP] = GT_L2_PROP_NORMAL;
    assert_int_equal(gt_experiment_check(&gt_exp_l2, v, &p, err, sizeof err), 0);
    /* cost: bandwidth shown, against the HBM peak */
    gt_experiment_defaults(&gt_exp_l2, v);
    assert_false(gt_experiment_bandwidth(&gt_exp_l2, v));
    v[GT_L2_OP] = GT_L2_OP_COST;
    assert_true(gt_experiment_bandwidth(&gt_exp_l2, v));
}

static void l2_summary(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    gt_run r;
    gt_summary_line lines[GT_SUMMARY_LINES];
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_l2, v);
    gt_run_init(&r, &gt_exp_l2, v, 1);
    for (int i = 0; i < 3; i++) {
        gt_sample a = {1, GT_L2_S_WINDOW, GT_V_FULL, 1.8e-3, 1};
        gt_sample b = {1, GT_L2_S_BASELINE, GT_V_FULL, 3.6e-3, 1};
        gt_run_add(&r, &a);
        gt_run_add(&r, &b);
    }
    assert_int_equal(gt_exp_l2.summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_string_equal(lines[0], "L2 60 MiB, persisting max 37.5 MiB, window max 128 MiB");
    assert_non_null(strstr(lines[1], "speed-up with the window 2.00x: 1.80 ms vs 3.60 ms"));
    gt_run_free(&r);
}

static void pitched_values(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400];
    const char *names[GT_MAX_SERIES];
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_pitched, v);
    assert_int_equal(gt_exp_pitched.series(v, names), 2);
    assert_string_equal(names[GT_PI_S_PITCHED], "cudaMallocPitch");
    v[GT_PI_DIMS] = GT_PI_3D;
    gt_exp_pitched.series(v, names);
    assert_string_equal(names[GT_PI_S_PITCHED], "cudaMalloc3D");
    assert_int_equal(gt_experiment_check(&gt_exp_pitched, v, &p, err, sizeof err), 0);
    v[GT_PI_WIDTH] = 1 << 20;
    v[GT_PI_HEIGHT] = 4096;
    v[GT_PI_DEPTH] = 4096;
    assert_int_equal(gt_experiment_check(&gt_exp_pitched, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "width x height x depth: 16 TiB; at most 4 GiB"));
    /* three sizes in one message, each its own (they once shared a buffer) */
    v[GT_PI_DEPTH] = 1;
    v[GT_PI_WIDTH] = 1 << 16;
    v[GT_PI_HEIGHT] = 16384;                /* 1 GiB: up to 3 GiB of 2 GiB free */
    gt_dp_set(&p, GT_DP_MEM_FREE, 2ll << 30);
    assert_int_equal(gt_experiment_check(&gt_exp_pitched, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "width x height: 1 GiB needs up to 3 GiB of device memory; 2 GiB "
                             "is free");
    /* depth means nothing in 2d: given explicitly it is refused */
    gt_experiment_defaults(&gt_exp_pitched, v);
    assert_int_equal(gt_experiment_validate(&gt_exp_pitched, v, 1ull << GT_PI_DEPTH, err,
                                            sizeof err), -1);
    assert_non_null(strstr(err, "only with dims=3d"));
    /* the host pattern differs between neighbours and across rows */
    assert_int_not_equal(gt_pi_byte(0, 7), gt_pi_byte(1, 7));
    assert_int_not_equal(gt_pi_byte(1000, 7), gt_pi_byte(0, 7));
}

/* Three runs that differ only in hit-ratio give a plot; the set-aside
 * mark shows in a region sweep. */
static void sweep_plot(void **state)
{
    gt_devprops p;
    gt_run runs[3];
    int64_t v[GT_MAX_PARAMS];
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    h200(&p);
    for (int k = 0; k < 2; k++) {
        int swept = k ? GT_L2_REGION : GT_L2_HIT;
        static const int64_t hit[3] = {0, 50, 100};
        static const int64_t region[3] = {16ll << 20, 32ll << 20, 64ll << 20};
        for (int i = 0; i < 3; i++) {
            gt_experiment_defaults(&gt_exp_l2, v);
            v[swept] = k ? region[i] : hit[i];
            gt_run_init(&runs[i], &gt_exp_l2, v, (uint32_t)i + 1);
            for (int n = 0; n < 3; n++) {
                gt_sample a = {(uint32_t)i + 1, GT_L2_S_WINDOW, GT_V_FULL, 1e-3 * (3 - i), 1};
                gt_sample b = {(uint32_t)i + 1, GT_L2_S_BASELINE, GT_V_FULL, 3e-3, 1};
                gt_run_add(&runs[i], &a);
                gt_run_add(&runs[i], &b);
            }
        }
        f = open_memstream(&buf, &len);
        assert_int_equal(gt_report(f, GT_FMT_TEXT, &p, runs, 3, NULL), 0);
        fclose(f);
        if (!k) {
            assert_non_null(strstr(buf, "sweep of hit-ratio: p50 latency per run, bars to 3.00 ms"));
            assert_non_null(strstr(buf, "  0              3.00 ms ######################      3.00 ms"));
            assert_non_null(strstr(buf, "  100            1.00 ms #######      "));
            assert_null(strstr(buf, "set-aside asked"));
        } else {
            char *m = strstr(buf, "---------- set-aside asked: 37.5 MiB ----------");
            assert_non_null(m);
            assert_true(m > strstr(buf, "  32M "));     /* between 32M and 64M */
            assert_true(m < strstr(buf, "  64M "));
        }
        free(buf);
        buf = NULL;
        for (int i = 0; i < 3; i++)
            gt_run_free(&runs[i]);
    }
    /* Runs that differ in two parameters: no plot. */
    for (int i = 0; i < 3; i++) {
        gt_experiment_defaults(&gt_exp_l2, v);
        v[GT_L2_HIT] = 10 * i;
        v[GT_L2_REGION] = (16ll + i) << 20;
        gt_run_init(&runs[i], &gt_exp_l2, v, (uint32_t)i + 1);
    }
    f = open_memstream(&buf, &len);
    gt_report(f, GT_FMT_TEXT, &p, runs, 3, NULL);
    fclose(f);
    assert_null(strstr(buf, "sweep of"));
    free(buf);
    for (int i = 0; i < 3; i++)
        gt_run_free(&runs[i]);
}

/* dims sweeps: 2d and 3d both set packed rows against pitched ones (the
 * second series is cudaMallocPitch, then cudaMalloc3D): one plot. */
static void dims_sweep(void **state)
{
    gt_devprops p;
    gt_sweep sw;
    int64_t v[GT_MAX_PARAMS];
    char err[300] = "";
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_pitched, v);
    gt_sweep_begin(&sw, &gt_exp_pitched, GT_PI_DIMS, v, &p);
    if (gt_sweep_values(&sw, &p, err, sizeof err) != 2)
        fail_msg("dims: %s", err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(l2_values), cmocka_unit_test(l2_checks), cmocka_unit_test(l2_summary),
        cmocka_unit_test(pitched_values), cmocka_unit_test(sweep_plot), cmocka_unit_test(dims_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
