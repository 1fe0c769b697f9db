/* The histogram blocks: per series, bandwidth and latency, the current
 * configuration's bars over the previous one's ghost on one axis, the
 * headline against its physical ceiling, the statistics rows and ('s')
 * the time strip. With more series than fit at a readable height, a table
 * of every series (p50, p90, p99 and a one-line bar) beside the blocks of
 * the selected one. */
#include <math.h>
#include <string.h>

#include "gputui/report/compare.h"
#include "gputui/base/units.h"
#include "ui_priv.h"

#define MAX_BINS 256

/* The same series of the previous configuration of this experiment; a
 * one-series run stands for a one-series run (H2D before, D2H now). */
static gt_series *prev_series(ui *u, const char *name)
{
    if (u->prev.exp != u->cur.exp)
        return NULL;
    for (int i = 0; i < u->prev.nseries; i++)
        if (!strcmp(u->prev.s[i].name, name))
            return &u->prev.s[i];
    return u->prev.nseries == 1 && u->cur.nseries == 1 ? &u->prev.s[0] : NULL;
}

/* The ghost of series si: B's same series in compare mode, else before. */
static gt_series *ghost_series(ui *u, int si)
{
    if (u->cmp.rec)
        return u->cmp.have && si < u->cmp.run.nseries ? &u->cmp.run.s[si] : NULL;
    return prev_series(u, u->cur.s[si].name);
}

static void fmt_val(char *buf, size_t n, double v, bool bw)
{
    if (!isfinite(v))
        snprintf(buf, n, "-");
    else if (bw)
        snprintf(buf, n, v >= 1e12 ? "%.0f" : "%.2f", v / 1e9);
    else
        gt_format_seconds(v, buf, n);
}

static void stats_row(int y, int x, int w, const char *label, gt_dist *d,
                      bool bw, attr_t a)
{
    gt_summary s;
    char line[256], c[32];
    int off, ncol = (w - 8) / 9;       /* a column to spare at the right */

    gt_dist_summary(d, &s);
    double vals[] = {s.p50, s.p90, s.p99, s.min, s.max, s.mean, s.stddev};
    off = snprintf(line, sizeof line, " %-6s", label);
    for (int i = 0; i < 7 && i < ncol; i++) {
        fmt_val(c, sizeof c, vals[i], bw);
        off += snprintf(line + off, sizeof line - (size_t)off, "%9s", c);
    }
    if (ncol >= 8)
        snprintf(line + off, sizeof line - (size_t)off, "%9llu%s", (unsigned long long)s.count,
                 gt_dist_exact(d) ? "" : "~");
    ui_put(y, x, w, a, line);
}

/* Column i of a one-line chart of v[0..n) scaled to lo..hi: eighths (or
 * ASCII levels); a missing value is a gap. */
static void spark(ui *u, int y, int x, const double *v, int n, double lo, double hi, attr_t a)
{
    static const char *const eighths[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                          "\u2585", "\u2586", "\u2587", "\u2588"};
    static const char ascii[] = "_.-=+*#@";

    attron(a);
    for (int i = 0; i < n; i++) {
        int k = 0;
        if (!isfinite(v[i])) {
            mvaddch(y, x + i, ' ');
            continue;
        }
        if (hi > lo)
            k = (int)((v[i] - lo) / (hi - lo) * 7.999);
        k = k < 0 ? 0 : k > 7 ? 7 : k;
        if (u->opt.utf8)
            mvaddstr(y, x + i, eighths[k]);
        else
            mvaddch(y, x + i, ascii[k]);
    }
    attroff(a);
}

/* The last n points of series si's time strip (at most its own count,
 * returned) into v, and the range of those known; lo is INFINITY when none
 * is. */
