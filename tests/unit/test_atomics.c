/* The atomics experiment's table row: what each address receives, the
 * conflict the addresses give a warp, the refusals, and the summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/atomics/atomics.h"
#include "gputui/measure/run.h"
#include "gputui/measure/sweep.h"
#include "gputui/report/why.h"
#include "testutil.h"

static void h100(gt_devprops *p)
{
    gt_devprops_init(p);
    gt_dp_set(p, GT_DP_CC, 90);
    gt_dp_set(p, GT_DP_SMS, 132);
    gt_dp_set(p, GT_DP_SMEM_BLOCK, 232448);
    gt_dp_set(p, GT_DP_CAN_MAP, 1);
    gt_dp_set(p, GT_DP_HOST_ATOMIC, 0);
    gt_topo_init(&p->topo);
    p->topo.count = 1;
}

/* The counts, by the difference array, against every operation walked. */
static void counts_match_every_operation(void **state)
{
    static const uint64_t ks[] = {1, 2, 3, 7, 32, 100, 1000};
    static const uint64_t opss[] = {1, 5, 64, 999};
    (void)state;
    for (size_t a = 0; a < sizeof ks / sizeof ks[0]; a++)
        for (size_t b = 0; b < sizeof opss / sizeof opss[0]; b++) {
            uint64_t k = ks[a], ops = opss[b], threads = 513;
            uint64_t *fast = malloc(k * sizeof *fast), *slow = calloc(k, sizeof *slow);
            assert_non_null(fast);
            assert_non_null(slow);
            gt_at_counts(threads, ops, k, 0, fast);
            for (uint64_t t = 0; t < threads; t++)
                for (uint64_t i = 0; i < ops; i++)
                    slow[gt_at_target(t, i, k, 0)]++;
            for (uint64_t x = 0; x < k; x++)
                if (fast[x] != slow[x])
                    fail_msg("K %llu, %llu ops: address %llu counted %llu, walked %llu",
                             (unsigned long long)k, (unsigned long long)ops,
                             (unsigned long long)x, (unsigned long long)fast[x],
                             (unsigned long long)slow[x]);
            free(fast);
            free(slow);
        }
    /* each thread its own */
    {
        uint64_t c[40];
        gt_at_counts(40, 7, 40, 1, c);
        for (int t = 0; t < 40; t++)
            assert_int_equal(c[t], 7);
        assert_int_equal(gt_at_target(39, 5, 40, 1), 39);
    }
}

static void conflicts_and_sizes(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    (void)state;
    gt_experiment_defaults(&gt_exp_atomics, v);
    assert_int_equal(gt_at_conflict(v), 32);            /* one address */
    v[GT_AT_ADDRS] = 3;
    assert_int_equal(gt_at_conflict(v), 11);
    v[GT_AT_ADDRS] = 32;
    assert_int_equal(gt_at_conflict(v), 1);
    v[GT_AT_ADDRS] = 0;
    assert_int_equal(gt_at_conflict(v), 1);
    assert_int_equal(gt_at_addresses(v, 132), 4 * 132 * 256);
    assert_int_equal(gt_at_size(GT_AT_F64), 8);
    assert_int_equal(gt_at_size(GT_AT_F32), 4);
    assert_true(gt_at_value(1, 2, 3) != gt_at_value(2, 1, 3));
}

