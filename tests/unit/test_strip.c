/* The time strip (strip.h): a point a second, each the median of that
 * second's samples; a second without samples is a gap; a drift shows;
 * the last minute only; another configuration's samples are ignored. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/measure/strip.h"

static gt_sample sample(uint32_t gen, int series, double sec)
{
    gt_sample x = {gen, (uint8_t)series, GT_V_FULL, sec, 1000000, 0};
    return x;
}

static void points(void **state)
{
    static gt_strip s;
    (void)state;
    gt_strip_reset(&s, 7);
    /* Second 0: 1, 2, 3 ms (median 2); second 1: nothing; second 2: a
     * clock that throttles, 4 ms. Another configuration's sample counts
     * nowhere. */
    gt_sample a = sample(7, 0, 1e-3), b = sample(7, 0, 3e-3), c = sample(7, 0, 2e-3);
    gt_sample other = sample(8, 0, 1.0), d = sample(7, 0, 4e-3);
    gt_strip_add(&s, &a, 100.0);
    gt_strip_add(&s, &b, 100.3);
    gt_strip_add(&s, &other, 100.4);
    gt_strip_add(&s, &c, 100.6);
    gt_strip_add(&s, &d, 102.2);
    gt_strip_tick(&s, 103.05);
    assert_int_equal(s.n, 3);
    assert_near(gt_strip_point(&s, 0, 0, false), 2e-3, 1e-12);
    assert_true(isnan(gt_strip_point(&s, 0, 1, false)));
    assert_near(gt_strip_point(&s, 0, 2, false), 4e-3, 1e-12);
    assert_near(gt_strip_point(&s, 0, 2, true), 1e6 / 4e-3, 1e-3);   /* bytes/s */
    assert_true(isnan(gt_strip_point(&s, 1, 0, false)));            /* no such series */
    assert_true(isnan(gt_strip_point(&s, 0, 3, false)));
}

/* Many samples a second: the median stays right; after more than a
 * minute only the last 60 points are kept, the oldest first. */
static void many_and_a_minute(void **state)
{
    static gt_strip s;
    (void)state;
    gt_strip_reset(&s, 1);
    for (int sec = 0; sec < 90; sec++)
        for (int i = 0; i < 5000; i++) {
            /* second sec: values sec + 0..0.999, median sec + 0.5 */
            gt_sample x = sample(1, 0, sec + (i % 1000) / 1000.0 + 0.0005);
            gt_strip_add(&s, &x, 10.0 + sec + i / 5000.0);
        }
    gt_strip_tick(&s, 100.5);
    assert_int_equal(s.n, GT_STRIP_POINTS);
    for (int i = 0; i < GT_STRIP_POINTS; i++)
        assert_near(gt_strip_point(&s, 0, i, false), 30 + i + 0.5, 0.06);
    gt_strip_reset(&s, 2);
    assert_int_equal(s.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points), cmocka_unit_test(many_and_a_minute),
    };
    return cmocka_run_group_tests_name("strip", tests, NULL, NULL);
}
