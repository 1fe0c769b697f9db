/* The chains the latency experiment walks, the host's walk that checks
 * the GPU's, and the experiment's parameter checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/latency/chain.h"
#include "gputui/measure/experiment.h"
#include "gputui/measure/run.h"
#include "gputui/measure/sweep.h"
#include "gputui/report/why.h"
#include "gputui/experiments/registry.h"
#include "testutil.h"

/* Following next from slot 0 visits every slot exactly once and comes
 * back to 0 after 'slots' steps. */
static void one_cycle(const uint32_t *next, size_t slots)
{
    char *seen = calloc(slots, 1);
    uint32_t k = 0;
    assert_non_null(seen);
    for (size_t i = 0; i < slots; i++) {
        assert_true(k < slots);
        if (seen[k])
            fail_msg("slot %u visited twice (step %zu of %zu)", k, i, slots);
        seen[k] = 1;
        k = next[k];
    }
    assert_int_equal(k, 0);
    free(seen);
}

static void chains_visit_every_slot_once(void **state)
{
    static const size_t sizes[] = {2, 3, 17, 64, 1000, 4096, 65537};
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t *next = malloc(sizes[i] * sizeof *next);
        assert_non_null(next);
        gt_chain_order(next, sizes[i], false, 0);
        one_cycle(next, sizes[i]);
        assert_int_equal(next[sizes[i] - 1], 0);           /* linear wraps to the start */
        for (uint64_t seed = 1; seed < 4; seed++) {
            gt_chain_order(next, sizes[i], true, seed);
            one_cycle(next, sizes[i]);
        }
        free(next);
    }
}

static void random_chains_differ_and_are_not_linear(void **state)
{
    uint32_t a[4096], b[4096];
    size_t same = 0, linear = 0;
    (void)state;
    gt_chain_order(a, 4096, true, 1);
    gt_chain_order(b, 4096, true, 2);
    for (size_t k = 0; k < 4096; k++) {
        same += a[k] == b[k];
        linear += a[k] == (k + 1) % 4096;
    }
    assert_true(same < 64);
    assert_true(linear < 64);
}

static void host_walk_and_lanes(void **state)
{
    uint32_t next[1000];
    (void)state;
    /* Linear: arithmetic, with and without the order array. */
    gt_chain_order(next, 1000, false, 0);
    assert_int_equal(gt_chain_walk(NULL, 1000, 990, 25), 15);
    assert_int_equal(gt_chain_walk(next, 1000, 990, 25), 15);
    assert_int_equal(gt_chain_walk(NULL, 1000, 7, 1000 * 5), 7);
    /* Random: slots steps come back; k steps then m steps is k + m. */
    gt_chain_order(next, 1000, true, 9);
    assert_int_equal(gt_chain_walk(next, 1000, 123, 1000), 123);
    assert_int_equal(gt_chain_walk(next, 1000, gt_chain_walk(next, 1000, 5, 300), 450),
                     gt_chain_walk(next, 1000, 5, 750));
    /* 32 walkers start evenly apart along the chain: all different. */
    uint32_t st[32];
    gt_chain_lane_starts(next, 1000, 17, 32, st);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(st[l], gt_chain_walk(next, 1000, 17, 31u * (unsigned)l));
        for (int m = 0; m < l; m++)
            assert_int_not_equal(st[l], st[m]);
    }
}