static void refusals(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char msg[512];
    (void)state;
    h100(&p);
    gt_experiment_defaults(&gt_exp_atomics, v);
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_WHERE] = GT_AT_PEER;
    assert_refused(&gt_exp_atomics, v, &p, "where=peer needs two GPUs; this machine has one; allowed here: global, "
                   "shared, mapped");
    v[GT_AT_WHERE] = GT_AT_MAPPED;
    v[GT_AT_ADDRS] = 256;               /* 528 threads x 64 round trips an address */
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    gt_dp_set(&p, GT_DP_CAN_MAP, 0);
    assert_refused(&gt_exp_atomics, v, &p, "where=mapped: this device cannot map host memory (canMapHostMemory = 0)");
    h100(&p);
    gt_experiment_defaults(&gt_exp_atomics, v);
    v[GT_AT_OP] = GT_AT_MIN;
    v[GT_AT_TYPE] = GT_AT_F64;
    assert_refused(&gt_exp_atomics, v, &p, "op=min works on integers (a float's result would depend on the order of "
                   "arrival); allowed with type=f64: add, cas");
    v[GT_AT_TYPE] = GT_AT_U64;
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_AGG] = GT_AT_WARP;
    assert_refused(&gt_exp_atomics, v, &p, "aggregate=warp: the leader adds for its lanes, which only op=add allows");
    gt_experiment_defaults(&gt_exp_atomics, v);
    v[GT_AT_OPS] = 4096;                /* 135168 threads x 4096 */
    assert_refused(&gt_exp_atomics, v, &p, "ops: 135168 threads x 4096 operations is 553648128 a sample; allowed: at "
                   "most 2^26 (67108864), so that a sample stays short and the host can check "
                   "it: at most 496 operations a thread here");
    v[GT_AT_OPS] = 400;                 /* f32: 54 M on one address, past 2^24 */
    v[GT_AT_TYPE] = GT_AT_F32;
    assert_refused(&gt_exp_atomics, v, &p, "type=f32: an address would count to about 54067200, past 2^24");
    v[GT_AT_ADDRS] = 32;
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    gt_experiment_defaults(&gt_exp_atomics, v);
    v[GT_AT_WHERE] = GT_AT_SHARED;
    v[GT_AT_ADDRS] = 0;
    assert_refused(&gt_exp_atomics, v, &p, "where=shared: one bin a thread");
    v[GT_AT_ADDRS] = 1 << 16;
    v[GT_AT_TYPE] = GT_AT_U64;          /* 512 KiB of bins */
    assert_refused(&gt_exp_atomics, v, &p, "where=shared: 512 KiB of bins");
    v[GT_AT_ADDRS] = 256;
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    gt_experiment_defaults(&gt_exp_atomics, v);
    v[GT_AT_ADDRS] = 1 << 24;
    v[GT_AT_STRIDE] = 1024;
    assert_refused(&gt_exp_atomics, v, &p, "allowed: at most 1 GiB");
    gt_experiment_defaults(&gt_exp_atomics, v);
    v[GT_AT_OP] = GT_AT_CAS;            /* 135168 threads on one address, squared */
    assert_refused(&gt_exp_atomics, v, &p, "op=cas on 1 address: 135168 threads retry on each, and each success costs a "
                   "try of about every other, some 2^40 tries a sample; allowed: at most 2^23, "
                   "so that a sample stays short: addresses of at least 374, or fewer blocks");
    v[GT_AT_ADDRS] = 374;               /* 362 threads an address: 2^23 / 64 allows 362 */
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_ADDRS] = 373;
    assert_refused(&gt_exp_atomics, v, &p, "op=cas on 373 addresses: 363 threads retry on each");
    v[GT_AT_OPS] = 32;
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_OP] = GT_AT_MUL;
    v[GT_AT_WHERE] = GT_AT_MAPPED;      /* over the link: 2^17 */
    v[GT_AT_ADDRS] = 1024;              /* 132 threads an address, 32 operations each */
    assert_refused(&gt_exp_atomics, v, &p, "op=mul on 1024 addresses: 132 threads retry on each, and each success costs "
                   "a try of about every other, some 2^19 tries a sample, each a round trip over "
                   "the link; allowed: at most 2^17, so that a sample stays short: addresses of "
                   "at least 2112, or fewer operations a thread");
    v[GT_AT_ADDRS] = 2112;
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_OPS] = 64;
    v[GT_AT_WHERE] = GT_AT_SHARED;      /* a block's own bins: 256 threads at most */
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_WHERE] = GT_AT_GLOBAL;
    v[GT_AT_OP] = GT_AT_ADD;            /* one atomic an operation: no loop */
    v[GT_AT_ADDRS] = 1;
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_WHERE] = GT_AT_MAPPED;      /* 135168 x 64 round trips on one address */
    assert_refused(&gt_exp_atomics, v, &p, "where=mapped: 8650752 operations on each of 1 address, each a round trip "
                   "over the link after the one before; allowed: at most 2^20 (1048576) an "
                   "address, so that a sample stays short: at most 7 operations a thread, or "
                   "more addresses");
    v[GT_AT_OPS] = 7;
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_OPS] = 64;
    v[GT_AT_AGG] = GT_AT_WARP;          /* a warp's lanes in one: 270336 */
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    v[GT_AT_AGG] = GT_AT_COMPILER;
    v[GT_AT_BLOCKS] = 32;               /* 1081344 threads, one operation each: too many */
    v[GT_AT_OPS] = 1;
    assert_refused(&gt_exp_atomics, v, &p, "so that a sample stays short: fewer blocks, or more addresses");
    v[GT_AT_ADDRS] = 0;                 /* each its own: one operation an address */
    assert_int_equal(gt_experiment_check(&gt_exp_atomics, v, &p, msg, sizeof msg), 0);
    gt_dp_set(&p, GT_DP_CC, 52);
    gt_experiment_defaults(&gt_exp_atomics, v);
    v[GT_AT_SCOPE] = GT_AT_SYSTEM;
    assert_refused(&gt_exp_atomics, v, &p, "an atomic of block or system scope needs compute capability 6.0");
}

