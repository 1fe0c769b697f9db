/* The reuse policy of buffers kept across configurations (keep.h), and the
 * zero-copy and pitched patterns that the CPU and the check kernels share. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gputui/engine/keep.h"
#include "gputui/experiments/patterns.h"
#include "gputui/input/options.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* --help gives the bound as keep.h has it. */
static void help_names_the_bound(void **st)
{
    char *text = NULL, want[64];
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    (void)st;
    assert_non_null(f);
    gt_options_usage(f);
    fclose(f);
    snprintf(want, sizeof want, "up to %llu MiB each", (unsigned long long)(GT_KEEP_MAX_BYTES >> 20));
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, "(a change keeps the set-up)"));
    free(text);
}

static void reuse(void **st)
{
    (void)st;
    /* The responsiveness case: 64 MiB <-> 128 MiB of pinned memory. */
    assert_true(gt_keep_reuse(1, 0, 128 * MiB, 1, 0, 64 * MiB));
    assert_true(gt_keep_reuse(1, 0, 128 * MiB, 1, 0, 128 * MiB));
    assert_false(gt_keep_reuse(1, 0, 64 * MiB, 1, 0, 128 * MiB));       /* must grow */
    /* Another kind or other flags: never. */
    assert_false(gt_keep_reuse(1, 0, 128 * MiB, 2, 0, 64 * MiB));
    assert_false(gt_keep_reuse(2, 4, 128 * MiB, 2, 0, 64 * MiB));
    /* At most GT_KEEP_SLACK times larger than needed. */
    assert_true(gt_keep_reuse(1, 0, 128 * MiB, 1, 0, 128 * MiB / GT_KEEP_SLACK));
    assert_false(gt_keep_reuse(1, 0, 128 * MiB, 1, 0, 128 * MiB / GT_KEEP_SLACK - 1));
    assert_false(gt_keep_reuse(1, 0, 4096, 1, 0, 0));
    assert_false(gt_keep_reuse(1, 0, 0, 1, 0, 4096));
}

static void hold(void **st)
{
    (void)st;
    assert_true(gt_keep_hold(128 * MiB, 0, 16 * GiB));
    assert_true(gt_keep_hold(GT_KEEP_MAX_BYTES, 0, 16 * GiB));
    assert_false(gt_keep_hold(GT_KEEP_MAX_BYTES + 1, 0, 16 * GiB));
    /* At most a quarter of what is available, counting what is kept. */
    assert_true(gt_keep_hold(256 * MiB, 0, 1 * GiB));
    assert_false(gt_keep_hold(256 * MiB, 1, 1 * GiB));
    assert_false(gt_keep_hold(128 * MiB, 200 * MiB, 1 * GiB));
    /* Unknown availability, or nothing to keep: keep nothing. */
    assert_false(gt_keep_hold(4096, 0, 0));
    assert_false(gt_keep_hold(0, 0, 16 * GiB));
}

static void patterns(void **st)
{
    (void)st;
    /* Every zero-copy sum is a whole number below 2048: exact in float,
     * so a check compares with == and nothing else. */
    for (size_t i = 0; i < 100000; i += 7) {
        float a = gt_zc_a(i, 12345), b = gt_zc_b(i, 12345);
        assert_true(a >= 0 && a < 1024 && b >= 0 && b < 1024);
        assert_true((float)(int)(a + b) == a + b);
    }
    /* A new seed changes the data, so a stale output is caught. */
    int differ = 0;
    for (size_t i = 0; i < 1000; i++)
        differ += gt_zc_a(i, 1) + gt_zc_b(i, 1) != gt_zc_a(i, 2) + gt_zc_b(i, 2);
    assert_true(differ > 900);
    differ = 0;
    for (size_t i = 0; i < 1000; i++)
        differ += gt_pi_byte(i, 1) != gt_pi_byte(i, 2);
    assert_true(differ > 900);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reuse), cmocka_unit_test(hold), cmocka_unit_test(patterns),
        cmocka_unit_test(help_names_the_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