static void parameters_are_checked(void **state)
{
    const gt_experiment *e = gt_experiment_find("latency");
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char msg[512];
    int size, stride, lanes, order, kind;
    (void)state;
    assert_non_null(e);
    gt_devprops_init(&p);
    p.ordinal = 0;
    p.topo.count = p.topo.n = 1;
    gt_dp_set(&p, GT_DP_L2, 60ll << 20);
    gt_experiment_defaults(e, v);
    size = gt_experiment_param(e, "size");
    stride = gt_experiment_param(e, "stride");
    lanes = gt_experiment_param(e, "threads");
    order = gt_experiment_param(e, "order");
    kind = gt_experiment_param(e, "kind");
    assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
    v[size] = 100 * 1024;
    v[stride] = 384;
    assert_refused(gt_experiment_find("latency"), v, &p, "size: 100 KiB is not a multiple of the stride (384 B)");
    v[stride] = 128 * 1024;
    v[size] = 128 * 1024;
    assert_refused(gt_experiment_find("latency"), v, &p, "leaves 1 slots in 128 KiB; allowed: at most half the size");
    v[size] = 1 << 20;
    v[stride] = 64 * 1024;
    v[lanes] = 1;
    assert_refused(gt_experiment_find("latency"), v, &p, "threads=warp");
    v[lanes] = 0;
    assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
    v[size] = 4ll << 30;
    v[stride] = 32;
    assert_refused(gt_experiment_find("latency"), v, &p, "order=random keeps the chain's order on the host");
    v[order] = 1;                      /* linear: no limit */
    assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
    /* Past 4 GiB (the TLBs' reach): up to the free memory, at most 2^32
     * slots; every slot holds an 8-byte address. */
    gt_experiment_defaults(e, v);
    v[size] = 64ll << 30;
    v[stride] = 2ll << 20;
    assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
    v[stride] = 12;
    v[size] = 12ll << 20;
    assert_refused(gt_experiment_find("latency"), v, &p, "stride: 12 B; allowed: a multiple of 8 bytes");
    v[size] = 64ll << 30;
    v[stride] = 8;
    v[order] = 1;
    assert_refused(gt_experiment_find("latency"), v, &p, "stride: 8 B leaves 8589934592 slots in 64 GiB; allowed: at most 2^32 slots");
    v[stride] = 32;                   /* 2^31 slots */
    assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
    gt_dp_set(&p, GT_DP_MEM_FREE, 80ll << 30);
    v[size] = 96ll << 30;
    v[stride] = 2ll << 20;
    v[order] = 0;
    assert_refused(gt_experiment_find("latency"), v, &p, "size: 96 GiB is more than the free device memory (80 GiB)");
    gt_devprops_init(&p);
    p.ordinal = 0;
    p.topo.count = p.topo.n = 1;
    gt_dp_set(&p, GT_DP_L2, 60ll << 20);
    gt_experiment_defaults(e, v);
    v[kind] = 4;                       /* peer */
    assert_refused(gt_experiment_find("latency"), v, &p, "kind=peer needs two GPUs; this machine has one");
    /* The L1/shared carveout: where the L1 caches the chain, and from
     * Volta on, where the L1 and shared memory are one SRAM. */
    {
        int carve = gt_experiment_param(e, "carveout"), cache = gt_experiment_param(e, "cache");
        const char *why;
        assert_true(carve >= 0);
        gt_experiment_defaults(e, v);
        assert_int_equal(v[carve], 0);                    /* default: no preference */
        v[carve] = 5;                                     /* 100% shared */
        assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
        gt_dp_set(&p, GT_DP_CC, 60);
        assert_refused(gt_experiment_find("latency"), v, &p, "carveout: the L1 and shared memory share one SRAM, split by the "
                       "carveout, from Volta (7.0) on; this device is 6.0; allowed here: default");
        gt_dp_set(&p, GT_DP_CC, 70);
        assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
        assert_true(gt_param_applies(&e->params[carve], v, &why));
        v[cache] = 1;                                     /* cg: past the L1 */
        assert_false(gt_param_applies(&e->params[carve], v, &why));
        assert_string_equal(why, "only with kind=device or managed and load=default (what the "
                                 "L1 caches)");
        gt_dp_set(&p, GT_DP_CC, 60);                      /* not asked of what it does not apply to */
        assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
        v[cache] = 0;
        v[kind] = 1;                                      /* mapped */
        assert_false(gt_param_applies(&e->params[carve], v, &why));
        gt_devprops_init(&p);
        p.ordinal = 0;
        p.topo.count = p.topo.n = 1;
        gt_dp_set(&p, GT_DP_L2, 60ll << 20);
    }
    /* Shared memory, the block's own or another's in its cluster: up to
     * what a block may have; another's from Hopper on, built with 11.8. */
    {
        int cache = gt_experiment_param(e, "cache"), cl = gt_experiment_param(e, "cluster");
        const char *why;
        gt_experiment_defaults(e, v);
        v[kind] = 5;                                      /* shared */
        v[size] = 16 * 1024;
        assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
        gt_dp_set(&p, GT_DP_SMEM_BLOCK, 232448);
        v[size] = 256 * 1024;
        assert_refused(gt_experiment_find("latency"), v, &p, "size: 256 KiB is more than the shared memory a block may have here "
                       "(227 KiB); allowed with kind=shared: up to 227 KiB");
        v[size] = 16 * 1024;
        assert_false(gt_param_applies(&e->params[cache], v, &why));
        assert_string_equal(why, "only with global memory (not kind=shared or dsmem)");
        assert_false(gt_param_applies(&e->params[cl], v, &why));
        v[kind] = 6;                                      /* dsmem */
        assert_true(gt_param_applies(&e->params[cl], v, &why));
        gt_dp_set(&p, GT_DP_CC, 80);
        assert_refused(gt_experiment_find("latency"), v, &p, "kind=dsmem: clusters of blocks and their distributed shared memory came "
                       "with Hopper (9.0); this device is 8.0");
        gt_dp_set(&p, GT_DP_CC, 90);
        gt_dp_set(&p, GT_DP_BUILD_CUDA, 11070);
        assert_refused(gt_experiment_find("latency"), v, &p, "kind=dsmem needs CUDA 11.8 (cudaLaunchKernelEx with a cluster)");
        gt_dp_set(&p, GT_DP_BUILD_CUDA, 13000);
        assert_int_equal(gt_experiment_check(e, v, &p, msg, sizeof msg), 0);
        gt_devprops_init(&p);
        p.ordinal = 0;
        p.topo.count = p.topo.n = 1;
        gt_dp_set(&p, GT_DP_L2, 60ll << 20);
    }
    /* The staircase sweep: 4 KiB to 1 GiB, the L2 marked. */
    {
        gt_sweep s;
        gt_experiment_defaults(e, v);
        gt_sweep_begin(&s, e, size, v, &p);
        assert_true(gt_sweep_values(&s, &p, msg, sizeof msg) > 30);
        assert_int_equal(s.vals[0], 4096);
        assert_int_equal(s.vals[1], 6144);
        assert_int_equal(s.vals[s.n - 1], 1ll << 30);
        assert_true(s.mark == (double)(60ll << 20));
        assert_string_equal(s.mark_label, "L2 60 MiB");
        assert_int_equal(s.refused, 0);
    }
    /* A sweep of the memory kind on one GPU leaves peer out, and says why,
     * and shared memory, which 256 MiB does not fit; with 512 MiB free,
     * the staircase stops at 512 MiB. */
    {
        gt_sweep s;
        gt_experiment_defaults(e, v);
        gt_dp_set(&p, GT_DP_SMEM_BLOCK, 232448);
        gt_sweep_begin(&s, e, kind, v, &p);
        assert_int_equal(gt_sweep_values(&s, &p, msg, sizeof msg), 4);
        assert_int_equal(s.vals[3], 3);
        assert_int_equal(s.refused, 3);
        assert_non_null(strstr(s.why_refused, "needs two GPUs"));
        gt_dp_set(&p, GT_DP_MEM_FREE, 512ll << 20);
        gt_sweep_begin(&s, e, size, v, &p);
        assert_true(gt_sweep_values(&s, &p, msg, sizeof msg) > 30);
        assert_int_equal(s.vals[s.n - 1], 512ll << 20);
        assert_int_equal(s.refused, 2);          /* 768 MiB and 1 GiB */
        assert_non_null(strstr(s.why_refused, "more than the free device memory"));
    }
}