static int strip_points(const ui *u, int si, bool bw, int n, double *v, double *lo, double *hi)
{
    int have = u->strip.s ? u->strip.s->n : 0, first = have > n ? have - n : 0;

    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = first; i < have; i++) {
        v[i - first] = gt_strip_point(u->strip.s, si, i, bw);
        if (isfinite(v[i - first])) {
            *lo = fmin(*lo, v[i - first]);
            *hi = fmax(*hi, v[i - first]);
        }
    }
    return have - first;
}

/* The time strip of series si: its median second by second over the last
 * minute, newest on the right, with the range it spans. */
static void draw_strip(ui *u, int y, int x, int w, int si, bool bw)
{
    double v[GT_STRIP_POINTS], lo, hi;
    char a[32], b[32], text[96];
    int n = strip_points(u, si, bw, GT_STRIP_POINTS, v, &lo, &hi), room, first;

    ui_put(y, x, w, A_NORMAL, "");
    if (!isfinite(lo)) {
        ui_put(y, x, w, ui_role(u, C_GHOST), " p50 each second: waiting for a whole second");
        return;
    }
    fmt_val(a, sizeof a, lo, bw);
    fmt_val(b, sizeof b, hi, bw);
    snprintf(text, sizeof text, " %s..%s, %+.1f%%", a, b,
             100.0 * (bw ? lo / hi - 1 : hi / lo - 1));
    room = w - 12 - (int)strlen(text);
    if (room < 20) {        /* narrow: the spread alone */
        snprintf(text, sizeof text, " %+.1f%%", 100.0 * (bw ? lo / hi - 1 : hi / lo - 1));
        room = w - 12 - (int)strlen(text);
    }
    if (room < 8) {
        ui_put(y, x, w, ui_role(u, C_GHOST), " strip: too narrow");
        return;
    }
    first = n > room ? n - room : 0;
    ui_putf(y, x, 11, ui_role(u, C_GHOST), " p50 %2ds", n - first);
    spark(u, y, x + 11, v + first, n - first, lo, hi, ui_role(u, bw ? C_BW : C_LAT));
    ui_put(y, x + 11 + (n - first), (int)strlen(text), ui_role(u, C_GHOST), text);
}

/* One histogram block: title, chart (current bars over the previous
 * configuration's ghost, both on one x axis), axis, statistics. */
