/* How a warp touches memory: the coalescing, bank and transpose rows. The
 * sectors, bank wavefronts and tile conflicts computed from the addresses;
 * the shapes of the strided buffers; every refusal and its allowed values;
 * the sums the bank kernel must give; and the summaries and 'y' lines on
 * synthetic samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "experiments/banks/banks.h"
#include "experiments/coalesce/coalesce.h"
#include "experiments/transpose/transpose.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"
#include "testutil.h"

static void sectors_from_the_addresses(void **state)
{
    (void)state;
    /* coalesced: a warp's 32 x W bytes fill W sectors */
    assert_int_equal(gt_co_sectors(1, 0, 4), 4);
    assert_int_equal(gt_co_sectors(1, 0, 8), 8);
    assert_int_equal(gt_co_sectors(1, 0, 16), 16);
    /* one element off: one more sector, for every width */
    assert_int_equal(gt_co_sectors(1, 1, 4), 5);
    assert_int_equal(gt_co_sectors(1, 1, 8), 9);
    assert_int_equal(gt_co_sectors(1, 1, 16), 17);
    /* 8 floats (32 B) realign the warp */
    assert_int_equal(gt_co_sectors(1, 8, 4), 4);
    /* stride 2: twice the sectors; from stride 8 floats, one a thread */
    assert_int_equal(gt_co_sectors(2, 0, 4), 8);
    assert_int_equal(gt_co_sectors(4, 0, 4), 16);
    assert_int_equal(gt_co_sectors(8, 0, 4), 32);
    assert_int_equal(gt_co_sectors(32, 0, 4), 32);
    assert_int_equal(gt_co_sectors(128, 5, 4), 32);
    /* float4 at stride 2: each thread half a sector of its own */
    assert_int_equal(gt_co_sectors(2, 0, 16), 32);
    assert_int_equal(gt_co_sectors(3, 5, 16), 32);
}

static void shapes_and_refusals(void **state)
{
    const gt_experiment *e = gt_experiment_find("coalesce");
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    gt_co_shape s;
    gt_devprops p;
    char err[400];
    (void)state;
    assert_ptr_equal(e, &gt_exp_coalesce);
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    assert_int_equal(e->series(v, names), GT_CO_NSERIES);
    assert_string_equal(names[GT_CO_S_STRIDED], "strided");
    assert_string_equal(names[GT_CO_S_COPY], "cudaMemcpy");
    v[GT_CO_STRIDE] = 32;
    v[GT_CO_OFFSET] = 3;
    gt_co_shape_of(v, &s);
    assert_int_equal(s.n, 16u << 20);          /* 64 MiB of floats */
    assert_int_equal(s.in_stride, 32);
    assert_int_equal(s.in_offset, 3);
    assert_int_equal(s.out_stride, 1);
    assert_int_equal(s.in_len, (uint64_t)((16u << 20) - 1) * 32 + 4);
    assert_int_equal(s.out_len, 16u << 20);
    v[GT_CO_OP] = GT_CO_WRITE;
    gt_co_shape_of(v, &s);
    assert_int_equal(s.in_stride, 1);
    assert_int_equal(s.out_stride, 32);
    assert_int_equal(s.out_len, (uint64_t)((16u << 20) - 1) * 32 + 4);
    v[GT_CO_OP] = GT_CO_BOTH;
    v[GT_CO_WIDTH] = GT_CO_FLOAT4;
    gt_co_shape_of(v, &s);
    assert_int_equal(s.n, 4u << 20);
    assert_int_equal(s.in_stride, 32);
    assert_int_equal(s.out_offset, 3);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);

    /* a buffer the access runs past: the largest stride that fits */
    gt_experiment_defaults(e, v);
    v[GT_CO_BUFFER] = 1ll << 30;
    v[GT_CO_STRIDE] = 32;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "stride 32, offset 0: thread 16777215 reaches element 536870880 "
                        "(float elements), past the 1 GiB buffer of 268435456; allowed at this "
                        "size and offset: stride 1 to 16, or buffer=auto");
    v[GT_CO_STRIDE] = 16;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    gt_co_shape_of(v, &s);
    assert_int_equal(s.in_len, 1u << 28);      /* the buffer asked for, not the span */
    v[GT_CO_OFFSET] = 16;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "stride 1 to 15, or buffer=auto"));
    v[GT_CO_BUFFER] = 1 << 20;
    v[GT_CO_STRIDE] = 1;
    v[GT_CO_OFFSET] = 0;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "allowed: a smaller size or offset, or buffer=auto"));

    /* mapped: host memory it may pin, and a device that maps */
    gt_experiment_defaults(e, v);
    v[GT_CO_MEMORY] = GT_CO_MAPPED;
    v[GT_CO_STRIDE] = 128;
    v[GT_CO_WIDTH] = GT_CO_FLOAT4;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "memory=mapped: stride 128 over 64 MiB spans 8.00 GiB of pinned "
                        "host memory; at most 4 GiB: lower size or stride");
    v[GT_CO_STRIDE] = 2;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_CAN_MAP, 0);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "canMapHostMemory is 0 here); allowed: device"));

    /* device memory: the span, the copies and twice the L2 */
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_L2, 50ll << 20);
    gt_dp_set(&p, GT_DP_MEM_FREE, 2ll << 30);
    gt_experiment_defaults(e, v);
    v[GT_CO_STRIDE] = 32;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs 2.29 GiB of device memory"));
    v[GT_CO_STRIDE] = 8;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
}