static void summary_and_why(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[12];
    gt_devprops p;
    gt_run r;
    int n;
    (void)state;
    h100(&p);
    gt_experiment_defaults(&gt_exp_atomics, v);
    v[GT_AT_WHERE] = GT_AT_MAPPED;
    gt_run_init(&r, &gt_exp_atomics, v, 1);
    for (int i = 0; i < 5; i++) {
        /* 135168 threads x 64 = 8650752 atomics in 1 ms */
        gt_sample s = {1, 0, GT_V_FULL, 1e-3, 8650752ll * 4};
        gt_run_add(&r, &s);
    }
    n = gt_exp_atomics.summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 2);
    assert_string_equal(lines[0], "8.65 G atomic add of u32 a second (p50), mapped memory, "
                                  "device scope");
    assert_string_equal(lines[1], "the addresses put up to 32 lanes of a warp on one address "
                                  "at once");
    n = gt_why(&r, 0, &p, lines, 12);
    assert_true(n >= 4);
    assert_non_null(strstr(lines[3], "hostNativeAtomicSupported 0 here"));
    gt_run_free(&r);
}

static void sweeps(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    gt_sweep s;
    char msg[300];
    (void)state;
    h100(&p);
    gt_experiment_defaults(&gt_exp_atomics, v);
    gt_sweep_begin(&s, &gt_exp_atomics, GT_AT_ADDRS, v, &p);
    assert_int_equal(gt_sweep_values(&s, &p, msg, sizeof msg), 10);
    assert_int_equal(s.vals[9], 0);                     /* each thread its own */
    gt_sweep_begin(&s, &gt_exp_atomics, GT_AT_WHERE, v, &p);
    assert_int_equal(gt_sweep_values(&s, &p, msg, sizeof msg), 2);     /* one hot address */
    assert_int_equal(s.refused, 2);     /* mapped: 8650752 round trips on it; peer: one GPU */
    v[GT_AT_ADDRS] = 256;
    gt_sweep_begin(&s, &gt_exp_atomics, GT_AT_WHERE, v, &p);
    assert_int_equal(gt_sweep_values(&s, &p, msg, sizeof msg), 3);     /* one GPU: no peer */
    assert_int_equal(s.refused, 1);
    assert_non_null(strstr(s.why_refused, "needs two GPUs"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_match_every_operation),
        cmocka_unit_test(conflicts_and_sizes),
        cmocka_unit_test(refusals),
        cmocka_unit_test(summary_and_why),
        cmocka_unit_test(sweeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
