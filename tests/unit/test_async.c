/* The async experiment's table row: which ways a GPU has, what a block's
 * shared memory and an SM's hold, the tile geometry, the bytes in flight,
 * and the summary and 'y' lines. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/async/async.h"
#include "gputui/measure/run.h"
#include "gputui/measure/sweep.h"
#include "gputui/report/why.h"
#include "testutil.h"

/* An H100's properties, as cudaDeviceGetAttribute gives them. */
static void h100(gt_devprops *p)
{
    gt_devprops_init(p);
    gt_dp_set(p, GT_DP_CC, 90);
    gt_dp_set(p, GT_DP_SMS, 132);
    gt_dp_set(p, GT_DP_SMEM_SM, 233472);
    gt_dp_set(p, GT_DP_SMEM_BLOCK, 232448);
    gt_dp_set(p, GT_DP_MEM_FREE, 80ll << 30);
    gt_dp_set(p, GT_DP_MEM_PEAK, 3352320000000ll);
    gt_dp_set(p, GT_DP_BUILD_CUDA, 13000);
    gt_dp_set(p, GT_DP_DRIVER_CUDA, 13000);
}

static void accepted(const int64_t *v, const gt_devprops *p)
{
    char msg[512];

    if (gt_experiment_check(&gt_exp_async, v, p, msg, sizeof msg))
        fail_msg("refused: %s", msg);
}

/* Each way on the GPUs that have it, and the refusal naming the compute
 * capability elsewhere; bulk and tma need CUDA 12.0 in the build and the
 * driver. */
static void ways_by_device(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    (void)state;
    h100(&p);
    gt_experiment_defaults(&gt_exp_async, v);
    assert_int_equal(v[GT_AS_WAY], GT_AS_PLAIN);
    for (int w = 0; w < GT_AS_NWAYS; w++) {
        v[GT_AS_WAY] = w;
        accepted(v, &p);
    }
    gt_dp_set(&p, GT_DP_CC, 80);
    v[GT_AS_WAY] = GT_AS_CPASYNC;
    accepted(v, &p);
    v[GT_AS_WAY] = GT_AS_TMA;
    assert_refused(&gt_exp_async, v, &p, "way=tma needs compute capability 9.0 or newer (bulk copies and the TMA "
                   "came with Hopper); this device is 8.0; allowed here: plain, cp.async");
    gt_dp_set(&p, GT_DP_CC, 75);
    v[GT_AS_WAY] = GT_AS_CPASYNC;
    assert_refused(&gt_exp_async, v, &p, "way=cp.async needs compute capability 8.0 or newer (cp.async came with "
                   "Ampere); this device is 7.5; allowed here: plain");
    v[GT_AS_WAY] = GT_AS_PLAIN;
    accepted(v, &p);
    h100(&p);
    gt_dp_set(&p, GT_DP_BUILD_CUDA, 11080);
    v[GT_AS_WAY] = GT_AS_BULK;
    assert_refused(&gt_exp_async, v, &p, "way=bulk needs CUDA 12.0 (cp.async.bulk); this gputui was built with 11.8");
    v[GT_AS_WAY] = GT_AS_CPASYNC;
    accepted(v, &p);
    /* a recording made before the properties were kept: no objection */
    gt_devprops_init(&p);
    v[GT_AS_WAY] = GT_AS_TMA;
    accepted(v, &p);
}

/* The tile, the size in whole rows of tiles, a block's shared memory and
 * the SM's. */
