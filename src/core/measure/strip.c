/* The time strip (strip.h): each second's samples of a series gathered
 * (every one up to 1024, then a sample of them spread over the second),
 * and their median kept as the second's point. */
#include "gputui/measure/strip.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gt_strip_reset(gt_strip *s, uint32_t gen)
{
    s->gen = gen;
    s->t0 = 0;
    s->rng = 0x9E3779B97F4A7C15ull;
    s->n = 0;
    memset(s->bytes, 0, sizeof s->bytes);
    memset(s->cnt, 0, sizeof s->cnt);
    memset(s->seen, 0, sizeof s->seen);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The second being gathered becomes a point. */
static void close_second(gt_strip *s)
{
    if (s->n == GT_STRIP_POINTS) {
        for (int k = 0; k < GT_MAX_SERIES; k++)
            memmove(s->sec[k], s->sec[k] + 1, (GT_STRIP_POINTS - 1) * sizeof s->sec[k][0]);
        s->n--;
    }
    for (int k = 0; k < GT_MAX_SERIES; k++) {
        int c = s->cnt[k];
        double m = NAN;
        if (c) {
            qsort(s->cur[k], (size_t)c, sizeof s->cur[k][0], cmp_double);
            m = c % 2 ? s->cur[k][c / 2] : 0.5 * (s->cur[k][c / 2 - 1] + s->cur[k][c / 2]);
        }
        s->sec[k][s->n] = m;
        s->cnt[k] = 0;
        s->seen[k] = 0;
    }
    s->n++;
}

void gt_strip_tick(gt_strip *s, double now)
{
    if (s->t0 <= 0)
        return;
    /* A long gap (paused, set up again) closes at most a minute of seconds. */
    for (int i = 0; now - s->t0 >= 1.0 && i < GT_STRIP_POINTS; i++) {
        close_second(s);
        s->t0 += 1.0;
    }
    if (now - s->t0 >= 1.0)
        s->t0 = now;
}

void gt_strip_add(gt_strip *s, const gt_sample *x, double now)
{
    int k = x->series;
    uint64_t seen;

    if (x->gen != s->gen || k >= GT_MAX_SERIES)
        return;
    if (s->t0 <= 0)
        s->t0 = now;
    gt_strip_tick(s, now);
    s->bytes[k] = x->bytes;
    seen = ++s->seen[k];
    if (s->cnt[k] < GT_STRIP_PER_SECOND) {
        s->cur[k][s->cnt[k]++] = x->sec;
    } else {
        /* Full: the n-th sample replaces a kept one with chance 1024/n
         * (reservoir sampling), so the kept ones spread over the second. */
        uint64_t j;
        s->rng ^= s->rng << 13;
        s->rng ^= s->rng >> 7;
        s->rng ^= s->rng << 17;
        j = s->rng % seen;
        if (j < GT_STRIP_PER_SECOND)
            s->cur[k][j] = x->sec;
    }
}

double gt_strip_point(const gt_strip *s, int k, int i, bool bw)
{
    double v;

    if (k < 0 || k >= GT_MAX_SERIES || i < 0 || i >= s->n)
        return NAN;
    v = s->sec[k][i];
    if (!bw || !isfinite(v))
        return v;
    return v > 0 && s->bytes[k] ? (double)s->bytes[k] / v : NAN;
}
