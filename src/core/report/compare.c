/* Two recordings side by side (compare.h). */
#include "gputui/report/compare.h"
#include "gputui/base/out.h"
#include "gputui/report/json_stream.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"
#include "gputui/report/html.h"

/* The JSON comparison as it has always been written. */
#define JSON_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))

double gt_compare_ratio(gt_dist *a, gt_dist *b)
{
    double pa = a->count ? gt_dist_percentile(a, 0.5) : NAN;
    double pb = b->count ? gt_dist_percentile(b, 0.5) : NAN;

    return isfinite(pa) && isfinite(pb) && pb > 0 ? pa / pb : NAN;
}

const char *gt_compare_short_name(const char *device, char *buf, size_t len)
{
    const char *s = strncmp(device, "NVIDIA ", 7) ? device : device + 7;
    size_t n = strcspn(s, " ");

    snprintf(buf, len, "%.*s", (int)(n ? n : strlen(s)), n ? s : device);
    return buf;
}

/* One series of one side: medians of its clean samples, verification
 * counts, and how many samples another program disturbed (left out). */
typedef struct side {
    double lat, bw;
    unsigned long long ok, failed, left_out;
} side;

static side side_of(gt_series *s, bool bw)
{
    side d = {NAN, NAN, s->full + s->sampled, s->failed, s->disturbed};
    gt_dist *lat = gt_series_judged(s, false), *b = gt_series_judged(s, true);

    if (lat->count)
        d.lat = gt_dist_percentile(lat, 0.5);
    if (bw && b->count)
        d.bw = gt_dist_percentile(b, 0.5);
    return d;
}

static double ratio(double a, double b)
{
    return isfinite(a) && isfinite(b) && b > 0 ? a / b : NAN;
}

static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const side *d)
{
    json_t *o = json_object();

    json_object_set_new(o, "latency_p50_s", num(d->lat));
    json_object_set_new(o, "bandwidth_p50_GBps", num(isfinite(d->bw) ? d->bw / 1e9 : NAN));
    json_object_set_new(o, "verified", json_integer((json_int_t)d->ok));
    json_object_set_new(o, "failed", json_integer((json_int_t)d->failed));
    json_object_set_new(o, "disturbed_left_out", json_integer((json_int_t)d->left_out));
    return o;
}

/* A side's recording: where, which device, when (created_last where it
 * was merged from parts). */
static json_t *recording_json(const gt_recording *r)
{
    json_t *o = json_pack("{ssssss}", "path", r->path, "device", r->props.name, "created",
                          r->created);

    if (o && r->created_last[0])
        json_object_set_new(o, "created_last", json_string(r->created_last));
    return o;
}

static void fmt_num(char *buf, size_t n, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(buf, n, fmt, v);
    else
        snprintf(buf, n, "-");
}

/* The configurations of 'from' that 'other' lacks, as JSON or lines. */
static void one_sided(FILE *f, gt_format fmt, const gt_recording *from, const gt_recording *other,
                      const char *tag, gt_json_stream *js, int *count)
{
    char desc[512];

    *count = 0;
    for (size_t i = 0; i < from->ncfg; i++) {
        const gt_rec_config *c = &from->cfg[i];
        if (gt_recording_find(other, c->exp, c->vals) >= 0 ||
            gt_recording_find(from, c->exp, c->vals) != (int)i)
            continue;       /* shared, or a repeat of one listed already */
        (*count)++;
        gt_experiment_describe(c->exp, c->vals, desc, sizeof desc);
        if (fmt == GT_FMT_JSON) {
            json_t *o = json_object();
            json_object_set_new(o, "experiment", json_string(c->exp->name));
            json_object_set_new(o, "config", json_string(desc));
            gt_json_stream_add(js, o);
            json_decref(o);
        } else if (fmt == GT_FMT_CSV) {
            fprintf(f, "%s,%s,", tag, c->exp->name);
            gt_csv_cell(f, desc, true);
            fputs(",,,,,,,,,,,,,\n", f);
        } else if (fmt == GT_FMT_HTML) {
            char li[600];
            snprintf(li, sizeof li, "%s %s", c->exp->name, desc);
            gt_html_text(f, "li", NULL, li);
        } else {
            fprintf(f, "  %s %s\n", c->exp->name, desc);
        }
    }
}

