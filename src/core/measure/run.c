#include "gputui/measure/run.h"
#include "gputui/measure/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gt_run_init(gt_run *r, const gt_experiment *exp, const int64_t *vals,
                 uint32_t gen)
{
    const char *names[GT_MAX_SERIES] = {0};

    memset(r, 0, sizeof *r);
    r->exp = exp;
    r->gen = gen;
    if (!exp)
        return;
    memcpy(r->vals, vals, sizeof r->vals);
    r->nseries = exp->series(vals, names);
    for (int i = 0; i < r->nseries; i++) {
        r->s[i].name = names[i];
        gt_dist_init(&r->s[i].lat);
        gt_dist_init(&r->s[i].bw);
        gt_dist_init(&r->s[i].clean_lat);
        gt_dist_init(&r->s[i].clean_bw);
    }
}

void gt_run_clear(gt_run *r)
{
    for (int i = 0; i < r->nseries; i++) {
        gt_dist_clear(&r->s[i].lat);
        gt_dist_clear(&r->s[i].bw);
        gt_dist_clear(&r->s[i].clean_lat);
        gt_dist_clear(&r->s[i].clean_bw);
        r->s[i].full = r->s[i].sampled = r->s[i].failed = r->s[i].disturbed = 0;
    }
}

void gt_run_free(gt_run *r)
{
    for (int i = 0; i < r->nseries; i++) {
        gt_dist_free(&r->s[i].lat);
        gt_dist_free(&r->s[i].bw);
        gt_dist_free(&r->s[i].clean_lat);
        gt_dist_free(&r->s[i].clean_bw);
    }
    free(r->tl);
    free(r->trace);
    memset(r, 0, sizeof *r);
}

void gt_run_add(gt_run *r, const gt_sample *s)
{
    gt_series *se;

    /* A replay goes round its samples: the figures are of each once. */
    if (s->gen != r->gen || s->series >= r->nseries || s->again)
        return;
    se = &r->s[s->series];
    se->disturbed += s->disturbed != 0;
    /* A failed sample is counted and shown, never plotted as good. */
    if (s->verify == GT_V_FAILED) {
        se->failed++;
        return;
    }
    if (s->verify == GT_V_SAMPLED)
        se->sampled++;
    else
        se->full++;
    gt_dist_add(&se->lat, s->sec);
    if (!s->disturbed)
        gt_dist_add(&se->clean_lat, s->sec);
    if (s->sec > 0)
        gt_dist_add(&se->bw, (double)s->bytes / s->sec);
    if (s->sec > 0 && !s->disturbed)
        gt_dist_add(&se->clean_bw, (double)s->bytes / s->sec);
}

double gt_run_p50(gt_run *r, int s)
{
    return s >= 0 && s < r->nseries ? gt_dist_percentile(&r->s[s].lat, 0.5) : NAN;
}

uint64_t gt_run_count(const gt_run *r)
{
    uint64_t n = 0;

    for (int i = 0; i < r->nseries; i++)
        if (i == 0 || r->s[i].lat.count < n)
            n = r->s[i].lat.count;
    return n;
}

uint64_t gt_run_failed(const gt_run *r)
{
    uint64_t n = 0;

    for (int i = 0; i < r->nseries; i++)
        n += r->s[i].failed;
    return n;
}

gt_dist *gt_series_judged(gt_series *s, bool bw)
{
    if (s->disturbed)
        return bw ? &s->clean_bw : &s->clean_lat;
    return bw ? &s->bw : &s->lat;
}

double gt_series_disturbed_share(const gt_series *s)
{
    uint64_t n = s->lat.count + s->failed;
    return n ? (double)s->disturbed / (double)n : 0;
}

bool gt_series_disturbed(const gt_series *s)
{
    return gt_series_disturbed_share(s) > GT_DISTURBED_SHARE;
}

void gt_run_merge(gt_run *dst, const gt_run *src)
{
    for (int i = 0; i < dst->nseries && i < src->nseries; i++) {
        gt_series *d = &dst->s[i];
        const gt_series *s = &src->s[i];
        gt_dist_merge(&d->lat, &s->lat);
        gt_dist_merge(&d->bw, &s->bw);
        gt_dist_merge(&d->clean_lat, &s->clean_lat);
        gt_dist_merge(&d->clean_bw, &s->clean_bw);
        d->full += s->full;
        d->sampled += s->sampled;
        d->failed += s->failed;
        d->disturbed += s->disturbed;
    }
}

void gt_run_move(gt_run *dst, gt_run *src)
{
    gt_run_free(dst);
    *dst = *src;
    memset(src, 0, sizeof *src);
}

int gt_run_set_timeline(gt_run *r, const gt_timeline *tl)
{
    if (!r->tl && !(r->tl = malloc(sizeof *r->tl)))
        return -1;
    *r->tl = *tl;
    return 0;
}

int gt_run_set_trace(gt_run *r, const gt_trace *t)
{
    if (!r->trace && !(r->trace = malloc(sizeof *r->trace)))
        return -1;
    *r->trace = *t;
    return 0;
}
