/* The report as one HTML page (html.h). */
#include "gputui/report/html.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/base/common.h"
#include "gputui/base/units.h"
#include "gputui/report/why.h"

#define BINS 40
#define SVG_W 560
#define SVG_H 120
#define PAD 18

static const char css[] =
    ":root{--bg:#fff;--fg:#1b1b1b;--muted:#666;--bar:#2f6db5;--dist:#d98c1f;--mark:#b3261e;"
    "--ceil:#2e7d32;--grid:#ddd}"
    "@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e6e6;--muted:#9aa0a6;"
    "--bar:#6ea8fe;--dist:#f0b35a;--mark:#ff8a80;--ceil:#81c784;--grid:#333}}"
    "body{background:var(--bg);color:var(--fg);font:14px/1.4 system-ui,sans-serif;"
    "margin:1.5em auto;max-width:62em;padding:0 1em}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h3{font-size:1em}"
    "table{border-collapse:collapse;margin:.4em 0}td,th{padding:.15em .6em;text-align:right;"
    "border-bottom:1px solid var(--grid)}th:first-child,td:first-child{text-align:left}"
    ".muted{color:var(--muted)}.fail{color:var(--mark);font-weight:bold}"
    ".verdict{font-weight:bold;padding:.2em .5em;border-left:4px solid var(--grid)}"
    ".yes{border-color:var(--ceil)}.no{border-color:var(--mark)}.cannot,.close{border-color:var(--dist)}"
    "td.v-pass{color:var(--ceil)}td.v-warn,td.v-busy{color:var(--dist);font-weight:bold}"
    "td.v-fail{color:var(--mark);font-weight:bold}td.v-cannot{color:var(--muted)}"
    "table.card td,table.card th{text-align:left;vertical-align:top}"
    "svg text{font:11px system-ui,sans-serif;fill:var(--fg)}"
    "section.run{border-top:2px solid var(--grid);padding-top:.4em}"
    "@page{margin:14mm}"
    "@media print{:root{--bg:#fff;--fg:#000;--muted:#444;--grid:#bbb}body{max-width:none;"
    "margin:0}section.run,div.series{break-inside:avoid}}";

