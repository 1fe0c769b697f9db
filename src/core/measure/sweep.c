#include "gputui/measure/sweep.h"

#include <string.h>

#include "gputui/base/units.h"

void gt_sweep_begin(gt_sweep *s, const gt_experiment *e, int param, const int64_t *vals,
                    const gt_devprops *p)
{
    const char *names[GT_MAX_SERIES];

    memset(s, 0, sizeof *s);
    s->exp = e;
    s->param = param;
    s->mark = NAN;
    memcpy(s->base, vals, (size_t)e->nparams * sizeof *vals);
    s->nseries = e->series(vals, names);
    if (s->nseries > GT_SWEEP_SERIES)
        s->nseries = GT_SWEEP_SERIES;
    for (int i = 0; i < s->nseries; i++)
        snprintf(s->names[i], sizeof s->names[i], "%s", names[i]);
    for (int i = 0; i < GT_SWEEP_MAX; i++)
        for (int k = 0; k < GT_SWEEP_SERIES; k++)
            s->p50[i][k] = NAN;
    if (e->sweep_mark)
        s->mark = e->sweep_mark(vals, param, p, s->mark_label, sizeof s->mark_label);
}

/* Leaves out the values the experiment refuses here. */
/* A sweep sets each series against the values: values that measure other
 * series (vmm's op: alloc times eleven calls, bandwidth two copies) have
 * no common column. The same number of series, the first the same, is one
 * plot (pitched's dims: packed against cudaMallocPitch, then against
 * cudaMalloc3D). False with the reason, naming each value's count. */
static bool same_series(const gt_sweep *s, char *err, size_t errlen)
{
    int64_t v[GT_MAX_PARAMS];
    const char *first[GT_MAX_SERIES], *names[GT_MAX_SERIES];
    int n0, n, off;
    char name[48];
    bool same = true;

    memcpy(v, s->base, sizeof v);
    v[s->param] = s->vals[0];
    n0 = s->exp->series(v, first);
    for (int i = 1; i < s->n && same; i++) {
        v[s->param] = s->vals[i];
        n = s->exp->series(v, names);
        same = n == n0 && !strcmp(names[0], first[0]);
    }
    if (same)
        return true;
    off = snprintf(err, errlen, "%s: its values measure different series (",
                   s->exp->params[s->param].name);
    for (int i = 0; i < s->n && off > 0 && (size_t)off < errlen; i++) {
        v[s->param] = s->vals[i];
        n = s->exp->series(v, names);
        gt_param_format(&s->exp->params[s->param], s->vals[i], name, sizeof name);
        off += snprintf(err + off, errlen - (size_t)off, "%s%s %d", i ? ", " : "", name, n);
    }
    if (off > 0 && (size_t)off < errlen)
        snprintf(err + off, errlen - (size_t)off, "): sweep another parameter");
    return false;
}

static int drop_refused(gt_sweep *s, const gt_devprops *p, char *err, size_t errlen)
{
    int64_t v[GT_MAX_PARAMS];
    char why[sizeof s->why_refused];
    int kept = 0;

    memcpy(v, s->base, sizeof v);
    s->refused = 0;
    for (int i = 0; i < s->n; i++) {
        v[s->param] = s->vals[i];
        if (gt_experiment_check(s->exp, v, p, why, sizeof why)) {
            if (!s->refused++)
                snprintf(s->why_refused, sizeof s->why_refused, "%s", why);
            continue;
        }
        s->vals[kept++] = s->vals[i];
    }
    s->n = kept;
    if (!kept) {
        snprintf(err, errlen, "no value of %s can run here: %s",
                 s->exp->params[s->param].name, s->why_refused);
        return -1;
    }
    return same_series(s, err, errlen) ? kept : -1;
}