static void shapes(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    (void)state;
    h100(&p);
    gt_experiment_defaults(&gt_exp_async, v);
    v[GT_AS_TILE] = 1536;
    assert_refused(&gt_exp_async, v, &p, "tile: 1.50 KiB; allowed: a multiple of 1 KiB from 1 KiB to 64 KiB");
    v[GT_AS_TILE] = 3 << 10;
    v[GT_AS_SIZE] = 1ll << 20;
    assert_refused(&gt_exp_async, v, &p, "size: 1 MiB is not a multiple of 16 tiles (48 KiB); allowed: multiples of "
                   "48 KiB");
    v[GT_AS_SIZE] = 3ll << 20;
    accepted(v, &p);
    v[GT_AS_TILE] = 64 << 10;
    v[GT_AS_SIZE] = 256ll << 20;
    v[GT_AS_WAY] = GT_AS_BULK;
    v[GT_AS_STAGES] = 4;
    assert_int_equal(gt_as_smem(v), 4 * 65536 + GT_AS_SMEM_EXTRA);
    assert_refused(&gt_exp_async, v, &p, "stages: 4 stages of 64 KiB ask 256.2 KiB of shared memory a block; this "
                   "device gives a block at most 227 KiB; allowed here: fewer stages, at most 3 "
                   "of 64 KiB");
    v[GT_AS_STAGES] = 3;
    accepted(v, &p);
    v[GT_AS_BLOCKS] = 2;
    assert_refused(&gt_exp_async, v, &p, "blocks: 2 blocks of 192.2 KiB of shared memory (and 1 KiB the driver keeps "
                   "each) do not fit the SM's 228 KiB; allowed here: 1 to 1");
    v[GT_AS_TILE] = 16 << 10;
    v[GT_AS_STAGES] = 4;
    v[GT_AS_BLOCKS] = 4;                  /* 4 x (64 KiB + 1.25 KiB) = 261 KiB */
    assert_refused(&gt_exp_async, v, &p, "allowed here: 1 to 3");
    v[GT_AS_BLOCKS] = 3;
    accepted(v, &p);
    /* plain loads use one stage, whatever the stages say */
    v[GT_AS_WAY] = GT_AS_PLAIN;
    v[GT_AS_STAGES] = 8;
    assert_int_equal(gt_as_stages(v), 1);
    assert_int_equal(gt_as_smem(v), 16 << 10);
    /* twice the size must be free */
    v[GT_AS_SIZE] = 48ll << 30;
    assert_refused(&gt_exp_async, v, &p, "size: 48 GiB read and as much copied need 96 GiB; the device has 80 GiB "
                   "free");
}

/* Which parameters apply to which way. */
static void applies(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    const char *why;
    (void)state;
    gt_experiment_defaults(&gt_exp_async, v);
    assert_false(gt_param_applies(&gt_exp_async.params[GT_AS_STAGES], v, &why));
    assert_string_equal(why, "only with way=cp.async, bulk or tma (plain loads wait for each "
                             "tile)");
    assert_false(gt_param_applies(&gt_exp_async.params[GT_AS_WIDTH], v, &why));
    v[GT_AS_WAY] = GT_AS_CPASYNC;
    assert_true(gt_param_applies(&gt_exp_async.params[GT_AS_STAGES], v, &why));
    assert_true(gt_param_applies(&gt_exp_async.params[GT_AS_WIDTH], v, &why));
    assert_int_equal(gt_as_width(v[GT_AS_WIDTH]), 16);
    v[GT_AS_WAY] = GT_AS_TMA;
    assert_false(gt_param_applies(&gt_exp_async.params[GT_AS_WIDTH], v, &why));
    assert_string_equal(why, "only with way=cp.async");
    assert_string_equal(gt_as_way_name(GT_AS_TMA), "tma");
}

/* Bytes in flight an SM: plain loads hold 256 threads x 4 x 16 B in
 * registers (at most a tile); an async way a whole stage a block. */
static void in_flight(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    (void)state;
    gt_experiment_defaults(&gt_exp_async, v);
    assert_int_equal(gt_as_in_flight(v), 16 << 10);
    v[GT_AS_TILE] = 4 << 10;
    assert_int_equal(gt_as_in_flight(v), 4 << 10);
    v[GT_AS_TILE] = 1 << 10;              /* 64 threads, one load each */
    assert_int_equal(gt_as_in_flight(v), 1 << 10);
    v[GT_AS_TILE] = 20 << 10;             /* four loads a thread, then one */
    assert_int_equal(gt_as_in_flight(v), 16 << 10);
    v[GT_AS_WAY] = GT_AS_BULK;
    v[GT_AS_STAGES] = 4;
    v[GT_AS_TILE] = 16 << 10;
    v[GT_AS_BLOCKS] = 2;
    assert_int_equal(gt_as_in_flight(v), 2 * 4 * (16 << 10));
}

/* The summary against the peak and the copy; 'y' reads the registers
 * from the set-up note and applies Little's law. */