/* Whether vals are the experiment's defaults (the warm-up aside). */
static bool is_default(const gt_experiment *e, const int64_t *vals)
{
    int64_t d[GT_MAX_PARAMS];

    gt_experiment_defaults(e, d);
    for (int k = 0; k < e->nparams; k++)
        if (k != e->warmup_param && d[k] != vals[k])
            return false;
    return true;
}

static void html_cell(FILE *f, double v, double k, const char *fmt, const char *key)
{
    char c[32];

    fmt_num(c, sizeof c, v * k, fmt);
    if (key && isfinite(v))
        fprintf(f, "<td data-key=\"%s\" data-value=\"%.17g\">%s</td>", key, v, c);
    else
        fprintf(f, "<td>%s</td>", c);
}

/* HTML: a shared configuration's heading and its table's head (a drawn
 * one, each experiment's default, is a section of its own), then its
 * close, with A's histograms over B's dashed ghosts when drawn (html.h). */
static void html_config_begin(FILE *f, int k, const gt_experiment *e, const char *desc, bool draw)
{
    char h[600];

    fprintf(f, "<section class=\"run\" data-run=\"%d\">\n", k);
    snprintf(h, sizeof h, "%s: %s", e->name, desc);
    gt_html_text(f, draw ? "h2" : "h3", NULL, h);
    fputs("<table class=\"compare\">\n<tr><th>series</th><th>A p50</th><th>B p50</th>"
          "<th>A/B</th><th>A GB/s</th><th>B GB/s</th><th>A/B</th></tr>\n", f);
}

static void html_config_end(FILE *f, gt_run *ra, gt_run *rb, bool draw)
{
    fputs("</table>\n", f);
    for (int s = 0; draw && s < ra->nseries && s < rb->nseries; s++)
        if (ra->s[s].lat.count) {
            gt_html_text(f, "h3", NULL, ra->s[s].name);
            gt_html_histogram(f, &ra->s[s], &rb->s[s], 0, "");
        }
    fputs("</section>\n", f);
}

/* What who ("A" or "B", of device name) holds alone, under a heading
 * (text, HTML); JSON and CSV have theirs in one_sided's rows. */
static void only_list(FILE *f, gt_format fmt, const gt_recording *from, const gt_recording *other,
                      const char *who, const char *name, int *count)
{
    char h[96];

    snprintf(h, sizeof h, "on %s (%s) only", who, name);
    if (fmt == GT_FMT_TEXT)
        fprintf(f, "\n== %s\n", h);
    if (fmt == GT_FMT_HTML) {
        gt_html_text(f, "h2", NULL, h);
        fputs("<ul>\n", f);
    }
    one_sided(f, fmt, from, other, *who == 'A' ? "only_a" : "only_b", NULL, count);
    if (fmt == GT_FMT_HTML)
        fputs("</ul>\n", f);
}