int gt_sweep_values(gt_sweep *s, const gt_devprops *p, char *err, size_t errlen)
{
    const gt_param *pa = &s->exp->params[s->param];

    s->n = s->exp->sweep_values ? s->exp->sweep_values(s->param, p, s->vals, GT_SWEEP_MAX) : 0;
    if (s->n > 0)
        return drop_refused(s, p, err, errlen);
    s->n = 0;
    if (pa->type == GT_P_ENUM || pa->type == GT_P_BOOL) {
        for (int64_t v = pa->min; v <= pa->max && s->n < GT_SWEEP_MAX; v++)
            s->vals[s->n++] = v;
    } else if (pa->step > 0 && (pa->max - pa->min) / pa->step < GT_SWEEP_MAX) {
        for (int64_t v = pa->min; v <= pa->max; v += pa->step)
            s->vals[s->n++] = v;
    } else if (pa->step == 0) {
        /* The steps + and - take: doubling, from the smallest value on. */
        for (int64_t v = pa->min; s->n < GT_SWEEP_MAX;) {
            int64_t next = gt_param_step(pa, v, 1);
            s->vals[s->n++] = v;
            if (next <= v || next > pa->max)
                break;
            v = next;
        }
    } else {
        snprintf(err, errlen, "%s cannot be swept here: it has more than %d steps of %lld "
                 "(batch mode sweeps any list, e.g. --%s 4,8,16)", pa->name, GT_SWEEP_MAX,
                 (long long)pa->step, pa->name);
        return -1;
    }
    return drop_refused(s, p, err, errlen);
}

/* The largest median measured: the length of a full bar. */
static double sweep_top(const gt_sweep *s)
{
    double top = 0;

    for (int i = 0; i < s->n; i++)
        for (int k = 0; k < s->nseries; k++)
            if (isfinite(s->p50[i][k]) && s->p50[i][k] > top)
                top = s->p50[i][k];
    return top;
}

int gt_sweep_render(const gt_sweep *s, char (*rows)[256], int maxrows, int width)
{
    double top = sweep_top(s);
    int n = 0, bar, off;
    bool marked = false;
    char v[48], t[32];

    if (width > 255)
        width = 255;
    bar = (width - 12 - s->nseries * 13) / (s->nseries ? s->nseries : 1) - 1;
    if (bar < 4)
        bar = 4;
    if (n < maxrows) {
        off = snprintf(rows[n], 256, "  %-10.10s", s->exp->params[s->param].name);
        for (int k = 0; k < s->nseries && off < width; k++)
            off += snprintf(rows[n] + off, (size_t)(256 - off), "  %-*.*s", 12 + bar, 12 + bar,
                            s->names[k]);
        n++;
    }
    for (int i = 0; i < s->n && n < maxrows; i++) {
        if (isfinite(s->mark) && !marked && (double)s->vals[i] > s->mark) {
            snprintf(rows[n++], 256, "  ---------- %s ----------", s->mark_label);
            marked = true;
            if (n == maxrows)
                break;
        }
        gt_param_format(&s->exp->params[s->param], s->vals[i], v, sizeof v);
        off = snprintf(rows[n], 256, "  %-10s", v);
        for (int k = 0; k < s->nseries && off < 200; k++) {
            double m = s->p50[i][k];
            int b = isfinite(m) && top > 0 ? (int)(m / top * bar + 0.5) : 0;
            off += snprintf(rows[n] + off, (size_t)(256 - off), "  %10s ",
                            isfinite(m) ? gt_format_seconds(m, t, sizeof t) : "-");
            for (int c = 0; c <= bar && off < 254; c++)
                rows[n][off++] = c < b ? '#' : ' ';
            rows[n][off] = '\0';
        }
        n++;
    }
    if (isfinite(s->mark) && !marked && n < maxrows)
        snprintf(rows[n++], 256, "  ---------- %s ----------", s->mark_label);
    for (int i = 0; i < n; i++)
        rows[i][width < 255 ? width : 255] = '\0';
    return n;
}

void gt_sweep_print(FILE *f, const gt_sweep *s)
{
    char rows[GT_SWEEP_MAX + 2][256], t[32];
    int n = gt_sweep_render(s, rows, GT_SWEEP_MAX + 2, 12 + 2 * 36);

    fprintf(f, "\nsweep of %s: p50 latency per run, bars to %s\n", s->exp->params[s->param].name,
            gt_format_seconds(sweep_top(s), t, sizeof t));
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\n", rows[i]);
}
