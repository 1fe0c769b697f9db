/* Lessons: the verdict of a step from the medians of its runs, and how
 * many samples make one (lesson.h). */
#include "gputui/lesson/lesson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/record/record.h"
#include "gputui/base/units.h"

const char *gt_verdict_name(gt_verdict_kind k)
{
    static const char *const n[] = {"measuring", "as expected", "not on this machine",
                                    "cannot tell here"};
    return k <= GT_VERDICT_CANNOT ? n[k] : "?";
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

void gt_lesson_verdict(const gt_lesson_step *st, gt_run *const *runs, const gt_devprops *p,
                       uint64_t need, gt_verdict *v)
{
    const gt_lesson_expect *x = &st->expect;
    const gt_lesson_ref *ref[2] = {&x->a, &x->b};
    int nref = x->rel >= GT_REL_CEIL_ABOVE ? 1 : 2;
    double m[2] = {NAN, NAN};
    char fa[32], fb[32], want[64];
    bool yes;

    v->kind = GT_VERDICT_WAIT;
    v->text[0] = '\0';
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
        const gt_dist *d;
        if (!r || s < 0) {
            snprintf(v->text, sizeof v->text, "measuring: configuration %d has not run yet",
                     ref[i]->config + 1);
            return;
        }
        d = x->time ? &r->s[s].lat : &r->s[s].bw;
        if (r->s[s].lat.count < need) {
            snprintf(v->text, sizeof v->text, "measuring: %s has %llu of %llu samples",
                     ref[i]->label, (unsigned long long)r->s[s].lat.count,
                     (unsigned long long)need);
            return;
        }
        m[i] = gt_dist_percentile((gt_dist *)d, 0.5);
        if (!(m[i] > 0) || !isfinite(m[i])) {
            v->kind = GT_VERDICT_CANNOT;
            snprintf(v->text, sizeof v->text, "cannot tell here: %s has no %s median",
                     ref[i]->label, x->time ? "time" : "bandwidth");
            return;
        }
    }
    figure(fa, sizeof fa, m[0], x->time);
    if (x->rel == GT_REL_NOTE) {
        const char *note = runs[x->a.config]->info.note;
        yes = strstr(note, x->note) != NULL;
        v->kind = yes ? GT_VERDICT_YES : GT_VERDICT_NO;
        snprintf(v->text, sizeof v->text, "%s: %s (expected \"%s\")%s%s",
                 gt_verdict_name(v->kind), note[0] ? note : "the set-up said nothing", x->note,
                 !yes && st->otherwise[0] ? "; " : "", !yes ? st->otherwise : "");
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
        double share = m[0] * factor / ceil;
        yes = x->rel == GT_REL_CEIL_ABOVE ? share > x->lo : share < x->lo;
        snprintf(want, sizeof want, "%s %.0f%%", x->rel == GT_REL_CEIL_ABOVE ? "above" : "below",
                 100 * x->lo);
        v->kind = yes ? GT_VERDICT_YES : GT_VERDICT_NO;
        snprintf(v->text, sizeof v->text, "%s: %s %s = %.0f%% of %s (expected %s)%s%s",
                 gt_verdict_name(v->kind), x->a.label, fa, 100 * share, label, want,
                 !yes && st->otherwise[0] ? "; " : "", !yes ? st->otherwise : "");
        return;
    }
    figure(fb, sizeof fb, m[1], x->time);
    double ratio = m[0] / m[1];
    if (x->rel == GT_REL_ABOVE) {
        yes = ratio > x->lo;
        snprintf(want, sizeof want, "above %.2gx", x->lo);
    } else if (x->rel == GT_REL_BELOW) {
        yes = ratio < x->lo;
        snprintf(want, sizeof want, "below %.2gx", x->lo);
    } else {
        yes = ratio >= x->lo && ratio <= x->hi;
        snprintf(want, sizeof want, "%.2gx to %.2gx", x->lo, x->hi);
    }
    v->kind = yes ? GT_VERDICT_YES : GT_VERDICT_NO;
    snprintf(v->text, sizeof v->text, "%s: %s %s vs %s %s, %.2fx (expected %s)%s%s",
             gt_verdict_name(v->kind), x->a.label, fa, x->b.label, fb, ratio, want,
             !yes && st->otherwise[0] ? "; " : "", !yes ? st->otherwise : "");
}

uint64_t gt_lesson_need(const gt_lesson_step *st, const gt_recording *rec)
{
    uint64_t need = (uint64_t)st->expect.samples;

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
