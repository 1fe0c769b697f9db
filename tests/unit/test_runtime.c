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

#include "experiments/runtime/runtime.h"
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
    snprintf(r.info.note, sizeof r.info.note, "SetDeviceFlags(MapHost) after the first call: "
             "cudaSuccess; HostGetDevicePointer, pinned without the mapped flag: cudaSuccess");
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_non_null(strstr(lines[0], "before the first call returns: 2.00 ms to main, 150 ms "
                                     "for the context; cudaDeviceReset 40.0 ms, the next call "
                                     "140 ms"));
    assert_non_null(strstr(lines[1], "SetDeviceFlags(MapHost) after the first call"));
    gt_run_free(&r);
}

/* The summary of a run of three samples of each of n series at the given
 * seconds, under the values v; returns its line count. */
static int summarise(const int64_t *v, const double *sec, int n, gt_summary_line *lines)
{
    gt_devprops p;
    gt_run r;
    int count;

    gt_devprops_init(&p);
    gt_run_init(&r, &gt_exp_runtime, v, 1);
    for (int i = 0; i < 3; i++)
        for (int s = 0; s < n; s++) {
            gt_sample a = {1, (uint8_t)s, GT_V_FULL, sec[s], 4096};
            gt_run_add(&r, &a);
        }
    count = gt_exp_runtime.summary(&r, &p, lines, GT_SUMMARY_LINES);
    gt_run_free(&r);
    return count;
}

static void jit(void **state)
{
    static const double sec[3] = {0.5e-3, 30e-3, 20e-3};
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    gt_summary_line lines[GT_SUMMARY_LINES];
    (void)state;
    gt_experiment_defaults(&gt_exp_runtime, v);
    v[GT_RT_OP] = GT_RT_OP_JIT;
    assert_int_equal(gt_exp_runtime.series(v, names), 3);
    assert_string_equal(names[GT_RT_S_CUBIN], "cubin load");
    assert_string_equal(names[GT_RT_S_PTX_AGAIN], "PTX load, again (JIT)");
    assert_int_equal(summarise(v, sec, 3, lines), 1);
    assert_non_null(strstr(lines[0], "the PTX module takes 40x the cubin's load (20.0 ms "
                                     "against 500 us, p50); the first PTX load 30.0 ms"));
}

static void returns(void **state)
{
    static const double early[3] = {8e-6, 1.01e-3, 1.0e-3}, waited[3] = {1.02e-3, 1.0205e-3,
                                                                        0.5e-6};
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    gt_summary_line lines[GT_SUMMARY_LINES];
    (void)state;
    gt_experiment_defaults(&gt_exp_runtime, v);
    v[GT_RT_OP] = GT_RT_OP_RETURN;
    assert_int_equal(gt_exp_runtime.series(v, names), 3);
    assert_string_equal(names[GT_RT_S_RETURNS], "call returns");
    assert_string_equal(names[GT_RT_S_IDLE], "stream idle");
    assert_string_equal(names[GT_RT_S_LEFT], "work left at return");
    assert_int_equal(v[GT_RT_AHEAD], 1000);
    assert_int_equal(v[GT_RT_SIZE], 64 << 10);
    assert_int_equal(summarise(v, early, 3, lines), 2);
    assert_string_equal(lines[0], "cudaMemcpy H2D from pageable memory, 64 KiB: returns after "
                                  "8.00 us; the stream is idle 1.00 ms later (p50)");
    assert_string_equal(lines[1], "it returned before the 1.00 ms kernel ahead ended (idle "
                                  "after 1.01 ms)");
    v[GT_RT_CALL] = GT_RT_CALL_H2D_PINNED;
    assert_int_equal(summarise(v, waited, 3, lines), 2);
    assert_non_null(strstr(lines[0], "pinned memory, 64 KiB: returns after 1.02 ms; the stream "
                                     "is idle 500 ns later"));
    assert_non_null(strstr(lines[1], "it waited until the 1.00 ms kernel ahead ended"));
    /* With nothing ahead, the first line alone. */
    v[GT_RT_AHEAD] = 0;
    assert_int_equal(summarise(v, waited, 3, lines), 1);
    assert_string_equal(gt_rt_call_text(GT_RT_CALL_MEMSET), "cudaMemset of device memory");
    assert_string_equal(gt_rt_call_text(GT_RT_NCALLS), "?");
}

/* op=return's parameters mean nothing to init and jit, and the size and
 * the kernel ahead have their bounds. */
static void params(void **state)
{
    const gt_experiment *e = &gt_exp_runtime;
    int64_t v[GT_MAX_PARAMS], x;
    const char *why = NULL;
    char err[200];
    (void)state;
    gt_experiment_defaults(e, v);
    assert_false(gt_param_applies(&e->params[GT_RT_CALL], v, &why));
    assert_string_equal(why, "only with op=return");
    v[GT_RT_OP] = GT_RT_OP_RETURN;
    assert_true(gt_param_applies(&e->params[GT_RT_SIZE], v, &why));
    assert_int_equal(gt_param_parse(&e->params[GT_RT_SIZE], "2K", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "4 KiB to 64 MiB"));
    assert_int_equal(gt_param_parse(&e->params[GT_RT_SIZE], "6K", &x, err, sizeof err), -1);
    assert_int_equal(gt_param_parse(&e->params[GT_RT_SIZE], "1M", &x, err, sizeof err), 0);
    assert_int_equal(x, 1 << 20);
    assert_int_equal(gt_param_parse(&e->params[GT_RT_AHEAD], "none", &x, err, sizeof err), 0);
    assert_int_equal(x, 0);
    assert_int_equal(gt_param_parse(&e->params[GT_RT_AHEAD], "100001", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "100000"));
    assert_int_equal(gt_param_parse(&e->params[GT_RT_CALL], "memcpy", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "h2d-pageable, h2d-pinned, d2h-pageable, d2d, memset"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(series_and_summary),
        cmocka_unit_test(jit),
        cmocka_unit_test(returns),
        cmocka_unit_test(params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