static void coalesce_summary_and_why(void **state)
{
    const gt_experiment *e = &gt_exp_coalesce;
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    const double sec[] = {400e-6, 50e-6, 40e-6};
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_L2, 50ll << 20);
    gt_experiment_defaults(e, v);
    v[GT_CO_STRIDE] = 32;
    gt_run_init(&r, e, v, 1);
    run_add_each(&r, 1, sec, 3, 64u << 20, 9);
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_string_equal(lines[0], "stride 32 offset 0: 32 sectors a request instead of 4 "
                        "(8.00x): 8.00x the coalesced time");
    assert_string_equal(lines[1], "coalesced kernel 1.25x, strided 10.00x the time of cudaMemcpy "
                        "of the same bytes");
    int n = e->why(&r, GT_CO_S_STRIDED, &p, lines, GT_SUMMARY_LINES);
    assert_true(n >= 4);
    assert_non_null(strstr(lines[1], "touches 32 sectors of 32 B (1024 B for 128 useful, 12.5%)"));
    assert_non_null(strstr(lines[2], "537 MB through the L2 and device memory for 67 MB useful: "
                           "8.00x"));
    assert_non_null(strstr(lines[n - 1], "flushed before each timed kernel"));
    n = e->why(&r, GT_CO_S_COALESCED, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[1], "at stride 1, offset 0 touches 4 sectors"));
    gt_run_free(&r);
    v[GT_CO_STRIDE] = 1;
    v[GT_CO_OFFSET] = 1;
    gt_run_init(&r, e, v, 2);
    run_add_each(&r, 2, sec, 3, 64u << 20, 9);
    n = e->why(&r, GT_CO_S_STRIDED, &p, lines, GT_SUMMARY_LINES);
    bool said = false;
    for (int i = 0; i < n; i++)
        said |= strstr(lines[i], "one more sector a request") != NULL;
    assert_true(said);
    gt_run_free(&r);
}

static void bank_wavefronts(void **state)
{
    int wf, few;
    (void)state;
    /* 4-byte words: the degree is gcd(stride, 32) */
    for (uint32_t s = 1; s <= 64; s++) {
        uint32_t a = s, b = 32;
        while (b) {
            uint32_t t = a % b;
            a = b;
            b = t;
        }
        gt_bk_wavefronts(s, 4, &wf, &few);
        assert_int_equal(few, 1);
        assert_int_equal(wf, (int)a);
    }
    /* wider words: the fewest is W / 4; stride 1 and odd strides reach it */
    gt_bk_wavefronts(1, 8, &wf, &few);
    assert_true(wf == 2 && few == 2);
    gt_bk_wavefronts(1, 16, &wf, &few);
    assert_true(wf == 4 && few == 4);
    gt_bk_wavefronts(33, 16, &wf, &few);
    assert_true(wf == 4 && few == 4);
    gt_bk_wavefronts(2, 8, &wf, &few);
    assert_int_equal(wf, 4);
    gt_bk_wavefronts(32, 8, &wf, &few);
    assert_int_equal(wf, 32);
    gt_bk_wavefronts(32, 16, &wf, &few);
    assert_int_equal(wf, 32);
    /* lane 31 at the largest stride and widest word stays inside the array */
    assert_true(gt_bk_addr(31, GT_BK_STRIDE_MAX, 16, GT_BK_STEPS - 1) + 16 <= GT_BK_SMEM);
}

static void bank_sums_and_refusals(void **state)
{
    const gt_experiment *e = gt_experiment_find("banks");
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[300];
    (void)state;
    /* the sum a lane must give, from the words as the kernel reads them */
    uint32_t want = 0;
    for (uint32_t r = 0; r < 64; r++)
        for (uint32_t c = 0; c < 2; c++)
            want += gt_bk_word(gt_bk_addr(5, 3, 8, r % GT_BK_STEPS) / 4 + c, 77);
    assert_int_equal(gt_bk_expected(5, 3, 8, 64, 77), want);
    assert_int_not_equal(gt_bk_expected(5, 3, 8, 64, 77), gt_bk_expected(6, 3, 8, 64, 77));
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    assert_int_equal(v[GT_BK_STRIDE], 1);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    v[GT_BK_READS] = 300;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "reads: 300 is not a multiple of 8; allowed: multiples of 8 from "
                        "256 to 1048576");
}