int gt_compare_report(FILE *f, gt_format fmt, const gt_recording *a, const gt_recording *b)
{
    gt_json_stream js;
    char desc[512], na[32], nb[32];
    int nshared = 0, only_a = 0, only_b = 0;

    gt_compare_short_name(a->props.name, na, sizeof na);
    gt_compare_short_name(b->props.name, nb, sizeof nb);
    if (fmt == GT_FMT_JSON) {
        /* Written as it goes: a configuration's entry at a time. */
        json_t *root = json_object();
        int rc;
        json_object_set_new(root, "a", recording_json(a));
        json_object_set_new(root, "b", recording_json(b));
        json_object_set_new(root, "shared", json_array());
        json_object_set_new(root, "only_a", json_array());
        json_object_set_new(root, "only_b", json_array());
        rc = gt_json_stream_begin(&js, f, root, JSON_FLAGS, "shared");
        json_decref(root);
        if (rc)
            return -1;
    } else if (fmt == GT_FMT_HTML) {
        char title[96], sub[1400];
        snprintf(title, sizeof title, "A against B: %s and %s", na, nb);
        snprintf(sub, sizeof sub, "A: %s, %s (recorded %s). B: %s, %s (recorded %s). Ratios are "
                 "A/B: above 1, A takes longer (latency) or moves more (GB/s). Each experiment's "
                 "default configuration is drawn: A's bars, B's outline dashed. The device below "
                 "is A.", a->path, a->props.name, a->when, b->path, b->props.name, b->when);
        gt_html_begin(f, &a->props, title, sub);
    } else if (fmt == GT_FMT_CSV) {
        fprintf(f, "kind,experiment,config,series,a_latency_p50_s,b_latency_p50_s,latency_a_over_b,"
                   "a_GBps,b_GBps,bandwidth_a_over_b,a_verified,a_failed,b_verified,b_failed,"
                   "a_disturbed_left_out,b_disturbed_left_out\n");
    } else {
        fprintf(f, "A: %s, %s (recorded %s)\nB: %s, %s (recorded %s)\n"
                   "ratios are A/B: above 1 means A takes longer (latency) or moves more (GB/s)\n",
                a->path, a->props.name, a->when, b->path, b->props.name, b->when);
    }
    for (size_t i = 0; i < a->ncfg; i++) {
        const gt_rec_config *ca = &a->cfg[i];
        int j = gt_recording_find(b, ca->exp, ca->vals);
        bool bw = gt_experiment_bandwidth(ca->exp, ca->vals);
        bool draw = fmt == GT_FMT_HTML && is_default(ca->exp, ca->vals);
        json_t *series = NULL;
        gt_run ra, rb;

        if (j < 0 || gt_recording_find(a, ca->exp, ca->vals) != (int)i)
            continue;
        nshared++;
        gt_rec_config_run(ca, &ra);
        gt_rec_config_run(&b->cfg[j], &rb);
        gt_experiment_describe(ca->exp, ca->vals, desc, sizeof desc);
        if (fmt == GT_FMT_JSON)
            series = json_array();
        else if (fmt == GT_FMT_HTML)
            html_config_begin(f, nshared, ca->exp, desc, draw);
        else if (fmt == GT_FMT_TEXT)
            fprintf(f, "\n== %s %s\n  %-18s %10s %10s %7s %9s %9s %7s %13s %13s\n", ca->exp->name,
                    desc, "series", "A p50", "B p50", "A/B", "A GB/s", "B GB/s", "A/B",
                    "A ok/failed", "B ok/failed");
        for (int s = 0; s < ra.nseries && s < rb.nseries; s++) {
            side da = side_of(&ra.s[s], bw), db = side_of(&rb.s[s], bw);
            double rl = ratio(da.lat, db.lat), rbw = ratio(da.bw, db.bw);
            if (fmt == GT_FMT_JSON) {
                json_t *o = json_object();
                json_object_set_new(o, "name", json_string(ra.s[s].name));
                json_object_set_new(o, "a", side_json(&da));
                json_object_set_new(o, "b", side_json(&db));
                json_object_set_new(o, "latency_a_over_b", num(rl));
                json_object_set_new(o, "bandwidth_a_over_b", num(rbw));
                json_array_append_new(series, o);
            } else if (fmt == GT_FMT_HTML) {
                char la[32], lb[32];
                fprintf(f, "<tr data-series=\"%d\"><th>", s);
                gt_html_text(f, "span", NULL, ra.s[s].name);
                fprintf(f, "</th><td>%s</td><td>%s</td>", gt_format_seconds(da.lat, la, sizeof la),
                        gt_format_seconds(db.lat, lb, sizeof lb));
                html_cell(f, rl, 1, "%.2fx", "latency_a_over_b");
                html_cell(f, da.bw, 1e-9, "%.2f", NULL);
                html_cell(f, db.bw, 1e-9, "%.2f", NULL);
                html_cell(f, rbw, 1, "%.2fx", "bandwidth_a_over_b");
                fputs("</tr>\n", f);
            } else if (fmt == GT_FMT_CSV) {
                char c[6][24];
                fmt_num(c[0], sizeof c[0], da.lat, "%.9g");
                fmt_num(c[1], sizeof c[1], db.lat, "%.9g");
                fmt_num(c[2], sizeof c[2], rl, "%.4f");
                fmt_num(c[3], sizeof c[3], da.bw / 1e9, "%.3f");
                fmt_num(c[4], sizeof c[4], db.bw / 1e9, "%.3f");
                fmt_num(c[5], sizeof c[5], rbw, "%.4f");
                for (int k = 0; k < 6; k++)
                    if (!strcmp(c[k], "-"))
                        c[k][0] = '\0';    /* CSV: empty where there is no figure */
                fprintf(f, "shared,%s,", ca->exp->name);
                gt_csv_cell(f, desc, true);
                fputc(',', f);
                gt_csv_cell(f, ra.s[s].name, false);
                fprintf(f, ",%s,%s,%s,%s,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu\n", c[0], c[1], c[2],
                        c[3], c[4], c[5], da.ok, da.failed, db.ok, db.failed, da.left_out,
                        db.left_out);
            } else {
                char la[32], lb[32], r1[16], ga[16], gb[16], r2[16], va[32], vb[32];
                gt_format_seconds(da.lat, la, sizeof la);
                gt_format_seconds(db.lat, lb, sizeof lb);
                fmt_num(r1, sizeof r1, rl, "%.2fx");
                fmt_num(ga, sizeof ga, da.bw / 1e9, "%.2f");
                fmt_num(gb, sizeof gb, db.bw / 1e9, "%.2f");
                fmt_num(r2, sizeof r2, rbw, "%.2fx");
                snprintf(va, sizeof va, "%llu/%llu", da.ok, da.failed);
                snprintf(vb, sizeof vb, "%llu/%llu", db.ok, db.failed);
                fprintf(f, "  %-18s %10s %10s %7s %9s %9s %7s %13s %13s\n", ra.s[s].name, la, lb,
                        r1, ga, gb, r2, va, vb);
                if (da.left_out || db.left_out)
                    fprintf(f, "  %-18s the clean samples' p50: left out as disturbed by "
                            "another program, A %llu, B %llu\n", "", da.left_out, db.left_out);
            }
        }
        if (fmt == GT_FMT_JSON) {
            json_t *o = json_pack("{ssssso}", "experiment", ca->exp->name, "config", desc,
                                  "series", series);
            gt_json_stream_add(&js, o);
            json_decref(o);
        } else if (fmt == GT_FMT_HTML)
            html_config_end(f, &ra, &rb, draw);
        gt_run_free(&ra);
        gt_run_free(&rb);
    }
    if (fmt == GT_FMT_JSON) {
        if (gt_json_stream_next(&js, "only_a"))
            return -1;
        one_sided(f, fmt, a, b, "only_a", &js, &only_a);
        if (gt_json_stream_next(&js, "only_b"))
            return -1;
        one_sided(f, fmt, b, a, "only_b", &js, &only_b);
        return gt_json_stream_next(&js, NULL) || ferror(f) ? -1 : 0;
    }
    only_list(f, fmt, a, b, "A", na, &only_a);
    only_list(f, fmt, b, a, "B", nb, &only_b);
    if (fmt == GT_FMT_HTML)
        return gt_html_end(f);
    if (fmt == GT_FMT_TEXT)
        fprintf(f, "\n%d configurations on both, %d on A (%s) only, %d on B (%s) only\n", nshared,
                only_a, na, only_b, nb);
    return ferror(f) ? -1 : 0;
}
