/* The concurrent kernels experiment's table row: its parameters (blocks'
 * named zero, the kernels' bound by the timeline's streams) and its
 * summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/concurrent/concurrent.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/param.h"
#include "gputui/measure/run.h"
#include "gputui/measure/timeline.h"

static void values(void **state)
{
    const gt_experiment *e = gt_experiment_find("concurrent");
    const gt_param *blocks = &e->params[GT_CK_BLOCKS], *kernels = &e->params[GT_CK_KERNELS];
    int64_t v[GT_MAX_PARAMS], x;
    const char *names[GT_MAX_SERIES];
    char err[300], buf[64];
    (void)state;
    assert_ptr_equal(e, &gt_exp_concurrent);
    gt_experiment_defaults(e, v);
    assert_int_equal(v[GT_CK_KERNELS], 8);
    assert_int_equal(v[GT_CK_SPIN], 200);
    assert_int_equal(v[GT_CK_BLOCKS], 1);
    assert_int_equal(e->series(v, names), 2);
    assert_string_equal(names[GT_CK_S_ONE], "one stream");
    assert_string_equal(names[GT_CK_S_EACH], "a stream each");
    /* blocks: "fill" is 0, and shown so */
    assert_int_equal(gt_param_parse(blocks, "fill", &x, err, sizeof err), 0);
    assert_int_equal(x, 0);
    assert_string_equal(gt_param_format(blocks, 0, buf, sizeof buf), "fill");
    /* no more kernels than the timeline has streams */
    assert_int_equal(gt_param_parse(kernels, "17", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "allowed: 2 to 16"));
}

static void summary(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_CONC_KERNELS, 1);
    gt_experiment_defaults(&gt_exp_concurrent, v);
    gt_run_init(&r, &gt_exp_concurrent, v, 1);
    for (int i = 0; i < 3; i++) {
        gt_sample a = {1, GT_CK_S_ONE, GT_V_FULL, 1.6e-3, 0};
        gt_sample b = {1, GT_CK_S_EACH, GT_V_FULL, 0.2e-3, 0};
        gt_run_add(&r, &a);
        gt_run_add(&r, &b);
    }
    assert_int_equal(gt_exp_concurrent.summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_non_null(strstr(lines[0], "8 kernels of 200 us: one stream 1.60 ms, a stream each "
                                     "200 us (8.0x faster"));
    assert_non_null(strstr(lines[1], "concurrentKernels = 1: this device may run kernels"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values),
        cmocka_unit_test(summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
