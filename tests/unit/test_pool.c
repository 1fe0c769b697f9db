/* The stream-ordered allocator's table row: its series by op, what each
 * parameter applies to, the memory it may hold and the refusal, the
 * sweeps, and the summary and 'y' lines on synthetic samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "experiments/pool/pool.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"
#include "testutil.h"

static void series_and_applies(void **state)
{
    const gt_experiment *e = gt_experiment_find("pool");
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES], *why = NULL;
    (void)state;
    assert_ptr_equal(e, &gt_exp_pool);
    gt_experiment_defaults(e, v);
    assert_int_equal(v[GT_PL_OP], GT_PL_ALLOC);
    assert_int_equal(v[GT_PL_THRESHOLD], GT_PL_KEEP);
    assert_int_equal(e->series(v, names), 3);
    assert_string_equal(names[GT_PL_S_OWN], "own pool (cudaMallocFromPoolAsync)");
    assert_true(gt_param_applies(&e->params[GT_PL_TRIM], v, &why));
    assert_false(gt_param_applies(&e->params[GT_PL_ORDER], v, &why));
    assert_string_equal(why, "only with op=reuse");
    v[GT_PL_OP] = GT_PL_REUSE;
    assert_int_equal(e->series(v, names), 2);
    assert_string_equal(names[GT_PL_S_B], "B: allocation to kernel done");
    assert_true(gt_param_applies(&e->params[GT_PL_OPPORTUNISTIC], v, &why));
    assert_false(gt_param_applies(&e->params[GT_PL_TRIM], v, &why));
    v[GT_PL_OP] = GT_PL_SYNC;
    assert_int_equal(e->series(v, names), 2);
    assert_string_equal(names[GT_PL_S_FREEASYNC], "cudaFreeAsync");
    assert_false(gt_param_applies(&e->params[GT_PL_COUNT], v, &why));
    assert_non_null(strstr(why, "sync frees one buffer"));
    assert_false(gt_param_applies(&e->params[GT_PL_THRESHOLD], v, &why));
}

static void footprint_and_refusals(void **state)
{
    const gt_experiment *e = &gt_exp_pool;
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[300];
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    assert_int_equal(gt_pl_footprint(v), 64ull << 20);
    v[GT_PL_OP] = GT_PL_REUSE;
    assert_int_equal(gt_pl_footprint(v), 128ull << 20);     /* A's and B's */
    v[GT_PL_OP] = GT_PL_SYNC;
    assert_int_equal(gt_pl_footprint(v), 3ull << 20);
    gt_experiment_defaults(e, v);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_MEM_FREE, 80ll << 30);
    v[GT_PL_COUNT] = 4096;
    v[GT_PL_SIZE] = 1ll << 30;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "count x size: 4 TiB of device memory at once, more than half of "
                        "the 80 GiB free; allowed: a total up to 40 GiB");
    v[GT_PL_COUNT] = 40;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_BUILD_CUDA, 11010);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "the stream-ordered allocator needs CUDA 11.2; this gputui was "
                        "built with 11.1");
}

static void sweeps(void **state)
{
    int64_t out[32];
    gt_devprops p;
    (void)state;
    gt_devprops_init(&p);
    assert_int_equal(gt_exp_pool.sweep_values(GT_PL_COUNT, &p, out, 32), 11);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[10], 1024);
    assert_int_equal(gt_exp_pool.sweep_values(GT_PL_SIZE, &p, out, 32), 8);
    assert_int_equal(out[7], 64ll << 20);
    assert_int_equal(gt_exp_pool.sweep_values(GT_PL_SPIN, &p, out, 32), 0);
}

static void summaries(void **state)
{
    const gt_experiment *e = &gt_exp_pool;
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    const double alloc[] = {2.3e-3, 0.25e-3, 0.16e-3}, sync[] = {1.05e-3, 1e-6},
                 reuse[] = {1.2e-3, 1.3e-3};
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    gt_run_init(&r, e, v, 1);
    run_add_each(&r, 1, alloc, 3, 64u << 20, 9);
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_string_equal(lines[0], "64 allocations and frees: cudaMalloc 2300 us, default pool "
                        "0.11x, own pool (threshold keep) 0.07x its time");
    assert_string_equal(lines[1], "a buffer: cudaMalloc + cudaFree 35.9 us, own pool 2.5 us");
    int n = e->why(&r, GT_PL_S_OWN, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[1], "threshold keep: the pool keeps what was freed"));
    assert_non_null(strstr(lines[n - 1], "vmm experiment, op=alloc"));
    gt_run_free(&r);

    v[GT_PL_OP] = GT_PL_SYNC;
    gt_run_init(&r, e, v, 2);
    run_add_each(&r, 2, sync, 2, 1u << 20, 9);
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 1);
    assert_string_equal(lines[0], "while a 1000 us kernel runs: cudaFree returns after 1050 us, "
                        "cudaFreeAsync after 1.0 us (1050x)");
    n = e->why(&r, GT_PL_S_FREE, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[1], "seed 002"));
    gt_run_free(&r);

    v[GT_PL_OP] = GT_PL_REUSE;
    v[GT_PL_ORDER] = GT_PL_DONE;
    gt_run_init(&r, e, v, 3);
    run_add_each(&r, 3, reuse, 2, 64u << 20, 9);
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 1);
    assert_string_equal(lines[0], "B done 1300 us after A's kernel started; A's kernel took "
                        "1200 us: B finished after A");
    n = e->why(&r, GT_PL_S_B, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[0], "once A's frees are done"));
    assert_non_null(strstr(lines[1], "follow events on, opportunistic on, internal dependencies on"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(series_and_applies),
        cmocka_unit_test(footprint_and_refusals),
        cmocka_unit_test(sweeps),
        cmocka_unit_test(summaries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
