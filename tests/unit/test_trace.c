/* The CUDA call trace (folding, the per-phase cap, readable arguments,
 * capture on or off), its round trip through a recording, and the
 * decomposition of a headline ('y'). */
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

#include "experiments/transfer/transfer.h"
#include "gputui/record/record.h"
#include "gputui/measure/trace.h"
#include "gputui/report/why.h"

static void test_capture(void **s)
{
    static gt_trace t;
    char line[256];
    (void)s;
    gt_trace_clear(&t);
    gt_trace_call_done("cudaFree(p)", "cudaSuccess", true, 1e-3);   /* no capture: nothing */
    assert_int_equal(t.n, 0);
    gt_trace_capture(&t, GT_TR_SETUP);
    assert_true(gt_trace_capturing());
    gt_trace_args("%s, cudaHostAllocMapped", "64 MiB");
    gt_trace_call_done("cudaHostAlloc(&h->p, bytes, flags)", "cudaSuccess", true, 0.0359);
    for (int i = 0; i < 3; i++)       /* repeats fold into one line */
        gt_trace_call_done("cudaEventCreate(&z->ev[i])", "cudaSuccess", true, 1e-6);
    gt_trace_capture(&t, GT_TR_RUN);
    for (int i = 0; i < GT_TRACE_PER_PHASE + 5; i++) {
        char e[32];
        snprintf(e, sizeof e, "call%d(x,   y)", i);
        gt_trace_call_done(e, "cudaSuccess", true, 1e-6);
    }
    gt_trace_capture(NULL, GT_TR_SETUP);
    assert_false(gt_trace_capturing());
    assert_string_equal(gt_trace_format(&t.c[0], line, sizeof line),
                        "cudaHostAlloc(64 MiB, cudaHostAllocMapped) -> cudaSuccess  35.9 ms");
    assert_int_equal(t.c[1].count, 3);
    assert_non_null(strstr(gt_trace_format(&t.c[1], line, sizeof line), " x3 -> "));
    assert_string_equal(t.c[2].call, "call0(x, y)");     /* white space made one space */
    assert_int_equal(gt_trace_count(&t, GT_TR_SETUP), 4);
    assert_int_equal(gt_trace_count(&t, GT_TR_RUN), GT_TRACE_PER_PHASE + 5);
    assert_int_equal(t.more[GT_TR_RUN], 5);
    assert_int_equal(gt_trace_phase_parse("teardown"), GT_TR_TEARDOWN);
    assert_int_equal(gt_trace_phase_parse("later"), -1);
}

/* A kept set-up: its calls listed as a fresh set-up would make them, each
 * marked kept and shown without a time; the iteration and teardown go. */
static void test_kept(void **s)
{
    static gt_trace t;
    char line[256];
    (void)s;
    gt_trace_clear(&t);
    gt_trace_capture(&t, GT_TR_SETUP);
    gt_trace_args("%s", "64 MiB");
    gt_trace_call_done("cudaMalloc(&p, n)", "cudaSuccess", true, 2e-3);
    gt_trace_kept("cudaMallocHost(64 MiB)");        /* a buffer kept from before */
    gt_trace_capture(&t, GT_TR_RUN);
    gt_trace_call_done("cudaMemcpyAsync(d, s, n, k, st)", "cudaSuccess", true, 1e-3);
    gt_trace_capture(NULL, GT_TR_SETUP);
    gt_trace_kept("cudaMalloc(1 MiB)");             /* no capture: nothing */
    assert_int_equal(t.n, 3);
    assert_string_equal(gt_trace_format(&t.c[1], line, sizeof line),
                        "cudaMallocHost(64 MiB) -> kept");
    gt_trace_keep_setup(&t);
    assert_int_equal(t.n, 2);
    assert_int_equal(gt_trace_count(&t, GT_TR_RUN), 0);
    assert_string_equal(gt_trace_format(&t.c[0], line, sizeof line), "cudaMalloc(64 MiB) -> kept");
    assert_true(t.c[0].ok);
}

