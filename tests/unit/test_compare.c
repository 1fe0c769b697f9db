/* Compare mode and the bundled recordings: the ratio of medians, the
 * report of two recordings (shared and one-sided configurations, in every
 * format), and finding bundled recordings and naming them by model. */
#define _DEFAULT_SOURCE      /* mkdtemp, setenv */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "testutil.h"

#include "gputui/record/bundle.h"
#include "gputui/input/cli.h"
#include "gputui/report/compare.h"
#include "experiments/transfer/transfer.h"

#define HDR(dev) "{\"type\":\"header\",\"format\":[1,1],\"version\":\"t\",\"created\":\"x\",\"device\":{\"name\":\"" dev "\"}}\n"
#define CFG(gen, size) "{\"type\":\"config\",\"gen\":" #gen ",\"experiment\":\"transfer\",\"values\":{\"size\":\"" size "\"}}\n"
#define SMP(gen, sec, bytes, verify) "{\"type\":\"sample\",\"gen\":" #gen ",\"t\":0,\"series\":0,\"verify\":\"" verify "\",\"sec\":" sec ",\"bytes\":" bytes "}\n"

static void load(gt_recording *r, const char *name, const char *text)
{
    gt_err err;
    gt_err_clear(&err);
    if (gt_recording_parse(r, name, text, strlen(text), &err))
        fail_msg("%s", err.msg);
}

/* A: 8M at 1 ms and 2 ms (p50 1.5 ms), 16M; B: 8M at 2 ms and 4 ms, 32M. */
static void two(gt_recording *a, gt_recording *b)
{
    load(a, "a.gtr", HDR("NVIDIA H200") CFG(1, "8M") SMP(1, "0.001", "8388608", "full")
                     SMP(1, "0.002", "8388608", "full") CFG(2, "16M")
                     SMP(2, "0.002", "16777216", "full"));
    load(b, "b.gtr", HDR("NVIDIA H100 80GB HBM3") CFG(7, "8M") SMP(7, "0.002", "8388608", "full")
                     SMP(7, "0.004", "8388608", "full") SMP(7, "0.004", "8388608", "failed")
                     CFG(8, "32M") SMP(8, "0.001", "33554432", "full"));
}

static void ratio_and_names(void **state)
{
    gt_dist a, b;
    char buf[32];
    (void)state;
    gt_dist_init(&a);
    gt_dist_init(&b);
    assert_false(isfinite(gt_compare_ratio(&a, &b)));       /* nothing yet: no ratio */
    gt_dist_add(&a, 3.0);
    assert_false(isfinite(gt_compare_ratio(&a, &b)));
    gt_dist_add(&b, 2.0);
    assert_near(gt_compare_ratio(&a, &b), 1.5, 1e-12);
    gt_dist_free(&a);
    gt_dist_free(&b);
    assert_string_equal(gt_compare_short_name("NVIDIA H100 80GB HBM3", buf, sizeof buf), "H100");
    assert_string_equal(gt_compare_short_name("NVIDIA H200", buf, sizeof buf), "H200");
    assert_string_equal(gt_compare_short_name("Tesla T4", buf, sizeof buf), "Tesla");
}

static char *report(gt_format fmt, const gt_recording *a, const gt_recording *b)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(gt_compare_report(f, fmt, a, b), 0);
    fclose(f);
    return buf;
}

static void report_json(void **state)
{
    gt_recording a, b;
    json_error_t je;
    json_t *root, *s;
    char *out;
    (void)state;
    two(&a, &b);
    out = report(GT_FMT_JSON, &a, &b);
    root = json_loads(out, 0, &je);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(json_object_get(root, "b"), "device")),
                        "NVIDIA H100 80GB HBM3");
    assert_int_equal(json_array_size(json_object_get(root, "shared")), 1);
    s = json_array_get(json_object_get(json_array_get(json_object_get(root, "shared"), 0), "series"), 0);
    assert_near(json_real_value(json_object_get(json_object_get(s, "a"), "latency_p50_s")), 0.0015, 1e-12);
    assert_near(json_real_value(json_object_get(json_object_get(s, "b"), "latency_p50_s")), 0.003, 1e-12);
    assert_near(json_real_value(json_object_get(s, "latency_a_over_b")), 0.5, 1e-9);
    /* A moves the same bytes in half the time: twice the bandwidth. */
    assert_near(json_real_value(json_object_get(s, "bandwidth_a_over_b")), 2.0, 1e-9);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "b"), "failed")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "b"), "verified")), 2);
    assert_int_equal(json_array_size(json_object_get(root, "only_a")), 1);
    assert_int_equal(json_array_size(json_object_get(root, "only_b")), 1);
    assert_non_null(strstr(json_string_value(json_object_get(
        json_array_get(json_object_get(root, "only_b"), 0), "config")), "size=32M"));
    json_decref(root);
    free(out);
    gt_recording_free(&a);
    gt_recording_free(&b);
}

