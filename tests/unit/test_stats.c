/* Percentiles, summaries and bins against brute force on random data. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/base/stats.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* numpy's default (linear) percentile on a sorted copy. */
static double brute(const double *v, size_t n, double q)
{
    double *s = malloc(n * sizeof *s), pos, r;
    size_t lo;

    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp);
    pos = q * (double)(n - 1);
    lo = (size_t)floor(pos);
    r = lo + 1 < n ? s[lo] + (pos - (double)lo) * (s[lo + 1] - s[lo]) : s[n - 1];
    free(s);
    return r;
}

static uint64_t rng = 88172645463325252ull;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void check_against_brute(const double *v, size_t n)
{
    gt_dist d;
    gt_summary s;
    const double qs[] = {0.0, 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0};
    double mean = 0, var = 0, mn = v[0], mx = v[0];

    gt_dist_init(&d);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(gt_dist_add(&d, v[i]), 0);
        /* Interleave reads with adds: exercises the sort-and-merge path. */
        if (i % 97 == 0)
            (void)gt_dist_percentile(&d, 0.5);
    }
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++)
        assert_near(gt_dist_percentile(&d, qs[k]), brute(v, n, qs[k]), 1e-9);
    for (size_t i = 0; i < n; i++) {
        mean += v[i];
        mn = fmin(mn, v[i]);
        mx = fmax(mx, v[i]);
    }
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        var += (v[i] - mean) * (v[i] - mean);
    gt_dist_summary(&d, &s);
    assert_int_equal(s.count, n);
    assert_near(s.min, mn, 0);
    assert_near(s.max, mx, 0);
    assert_near(s.mean, mean, 1e-9 * fabs(mean) + 1e-12);
    if (n > 1)
        assert_near(s.stddev, sqrt(var / (double)(n - 1)), 1e-6 * sqrt(var / (double)(n - 1)) + 1e-12);
    assert_true(gt_dist_exact(&d));
    gt_dist_free(&d);
}

static void random_sizes(void **state)
{
    const size_t sizes[] = {1, 2, 3, 10, 101, 1000, 10007};
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        double *v = malloc(sizes[k] * sizeof *v);
        for (size_t i = 0; i < sizes[k]; i++)
            v[i] = urand() * 100.0 + 50.0;
        check_against_brute(v, sizes[k]);
        free(v);
    }
}

static void one_sample(void **state)
{
    gt_dist d;
    gt_summary s;
    (void)state;
    gt_dist_init(&d);
    gt_dist_add(&d, 42.5);
    gt_dist_summary(&d, &s);
    assert_near(s.min, 42.5, 0);
    assert_near(s.p50, 42.5, 0);
    assert_near(s.p99, 42.5, 0);
    assert_near(s.max, 42.5, 0);
    assert_near(s.stddev, 0.0, 0);
    assert_int_equal(s.count, 1);
    gt_dist_free(&d);
}

static void all_equal(void **state)
{
    double v[500];
    (void)state;
    for (int i = 0; i < 500; i++)
        v[i] = 7.25;
    check_against_brute(v, 500);
}

static void huge_outliers(void **state)
{
    double v[2000];
    (void)state;
    for (int i = 0; i < 2000; i++)
        v[i] = 1.0 + urand() * 1e-3;
    v[17] = 1e12;
    v[1999] = 5e15;
    v[3] = -1e9;
    check_against_brute(v, 2000);
}

static void empty_is_nan(void **state)
{
    gt_dist d;
    gt_summary s;
    (void)state;
    gt_dist_init(&d);
    assert_true(isnan(gt_dist_percentile(&d, 0.5)));
    gt_dist_summary(&d, &s);
    assert_int_equal(s.count, 0);
    assert_true(isnan(s.p50));
    gt_dist_free(&d);
}

static void clear_keeps_working(void **state)
{
    gt_dist d;
    (void)state;
    gt_dist_init(&d);
    for (int i = 0; i < 1000; i++)
        gt_dist_add(&d, i);
    gt_dist_clear(&d);
    assert_int_equal(d.count, 0);
    gt_dist_add(&d, 3.0);
    gt_dist_add(&d, 1.0);
    assert_near(gt_dist_percentile(&d, 0.5), 2.0, 1e-12);
    gt_dist_free(&d);
}

/* Past GT_DIST_KEEP: exact count/min/max/mean, percentiles estimated from
 * a uniform reservoir. */
static void reservoir(void **state)
{
    gt_dist d;
    gt_summary s;
    size_t n = GT_DIST_KEEP + GT_DIST_KEEP / 2;
    (void)state;
    gt_dist_init(&d);
    for (size_t i = 0; i < n; i++)
        gt_dist_add(&d, (double)i);
    gt_dist_summary(&d, &s);
    assert_int_equal(s.count, n);
    assert_false(gt_dist_exact(&d));
    assert_int_equal(d.n, GT_DIST_KEEP);
    assert_near(s.min, 0.0, 0);
    assert_near(s.max, (double)(n - 1), 0);
    assert_near(s.mean, (double)(n - 1) / 2.0, 1e-6 * n);
    assert_near(s.p50, (double)n / 2.0, 0.01 * n);
    assert_near(s.p90, 0.9 * (double)n, 0.01 * n);
    gt_dist_free(&d);
}

static void bins(void **state)
{
    gt_dist d;
    uint64_t b[10], top, total = 0;
    (void)state;
    gt_dist_init(&d);
    for (int i = 0; i < 100; i++)
        gt_dist_add(&d, i);      /* 0..99 */
    gt_dist_add(&d, -50);        /* below: first bin */
    gt_dist_add(&d, 1e9);        /* above: last bin */
    top = gt_dist_bins(&d, 0, 100, b, 10);
    for (int i = 0; i < 10; i++)
        total += b[i];
    assert_int_equal(total, 102);
    assert_int_equal(b[0], 11);
    assert_int_equal(b[9], 11);
    assert_int_equal(b[5], 10);
    assert_int_equal(top, 11);
    /* Degenerate range: everything in bin 0, no division by zero. */
    top = gt_dist_bins(&d, 5, 5, b, 10);
    assert_int_equal(b[0], 102);
    gt_dist_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_sizes), cmocka_unit_test(one_sample),
        cmocka_unit_test(all_equal), cmocka_unit_test(huge_outliers),
        cmocka_unit_test(empty_is_nan), cmocka_unit_test(clear_keeps_working),
        cmocka_unit_test(reservoir), cmocka_unit_test(bins),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