static void summary_and_why(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[12];
    gt_devprops p;
    gt_run r;
    int n;
    (void)state;
    h100(&p);
    gt_experiment_defaults(&gt_exp_async, v);
    v[GT_AS_WAY] = GT_AS_BULK;
    v[GT_AS_STAGES] = 4;
    gt_run_init(&r, &gt_exp_async, v, 1);
    snprintf(r.info.note, sizeof r.info.note, "every word of every tile where it lands, and of "
             "the copy; 40 registers a thread, 64.2 KiB of shared memory a block, 1 block an SM "
             "(3 would fit)");
    for (int i = 0; i < 5; i++) {
        /* 256 MiB: 100 us into shared memory (2684 GB/s), 200 us copied */
        gt_sample a = {1, GT_AS_S_WAY, GT_V_FULL, 100e-6, 256ll << 20};
        gt_sample b = {1, GT_AS_S_D2D, GT_V_FULL, 200e-6, 256ll << 20};
        gt_run_add(&r, &a);
        gt_run_add(&r, &b);
    }
    n = gt_exp_async.summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 3);
    assert_string_equal(lines[0], "bulk: 2684 GB/s into shared memory (p50)");
    assert_non_null(strstr(lines[1], "cudaMemcpy of the same bytes: 1342 GB/s"));
    assert_non_null(strstr(lines[1], "reads 2.00x its rate"));
    assert_string_equal(lines[2], "in flight an SM: up to 64 KiB (1 block x 4 stages of 16 KiB)");
    n = gt_why(&r, GT_AS_S_WAY, &p, lines, 12);
    assert_true(n >= 5);                /* after gt_why's heading */
    assert_non_null(strstr(lines[1], "bulk into shared memory: 2684 GB/s"));
    assert_non_null(strstr(lines[2], "one thread asks for the whole tile"));
    assert_string_equal(lines[3], "the kernel holds 40 registers a thread (cudaFuncGetAttributes)");
    /* 2684 GB/s over 132 SMs: 20.3 GB/s an SM; 64 KiB / 20.3 GB/s = 3.22 us */
    assert_non_null(strstr(lines[4], "an SM takes in 20.3 GB/s; with 64 KiB on its way at once"));
    assert_non_null(strstr(lines[4], "at most 3.22 us"));
    n = gt_why(&r, GT_AS_S_D2D, &p, lines, 12);
    assert_true(n >= 3);
    assert_non_null(strstr(lines[1], "cudaMemcpy device to device of 256 MiB: 1342 GB/s"));
    gt_run_free(&r);
}

/* The way in reads device memory once, the copy reads and writes it; a
 * buffer the L2 holds has no ceiling. */
static void ceilings(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    double f;
    char label[64];
    (void)state;
    h100(&p);
    gt_dp_set(&p, GT_DP_L2, 50ll << 20);
    gt_experiment_defaults(&gt_exp_async, v);
    assert_true(gt_experiment_ceiling(&gt_exp_async, v, GT_AS_S_WAY, &p, &f, label,
                                      sizeof label) == (double)gt_dp_get(&p, GT_DP_MEM_PEAK));
    assert_true(f == 1.0);
    assert_string_equal(label, "HBM peak, read");
    assert_true(gt_experiment_ceiling(&gt_exp_async, v, GT_AS_S_D2D, &p, &f, label,
                                      sizeof label) == (double)gt_dp_get(&p, GT_DP_MEM_PEAK));
    assert_true(f == 2.0);
    assert_string_equal(label, "HBM peak, read+write");
    v[GT_AS_SIZE] = 32ll << 20;
    assert_true(gt_experiment_ceiling(&gt_exp_async, v, GT_AS_S_WAY, &p, &f, label,
                                      sizeof label) == 0);
    assert_string_equal(label, "none known: the buffer fits in the L2");
    gt_devprops_init(&p);               /* no L2 size: no ceiling either */
    assert_true(gt_experiment_ceiling(&gt_exp_async, v, GT_AS_S_WAY, &p, &f, label,
                                      sizeof label) == 0);
    assert_string_equal(label, "none known: the L2's size is unknown");
}

/* w on the way: the four; on the stages: 1 to 8. */
static void sweeps(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    gt_sweep s;
    char msg[300];
    (void)state;
    h100(&p);
    gt_experiment_defaults(&gt_exp_async, v);
    gt_sweep_begin(&s, &gt_exp_async, GT_AS_WAY, v, &p);
    assert_int_equal(gt_sweep_values(&s, &p, msg, sizeof msg), 4);
    assert_int_equal(s.refused, 0);
    gt_dp_set(&p, GT_DP_CC, 80);        /* an A100: bulk and tma left out, and why */
    gt_sweep_begin(&s, &gt_exp_async, GT_AS_WAY, v, &p);
    assert_int_equal(gt_sweep_values(&s, &p, msg, sizeof msg), 2);
    assert_int_equal(s.refused, 2);
    assert_non_null(strstr(s.why_refused, "compute capability 9.0"));
    h100(&p);
    v[GT_AS_WAY] = GT_AS_CPASYNC;
    gt_sweep_begin(&s, &gt_exp_async, GT_AS_STAGES, v, &p);
    assert_int_equal(gt_sweep_values(&s, &p, msg, sizeof msg), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ways_by_device),
        cmocka_unit_test(shapes),
        cmocka_unit_test(applies),
        cmocka_unit_test(in_flight),
        cmocka_unit_test(summary_and_why),
        cmocka_unit_test(ceilings),
        cmocka_unit_test(sweeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