static void report_text_csv(void **state)
{
    gt_recording a, b;
    char *out;
    (void)state;
    two(&a, &b);
    out = report(GT_FMT_TEXT, &a, &b);
    assert_non_null(strstr(out, "A: a.gtr, NVIDIA H200"));
    assert_non_null(strstr(out, "0.50x"));
    assert_non_null(strstr(out, "2/1"));                /* B: verified/failed */
    assert_non_null(strstr(out, "== on A (H200) only\n  transfer dir=h2d method=ce host=pinned size=16M"));
    assert_non_null(strstr(out, "1 configurations on both, 1 on A (H200) only, 1 on B (H100) only"));
    free(out);
    out = report(GT_FMT_CSV, &a, &b);
    assert_non_null(strstr(out, "\nshared,transfer,\"dir=h2d method=ce host=pinned size=8M"));
    assert_non_null(strstr(out, ",0.5000,"));
    assert_non_null(strstr(out, "\nonly_a,transfer,"));
    assert_non_null(strstr(out, "\nonly_b,transfer,"));
    free(out);
    gt_recording_free(&a);
    gt_recording_free(&b);
}

static void touch(const char *dir, const char *name)
{
    char p[600];
    FILE *f;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
}

static void bundle_find_and_resolve(void **state)
{
    char dir[] = "/tmp/gputui-bundle-XXXXXX", out[700], err[400], cmd[700];
    gt_bundle b;
    (void)state;
    assert_non_null(mkdtemp(dir));
    touch(dir, "h100.gtr.gz");
    touch(dir, "h200.gtr.gz");
    touch(dir, "notes.txt");                /* not a recording: ignored */
    setenv("GPUTUI_DATA_DIR", dir, 1);
    assert_int_equal(gt_bundle_find(&b, "/nonexistent"), 2);
    assert_string_equal(b.model[0], "h200");            /* descending by name */
    assert_string_equal(b.model[1], "h100");
    assert_non_null(strstr(b.path[1], "/h100.gtr.gz"));
    assert_string_equal(gt_bundle_models(&b, out, sizeof out), "h200, h100");
    assert_int_equal(gt_bundle_resolve(&b, "H100", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, b.path[1]);
    assert_int_equal(gt_bundle_resolve(&b, b.path[0], out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, b.path[0]);                /* a file is taken as it is */
    assert_int_equal(gt_bundle_resolve(&b, "a100", out, sizeof out, err, sizeof err), -1);
    assert_non_null(strstr(err, "'a100' is neither a file nor a bundled recording (bundled: h200, h100"));
    /* A name that looks like a file stays one: its loader says what is wrong */
    assert_int_equal(gt_bundle_resolve(&b, "lab/h100", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "lab/h100");
    assert_int_equal(gt_bundle_resolve(&b, "h100.gtr", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "h100.gtr");
    /* An empty directory: none, and where it looked. */
    snprintf(cmd, sizeof cmd, "rm -f %s/*.gz", dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(gt_bundle_find(&b, NULL), 0);
    assert_string_equal(b.dir, dir);
    unsetenv("GPUTUI_DATA_DIR");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ratio_and_names), cmocka_unit_test(report_json),
        cmocka_unit_test(report_text_csv), cmocka_unit_test(bundle_find_and_resolve),
    };
    return cmocka_run_group_tests_name("compare", tests, NULL, NULL);
}
