/* The sharing experiment's table row: its parameters, series, bandwidth
 * only for copies, and the summary's ratio. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/sharing/sharing.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"

static void row(void **state)
{
    const gt_experiment *e = gt_experiment_find("sharing");
    int64_t v[GT_MAX_PARAMS], x;
    const char *names[GT_MAX_SERIES];
    gt_summary_line lines[GT_SUMMARY_LINES];
    char err[200];
    gt_devprops p;
    gt_run r;
    (void)state;
    assert_ptr_equal(e, &gt_exp_sharing);
    gt_experiment_defaults(e, v);
    assert_int_equal(v[GT_SH_MEASURE], GT_SH_LATENCY);
    assert_int_equal(v[GT_SH_BESIDE], GT_SH_KERNELS);
    assert_int_equal(e->series(v, names), 2);
    assert_string_equal(names[GT_SH_S_ALONE], "alone");
    assert_string_equal(names[GT_SH_S_BESIDE], "beside a second process");
    assert_false(gt_experiment_bandwidth(e, v));
    assert_int_equal(gt_param_parse(&e->params[GT_SH_BESIDE], "idle", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "kernels, copies"));
    gt_devprops_init(&p);
    gt_run_init(&r, e, v, 1);
    for (int i = 0; i < 3; i++) {
        gt_sample a = {1, GT_SH_S_ALONE, GT_V_FULL, 140e-9, 4};
        gt_sample b = {1, GT_SH_S_BESIDE, GT_V_FULL, 700e-9, 4};
        gt_run_add(&r, &a);
        gt_run_add(&r, &b);
    }
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 1);
    assert_string_equal(lines[0], "beside a second process running kernels: 700 ns against "
                                  "140 ns alone, 5.00x the time (p50)");
    gt_run_free(&r);
    v[GT_SH_MEASURE] = GT_SH_COPY;
    assert_true(gt_experiment_bandwidth(e, v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