/* Text with &, <, > and " escaped. */
static void esc(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static void device(FILE *f, const gt_devprops *p)
{
    char v[64];

    fputs("<h2>Device</h2>\n<table class=\"device\">\n", f);
    fputs("<tr><th>Name</th><td>", f);
    esc(f, p->name);
    fputs("</td></tr>\n", f);
    for (int i = 0; i < GT_DP_COUNT; i++) {
        if (!gt_dp_table[i].label[0] || !gt_dp_ok(p, (gt_dp_id)i))
            continue;
        fputs("<tr><th>", f);
        esc(f, gt_dp_table[i].label);
        fputs("</th><td>", f);
        esc(f, gt_dp_format(p, (gt_dp_id)i, v, sizeof v));
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* html.h: a latency histogram of series s. */
void gt_html_histogram(FILE *f, gt_series *s, gt_series *ghost, double floor_s,
                       const char *ceil_label)
{
    unsigned all[BINS] = {0}, clean[BINS] = {0}, other[BINS] = {0}, top = 1;
    gt_summary sum, gsum;
    const gt_summary *lat = &sum;
    double lo, hi, w = (double)(SVG_W - 2 * PAD) / BINS;
    char a[32];

    gt_dist_summary(&s->lat, &sum);
    lo = lat->min;
    hi = lat->max;
    if (ghost && ghost->lat.count) {
        gt_dist_summary(&ghost->lat, &gsum);
        lo = fmin(lo, gsum.min);
        hi = fmax(hi, gsum.max);
    }
    if (floor_s > 0 && floor_s < lo)
        lo = floor_s;
    if (!(hi > lo))
        hi = lo + (lo > 0 ? lo * 1e-3 : 1e-9);
#define BIN(x) ((int)fmin(BINS - 1, fmax(0, ((x) - lo) / (hi - lo) * BINS)))
    for (size_t i = 0; i < s->lat.n; i++)
        all[BIN(s->lat.v[i])]++;
    for (size_t i = 0; i < s->clean_lat.n; i++)
        clean[BIN(s->clean_lat.v[i])]++;
    for (size_t i = 0; ghost && i < ghost->lat.n; i++)
        other[BIN(ghost->lat.v[i])]++;
    for (int b = 0; b < BINS; b++) {
        if (clean[b] > all[b] || !s->disturbed)
            clean[b] = all[b];
        top = all[b] > top ? all[b] : top;
    }
    /* The ghost (B, or before) on its own scale: its shape, not its count. */
    unsigned gtop = 1;
    for (int b = 0; b < BINS; b++)
        gtop = other[b] > gtop ? other[b] : gtop;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" role=\"img\"><title>", SVG_W, SVG_H, SVG_W, SVG_H);
    esc(f, s->name);
    fputs(" latency histogram</title>\n", f);
    for (int b = 0; b < BINS; b++) {
        double hc = (double)clean[b] / top * (SVG_H - 2 * PAD);
        double hd = (double)(all[b] - clean[b]) / top * (SVG_H - 2 * PAD);
        if (clean[b])
            fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                    "fill=\"#2f6db5\" style=\"fill:var(--bar)\"/>\n", PAD + b * w,
                    SVG_H - PAD - hc, w - 1, hc);
        if (all[b] > clean[b])
            fprintf(f, "<rect class=\"disturbed\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                    "height=\"%.1f\" fill=\"#d98c1f\" style=\"fill:var(--dist)\"/>\n",
                    PAD + b * w, SVG_H - PAD - hc - hd, w - 1, hd);
    }
    for (int b = 0; ghost && b < BINS; b++)
        if (other[b]) {
            double hg = (double)other[b] / gtop * (SVG_H - 2 * PAD);
            fprintf(f, "<rect class=\"ghost\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                    "height=\"%.1f\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"3 2\"/>\n",
                    PAD + b * w, SVG_H - PAD - hg, w - 1, hg);
        }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", PAD,
            SVG_H - PAD, SVG_W - PAD, SVG_H - PAD);
    const struct { const char *name; double v; } marks[] = {
        {.name = "p50", .v = lat->p50}, {.name = "p90", .v = lat->p90},
        {.name = "p99", .v = lat->p99}, {.name = "ceiling", .v = floor_s}};
    for (int m = 0; m < 4; m++) {
        double x;
        if (!(marks[m].v > 0) || !isfinite(marks[m].v))
            continue;
        x = PAD + (marks[m].v - lo) / (hi - lo) * (SVG_W - 2 * PAD);
        fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "stroke=\"%s\" stroke-dasharray=\"%s\"/>", x, PAD - 4, x, SVG_H - PAD,
                m == 3 ? "#2e7d32" : "#b3261e", m == 3 ? "6 3" : "2 2");
        fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n", x + 2, 10 + 11 * (m % 2),
                marks[m].name);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>", PAD, SVG_H - 4,
            gt_format_seconds(lo, a, sizeof a));
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", SVG_W - PAD,
            SVG_H - 4, gt_format_seconds(hi, a, sizeof a));
    fputs("</svg>\n", f);
    if (floor_s > 0) {
        fputs("<div class=\"muted\">ceiling: ", f);
        esc(f, ceil_label);
        fprintf(f, ", the fastest a sample could be: %s</div>\n",
                gt_format_seconds(floor_s, a, sizeof a));
    }
#undef BIN
}

/* One statistics row: the figures as the text report prints them, each
 * cell with its full value in data-value (what the tests compare with the
 * JSON of the same run). */
static void stat_row(FILE *f, const char *what, const gt_summary *x, double k, const char *fmt)
{
    const double v[] = {x->min, x->p50, x->p90, x->p99, x->max, x->mean, x->stddev};
    static const char *const key[] = {"min", "p50", "p90", "p99", "max", "mean", "stddev"};
    char cell[32];

    fputs("<tr><th>", f);
    esc(f, what);
    fputs("</th>", f);
    for (int i = 0; i < 7; i++) {
        snprintf(cell, sizeof cell, fmt, v[i] * k);
        fprintf(f, "<td data-key=\"%s\" data-value=\"%.17g\">%s</td>", key[i], v[i], cell);
    }
    fputs("</tr>\n", f);
}

