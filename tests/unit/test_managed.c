/* The managed-memory experiment's table row: its series by configuration,
 * the bound on free memory and the refusals without
 * concurrentManagedAccess, its ceilings and its summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/managed/managed.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"
#include "testutil.h"

static void series_by_configuration(void **state)
{
    const gt_experiment *e = gt_experiment_find("managed");
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    int slot[GT_MG_S_COUNT];
    (void)state;
    assert_ptr_equal(e, &gt_exp_managed);
    gt_experiment_defaults(e, v);
    assert_int_equal(v[GT_MG_SIZE], 32 << 20);
    assert_int_equal(v[GT_MG_TOUCH], GT_MG_TOUCH_HOST);
    assert_int_equal(v[GT_MG_PREFERRED], GT_MG_PREF_NONE);
    assert_int_equal(e->series(v, names), 3);
    assert_string_equal(names[0], "first touch, CPU");
    assert_string_equal(names[1], "GPU read");
    assert_string_equal(names[2], "pinned memcpy H2D");
    assert_true(gt_experiment_bandwidth(e, v));
    v[GT_MG_PREFETCH] = 1;
    v[GT_MG_TOUCH] = GT_MG_TOUCH_DEVICE;
    v[GT_MG_ACCESS] = GT_MG_ACCESS_REPEAT;
    assert_int_equal(e->series(v, names), 5);
    assert_string_equal(names[0], "first touch, GPU");
    assert_string_equal(names[1], "prefetch to GPU");
    assert_string_equal(names[3], "GPU read again");
    assert_int_equal(gt_mg_series(v, slot), 5);
    assert_int_equal(slot[GT_MG_S_CPU], -1);
    assert_int_equal(slot[GT_MG_S_COPY], 4);
    v[GT_MG_PREFETCH] = 0;
    v[GT_MG_ACCESS] = GT_MG_ACCESS_PINGPONG;
    assert_int_equal(e->series(v, names), 4);
    assert_string_equal(names[1], "GPU pass");
    assert_string_equal(names[2], "CPU pass");
}

static void bound_and_refusals(void **state)
{
    const gt_experiment *e = &gt_exp_managed;
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400];
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    /* Nothing known of the device: nothing refused. */
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    /* Half of the free memory, and not a byte more. */
    gt_dp_set(&p, GT_DP_MEM_FREE, 8ll << 30);
    v[GT_MG_SIZE] = 4ll << 30;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    v[GT_MG_SIZE] = (4ll << 30) + (64 << 10);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than half of the GPU's free memory (8 GiB free)"));
    assert_non_null(strstr(err, "can stall a GPU that others share (allowed: 64 KiB to 4 GiB)"));
    v[GT_MG_SIZE] = 32 << 20;
    /* Without concurrentManagedAccess, prefetch and each advice are refused by name. */
    gt_dp_set(&p, GT_DP_CONC_MANAGED, 0);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    v[GT_MG_PREFERRED] = GT_MG_PREF_HOST;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "preferred: this device has concurrentManagedAccess = 0"));
    assert_non_null(strstr(err, "allowed here: prefetch=off, read-mostly=off, preferred=none"));
    v[GT_MG_PREFETCH] = 1;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "prefetch: this device"));
    gt_dp_set(&p, GT_DP_CONC_MANAGED, 1);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    /* The size must be a multiple of 64 KiB, and at least that. */
    assert_int_equal(gt_param_check(&e->params[GT_MG_SIZE], 100000, err, sizeof err), -1);
    assert_int_equal(gt_param_check(&e->params[GT_MG_SIZE], 32 << 10, err, sizeof err), -1);
}

