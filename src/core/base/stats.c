#include "gputui/base/stats.h"

#include "gputui/base/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gt_dist_init(gt_dist *d)
{
    memset(d, 0, sizeof *d);
    d->rng = 0x9E3779B97F4A7C15ull;
}

void gt_dist_free(gt_dist *d)
{
    free(d->v);
    free(d->tmp);
    gt_dist_init(d);
}

void gt_dist_clear(gt_dist *d)
{
    double *v = d->v, *tmp = d->tmp;
    size_t cap = d->cap, tmpcap = d->tmpcap;

    gt_dist_init(d);
    d->v = v;
    d->cap = cap;
    d->tmp = tmp;
    d->tmpcap = tmpcap;
}

int gt_dist_add(gt_dist *d, double x)
{
    int rc = 0;
    double delta;

    d->count++;
    if (d->count == 1) {
        d->min = d->max = x;
    } else {
        if (x < d->min)
            d->min = x;
        if (x > d->max)
            d->max = x;
    }
    delta = x - d->mean;
    d->mean += delta / (double)d->count;
    d->m2 += delta * (x - d->mean);

    if (d->n < GT_DIST_KEEP) {
        if (d->n == d->cap) {
            size_t cap = d->cap ? d->cap * 2 : 256;
            double *v = realloc(d->v, cap * sizeof *v);
            if (!v)
                return -1;
            d->v = v;
            d->cap = cap;
        }
        d->v[d->n++] = x;
    } else {
        /* Algorithm R: keep x with probability KEEP/count. */
        uint64_t j = gt_xorshift64(&d->rng) % d->count;
        if (j < GT_DIST_KEEP) {
            d->v[j] = x;
            if (j < d->nsorted)
                d->nsorted = 0;
        }
    }
    return rc;
}

bool gt_dist_exact(const gt_dist *d)
{
    return d->count == d->n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void ensure_sorted(gt_dist *d)
{
    size_t k = d->n - d->nsorted, i, j, o;

    if (k == 0)
        return;
    if (d->nsorted < k) {
        qsort(d->v, d->n, sizeof *d->v, cmp_double);
        d->nsorted = d->n;
        return;
    }
    if (k > d->tmpcap) {
        double *t = realloc(d->tmp, k * sizeof *t);
        if (!t) {
            qsort(d->v, d->n, sizeof *d->v, cmp_double);
            d->nsorted = d->n;
            return;
        }
        d->tmp = t;
        d->tmpcap = k;
    }
    /* Sort the new tail, then merge it in from the back. */
    qsort(d->v + d->nsorted, k, sizeof *d->v, cmp_double);
    memcpy(d->tmp, d->v + d->nsorted, k * sizeof *d->v);
    i = d->nsorted;     /* sorted prefix, from the back */
    j = k;              /* tail in tmp, from the back */
    o = d->n;
    while (j > 0) {
        if (i > 0 && d->v[i - 1] > d->tmp[j - 1])
            d->v[--o] = d->v[--i];
        else
            d->v[--o] = d->tmp[--j];
    }
    d->nsorted = d->n;
}

double gt_dist_percentile(gt_dist *d, double q)
{
    double pos, frac;
    size_t lo;

    if (d->n == 0)
        return NAN;
    ensure_sorted(d);
    if (q <= 0.0)
        return d->v[0];
    if (q >= 1.0)
        return d->v[d->n - 1];
    pos = q * (double)(d->n - 1);
    lo = (size_t)pos;
    frac = pos - (double)lo;
    if (lo + 1 >= d->n)
        return d->v[d->n - 1];
    return d->v[lo] + frac * (d->v[lo + 1] - d->v[lo]);
}

void gt_dist_summary(gt_dist *d, gt_summary *s)
{
    s->count = d->count;
    if (d->count == 0) {
        s->min = s->p50 = s->p90 = s->p99 = s->max = s->mean = s->stddev = NAN;
        return;
    }
    s->min = d->min;
    s->max = d->max;
    s->mean = d->mean;
    s->stddev = d->count > 1 ? sqrt(d->m2 / (double)(d->count - 1)) : 0.0;
    s->p50 = gt_dist_percentile(d, 0.50);
    s->p90 = gt_dist_percentile(d, 0.90);
    s->p99 = gt_dist_percentile(d, 0.99);
}

uint64_t gt_dist_bins(const gt_dist *d, double lo, double hi,
                      uint64_t *bins, int nbins)
{
    uint64_t top = 0;
    double w = (hi - lo) / nbins;

    memset(bins, 0, (size_t)nbins * sizeof *bins);
    for (size_t i = 0; i < d->n; i++) {
        int b;
        if (!(w > 0.0))
            b = 0;
        else if (d->v[i] <= lo)
            b = 0;
        else if (d->v[i] >= hi)
            b = nbins - 1;
        else
            b = (int)((d->v[i] - lo) / w);
        if (b >= nbins)
            b = nbins - 1;
        bins[b]++;
    }
    for (int b = 0; b < nbins; b++)
        if (bins[b] > top)
            top = bins[b];
    return top;
}

void gt_dist_merge(gt_dist *dst, const gt_dist *src)
{
    for (size_t i = 0; i < src->n; i++)
        gt_dist_add(dst, src->v[i]);
}