static void draw_block(ui *u, int y, int x, int w, int h, int si, bool bw)
{
    gt_series *now = &u->cur.s[si], *pv = ghost_series(u, si);
    gt_dist *dn = bw ? &now->bw : &now->lat;
    gt_dist *dp = pv ? (bw ? &pv->bw : &pv->lat) : NULL;
    /* Rows: title, chart, axis, [column header], now, [before]. A short
     * block keeps two chart rows before it keeps the optional rows; with
     * many series (3 rows or fewer) the axis goes, then the chart. */
    bool strip_row = ui_shown(u, SCR_STRIP) && h >= 6;
    int hs = h - strip_row;
    bool hdr = hs >= 3 + 2 + 1, before_row = hs >= 3 + 2 + 2, axis_row = hs >= 4;
    int ch = hs - 2 - axis_row - hdr - before_row, nb = w - 2 < MAX_BINS ? w - 2 : MAX_BINS;
    uint64_t bn[MAX_BINS], bp[MAX_BINS], tn = 0, tp = 0;
    double lo = NAN, hi = NAN;
    char title[256], a[32], b[32];
    static const char *const eighths[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584",
                                          "\u2585", "\u2586", "\u2587", "\u2588"};

    /* Title with the headline figure against its ceiling; in compare mode
     * the ratio of medians too, before the ceiling if both do not fit. */
    char ceiling[96] = "", pct[24] = "", ratio[48] = "", corner[96] = "";
    int avail;
    if (bw) {
        double factor = 1.0, ceil;
        char label[64];
        double p50 = gt_dist_percentile(dn, 0.5);
        ceil = gt_experiment_ceiling(u->exp, u->vals, si, &u->props, &factor, label, sizeof label);
        if (ceil > 0 && isfinite(p50)) {
            snprintf(title, sizeof title, " %s bandwidth GB/s  p50 %.2f", now->name, p50 / 1e9);
            snprintf(ceiling, sizeof ceiling, " = %.1f%% of %s %.1f%s",
                     100.0 * p50 * factor / ceil, label, ceil / 1e9, factor != 1.0 ? " (x2)" : "");
            snprintf(pct, sizeof pct, " = %.1f%%", 100.0 * p50 * factor / ceil);
        } else {
            snprintf(title, sizeof title, " %s bandwidth GB/s", now->name);
            snprintf(ceiling, sizeof ceiling, "  (%s)", label);
        }
    } else {
        snprintf(title, sizeof title, " %s latency per sample", now->name);
    }
    if (u->cmp.rec && dp) {
        /* the clean samples of each side, as --batch --compare takes them */
        double r = gt_compare_ratio(gt_series_judged(now, bw), gt_series_judged(pv, bw));
        if (isfinite(r))
            snprintf(ratio, sizeof ratio, "  %s/%s %.2fx", u->cmp.name_a, u->cmp.name_b, r);
        else
            snprintf(ratio, sizeof ratio, "  %s/%s -", u->cmp.name_a, u->cmp.name_b);
    }
    /* The corner (failures, or samples taken while another process may
     * have had the GPU) keeps its place and the title gives way before it:
     * the ceiling shrinks to its percentage, then goes. Without a corner a
     * long title is cut at the block's edge. */
    if (now->failed)
        snprintf(corner, sizeof corner, " %llu FAILED ", (unsigned long long)now->failed);
    else if (gt_series_disturbed(now) && u->st.share.foreign_text[0] && !u->rp.rec) {
        /* the first neighbour, "pid 472 nvbandwidth", without its memory */
        const char *who = u->st.share.foreign_text;
        int n = (int)strcspn(who, "(,");
        while (n > 0 && who[n - 1] == ' ')
            n--;
        snprintf(corner, sizeof corner, " %llu of %llu disturbed: %.*s ",
                 (unsigned long long)now->disturbed,
                 (unsigned long long)(now->lat.count + now->failed), n, who);
    }
    else if (now->disturbed)
        snprintf(corner, sizeof corner, " %llu disturbed ", (unsigned long long)now->disturbed);
    avail = corner[0] ? w - (int)strlen(corner) - 1 : w - 1;   /* a column to spare */
    if ((int)(strlen(title) + strlen(ceiling) + strlen(ratio)) >= w && ratio[0])
        ceiling[0] = '\0';
    if (corner[0] && ceiling[0] && (int)(strlen(title) + strlen(ceiling) + strlen(ratio)) >= avail)
        snprintf(ceiling, sizeof ceiling, "%s", pct);
    if (corner[0] && (int)(strlen(title) + strlen(ceiling) + strlen(ratio)) >= avail)
        ceiling[0] = ratio[0] = '\0';
    snprintf(title + strlen(title), sizeof title - strlen(title), "%s%s", ceiling, ratio);
    ui_put(y, x, avail > 0 ? avail : 0, ui_role(u, C_TITLE), title);
    if (corner[0])
        ui_put(y, x + w - (int)strlen(corner) - 1, (int)strlen(corner),
               now->failed ? ui_role(u, C_ERR) | A_REVERSE : ui_role(u, C_WARN), corner);

    if (dn->count) {
        lo = dn->min;
        hi = gt_dist_percentile(dn, 0.99);
    }
    if (dp && dp->count) {
        double plo = dp->min, phi = gt_dist_percentile(dp, 0.99);
        lo = isfinite(lo) ? fmin(lo, plo) : plo;
        hi = isfinite(hi) ? fmax(hi, phi) : phi;
    }
    if (isfinite(lo) && hi <= lo) {
        double pad = fabs(lo) * 0.005 + 1e-12;
        lo -= pad;
        hi += pad;
    }
    if (isfinite(lo)) {
        tn = dn->count ? gt_dist_bins(dn, lo, hi, bn, nb) : 0;
        tp = dp && dp->count ? gt_dist_bins(dp, lo, hi, bp, nb) : 0;
    }
    for (int r = 0; r < ch; r++) {
        int yy = y + 1 + r, level = ch - 1 - r;     /* 0 = bottom row */
        ui_put(yy, x, w, A_NORMAL, "");
        if (!isfinite(lo))
            continue;
        for (int c = 0; c < nb; c++) {
            /* Heights in eighths of a row, each distribution scaled to its
             * own peak so both stay visible. */
            int en = tn ? (int)((double)bn[c] * ch * 8 / (double)tn + 0.5) : 0;
            int ep = tp ? (int)((double)bp[c] * ch * 8 / (double)tp + 0.5) : 0;
            int cell = en - level * 8;
            if (tn && bn[c] && en == 0)
                en = cell = 1 - level * 8;              /* never hide a sample */
            if (cell > 0) {
                attron(ui_role(u, bw ? C_BW : C_LAT));
                if (u->opt.utf8)
                    mvaddstr(yy, x + 1 + c, eighths[cell > 8 ? 8 : cell]);
                else
                    mvaddch(yy, x + 1 + c, cell >= 4 ? '#' : (level == 0 ? '_' : ' '));
                attroff(ui_role(u, bw ? C_BW : C_LAT));
            } else if (ep - level * 8 > 0) {
                attron(ui_role(u, C_GHOST));
                if (u->opt.utf8)
                    mvaddstr(yy, x + 1 + c, "\u2591");
                else
                    mvaddch(yy, x + 1 + c, ':');
                attroff(ui_role(u, C_GHOST));
            }
        }
    }
    /* Axis: range of both distributions; the last bin also holds values
     * above the larger p99. */
    int row = y + 1 + ch;
    if (axis_row && isfinite(lo)) {
        fmt_val(a, sizeof a, lo, bw);
        fmt_val(b, sizeof b, hi, bw);
        char axis[256];
        snprintf(axis, sizeof axis, " %s", a);
        ui_put(row, x, w, A_NORMAL, axis);
        snprintf(axis, sizeof axis, ">=%s ", b);
        ui_put(row, x + w - (int)strlen(axis), (int)strlen(axis), A_NORMAL, axis);
        if (w > 60) {
            snprintf(axis, sizeof axis, "%s %s  %s %s", u->opt.utf8 ? "\u2588" : "#",
                     u->cmp.rec ? u->cmp.name_a : "now", u->opt.utf8 ? "\u2591" : ":",
                     u->cmp.rec ? u->cmp.name_b : "before");
            ui_put(row, x + w / 2 - 8, 18, ui_role(u, C_GHOST), axis);
        }
    } else if (axis_row) {
        /* A series this device cannot produce says why instead. */
        if (u->st.gen == u->cur.gen && (u->st.info.skipped & (1u << si)))
            ui_putf(row, x, w, ui_role(u, C_GHOST), " not run here: %s",
                 u->st.info.why_skipped);
        else
            ui_put(row, x, w, ui_role(u, C_GHOST), " waiting for samples");
    }
    row += axis_row;
    if (strip_row)
        draw_strip(u, row++, x, w, si, bw);
    if (hdr) {
        char hdrline[256];
        const char *names[] = {"p50", "p90", "p99", "min", "max", "mean", "stddev", "n"};
        int off = snprintf(hdrline, sizeof hdrline, " %-6s", "");
        int ncol = (w - 8) / 9;
        for (int i = 0; i < 8 && i < ncol; i++)
            off += snprintf(hdrline + off, sizeof hdrline - (size_t)off, "%9s", names[i]);
        ui_put(row++, x, w, ui_role(u, C_GHOST), hdrline);
    }
    stats_row(row++, x, w, u->cmp.rec ? u->cmp.name_a : now->disturbed ? "all" : "now", dn, bw,
              ui_role(u, bw ? C_BW : C_LAT));
    if (!before_row)
        return;
    /* Samples marked disturbed: the clean ones' figures take the before
     * row (a shared GPU's "before" would mislead as much). */
    if (now->disturbed)
        stats_row(row, x, w, "clean", bw ? &now->clean_bw : &now->clean_lat, bw,
                  ui_role(u, bw ? C_BW : C_LAT));
    else if (dp)
        stats_row(row, x, w, u->cmp.rec ? u->cmp.name_b : "before", dp, bw, ui_role(u, C_GHOST));
    else if (u->cmp.rec)
        ui_putf(row, x, w, ui_role(u, C_GHOST), " %-6s -  (B has no recording of this configuration)",
                u->cmp.name_b);
    else
        ui_put(row, x, w, ui_role(u, C_GHOST), " before -  (change a parameter to compare)");
}

