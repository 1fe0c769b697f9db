/* Lessons: the verdict of a step from the medians of its runs, and how
 * many samples make one (lesson.h). */
#include "gputui/lesson/lesson.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/record/record.h"
#include "gputui/base/units.h"

const char *gt_verdict_name(gt_verdict_kind k)
{
    static const char *const n[] = {"measuring", "as expected", "not on this machine",
                                    "cannot tell here", "too close to call here"};
    return k <= GT_VERDICT_CLOSE ? n[k] : "?";
}

static int series_of(const gt_run *r, const char *name)
{
    for (int i = 0; r && i < r->nseries; i++)
        if (r->s[i].name && !strcmp(r->s[i].name, name))
            return i;
    return -1;
}

/* "55.2 GB/s", or a time as everywhere else on screen ("1.23 ms") */
static void figure(char *buf, size_t n, double v, bool time)
{
    if (time)
        gt_format_seconds(v, buf, n);
    else
        snprintf(buf, n, "%.1f GB/s", v / 1e9);
}

/* ---- the interval: a bootstrap of the medians ---- */

#define LEVEL 0.01      /* level(): sides within 1% of each other */
#define BOOT_N 512      /* order statistics that stand for a larger sample */
#define BOOT_B 400      /* resamples */

/* A distribution's kept values, sorted; more than BOOT_N become BOOT_N
 * evenly spaced order statistics. */
typedef struct side {
    double v[BOOT_N];
    int n;
} side;