static void series(FILE *f, const gt_devprops *p, gt_run *r, int s, gt_run *before)
{
    gt_series *se = &r->s[s];
    gt_summary lat, bw;
    double factor = 1.0, ceil, k, floor_s = 0;
    const char *unit;
    char label[64];
    gt_summary_line lines[GT_SUMMARY_LINES];
    bool shows_bw = gt_experiment_bandwidth(r->exp, r->vals);
    int n;

    gt_dist_summary(&se->lat, &lat);
    gt_dist_summary(&se->bw, &bw);
    fprintf(f, "<div class=\"series\" data-series=\"%d\">\n<h3>", s);
    esc(f, se->name);
    fprintf(f, "</h3>\n<p>%llu samples: %llu fully verified, %llu sampled check, "
            "<span class=\"%s\">%llu failed</span>", (unsigned long long)lat.count,
            (unsigned long long)se->full, (unsigned long long)se->sampled,
            se->failed ? "fail" : "muted", (unsigned long long)se->failed);
    if (se->disturbed)
        fprintf(f, "; %llu marked disturbed (the GPU may have been shared), in their own "
                "colour", (unsigned long long)se->disturbed);
    fputs("</p>\n", f);
    ceil = gt_experiment_ceiling(r->exp, r->vals, s, p, &factor, label, sizeof label);
    if (ceil > 0 && bw.p50 > 0 && lat.p50 > 0)
        floor_s = bw.p50 * lat.p50 * factor / ceil;     /* its bytes at the ceiling */
    if (lat.count)
        gt_html_histogram(f, se, before && s < before->nseries ? &before->s[s] : NULL, floor_s,
                          label);
    fputs("<table class=\"stats\">\n<tr><th></th><th>min</th><th>p50</th><th>p90</th>"
          "<th>p99</th><th>max</th><th>mean</th><th>stddev</th></tr>\n", f);
    if (shows_bw)
        stat_row(f, "bandwidth GB/s", &bw, 1e-9, "%.2f");
    unit = gt_latency_unit(lat.p50, &k);     /* sets k: before k is passed */
    stat_row(f, unit, &lat, k, "%.3f");
    fputs("</table>\n", f);
    if (ceil > 0 && isfinite(bw.p50)) {
        char share[160];
        gt_html_text(f, "p", NULL, gt_ceiling_share(bw.p50, factor, ceil, label, share,
                                                    sizeof share));
    }
    n = gt_why(r, s, p, lines, GT_SUMMARY_LINES);
    if (n > 1) {
        fputs("<details><summary>", f);
        esc(f, lines[0]);
        fputs("</summary><ul>\n", f);
        for (int i = 1; i < n; i++) {
            fputs("<li>", f);
            esc(f, lines[i]);
            fputs("</li>\n", f);
        }
        fputs("</ul></details>\n", f);
    }
    fputs("</div>\n", f);
}

/* before: the configuration before it on the page, drawn as each
 * histogram's ghost where it is of the same experiment; NULL: none. */
static void run(FILE *f, const gt_devprops *p, gt_run *r, int i, gt_run *before)
{
    char cfg[512], t[32];
    gt_summary_line lines[GT_SUMMARY_LINES];
    int n;

    fprintf(f, "<section class=\"run\" data-run=\"%d\">\n<h2>%s: ", i + 1, r->exp->name);
    esc(f, gt_experiment_describe(r->exp, r->vals, cfg, sizeof cfg));
    fputs("</h2>\n<p class=\"muted\">", f);
    esc(f, r->exp->explain);
    fputs("</p>\n", f);
    if (r->info.ntimes) {
        fputs("<table class=\"setup\">\n", f);
        for (int k = 0; k < r->info.ntimes; k++) {
            fputs("<tr><th>set-up: ", f);
            esc(f, r->info.times[k].label);
            fputs("</th><td>", f);
            esc(f, gt_setup_time_text(&r->info, k, t, sizeof t));
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    if (r->info.note[0]) {
        fputs("<p>verification: ", f);
        esc(f, r->info.note);
        fputs("</p>\n", f);
    }
    if (r->info.timing[0]) {
        fputs("<p>timing: ", f);
        esc(f, r->info.timing);
        fputs("</p>\n", f);
    }
    if (r->unkept) {
        char note[200];
        snprintf(note, sizeof note, "recording: %llu more samples of this configuration were "
                 "read and not kept (more than a reader keeps of a series)",
                 (unsigned long long)r->unkept);
        gt_html_text(f, "p", "fail", note);
    }
    if (before && (before->exp != r->exp || before->nseries != r->nseries))
        before = NULL;
    if (before)
        gt_html_text(f, "p", "muted", "dashed outline: the configuration before, as the TUI "
                     "shows it behind the histogram");
    for (int s = 0; s < r->nseries; s++)
        series(f, p, r, s, before);
    if (r->exp->summary && (n = r->exp->summary(r, p, lines, GT_SUMMARY_LINES)) > 0) {
        fputs("<ul class=\"summary\">\n", f);
        for (int k = 0; k < n; k++) {
            fputs("<li>", f);
            esc(f, lines[k]);
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
    }
    fputs("</section>\n", f);
}

void gt_html_begin(FILE *f, const gt_devprops *p, const char *title, const char *sub)
{
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width\"/>\n"
          "<title>gputui: ", f);
    esc(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>gputui " GT_VERSION ": ", css);
    esc(f, title);
    fputs("</h1>\n<p class=\"muted\">", f);
    esc(f, sub);
    fputs("</p>\n", f);
    if (p)
        device(f, p);
}

void gt_html_run(FILE *f, const gt_devprops *p, gt_run *r, int i, gt_run *before)
{
    run(f, p, r, i, before);
}

void gt_html_text(FILE *f, const char *tag, const char *cls, const char *text)
{
    fprintf(f, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    esc(f, text);
    fprintf(f, "</%s>\n", tag);
}

int gt_html_end(FILE *f)
{
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}