static void ceilings(void **state)
{
    const gt_experiment *e = &gt_exp_managed;
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    double f;
    char label[64];
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_PCIE_BW, 63000000000ll);
    gt_dp_set(&p, GT_DP_MEM_PEAK, 4800000000000ll);
    gt_experiment_defaults(e, v);
    /* Pages on the host: the first read is bounded by the link. */
    assert_true(e->ceiling(v, 1, &p, &f, label, sizeof label) == 63e9);
    assert_true(f == 1.0);
    assert_true(e->ceiling(v, 0, &p, &f, label, sizeof label) == 0);     /* the CPU's loop */
    assert_string_equal(label, "none known: page faults, not a link, set the pace");
    assert_true(e->ceiling(v, 2, &p, &f, label, sizeof label) == 63e9);  /* the pinned copy */
    /* Written by a kernel first: read from GPU memory, but with no L2
     * size known the kernel may have left it there. */
    v[GT_MG_TOUCH] = GT_MG_TOUCH_DEVICE;
    assert_true(e->ceiling(v, 1, &p, &f, label, sizeof label) == 0);
    assert_string_equal(label, "none known: the L2's size is unknown");
    /* ... and where the buffer fits in the L2, that is where it is */
    gt_dp_set(&p, GT_DP_L2, 60ll << 20);
    assert_true(e->ceiling(v, 1, &p, &f, label, sizeof label) == 0);
    assert_string_equal(label, "none known: the buffer fits in the L2");
    v[GT_MG_SIZE] = 256 << 20;  /* and from here on: past the L2 */
    assert_true(e->ceiling(v, 1, &p, &f, label, sizeof label) == 4.8e12);
    assert_true(f == 1.0);
    assert_string_equal(label, "HBM peak, read");
    /* ... unless the host is preferred: then the pages stay there. */
    v[GT_MG_PREFERRED] = GT_MG_PREF_HOST;
    assert_true(e->ceiling(v, 1, &p, &f, label, sizeof label) == 63e9);
    /* The reads after the first stay remote, unless read-mostly copied the pages. */
    v[GT_MG_ACCESS] = GT_MG_ACCESS_REPEAT;
    assert_true(e->ceiling(v, 2, &p, &f, label, sizeof label) == 63e9);
    v[GT_MG_READ_MOSTLY] = 1;
    assert_true(e->ceiling(v, 2, &p, &f, label, sizeof label) == 4.8e12);
    v[GT_MG_READ_MOSTLY] = 0;
    v[GT_MG_ACCESS] = GT_MG_ACCESS_ONCE;
    /* A prefetch of pages already on the GPU has no known bound. */
    v[GT_MG_PREFERRED] = GT_MG_PREF_NONE;
    v[GT_MG_PREFETCH] = 1;
    assert_true(e->ceiling(v, 1, &p, &f, label, sizeof label) == 0);
    v[GT_MG_TOUCH] = GT_MG_TOUCH_HOST;
    assert_true(e->ceiling(v, 1, &p, &f, label, sizeof label) == 63e9);
}

static void summary(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    uint64_t b = 32 << 20;
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(&gt_exp_managed, v);
    gt_run_init(&r, &gt_exp_managed, v, 1);
    /* touch 10 ms, read 8 ms, copy 0.64 ms */
    run_add_each(&r, 1, (const double[]){10e-3, 8e-3, 0.64e-3}, 3, b, 3);
    assert_int_equal(gt_exp_managed.summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_non_null(strstr(lines[0], "the GPU's first read: 4.2 GB/s, 12.50x the pinned copy's "
                                     "time (52.4 GB/s): pages fault over as it reads"));
    assert_non_null(strstr(lines[1], "page faults and migrated bytes: not counted"));
    gt_run_free(&r);
    v[GT_MG_PREFETCH] = 1;
    v[GT_MG_ACCESS] = GT_MG_ACCESS_REPEAT;
    gt_run_init(&r, &gt_exp_managed, v, 2);
    /* touch, prefetch 0.8 ms, read 0.02 ms, again 0.01 ms, copy 0.64 ms */
    run_add_each(&r, 2, (const double[]){10e-3, 0.8e-3, 0.02e-3, 0.01e-3, 0.64e-3}, 5, b, 3);
    assert_int_equal(gt_exp_managed.summary(&r, &p, lines, GT_SUMMARY_LINES), 4);
    assert_non_null(strstr(lines[1], "prefetch 41.9 GB/s (1.25x the pinned copy's time)"));
    assert_non_null(strstr(lines[2], "each read after the first: 0.50x its time"));
    /* y on the prefetch, and on the reads after the first */
    gt_dp_set(&p, GT_DP_PCIE_BW, 63000000000ll);
    int n = gt_exp_managed.why(&r, 1, &p, lines, GT_SUMMARY_LINES);
    assert_true(n >= 3);
    assert_string_equal(lines[0], "32 MiB in 0.800 ms (p50): 41.9 GB/s");
    assert_non_null(strstr(lines[1], "this is 1.25x its time"));
    assert_non_null(strstr(lines[2], "moves the pages to the GPU in bulk"));
    assert_non_null(strstr(lines[n - 1], "not counted"));
    gt_exp_managed.why(&r, 3, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[2], "these reads are local"));
    gt_run_free(&r);
    /* the host preferred: the first read goes over the link */
    v[GT_MG_PREFETCH] = 0;
    v[GT_MG_PREFERRED] = GT_MG_PREF_HOST;
    v[GT_MG_ACCESSED_BY] = 1;
    gt_run_init(&r, &gt_exp_managed, v, 3);
    run_add_each(&r, 3, (const double[]){10e-3, 0.7e-3, 0.66e-3, 0.64e-3}, 4, b, 3);
    n = gt_exp_managed.why(&r, 1, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[2], "reads them over the link, mapped in advance (AccessedBy)"));
    assert_non_null(strstr(lines[3], "the link: 63.0 GB/s a direction"));
    gt_exp_managed.why(&r, 2, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[2], "every read crosses the link again"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(series_by_configuration),
        cmocka_unit_test(bound_and_refusals),
        cmocka_unit_test(ceilings),
        cmocka_unit_test(summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