static void hit(ui *u, int y, int x, int w, int h, int si)
{
    if (u->mouse.nhit < (int)(sizeof u->mouse.hit / sizeof u->mouse.hit[0]))
        u->mouse.hit[u->mouse.nhit++] = (ui_hit){y, x, w, h, si};
}

/* Many series: the table on the left (p50, p90, p99, and a one-line bar
 * of the distribution, or the time strip), the selected series' blocks on
 * the right. Up/Down pick a series when Tab has the table (or a click). */
static void draw_compact(ui *u, int hy, int hh, bool bw)
{
    int ns = u->cur.nseries, tw = COLS / 2, bx = tw + 1, bwid = COLS - bx, list = hh - 1;
    /* p99 and the bar when there is room; the names give way first */
    int nq = tw >= 20 + 3 * 9 + 10 ? 3 : 2, nw = tw - 2 - 9 * nq - (nq == 3 ? 10 : 0);
    bool focus = u->view.pane == PANE_SERIES;
    char line[256], v[3][32];

    nw = nw > 20 ? 20 : nw < 8 ? 8 : nw;

    if (u->view.series_sel >= ns)
        u->view.series_sel = ns - 1;
    if (u->view.series_sel < 0)
        u->view.series_sel = 0;
    if (u->view.series_sel < u->view.series_scroll)
        u->view.series_scroll = u->view.series_sel;
    if (u->view.series_sel >= u->view.series_scroll + list)
        u->view.series_scroll = u->view.series_sel - list + 1;
    snprintf(line, sizeof line, "%d series%s", ns, bw ? ", GB/s" : "");
    ui_putf(hy, 0, tw, ui_role(u, C_TITLE) | (focus ? A_REVERSE : 0), " %-*.*s %8s %8s %s%s",
            nw, nw, line, "p50", "p90", nq == 3 ? "     p99 " : "",
            nq < 3 ? "" : ui_shown(u, SCR_STRIP) ? "p50 each second" : focus ? "(Up/Down)" : "(Tab, click)");
    for (int k = 0; k < list; k++) {
        int si = u->view.series_scroll + k, y = hy + 1 + k, nb;
        char name[64];
        gt_dist *d;
        attr_t a;
        if (si >= ns) {
            ui_put(y, 0, tw, A_NORMAL, "");
            continue;
        }
        d = bw ? &u->cur.s[si].bw : &u->cur.s[si].lat;
        a = si == u->view.series_sel ? A_REVERSE : A_NORMAL;
        for (int q = 0; q < 3; q++)
            fmt_val(v[q], sizeof v[q], d->count ? gt_dist_percentile(d, q == 0 ? 0.5 : q == 1 ?
                                                                   0.9 : 0.99) : NAN, bw);
        ui_fit(name, sizeof name, u->cur.s[si].name, nw);
        snprintf(line, sizeof line, " %s %8s %8s ", name, v[0], v[1]);
        if (nq == 3)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%8s ", v[2]);
        ui_put(y, 0, tw, a, line);
        hit(u, y, 0, tw, 1, si);
        nb = tw - (int)strlen(line) - 1;
        if (nq < 3 || nb < 4 || !d->count)
            continue;
        if (ui_shown(u, SCR_STRIP) && u->strip.s) {
            double pts[GT_STRIP_POINTS], lo, hi;
            int n = strip_points(u, si, bw, nb < GT_STRIP_POINTS ? nb : GT_STRIP_POINTS, pts,
                                 &lo, &hi);
            if (isfinite(lo))
                spark(u, y, (int)strlen(line), pts, n, lo, hi, ui_role(u, bw ? C_BW : C_LAT));
        } else {
            /* The distribution from its minimum to its p99, on one line. */
            uint64_t bins[MAX_BINS], tot;
            double h[MAX_BINS], top = 0, lo = d->min, hi = gt_dist_percentile(d, 0.99);
            if (!(hi > lo))
                hi = lo * 1.005 + 1e-12;
            tot = gt_dist_bins(d, lo, hi, bins, nb < MAX_BINS ? nb : MAX_BINS);
            for (int i = 0; i < nb && i < MAX_BINS; i++)
                top = fmax(top, (double)bins[i]);
            for (int i = 0; i < nb && i < MAX_BINS; i++)
                h[i] = bins[i] ? (double)bins[i] : NAN;
            if (tot)
                spark(u, y, (int)strlen(line), h, nb < MAX_BINS ? nb : MAX_BINS, 0, top,
                      ui_role(u, bw ? C_BW : C_LAT));
        }
    }
    for (int y = hy; y < hy + hh; y++)
        ui_put(y, tw, 1, ui_role(u, C_GHOST), u->opt.utf8 ? "\u2502" : "|");
    if (bw) {
        hit(u, hy, bx, bwid, hh / 2, u->view.series_sel);
        draw_block(u, hy, bx, bwid, hh / 2, u->view.series_sel, true);
        draw_block(u, hy + hh / 2, bx, bwid, hh - hh / 2, u->view.series_sel, false);
    } else {
        draw_block(u, hy, bx, bwid, hh, u->view.series_sel, false);
    }
}