static void bank_summary(void **state)
{
    const gt_experiment *e = &gt_exp_banks;
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    const double sec[] = {2.124e-3, 71e-6};
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    v[GT_BK_STRIDE] = 32;
    gt_run_init(&r, e, v, 1);
    run_add_each(&r, 1, sec, 2, 1u << 20, 9);
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_string_equal(lines[0], "stride 32: conflict degree 32 (the addresses give 32 "
                        "wavefronts a request, the fewest 1): 29.92x the time of stride 1");
    /* 4 blocks x 8 warps x 4096 requests an SM */
    assert_string_equal(lines[1], "a warp's request: 16.20 ns on an SM strided, 0.54 ns at stride 1");
    int n = e->why(&r, GT_BK_S_STRIDED, &p, lines, GT_SUMMARY_LINES);
    assert_non_null(strstr(lines[n - 1], "32 distinct words: 32 wavefronts, against 1 for a "
                           "4-byte request: degree 32 (gcd(stride, 32)"));
    gt_run_free(&r);
}

static void transpose_conflicts_and_refusals(void **state)
{
    const gt_experiment *e = gt_experiment_find("transpose");
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[300];
    (void)state;
    assert_int_equal(gt_tp_conflict(32, 0), 32);
    assert_int_equal(gt_tp_conflict(32, 1), 1);
    assert_int_equal(gt_tp_conflict(64, 0), 32);
    assert_int_equal(gt_tp_conflict(64, 1), 1);
    assert_int_equal(gt_tp_conflict(16, 0), 8);      /* two rows of 16: banks 0 and 16 */
    assert_int_equal(gt_tp_conflict(16, 1), 2);
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    v[GT_TP_N] = 1000;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "n: 1000 is not a multiple of the tile (32); allowed: a multiple "
                        "such as 992 or 1024");
    v[GT_TP_N] = 8192;
    v[GT_TP_TILE] = 128;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "tile 128: the padded tile takes 66048 B of shared memory, more than "
                        "the 49152 B a block has without opting in; allowed: tile 4 to 110");
    v[GT_TP_TILE] = 64;
    v[GT_TP_ROWS] = 32;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "a block of tile x rows = 64 x 32 = 2048 threads; at most 1024: "
                        "rows 1 to 16");
    v[GT_TP_TILE] = 32;
    v[GT_TP_ROWS] = 12;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "rows: 12 does not divide the tile (32)"));
    v[GT_TP_ROWS] = 8;
    gt_dp_set(&p, GT_DP_MEM_FREE, 512ll << 20);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs 512 MiB of device memory (the matrix and its result); "
                               "512 MiB is free"));
    gt_dp_set(&p, GT_DP_MEM_FREE, 1ll << 30);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
}

static void transpose_summary(void **state)
{
    const gt_experiment *e = &gt_exp_transpose;
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    const double sec[] = {0.214e-3, 1.28e-3, 0.337e-3, 0.192e-3};
    double f;
    char label[96];
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_L2, 50ll << 20);
    gt_experiment_defaults(e, v);
    gt_run_init(&r, e, v, 1);
    run_add_each(&r, 1, sec, 4, 256u << 20, 9);
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_string_equal(lines[0], "read + write GB/s (p50): copy 2509, naive 419, tiled 1593, "
                        "padded 2796");
    assert_string_equal(lines[1], "of the copy's rate: naive 17%, tiled 64%, padded 111%; padding "
                        "makes the tiled one 1.76x faster");
    /* past the L2: device memory, read + write; within it, none known */
    gt_experiment_ceiling(e, v, GT_TP_S_NAIVE, &p, &f, label, sizeof label);
    assert_near(f, 2.0, 0);
    v[GT_TP_N] = 1024;
    assert_near(gt_experiment_ceiling(e, v, GT_TP_S_NAIVE, &p, &f, label, sizeof label), 0, 0);
    assert_non_null(strstr(label, "fit in the L2"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sectors_from_the_addresses),
        cmocka_unit_test(shapes_and_refusals),
        cmocka_unit_test(coalesce_summary_and_why),
        cmocka_unit_test(bank_wavefronts),
        cmocka_unit_test(bank_sums_and_refusals),
        cmocka_unit_test(bank_summary),
        cmocka_unit_test(transpose_conflicts_and_refusals),
        cmocka_unit_test(transpose_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