/* The summary and 'y' read the SM clock from the set-up note and place
 * the working set against the L2 the properties give. */
static void summary_and_why(void **state)
{
    const gt_experiment *e = gt_experiment_find("latency");
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[12];
    gt_devprops p;
    gt_run r;
    int n;
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_L2, 60ll << 20);
    gt_experiment_defaults(e, v);
    v[gt_experiment_param(e, "size")] = 16ll << 20;
    gt_run_init(&r, e, v, 1);
    snprintf(r.info.note, sizeof r.info.note, "each walker's end slot against the host's walk "
             "of the same chain; first walk: 145.0 ns = 287 SM cycles a load (1.98 GHz)");
    for (int i = 0; i < 5; i++) {
        gt_sample x = {1, 0, GT_V_FULL, 145e-9, 4};
        gt_run_add(&r, &x);
    }
    n = e->summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_true(n >= 2);
    assert_string_equal(lines[0], "one dependent load: 145.0 ns = 287 SM cycles (p50; SM clock "
                                  "1.98 GHz)");
    assert_string_equal(lines[1], "16 MiB fits in the L2 (60 MiB)");
    n = gt_why(&r, 0, &p, lines, 12);
    assert_true(n >= 5);
    assert_non_null(strstr(lines[2], "1 x 4 B every 145.0 ns is 0.028 GB/s"));
    assert_non_null(strstr(lines[4], "L2: 60 MiB (properties); the working set fits in half"));
    /* a carveout asked: 'y' says the L1 keeps what shared memory leaves */
    gt_run_free(&r);
    v[gt_experiment_param(e, "carveout")] = 5;
    gt_run_init(&r, e, v, 1);
    for (int i = 0; i < 5; i++) {
        gt_sample x = {1, 0, GT_V_FULL, 145e-9, 4};
        gt_run_add(&r, &x);
    }
    n = gt_why(&r, 0, &p, lines, 12);
    assert_true(n >= 6);
    assert_non_null(strstr(lines[4], "carveout: 100% of the SM's L1/shared SRAM asked for "
                                     "shared memory, so the L1 keeps the rest"));
    v[gt_experiment_param(e, "carveout")] = 0;
    /* past half the L2; no clock in the note: no cycles, no guess */
    gt_run_free(&r);
    v[gt_experiment_param(e, "size")] = 48ll << 20;
    gt_run_init(&r, e, v, 1);
    for (int i = 0; i < 5; i++) {
        gt_sample x = {1, 0, GT_V_FULL, 262e-9, 4};
        gt_run_add(&r, &x);
    }
    n = e->summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_string_equal(lines[0], "one dependent load: 262.0 ns (p50)");
    assert_non_null(strstr(lines[1], "past half of it"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chains_visit_every_slot_once),
        cmocka_unit_test(random_chains_differ_and_are_not_linear),
        cmocka_unit_test(host_walk_and_lanes),
        cmocka_unit_test(parameters_are_checked),
        cmocka_unit_test(summary_and_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
