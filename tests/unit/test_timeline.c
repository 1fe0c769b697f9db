/* The streams experiment's pure parts: timeline cells, the ideal bound,
 * the text timeline, the kernel's closed form, the parameter checks and
 * the summary; timelines through a recording and the replay engine. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/engine/engine.h"
#include "experiments/streams/streams.h"
#include "gputui/record/record.h"
#include "gputui/record/replay.h"
#include "gputui/measure/run.h"
#include "gputui/measure/timeline.h"

static void add(gt_timeline *tl, int run, int stream, int kind, int chunk, double a, double b)
{
    tl->ops[tl->nops++] = (gt_tl_op){(uint8_t)run, (uint8_t)stream, (uint8_t)kind,
                                     (uint16_t)chunk, (float)a, (float)b};
}

/* Two chunks on two streams over 10 ms: H2D 0-2 / kernel 2-4 / D2H 4-6 on
 * stream 0, shifted by 2 ms on stream 1; serial runs 0-10 on one row. */
static gt_timeline *sample_timeline(void)
{
    gt_timeline *tl = calloc(1, sizeof *tl);
    tl->nstreams = 2;
    for (int ch = 0; ch < 2; ch++) {
        double o = 2e-3 * ch;
        for (int k = 0; k < GT_TL_KINDS; k++)
            add(tl, GT_TL_STREAMS, ch, k, ch, o + 2e-3 * k, o + 2e-3 * (k + 1));
        for (int k = 0; k < GT_TL_KINDS; k++)
            add(tl, GT_TL_SERIAL, 0, k, ch, 5e-3 * ch + 1e-3 * k * 5 / 3,
                5e-3 * ch + 1e-3 * (k + 1) * 5 / 3);
    }
    tl->total[GT_TL_SERIAL] = 10e-3;
    tl->total[GT_TL_STREAMS] = 8e-3;
    tl->sum[GT_TL_H2D] = 3.3e-3;
    tl->sum[GT_TL_KERNEL] = 3.4e-3;
    tl->sum[GT_TL_D2H] = 3.2e-3;
    return tl;
}

static void cells(void **state)
{
    gt_timeline *tl = sample_timeline();
    signed char c[10];
    (void)state;
    /* One cell a millisecond. */
    gt_timeline_row(tl, GT_TL_STREAMS, 0, 10e-3, 10, c);
    signed char want0[10] = {0, 0, 1, 1, 2, 2, -1, -1, -1, -1};
    assert_memory_equal(c, want0, 10);
    gt_timeline_row(tl, GT_TL_STREAMS, 1, 10e-3, 10, c);
    signed char want1[10] = {-1, -1, 0, 0, 1, 1, 2, 2, -1, -1};
    assert_memory_equal(c, want1, 10);
    /* Coarse cells: the kind covering most of a cell wins; nothing lost. */
    gt_timeline_row(tl, GT_TL_STREAMS, 0, 10e-3, 2, c);
    assert_int_equal(c[1], 2);      /* 5-10 ms: only D2H (5-6) */
    /* A very short operation still shows in its cell. */
    tl->nops = 0;
    add(tl, GT_TL_STREAMS, 0, GT_TL_KERNEL, 0, 4.5e-3, 4.5001e-3);
    gt_timeline_row(tl, GT_TL_STREAMS, 0, 10e-3, 10, c);
    assert_int_equal(c[4], GT_TL_KERNEL);
    assert_int_equal(c[3], -1);
    /* Degenerate spans and widths do not crash. */
    gt_timeline_row(tl, GT_TL_STREAMS, 0, 0, 10, c);
    assert_int_equal(c[0], -1);
    gt_timeline_row(tl, GT_TL_STREAMS, 0, 1e-3, 0, c);
    free(tl);
}

static void cells_first_max(void **state)
{
    gt_timeline *tl = sample_timeline();
    signed char c[2];
    (void)state;
    /* 0-5 ms of stream 0 holds 2 ms of H2D and 2 ms of kernel: a tie goes
     * to the earlier kind. */
    gt_timeline_row(tl, GT_TL_STREAMS, 0, 10e-3, 2, c);
    assert_int_equal(c[0], GT_TL_H2D);
    free(tl);
}

