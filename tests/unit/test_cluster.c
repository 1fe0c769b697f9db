/* The cluster experiment's table row: the words a thread reads, stepped
 * the way the kernel steps them, the sums the host expects, the
 * refusals, and the summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/cluster/cluster.h"
#include "gputui/measure/run.h"

/* The kernel's stepping lands on gt_cl_index's word at every read, and the
 * host's sum over whole rounds is the sum read by read. */
static void reads_and_sums(void **state)
{
    static const uint32_t sizes[] = {1024, 3072, 8192, 49152};
    static const uint32_t reads[] = {1, 255, 256, 4096, 100003};
    (void)state;
    for (int s = 0; s < 4; s++)
        for (int sc = 0; sc < 2; sc++)
            for (uint32_t t = 0; t < GT_CL_THREADS; t += 37) {
                uint32_t words = sizes[s], step = gt_cl_step(words, sc);
                uint32_t q = gt_cl_index(t, 0, words, sc), sum = 0;
                for (uint32_t k = 0; k < 100003; k++) {
                    if (q != gt_cl_index(t, k, words, sc))
                        fail_msg("words %u, thread %u, read %u: stepped to %u, not %u", words, t,
                                 k, q, gt_cl_index(t, k, words, sc));
                    sum += gt_cl_word(q, 7);
                    for (int r = 0; r < 5; r++)
                        if (k + 1 == reads[r])
                            assert_int_equal(gt_cl_expected(t, reads[r], words, sc, 7), sum);
                    q += step;
                    q -= q >= words ? words : 0;
                }
            }
    /* scattered: a warp's 32 lanes in 32 banks and 32 lines */
    for (uint32_t l = 1; l < 32; l++)
        assert_int_equal((gt_cl_index(l, 0, 8192, 1) - gt_cl_index(l - 1, 0, 8192, 1)) % 32, 1);
}

static void refusals(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char msg[400];
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(&gt_exp_cluster, v);
    assert_int_equal(gt_experiment_check(&gt_exp_cluster, v, &p, msg, sizeof msg), 0);
    gt_dp_set(&p, GT_DP_CC, 80);
    assert_int_equal(gt_experiment_check(&gt_exp_cluster, v, &p, msg, sizeof msg), -1);
    assert_string_equal(msg, "experiment cluster: clusters of blocks and their distributed "
                             "shared memory came with Hopper (9.0); this device is 8.0");
    gt_dp_set(&p, GT_DP_CC, 90);
    gt_dp_set(&p, GT_DP_SMEM_BLOCK, 100 << 10);
    v[GT_CL_SIZE] = 128 << 10;
    assert_int_equal(gt_experiment_check(&gt_exp_cluster, v, &p, msg, sizeof msg), -1);
    assert_string_equal(msg, "size: 128 KiB is more than the shared memory a block may have "
                             "here (100 KiB); allowed: 4 KiB up to it");
    assert_int_equal(gt_cl_blocks(0), 2);
    assert_int_equal(gt_cl_blocks(3), 16);
}

static void summary(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[8];
    gt_devprops p;
    gt_run r;
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_SMS, 132);
    gt_experiment_defaults(&gt_exp_cluster, v);
    gt_run_init(&r, &gt_exp_cluster, v, 1);
    for (int i = 0; i < 5; i++) {
        gt_sample a = {1, GT_CL_S_OWN, GT_V_FULL, 1e-3, 10000000000ll};
        gt_sample b = {1, GT_CL_S_REMOTE, GT_V_FULL, 4e-3, 10000000000ll};
        gt_run_add(&r, &a);
        gt_run_add(&r, &b);
    }
    assert_int_equal(gt_exp_cluster.summary(&r, &p, lines, 8), 2);
    assert_string_equal(lines[0], "another block's shared memory: 2500 GB/s, 0.25x the block's "
                                  "own (10000 GB/s), coalesced");
    assert_string_equal(lines[1], "an SM reads 18.9 GB/s from another SM's shared memory and "
                                  "75.8 GB/s from its own");
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_and_sums),
        cmocka_unit_test(refusals),
        cmocka_unit_test(summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