/* Written by the recorder, read back by the reader, under its config. */
static void test_recorded(void **s)
{
    static gt_trace t;
    char path[] = "/tmp/gputui-trace-XXXXXX";
    int fd = mkstemp(path);
    gt_recorder *w;
    gt_recording r;
    gt_devprops p;
    gt_err err;
    gt_setup_info info;
    int64_t vals[GT_MAX_PARAMS];
    (void)s;
    assert_true(fd >= 0);
    close(fd);
    gt_err_clear(&err);
    gt_devprops_init(&p);
    memset(&info, 0, sizeof info);
    gt_experiment_defaults(&gt_exp_transfer, vals);
    gt_trace_clear(&t);
    gt_trace_add(&t, GT_TR_SETUP, "cudaMalloc(64 MiB)", "cudaSuccess", true, 1, 1e-4);
    gt_trace_add(&t, GT_TR_TEARDOWN, "cudaFree(0x7f00)", "cudaSuccess", true, 2, 2e-4);
    t.more[GT_TR_RUN] = 7;
    assert_int_equal(gt_recorder_open(&w, path, true, &p, &err), 0);
    gt_recorder_config(w, &gt_exp_transfer, vals, 3, &info, NULL, NULL);
    gt_sample x = {3, 0, GT_V_FULL, 1e-3, 1 << 20};
    gt_recorder_sample(w, &x);
    gt_recorder_trace(w, 3, &t);
    assert_int_equal(gt_recorder_close(w, &err), 0);
    if (gt_recording_load(&r, path, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(r.minor, GT_REC_MINOR);
    assert_non_null(r.cfg[0].trace);
    assert_int_equal(r.cfg[0].trace->n, 2);
    assert_string_equal(r.cfg[0].trace->c[1].call, "cudaFree(0x7f00)");
    assert_int_equal(r.cfg[0].trace->c[1].count, 2);
    assert_int_equal(r.cfg[0].trace->c[1].phase, GT_TR_TEARDOWN);
    assert_int_equal(r.cfg[0].trace->more[GT_TR_RUN], 7);
    gt_recording_free(&r);
    unlink(path);
}

static void test_bad_trace_line(void **s)
{
    const char *text =
        "{\"type\":\"header\",\"format\":[1,2],\"version\":\"t\",\"created\":\"x\",\"device\":{}}\n"
        "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"values\":{}}\n"
        "{\"type\":\"trace\",\"gen\":1,\"calls\":[{\"phase\":\"later\",\"call\":\"f()\","
        "\"result\":\"ok\",\"count\":1,\"sec\":0}]}\n";
    gt_recording r;
    gt_err err;
    (void)s;
    gt_err_clear(&err);
    assert_int_equal(gt_recording_parse(&r, "t.gtr", text, strlen(text), &err), -1);
    assert_non_null(strstr(err.msg, "t.gtr:3: trace call 1: \"phase\" is not one of"));
}

static void test_why(void **s)
{
    gt_devprops p;
    gt_run r;
    int64_t vals[GT_MAX_PARAMS];
    gt_summary_line lines[12];
    int n;
    (void)s;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_PCIE_GEN_MAX, 5);
    gt_dp_set(&p, GT_DP_PCIE_WIDTH_MAX, 16);
    gt_dp_set(&p, GT_DP_PCIE_MPS, 256);
    gt_devprops_derive(&p);
    gt_experiment_defaults(&gt_exp_transfer, vals);
    gt_run_init(&r, &gt_exp_transfer, vals, 1);
    for (int i = 0; i < 5; i++) {
        gt_sample x = {1, 0, GT_V_FULL, 64e6 / 55e9, 64000000};  /* 55 GB/s */
        gt_run_add(&r, &x);
    }
    n = gt_why(&r, 0, &p, lines, 12);
    assert_int_equal(n, 5);
    assert_string_equal(lines[1], "PCIe Gen5 x16: 32 GT/s x 16 lanes = 64.0 GB/s per "
                                  "direction, raw");
    assert_string_equal(lines[2], "line encoding 128b/130b: 63.0 GB/s");
    /* 63.0 x 256 / 282 = 57.2 */
    assert_non_null(strstr(lines[3], "packets of 256 B payload + 26 B header/CRC/framing: "
                                     "57.2 GB/s"));
    assert_string_equal(lines[4], "measured p50 55.0 GB/s = 86% of raw, 87% after encoding, "
                                  "96% after packets");
    /* no max payload: that step is N/A, not a guess */
    p.valid &= ~(1ull << GT_DP_PCIE_MPS);
    n = gt_why(&r, 0, &p, lines, 12);
    assert_non_null(strstr(lines[3], "packet overhead: N/A"));
    assert_non_null(strstr(lines[4], "N/A after packets"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_capture), cmocka_unit_test(test_kept),
        cmocka_unit_test(test_recorded),
        cmocka_unit_test(test_bad_trace_line), cmocka_unit_test(test_why),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