/* The live histograms (and the streams timeline) in rows hy .. hy+hh. */
void ui_draw_histograms(ui *u, int hy, int hh)
{
    int ns = u->cur.nseries ? u->cur.nseries : 1, th = ui_timeline_rows(u);
    bool bw = gt_experiment_bandwidth(u->exp, u->vals);
    int nblocks = bw ? 2 * ns : ns, rows = (nblocks + 1) / 2;

    /* The timeline (streams) takes the bottom rows, leaving the histograms
     * at least six. */
    if (th > hh - 6)
        th = hh - 6;
    if (th >= 4) {
        hh -= th;
        ui_draw_timeline(u, hy + hh, 0, COLS, th);
    }
    u->mouse.nhit = 0;
    u->view.compact = ns > 2 && hh / rows < 7;
    if (u->view.compact) {
        draw_compact(u, hy, hh, bw);
        return;
    }
    if (u->view.pane == PANE_SERIES)
        u->view.pane = PANE_EXP;
    /* Two blocks a row: bandwidth and latency of one series, or the
     * latency of two series when bandwidth means nothing here. */
    for (int b = 0; b < nblocks; b++) {
        int r = b / 2, y = hy + r * (hh / rows), h = hh / rows;
        int x = b % 2 ? COLS / 2 : 0, w = b % 2 ? COLS - COLS / 2 : COLS / 2;
        int si = bw ? b / 2 : b;
        if (si < u->cur.nseries)
            hit(u, y, x, w, h, si);
        draw_block(u, y, x, w, h, si, bw && b % 2 == 0);
    }
}
