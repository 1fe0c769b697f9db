/* The peer matrix judged (pairs_judge.h). */
#include "gputui/report/pairs_judge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The median of the measured pairs whose link reads 'link'; their count. */
static double median_of(const gt_pairs_verdict *v, const char *link, int *count)
{
    double x[GT_MAX_DEVICES * GT_MAX_DEVICES];
    int k = 0;

    for (int i = 0; i < v->n; i++)
        if (isfinite(v->p[i].figure) && !strcmp(v->p[i].link, link))
            x[k++] = v->p[i].figure;
    *count = k;
    if (!k)
        return NAN;
    qsort(x, (size_t)k, sizeof *x, by_value);
    return k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
}

void gt_pairs_judge(const gt_topo *t, int n, const double m[GT_MAX_DEVICES][GT_MAX_DEVICES],
                    bool latency, gt_pairs_verdict *v)
{
    memset(v, 0, sizeof *v);
    if (n > GT_MAX_DEVICES)
        n = GT_MAX_DEVICES;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            gt_pair_judged *p = &v->p[v->n];
            if (i == j)
                continue;
            *p = (gt_pair_judged){.from = i, .to = j, .figure = m[i][j], .median = NAN};
            gt_topo_link_short(&t->link[i][j], p->link, sizeof p->link);
            v->n++;
        }
    for (int k = 0; k < v->n; k++) {
        gt_pair_judged *p = &v->p[k];
        const gt_topo_link *l = &t->link[p->from][p->to];
        if (!isfinite(p->figure)) {
            /* not measured: a failure only where NVLink joins them */
            p->level = l->nvlinks > 0 && l->access == 0 ? GT_PV_FAIL : GT_PV_ALONE;
        } else {
            p->median = median_of(v, p->link, &p->group);
            if (p->group < GT_PAIRS_MIN_GROUP)
                p->level = GT_PV_ALONE;
            else if (latency ? p->figure * GT_PAIRS_WARN_SHARE > p->median
                             : p->figure < GT_PAIRS_WARN_SHARE * p->median)
                p->level = GT_PV_WARN;
            else
                p->level = GT_PV_PASS;
        }
        v->warn += p->level == GT_PV_WARN;
        v->fail += p->level == GT_PV_FAIL;
    }
    v->worst = v->fail ? GT_PV_FAIL : v->warn ? GT_PV_WARN : GT_PV_PASS;
}

const char *gt_pair_level_name(gt_pair_level l)
{
    static const char *const names[] = {
        [GT_PV_PASS] = "pass", [GT_PV_ALONE] = "alone", [GT_PV_WARN] = "warn",
        [GT_PV_FAIL] = "fail",
    };
    return (unsigned)l < sizeof names / sizeof *names ? names[l] : "?";
}

char *gt_pair_judged_text(const gt_pair_judged *p, bool latency, char *buf, size_t len)
{
    const char *unit = latency ? "ns" : "GB/s";
    double scale = latency ? 1e9 : 1e-9;
    int off = snprintf(buf, len, "GPU %d -> GPU %d: ", p->from, p->to);

    if (off < 0 || (size_t)off >= len)
        return buf;
    if (p->level == GT_PV_FAIL)
        snprintf(buf + off, len - (size_t)off, "no peer access, though the topology joins "
                 "them by NVLink (%s)", p->link);
    else if (!isfinite(p->figure))
        snprintf(buf + off, len - (size_t)off, "not measured (%s)", p->link);
    else if (p->level == GT_PV_ALONE)
        snprintf(buf + off, len - (size_t)off, "%.1f %s; %d %s pair%s measured, too few to "
                 "compare with", p->figure * scale, unit, p->group, p->link,
                 p->group == 1 ? "" : "s");
    else
        snprintf(buf + off, len - (size_t)off, "%.1f %s, %.0f%% %s the median of its %d %s "
                 "pairs (%.1f %s)", p->figure * scale, unit,
                 100 * fabs(p->figure / p->median - 1), p->figure < p->median ? "below"
                 : "above", p->group, p->link, p->median * scale, unit);
    return buf;
}