static void side_of(gt_dist *d, side *s)
{
    gt_dist_percentile(d, 0.5);     /* sorts the kept values */
    s->n = d->n < BOOT_N ? (int)d->n : BOOT_N;
    for (int i = 0; i < s->n; i++)
        s->v[i] = d->n <= BOOT_N ? d->v[i] : d->v[(size_t)((i + 0.5) * (double)d->n / BOOT_N)];
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* The median of one resample of s (with replacement): the values are
 * sorted, so the median of the drawn indices picks it (counting sort). */
static double resample_median(const side *s, uint64_t *rng, int *count)
{
    int n = s->n, half = (n - 1) / 2, seen = 0, lo = -1, hi = -1;

    memset(count, 0, (size_t)n * sizeof *count);
    for (int i = 0; i < n; i++)
        count[next(rng) % (uint64_t)n]++;
    for (int i = 0; i < n && hi < 0; i++) {
        seen += count[i];
        if (lo < 0 && seen > half)
            lo = i;
        if (seen > n / 2)
            hi = i;
    }
    return n % 2 ? s->v[lo] : (s->v[lo] + s->v[hi]) / 2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The 95% interval of median(a) / median(b), or of median(a) alone when
 * b is NULL. */
static void interval(gt_dist *da, gt_dist *db, double *lo, double *hi)
{
    side a, b;
    int count[BOOT_N];
    double r[BOOT_B];
    uint64_t rng;

    side_of(da, &a);
    if (db)
        side_of(db, &b);
    rng = 0x9E3779B97F4A7C15ull ^ ((uint64_t)a.n << 20) ^ (uint64_t)(db ? b.n : 0);
    for (int i = 0; i < BOOT_B; i++) {
        double ma = resample_median(&a, &rng, count);
        r[i] = db ? ma / resample_median(&b, &rng, count) : ma;
    }
    qsort(r, BOOT_B, sizeof r[0], cmp_double);
    *lo = r[(int)(0.025 * BOOT_B)];
    *hi = r[(int)(0.975 * BOOT_B) - 1];
}

/* Where the interval [lo, hi] lies against the relation's bounds: 1 as
 * expected, 0 not, -1 it holds a bound. */
static int side_of_bounds(const gt_lesson_expect *x, double lo, double hi)
{
    switch (x->rel) {
    case GT_REL_ABOVE:
    case GT_REL_CEIL_ABOVE:
        return lo > x->lo ? 1 : hi < x->lo ? 0 : -1;
    case GT_REL_BELOW:
    case GT_REL_CEIL_BELOW:
        return hi < x->lo ? 1 : lo > x->lo ? 0 : -1;
    default:
        if (lo >= x->lo && hi <= x->hi)
            return 1;
        return hi < x->lo || lo > x->hi ? 0 : -1;
    }
}

/* Whether a ratio's interval [lo, hi] says its two sides are level: a
 * claim that one is faster or slower (above or below 1x) whose interval
 * lies within 1% of 1x, holding 1x or not. That is no toss-up but the
 * claimed difference missing, not on this machine (block against system
 * scope atomics on an H200: 0.9997x to 1.0001x, every run; an interval of
 * 0.9995x to 0.9999x would otherwise read "as expected", and the next run
 * not). A bound other than 1x is a threshold, and an interval on it stays
 * too close to call. */
static bool level(const gt_lesson_expect *x, double lo, double hi)
{
    return (x->rel == GT_REL_ABOVE || x->rel == GT_REL_BELOW) && x->lo == 1.0 &&
           lo >= 1.0 - LEVEL && hi <= 1.0 + LEVEL;
}

/* The verdict of a figure and its interval [lo, hi] (a ratio, or with
 * pct a share): text is what was compared ("pinned 55.2 GB/s vs pageable
 * 8.3 GB/s, 6.64x"), want the bound ("above 1.5x"). On a first look
 * (fewer than the step's samples, more to come) a side counts only with
 * room to spare: the interval moved by its own width either way still
 * on it. Its few samples are one stretch of time a configuration, and a
 * host that changes state between them moves the ratio by more than
 * their spread (pin-cost's 0.82x then 1.13x on one H100). */
static void judge(const gt_lesson_step *st, double lo, double hi, bool pct, bool final,
                  bool first, const char *text, const char *want, gt_verdict *v)
{
    int at = side_of_bounds(&st->claim.expect, lo, hi);
    bool same = level(&st->claim.expect, lo, hi);
    char iv[64] = "";
    double w = hi - lo;

    if (same)
        at = 0;
    bool room = at < 0 || !first || side_of_bounds(&st->claim.expect, lo - w, hi + w) == at;

    v->lo = lo;
    v->hi = hi;
    if (hi > lo && pct)
        snprintf(iv, sizeof iv, " (95%%: %.0f%% to %.0f%%)", 100 * lo, 100 * hi);
    else if (hi > lo)
        snprintf(iv, sizeof iv, " (95%%: %.2fx to %.2fx)", lo, hi);
    if ((at < 0 || !room) && !final) {
        v->kind = GT_VERDICT_WAIT;
        v->more = true;
        snprintf(v->text, sizeof v->text, "measuring: %s: %s%s, expected %s; taking more "
                 "samples", at < 0 ? "too close so far" : "close on a first look", text, iv,
                 want);
        return;
    }
    v->kind = at < 0 ? GT_VERDICT_CLOSE : at ? GT_VERDICT_YES : GT_VERDICT_NO;
    snprintf(v->text, sizeof v->text, "%s: %s%s (expected %s)%s%s%s", gt_verdict_name(v->kind),
             text, iv, want, same ? "; the two within 1% of each other" : "",
             v->kind == GT_VERDICT_NO && st->claim.otherwise[0] ? "; " : "",
             v->kind == GT_VERDICT_NO ? st->claim.otherwise : "");
}

/* A figure of clean samples says how many were left out. */
static void say_left_out(gt_verdict *v, uint64_t n)
{
    size_t len = strlen(v->text);

    if (n && v->kind != GT_VERDICT_WAIT)
        snprintf(v->text + len, sizeof v->text - len, "; the clean samples: %llu disturbed by "
                 "another program left out", (unsigned long long)n);
}

/* Fewer than need clean samples: while most are clean, more are coming;
 * past half disturbed, the step cannot be judged. */
static void busy(const char *label, const gt_series *se, uint64_t need, gt_verdict *v)
{
    uint64_t clean = se->lat.count > se->disturbed ? se->lat.count - se->disturbed : 0;

    if (gt_series_disturbed_share(se) <= 0.5) {
        snprintf(v->text, sizeof v->text, "measuring: %s has %llu of %llu clean samples (%llu "
                 "disturbed by another program left out)", label, (unsigned long long)clean,
                 (unsigned long long)need, (unsigned long long)se->disturbed);
        return;
    }
    v->kind = GT_VERDICT_CANNOT;
    snprintf(v->text, sizeof v->text, "the GPU was busy: cannot tell: %llu of %llu samples of "
             "%s were taken beside another program's work (marked disturbed); run the step "
             "again when the GPU is quiet", (unsigned long long)se->disturbed,
             (unsigned long long)(se->lat.count + se->failed), label);
}

/* marked_above: the share of a's samples that gputui marked disturbed. */
static void marked(const gt_lesson_step *st, const gt_series *se, bool final, gt_verdict *v)
{
    uint64_t n = se->lat.count + se->failed;
    double share = gt_series_disturbed_share(se);

    if (!final && n < (uint64_t)st->claim.expect.samples) {
        v->more = true;     /* a share of a first look's few samples says little */
        snprintf(v->text, sizeof v->text, "measuring: %llu of %llu samples of %s marked "
                 "disturbed so far", (unsigned long long)se->disturbed, (unsigned long long)n,
                 st->claim.expect.a.label);
        return;
    }
    v->ratio = v->lo = v->hi = share;
    v->kind = share >= st->claim.expect.lo ? GT_VERDICT_YES : GT_VERDICT_NO;
    snprintf(v->text, sizeof v->text, "%s: %llu of %llu samples of %s marked disturbed, %.0f%% "
             "(expected at least %.0f%%)%s%s", gt_verdict_name(v->kind),
             (unsigned long long)se->disturbed, (unsigned long long)n, st->claim.expect.a.label,
             100 * share, 100 * st->claim.expect.lo,
             v->kind == GT_VERDICT_NO && st->claim.otherwise[0] ? "; " : "",
             v->kind == GT_VERDICT_NO ? st->claim.otherwise : "");
}

void gt_lesson_verdict(const gt_lesson_step *step, gt_run *const *runs, const gt_devprops *p,
                       uint64_t need, bool final, gt_verdict *v)
{
    gt_lesson_step here;
    const gt_lesson_step *st = &here;
    const gt_lesson_expect *x = &here.claim.expect;
    const gt_lesson_ref *ref[2] = {&x->a, &x->b};
    int nref;
    double m[2] = {NAN, NAN}, lo, hi;
    gt_dist *d[2] = {NULL, NULL};
    uint64_t left_out = 0, fewest = UINT64_MAX;
    char fa[32], fb[32], want[64], text[200];
    bool yes, first;

    memset(v, 0, sizeof *v);
    v->kind = GT_VERDICT_WAIT;
    v->ratio = v->lo = v->hi = NAN;
    if (gt_lesson_unmet(step, p, v->text, sizeof v->text)) {
        v->kind = GT_VERDICT_NO;
        return;
    }
    gt_lesson_step_for(step, p, &here);     /* this kind of device's claim */
    nref = x->rel >= GT_REL_CEIL_ABOVE ? 1 : 2;
    if (x->peers && (!gt_dp_ok(p, GT_DP_PEERS) || gt_dp_get(p, GT_DP_PEERS) < x->peers)) {
        v->kind = GT_VERDICT_CANNOT;
        snprintf(v->text, sizeof v->text, "cannot tell here: this step needs %d other GPU%s "
                 "with peer access; this device has %s", x->peers, x->peers == 1 ? "" : "s",
                 gt_dp_ok(p, GT_DP_PEERS) ? (gt_dp_get(p, GT_DP_PEERS) ? "fewer" : "none") : "N/A");
        return;
    }
    for (int i = 0; i < nref; i++) {
        gt_run *r = runs[ref[i]->config];
        int s = series_of(r, ref[i]->series);
        gt_series *se;
        if (!r || s < 0) {
            snprintf(v->text, sizeof v->text, "measuring: configuration %d has not run yet",
                     ref[i]->config + 1);
            return;
        }
        se = &r->s[s];
        if (se->lat.count == 0 && (r->info.skipped & (1u << s))) {
            v->kind = GT_VERDICT_CANNOT;
            snprintf(v->text, sizeof v->text, "cannot tell here: %s is not run here: %s",
                     ref[i]->label, r->info.why_skipped);
            return;
        }
        if (se->lat.count < need) {
            snprintf(v->text, sizeof v->text, "measuring: %s has %llu of %llu samples",
                     ref[i]->label, (unsigned long long)se->lat.count,
                     (unsigned long long)need);
            return;
        }
        if (x->rel == GT_REL_MARKED) {
            marked(st, se, final, v);
            return;
        }
        left_out += se->disturbed;
        d[i] = gt_series_judged(se, !x->time);
        if (d[i]->count < need) {
            busy(ref[i]->label, se, need, v);
            return;
        }
        fewest = d[i]->count < fewest ? d[i]->count : fewest;
        m[i] = gt_dist_percentile(d[i], 0.5);
        if (!(m[i] > 0) || !isfinite(m[i])) {
            v->kind = GT_VERDICT_CANNOT;
            snprintf(v->text, sizeof v->text, "cannot tell here: %s has no %s median",
                     ref[i]->label, x->time ? "time" : "bandwidth");
            return;
        }
    }
    first = fewest < (uint64_t)x->samples;
    figure(fa, sizeof fa, m[0], x->time);
    if (x->rel == GT_REL_NOTE) {
        const char *note = runs[x->a.config]->info.note;
        yes = strstr(note, x->note) != NULL;
        v->kind = yes ? GT_VERDICT_YES : GT_VERDICT_NO;
        snprintf(v->text, sizeof v->text, "%s: %s (expected \"%s\")%s%s",
                 gt_verdict_name(v->kind), note[0] ? note : "the set-up said nothing", x->note,
                 !yes && st->claim.otherwise[0] ? "; " : "", !yes ? st->claim.otherwise : "");
        return;
    }
    if (nref == 1) {
        double factor = 1, ceil;
        char label[64];
        gt_run *r = runs[x->a.config];
        ceil = gt_experiment_ceiling(st->exp, r->vals, series_of(r, x->a.series), p, &factor,
                                     label, sizeof label);
        if (!(ceil > 0)) {
            v->kind = GT_VERDICT_CANNOT;
            snprintf(v->text, sizeof v->text, "cannot tell here: %s has no known ceiling (%s)",
                     x->a.label, label);
            return;
        }
        v->ratio = m[0] * factor / ceil;
        interval(d[0], NULL, &lo, &hi);
        snprintf(want, sizeof want, "%s %.0f%%", x->rel == GT_REL_CEIL_ABOVE ? "above" : "below",
                 100 * x->lo);
        snprintf(text, sizeof text, "%s %s = %.0f%% of %s", x->a.label, fa, 100 * v->ratio,
                 label);
        judge(st, lo * factor / ceil, hi * factor / ceil, true, final, first, text, want, v);
        say_left_out(v, left_out);
        return;
    }
    figure(fb, sizeof fb, m[1], x->time);
    v->ratio = m[0] / m[1];
    interval(d[0], d[1], &lo, &hi);
    if (x->rel == GT_REL_ABOVE)
        snprintf(want, sizeof want, "above %.3gx", x->lo);
    else if (x->rel == GT_REL_BELOW)
        snprintf(want, sizeof want, "below %.3gx", x->lo);
    else
        snprintf(want, sizeof want, "%.3gx to %.3gx", x->lo, x->hi);
    snprintf(text, sizeof text, "%s %s vs %s %s, %.2fx", x->a.label, fa, x->b.label, fb,
             v->ratio);
    judge(st, lo, hi, false, final, first, text, want, v);
    say_left_out(v, left_out);
}

uint64_t gt_lesson_need(const gt_lesson_step *st, const gt_recording *rec)
{
    uint64_t need = (uint64_t)st->claim.expect.samples;

    for (int c = 0; rec && c < st->nconfigs; c++) {
        int idx = gt_recording_find(rec, st->exp, st->vals[c]);
        uint64_t per[GT_MAX_SERIES] = {0};
        const char *names[GT_MAX_SERIES];
        int ns;
        if (idx < 0)
            continue;
        ns = st->exp->series(rec->cfg[idx].vals, names);
        for (size_t i = 0; i < rec->cfg[idx].n; i++)
            if (rec->cfg[idx].s[i].series < GT_MAX_SERIES)
                per[rec->cfg[idx].s[i].series]++;
        for (int k = 0; k < ns; k++)
            if (per[k] && per[k] < need)
                need = per[k];
    }
    return need;
}
