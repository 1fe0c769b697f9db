/* Batch output: JSON parses back with its fields, CSV has one row per
 * series and metric, N/A properties are null, never 0. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "experiments/transfer/transfer.h"
#include "gputui/report/report.h"

static void make_run(gt_run *r, gt_devprops *p, int dir)
{
    int64_t v[GT_MAX_PARAMS];
    gt_sample s = {1, 0, GT_V_FULL, 1e-3, 64ull << 20};

    gt_experiment_defaults(&gt_exp_transfer, v);
    v[GT_TR_DIR] = dir;
    gt_run_init(r, &gt_exp_transfer, v, 1);
    for (int i = 0; i < 10; i++) {
        s.series = (uint8_t)(i % r->nseries);
        s.sec = 1e-3 * (1 + i % 3);
        s.disturbed = i < 2;        /* series 0 (and 1 when there are two) */
        gt_run_add(r, &s);
    }
    s.verify = GT_V_FAILED;
    s.series = 0;
    gt_run_add(r, &s);
    gt_devprops_init(p);
    p->ordinal = 0;
    snprintf(p->name, sizeof p->name, "Test \"GPU\"");
    gt_dp_set(p, GT_DP_PCIE_GEN_MAX, 4);
    gt_dp_set(p, GT_DP_PCIE_WIDTH_MAX, 16);
    gt_dp_set(p, GT_DP_L2, 50ll << 20);
    gt_devprops_derive(p);
}

static void json_round_trip(void **state)
{
    char buf[16384] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    gt_run r;
    gt_devprops p;
    json_error_t je;
    json_t *root, *s0;
    (void)state;
    make_run(&r, &p, GT_DIR_BIDIR);
    assert_int_equal(gt_report(f, GT_FMT_JSON, &p, &r, 1, NULL), 0);
    fclose(f);
    root = json_loads(buf, 0, &je);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(json_object_get(root, "device"), "name")),
                        "Test \"GPU\"");
    assert_true(json_is_null(json_object_get(json_object_get(root, "device"), "sm_count")));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(root, "device"), "l2_bytes")),
                     50ll << 20);
    json_t *run = json_array_get(json_object_get(root, "runs"), 0);
    assert_int_equal(json_array_size(json_object_get(root, "runs")), 1);
    assert_null(json_object_get(root, "recording"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(run, "config"), "dir")),
                        "bidir");
    assert_int_equal(json_array_size(json_object_get(run, "series")), 2);
    s0 = json_array_get(json_object_get(run, "series"), 0);
    assert_string_equal(json_string_value(json_object_get(s0, "name")), "H2D");
    assert_int_equal(json_integer_value(json_object_get(s0, "failed")), 1);
    assert_int_equal(json_integer_value(json_object_get(s0, "disturbed")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s0, "latency_s"), "count")), 5);
    /* series 0 of bidir: 1 3 2 1 3 ms, the first disturbed: 3 2 1 3 clean */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s0, "clean_latency_s"),
                                                        "count")), 4);
    assert_near(json_real_value(json_object_get(json_object_get(s0, "clean_latency_s"), "p50")),
                2.5e-3, 1e-9);
    assert_near(json_real_value(json_object_get(s0, "ceiling_GBps")), 31.5, 0.1);
    json_decref(root);
    gt_run_free(&r);
}

static void csv_and_text(void **state)
{
    char buf[16384] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    gt_run r;
    gt_devprops p;
    int lines = 0;
    (void)state;
    make_run(&r, &p, GT_DIR_H2D);
    gt_report(f, GT_FMT_CSV, &p, &r, 1, NULL);
    fclose(f);
    for (char *c = buf; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 3);     /* header + bandwidth + latency */
    assert_non_null(strstr(buf, "1,transfer,\"dir=h2d method=ce host=pinned size=64M iters=1 alloc-on=this warmup=3\",H2D,bandwidth,GB/s,10,"));
    assert_non_null(strstr(buf, ",ceiling_bytes_once_GBps,disturbed,clean_p50_s\n"));
    assert_non_null(strstr(buf, "PCIe Gen4 x16\",31.5076923,2,\n"));
    /* the clean samples' p50: 1 2 3 1 2 3 1 2 3 1 ms, the first two disturbed */
    assert_non_null(strstr(buf, ",latency,s,10,"));
    assert_non_null(strstr(buf, ",2,0.002\n"));
    memset(buf, 0, sizeof buf);
    f = fmemopen(buf, sizeof buf - 1, "w");
    gt_report(f, GT_FMT_TEXT, &p, &r, 1, NULL);
    fclose(f);
    assert_non_null(strstr(buf, "1 FAILED"));
    assert_non_null(strstr(buf, ", 2 disturbed (the GPU may have been shared)"));
    assert_non_null(strstr(buf, "p50 of the 8 clean samples 2"));
    assert_non_null(strstr(buf, "of PCIe Gen4 x16"));
    gt_run_free(&r);
}

static void devprops_na(void **state)
{
    gt_devprops p;
    char b[64];
    (void)state;
    gt_devprops_init(&p);
    for (int i = 0; i < GT_DP_COUNT; i++)
        assert_string_equal(gt_dp_format(&p, (gt_dp_id)i, b, sizeof b), "N/A");
    gt_dp_set(&p, GT_DP_CAN_MAP, 0);
    assert_string_equal(gt_dp_format(&p, GT_DP_CAN_MAP, b, sizeof b), "no");
    gt_dp_set(&p, GT_DP_CC, 90);
    assert_string_equal(gt_dp_format(&p, GT_DP_CC, b, sizeof b), "9.0");
    gt_dp_set(&p, GT_DP_DRIVER_CUDA, 13000);
    assert_string_equal(gt_dp_format(&p, GT_DP_DRIVER_CUDA, b, sizeof b), "13.0");
    assert_near(gt_pcie_bw(5, 16) / 1e9, 63.015, 0.01);
    assert_near(gt_pcie_bw(3, 16) / 1e9, 15.75, 0.01);
    assert_near(gt_pcie_bw(1, 1) / 1e9, 0.25, 0.001);
    assert_true(gt_pcie_bw(0, 16) == 0.0);
    /* Derived fields only from valid inputs. */
    gt_devprops_derive(&p);
    assert_false(gt_dp_ok(&p, GT_DP_MEM_PEAK));
    assert_false(gt_dp_ok(&p, GT_DP_PCIE_BW));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_round_trip), cmocka_unit_test(csv_and_text),
        cmocka_unit_test(devprops_na),
    };
    return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