static void ideal_and_print(void **state)
{
    gt_timeline *tl = sample_timeline();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    (void)state;
    assert_near(gt_timeline_ideal(tl), 3.4e-3, 1e-12);
    /* Kernels that may run at once count as their longest (1.67 ms), so
     * the summed H2D (3.3 ms) bounds it. */
    tl->kernels_overlap = true;
    assert_near(gt_timeline_ideal(tl), 3.3e-3, 1e-12);
    tl->sum[GT_TL_H2D] = tl->sum[GT_TL_D2H] = 0;
    assert_near(gt_timeline_ideal(tl), 5e-3 / 3, 1e-9);
    tl->kernels_overlap = false;
    tl->sum[GT_TL_H2D] = 3.3e-3;
    tl->sum[GT_TL_D2H] = 3.2e-3;
    gt_timeline_print(f, tl, 10);
    fclose(f);
    assert_non_null(strstr(buf, "serial    |>>#<<>>#<<|"));
    assert_non_null(strstr(buf, "stream 0  |>>##<<    |"));
    assert_non_null(strstr(buf, "stream 1  |  >>##<<  |"));
    assert_non_null(strstr(buf, "0 to 10.0 ms"));
    free(buf);
    free(tl);
}

/* The closed form the CPU checks with equals the kernel's loop. */
static void closed_form(void **state)
{
    static const uint32_t works[] = {1, 2, 3, 64, 553, 822, 4096, 100000};
    (void)state;
    for (size_t w = 0; w < sizeof works / sizeof works[0]; w++) {
        uint32_t ak, sk;
        gt_str_map(works[w], &ak, &sk);
        assert_int_not_equal(sk, 0);
        for (uint32_t x0 = 0; x0 < 5; x0++)
            for (uint32_t c = 1; c < 8; c += 2) {
                uint32_t x = x0 * 0x9E3779B1u;
                uint32_t want = ak * x + sk * c;
                for (uint32_t k = 0; k < works[w]; k++)
                    x = x * GT_STR_LCG_A + c;
                assert_int_equal(x, want);
            }
        /* Consecutive runs' constants give different output. */
        assert_int_not_equal(sk * 3u, sk * 5u);
    }
}

static void streams_checks(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[300];
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(&gt_exp_streams, v);
    assert_int_equal(gt_experiment_check(&gt_exp_streams, v, &p, err, sizeof err), 0);
    v[GT_STR_CHUNKS] = 256;
    v[GT_STR_CHUNK] = 64ll << 20;
    assert_int_equal(gt_experiment_check(&gt_exp_streams, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "at most 8 GiB"));
    gt_experiment_defaults(&gt_exp_streams, v);
    gt_dp_set(&p, GT_DP_MEM_FREE, 16ll << 20);
    assert_int_equal(gt_experiment_check(&gt_exp_streams, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "one chunk buffer per stream needs 32 MiB of device memory; 16 MiB is free"));
    /* Parameter ranges name the allowed values. */
    const gt_param *s = &gt_exp_streams.params[GT_STR_STREAMS];
    int64_t out;
    assert_int_equal(gt_param_parse(s, "17", &out, err, sizeof err), -1);
    assert_non_null(strstr(err, "1 to 16"));
    assert_int_equal(gt_param_parse(&gt_exp_streams.params[GT_STR_WORK], "auto", &out, err,
                                    sizeof err), 0);
    assert_int_equal(out, 0);
}

static void streams_summary(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    gt_run r;
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_timeline *tl = sample_timeline();
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_ASYNC_ENGINES, 2);
    gt_dp_set(&p, GT_DP_CONC_KERNELS, 1);
    gt_experiment_defaults(&gt_exp_streams, v);
    gt_run_init(&r, &gt_exp_streams, v, 1);
    for (int i = 0; i < 5; i++) {
        gt_sample a = {1, GT_STR_SERIES_SERIAL, GT_V_FULL, 10e-3, 1};
        gt_sample b = {1, GT_STR_SERIES_STREAMS, GT_V_FULL, 4e-3, 1};
        gt_run_add(&r, &a);
        gt_run_add(&r, &b);
    }
    /* Without a timeline: speed-up and the engines only. */
    int n = gt_exp_streams.summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 2);
    assert_non_null(strstr(lines[0], "speed-up 2.50x"));
    assert_non_null(strstr(lines[1], "asyncEngineCount 2, concurrentKernels yes"));
    assert_int_equal(gt_run_set_timeline(&r, tl), 0);
    n = gt_exp_streams.summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 4);
    assert_non_null(strstr(lines[1], "ideal 3.40 ms = max(H2D 3.30 ms, kernel 3.40 ms, D2H 3.20 ms)"));
    assert_non_null(strstr(lines[2], "85% of the ideal"));
    /* The run owns its copy; moving it moves the timeline. */
    gt_run moved;
    memset(&moved, 0, sizeof moved);
    gt_run_move(&moved, &r);
    assert_null(r.tl);
    assert_non_null(moved.tl);
    gt_run_free(&moved);
    free(tl);
}

/* A timeline goes into a recording, comes back equal, and the replay
 * engine hands it out for its configuration. */
