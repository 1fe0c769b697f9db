/* The CUDA runtime experiment's table row: its series and its summary,
 * which carries what the child found about cudaDeviceMapHost. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gputui/experiments/exp_runtime.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"

static void series_and_summary(void **state)
{
    const gt_experiment *e = gt_experiment_find("runtime");
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    (void)state;
    assert_ptr_equal(e, &gt_exp_runtime);
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    assert_int_equal(e->series(v, names), 4);
    assert_string_equal(names[GT_RT_S_FIRST], "first calls (context)");
    assert_string_equal(names[GT_RT_S_AGAIN], "cudaFree(0) after reset");
    assert_false(gt_experiment_bandwidth(e, v));
    gt_run_init(&r, e, v, 1);
    for (int i = 0; i < 3; i++) {
        static const double sec[4] = {2e-3, 150e-3, 40e-3, 140e-3};
        for (int s = 0; s < 4; s++) {
            gt_sample a = {1, (uint8_t)s, GT_V_FULL, sec[s], 0};
            gt_run_add(&r, &a);
        }
    }
    snprintf(r.info.note, sizeof r.info.note, "cudaSetDeviceFlags(cudaDeviceMapHost) after the "
             "context exists: cudaSuccess; cudaHostGetDevicePointer ...: cudaSuccess");
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_non_null(strstr(lines[0], "before the first call returns: 2.00 ms to main, 150 ms "
                                     "for the context; cudaDeviceReset 40.0 ms, the next call "
                                     "140 ms"));
    assert_non_null(strstr(lines[1], "cudaSetDeviceFlags(cudaDeviceMapHost) after the context"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(series_and_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