static void recorded_timeline(void **state)
{
    char path[64] = "/tmp/gputui-tl-XXXXXX";
    gt_recorder *w;
    gt_recording rec;
    gt_devprops p;
    gt_err err;
    int64_t v[GT_MAX_PARAMS];
    gt_timeline *tl = sample_timeline(), *got = calloc(1, sizeof *got);
    (void)state;
    close(mkstemp(path));
    gt_devprops_init(&p);
    snprintf(p.name, sizeof p.name, "Test GPU");
    gt_err_clear(&err);
    assert_int_equal(gt_recorder_open(&w, path, true, &p, &err), 0);
    gt_experiment_defaults(&gt_exp_streams, v);
    gt_recorder_config(w, &gt_exp_streams, v, 7, NULL, NULL, NULL);
    for (int i = 0; i < 3; i++) {
        gt_sample s = {7, (uint8_t)(i % 2), GT_V_FULL, 5e-3, 1};
        gt_recorder_sample(w, &s);
    }
    tl->gen = 7;
    gt_recorder_timeline(w, tl);
    assert_int_equal(gt_recorder_close(w, &err), 0);
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_int_equal(rec.minor, GT_REC_MINOR);
    assert_non_null(rec.cfg[0].tl);
    assert_int_equal(rec.cfg[0].tl->nops, tl->nops);
    assert_int_equal(rec.cfg[0].tl->nstreams, 2);
    assert_memory_equal(rec.cfg[0].tl->ops, tl->ops, sizeof tl->ops[0] * (size_t)tl->nops);
    assert_near(rec.cfg[0].tl->total[GT_TL_STREAMS], 8e-3, 1e-12);
    assert_near(rec.cfg[0].tl->sum[GT_TL_KERNEL], 3.4e-3, 1e-12);

    /* Through the replay engine. */
    gt_engine *e;
    uint32_t seq = 0;
    bool have = false;
    gt_replay_set_speed(100);
    assert_int_equal(gt_engine_start(&e, gt_replay_backend(&rec), 0, &err), 0);
    gt_engine_configure(e, &gt_exp_streams, rec.cfg[0].vals);
    for (int i = 0; i < 400 && !have; i++) {
        gt_sample buf[16];
        poll(NULL, 0, 5);
        gt_engine_drain(e, buf, 16);
        have = gt_engine_timeline(e, got, &seq);
    }
    assert_true(have);
    assert_int_equal(got->nops, tl->nops);
    assert_false(gt_engine_timeline(e, got, &seq));     /* nothing newer */
    gt_engine_stop(e);
    gt_replay_set_speed(1);
    gt_recording_free(&rec);
    unlink(path);
    free(tl);
    free(got);
}

static void bad_timelines(void **state)
{
#define H "{\"type\":\"header\",\"format\":[1,1],\"version\":\"0.1.0\",\"created\":\"x\",\"device\":{}}\n" \
          "{\"type\":\"config\",\"gen\":1,\"experiment\":\"streams\",\"values\":{}}\n"
#define T(rest) H "{\"type\":\"timeline\",\"gen\":1," rest "}\n"
    static const struct { const char *text, *must; } bad[] = {
        {H "{\"type\":\"timeline\",\"gen\":2,\"streams\":1}\n", "t.gtr:3: timeline of a configuration"},
        {T("\"streams\":0,\"total\":[1,1],\"sum\":[1,1,1],\"ops\":[]"), "outside 1..16"},
        {T("\"streams\":2,\"total\":[1],\"sum\":[1,1,1],\"ops\":[]"), "\"total\" [2]"},
        {T("\"streams\":2,\"total\":[1,1],\"sum\":[1,1,1],\"ops\":[[0,2,0,0,0,1]]"), "operation 0"},
        {T("\"streams\":2,\"total\":[1,1],\"sum\":[1,1,1],\"ops\":[[0,0,3,0,0,1]]"), "operation 0"},
        {T("\"streams\":2,\"total\":[1,1],\"sum\":[1,1,1],\"ops\":[[0,0,0,0,0,1],[0,0,0,0,2,1]]"), "operation 1"},
        {T("\"streams\":2,\"total\":[1,1],\"sum\":[1,1,1],\"ops\":[[0,0,0,0,0]]"), "operation 0"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gt_recording rec;
        gt_err err;
        gt_err_clear(&err);
        int rc = gt_recording_parse(&rec, "t.gtr", bad[i].text, strlen(bad[i].text), &err);
        if (rc != -1 || !strstr(err.msg, bad[i].must))
            fail_msg("case %zu: rc %d, message '%s', wanted '%s'", i, rc, err.msg, bad[i].must);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cells), cmocka_unit_test(cells_first_max),
        cmocka_unit_test(ideal_and_print), cmocka_unit_test(closed_form),
        cmocka_unit_test(streams_checks), cmocka_unit_test(streams_summary),
        cmocka_unit_test(recorded_timeline), cmocka_unit_test(bad_timelines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
