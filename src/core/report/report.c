#define _POSIX_C_SOURCE 200809L
#include "gputui/report/report.h"
#include "gputui/base/out.h"
#include "gputui/measure/trace.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/record/record.h"
#include "gputui/report/html.h"
#include "gputui/report/json_stream.h"
#include "gputui/measure/sweep.h"
#include "gputui/base/units.h"

void gt_report_device_line(FILE *f, const gt_devprops *p)
{
    char cc[16], mem[32], l2[32], pcie[64], link[64];
    gt_link_kind kind;
    double bw = gt_host_link(p, &kind, link, sizeof link);

    if (kind == GT_LINK_NONE)
        snprintf(pcie, sizeof pcie, "integrated (one memory with the host)");
    else if (bw > 0)
        snprintf(pcie, sizeof pcie, "%s (%.1f GB/s)", link, bw / 1e9);
    else
        snprintf(pcie, sizeof pcie, "PCIe N/A");
    fprintf(f, "%d: %s, cc %s, %s, L2 %s, %s, %s\n", p->ordinal, p->name,
            gt_dp_format(p, GT_DP_CC, cc, sizeof cc),
            gt_dp_format(p, GT_DP_MEM_TOTAL, mem, sizeof mem),
            gt_dp_format(p, GT_DP_L2, l2, sizeof l2), pcie, p->pci_bus_id);
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *summary_json(const gt_summary *s, double scale)
{
    json_t *o = json_object();

    json_object_set_new(o, "count", json_integer((json_int_t)s->count));
    json_object_set_new(o, "min", num_or_null(s->min * scale));
    json_object_set_new(o, "p50", num_or_null(s->p50 * scale));
    json_object_set_new(o, "p90", num_or_null(s->p90 * scale));
    json_object_set_new(o, "p99", num_or_null(s->p99 * scale));
    json_object_set_new(o, "max", num_or_null(s->max * scale));
    json_object_set_new(o, "mean", num_or_null(s->mean * scale));
    json_object_set_new(o, "stddev", num_or_null(s->stddev * scale));
    return o;
}

/* The samples a run holds, failed ones too. */
static uint64_t kept(const gt_run *r)
{
    uint64_t n = 0;

    for (int s = 0; s < r->nseries; s++)
        n += r->s[s].lat.count + r->s[s].failed;
    return n;
}

static json_t *run_json(const gt_devprops *p, gt_run *r)
{
    json_t *root = json_object(), *cfg = json_object(), *series = json_array();
    json_t *setup = json_array();
    char v[64];

    json_object_set_new(root, "experiment", json_string(r->exp->name));
    for (int i = 0; i < r->exp->nparams; i++) {
        const gt_param *pa = &r->exp->params[i];
        if (!gt_param_applies(pa, r->vals, NULL))
            continue;
        if (pa->type == GT_P_ENUM)
            json_object_set_new(cfg, pa->name, json_string(gt_param_format(pa, r->vals[i], v, sizeof v)));
        else if (pa->type == GT_P_BOOL)
            json_object_set_new(cfg, pa->name, json_boolean(r->vals[i]));
        else
            json_object_set_new(cfg, pa->name, json_integer(r->vals[i]));
    }
    json_object_set_new(root, "config", cfg);
    for (int i = 0; i < r->info.ntimes; i++) {
        json_t *t = json_object();
        json_object_set_new(t, "what", json_string(r->info.times[i].label));
        json_object_set_new(t, "seconds", json_real(r->info.times[i].sec));
        if (r->info.kept)
            json_object_set_new(t, "kept", json_true());
        json_array_append_new(setup, t);
    }
    json_object_set_new(root, "setup_times", setup);
    json_object_set_new(root, "verification", json_string(r->info.note));
    json_object_set_new(root, "timing", json_string(r->info.timing));
    for (int s = 0; s < r->nseries; s++) {
        gt_series *se = &r->s[s];
        gt_summary lat, bw;
        double factor = 1.0, ceil;
        char label[64];
        json_t *o = json_object();

        gt_dist_summary(&se->lat, &lat);
        gt_dist_summary(&se->bw, &bw);
        ceil = gt_experiment_ceiling(r->exp, r->vals, s, p, &factor, label, sizeof label);
        json_object_set_new(o, "name", json_string(se->name));
        json_object_set_new(o, "latency_s", summary_json(&lat, 1.0));
        json_object_set_new(o, "bandwidth_GBps", summary_json(&bw, 1e-9));
        json_object_set_new(o, "verified_full", json_integer((json_int_t)se->full));
        json_object_set_new(o, "verified_sampled", json_integer((json_int_t)se->sampled));
        json_object_set_new(o, "failed", json_integer((json_int_t)se->failed));
        json_object_set_new(o, "disturbed", json_integer((json_int_t)se->disturbed));
        {   /* the samples not marked: their latency, beside all of them */
            gt_summary clean;
            gt_dist_summary(&se->clean_lat, &clean);
            json_object_set_new(o, "clean_latency_s", summary_json(&clean, 1.0));
        }
        json_object_set_new(o, "percentiles_exact", json_boolean(gt_dist_exact(&se->lat)));
        json_object_set_new(o, "ceiling_GBps", ceil > 0 ? json_real(ceil / 1e9) : json_null());
        json_object_set_new(o, "ceiling", json_string(label));
        json_object_set_new(o, "ceiling_factor", json_real(factor));
        json_object_set_new(o, "p50_pct_of_ceiling",
                            ceil > 0 && isfinite(bw.p50) ? json_real(100.0 * bw.p50 * factor / ceil)
                                                         : json_null());
        json_array_append_new(series, o);
    }
    json_object_set_new(root, "series", series);
    if (r->unkept) {            /* a recording larger than a reader keeps */
        json_object_set_new(root, "truncated", json_true());
        json_object_set_new(root, "samples_kept", json_integer((json_int_t)kept(r)));
        json_object_set_new(root, "samples_read", json_integer((json_int_t)(kept(r) + r->unkept)));
    }
    if (r->exp->summary) {
        gt_summary_line lines[GT_SUMMARY_LINES];
        json_t *sum = json_array();
        int n = r->exp->summary(r, p, lines, GT_SUMMARY_LINES);
        for (int i = 0; i < n; i++)
            json_array_append_new(sum, json_string(lines[i]));
        json_object_set_new(root, "summary", sum);
    }
    if (r->tl) {
        json_t *t = json_object(), *ops = json_array();
        for (int i = 0; i < r->tl->nops; i++) {
            const gt_tl_op *op = &r->tl->ops[i];
            json_array_append_new(ops, json_pack("{s:s,s:i,s:s,s:i,s:f,s:f}", "run",
                                                 op->run == GT_TL_SERIAL ? "serial" : "streams",
                                                 "stream", op->stream, "op",
                                                 gt_tl_kind_names[op->kind % GT_TL_KINDS], "chunk",
                                                 op->chunk, "start_s", (double)op->start,
                                                 "end_s", (double)op->end));
        }
        json_object_set_new(t, "streams", json_integer(r->tl->nstreams));
        json_object_set_new(t, "serial_s", json_real(r->tl->total[GT_TL_SERIAL]));
        json_object_set_new(t, "streams_s", json_real(r->tl->total[GT_TL_STREAMS]));
        json_object_set_new(t, "h2d_sum_s", json_real(r->tl->sum[GT_TL_H2D]));
        json_object_set_new(t, "kernel_sum_s", json_real(r->tl->sum[GT_TL_KERNEL]));
        json_object_set_new(t, "d2h_sum_s", json_real(r->tl->sum[GT_TL_D2H]));
        json_object_set_new(t, "ideal_s", json_real(gt_timeline_ideal(r->tl)));
        json_object_set_new(t, "ops", ops);
        json_object_set_new(root, "timeline", t);
    }
    if (r->trace)
        json_object_set_new(root, "cuda_calls", gt_trace_json(r->trace, "seconds"));
    return root;
}

/* The JSON report's object without its runs: "runs" last, empty. */
static json_t *json_head(const gt_devprops *p, const gt_recording *rec)
{
    json_t *root = json_object();

    json_object_set_new(root, "tool", json_string("gputui"));
    json_object_set_new(root, "version", json_string(GT_VERSION));
    if (rec) {
        json_t *o = json_object();
        char fmt[16];
        snprintf(fmt, sizeof fmt, "%d.%d", rec->major, rec->minor);
        json_object_set_new(o, "path", json_string(rec->path));
        json_object_set_new(o, "created", json_string(rec->created));
        if (rec->created_last[0])
            json_object_set_new(o, "created_last", json_string(rec->created_last));
        json_object_set_new(o, "gputui_version", json_string(rec->version));
        json_object_set_new(o, "format", json_string(fmt));
        json_object_set_new(o, "lines_dropped", json_integer((json_int_t)rec->dropped));
        if (rec->samples_unkept || rec->extras_unkept) {
            json_object_set_new(o, "truncated", json_true());
            json_object_set_new(o, "samples_read", json_integer((json_int_t)rec->samples_read));
            json_object_set_new(o, "samples_kept",
                                json_integer((json_int_t)(rec->samples_read - rec->samples_unkept)));
            json_object_set_new(o, "extras_not_kept", json_integer((json_int_t)rec->extras_unkept));
        }
        json_object_set_new(root, "recording", o);
    }
    json_object_set_new(root, "device", gt_devprops_json(p));
    json_object_set_new(root, "runs", json_array());
    return root;
}

static void report_text(FILE *f, const gt_devprops *p, gt_run *r)
{
    char cfg[512], t[32];

    fprintf(f, "experiment %s: %s\n", r->exp->name,
            gt_experiment_describe(r->exp, r->vals, cfg, sizeof cfg));
    for (int i = 0; i < r->info.ntimes; i++)
        fprintf(f, "setup: %-40s %s\n", r->info.times[i].label,
                gt_setup_time_text(&r->info, i, t, sizeof t));
    if (r->info.note[0])
        fprintf(f, "verification: %s\n", r->info.note);
    if (r->info.timing[0])
        fprintf(f, "timing: %s\n", r->info.timing);
    if (r->unkept)
        fprintf(f, "recording: %llu more samples of this configuration were read and not kept "
                "(more than a reader keeps of a series); the figures are those of the %llu "
                "kept\n", (unsigned long long)r->unkept, (unsigned long long)kept(r));
    for (int s = 0; s < r->nseries; s++) {
        gt_series *se = &r->s[s];
        gt_summary lat, bw;
        double factor = 1.0, ceil;
        char label[64];

        if (se->lat.count == 0 && se->failed == 0 && (r->info.skipped & (1u << s))) {
            fprintf(f, "\n%s: not run here: %s\n", se->name, r->info.why_skipped);
            continue;
        }
        gt_dist_summary(&se->lat, &lat);
        gt_dist_summary(&se->bw, &bw);
        fprintf(f, "\n%s: %llu samples (%llu fully verified, %llu sampled check, "
                "%llu FAILED)%s", se->name, (unsigned long long)lat.count,
                (unsigned long long)se->full, (unsigned long long)se->sampled,
                (unsigned long long)se->failed,
                gt_dist_exact(&se->lat) ? "" : ", percentiles from a reservoir");
        if (se->disturbed)
            fprintf(f, ", %llu disturbed (the GPU may have been shared)",
                    (unsigned long long)se->disturbed);
        fputc('\n', f);
        if (se->disturbed) {
            char a[32], b[32];
            fprintf(f, "  p50 of the %llu clean samples %s, of all %s\n",
                    (unsigned long long)se->clean_lat.count,
                    se->clean_lat.count ? gt_format_seconds(gt_dist_percentile(&se->clean_lat, 0.5), a,
                                                        sizeof a) : "-",
                    gt_format_seconds(lat.p50, b, sizeof b));
        }
        fprintf(f, "  %-16s %10s %10s %10s %10s %10s %10s %10s\n", "", "min", "p50",
                "p90", "p99", "max", "mean", "stddev");
        if (gt_experiment_bandwidth(r->exp, r->vals))
            fprintf(f, "  %-16s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f\n",
                    "bandwidth GB/s", bw.min / 1e9, bw.p50 / 1e9, bw.p90 / 1e9,
                    bw.p99 / 1e9, bw.max / 1e9, bw.mean / 1e9, bw.stddev / 1e9);
        {
            double k;
            const char *unit = gt_latency_unit(lat.p50, &k);
            fprintf(f, "  %-16s %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", unit,
                    lat.min * k, lat.p50 * k, lat.p90 * k, lat.p99 * k, lat.max * k,
                    lat.mean * k, lat.stddev * k);
        }
        ceil = gt_experiment_ceiling(r->exp, r->vals, s, p, &factor, label, sizeof label);
        if (ceil > 0 && isfinite(bw.p50)) {
            char share[160];
            fprintf(f, "  %s\n", gt_ceiling_share(bw.p50, factor, ceil, label, share,
                                                  sizeof share));
        }
        else if (gt_experiment_bandwidth(r->exp, r->vals))
            fprintf(f, "  ceiling: %s\n", label);
    }
    if (r->exp->summary) {
        gt_summary_line lines[GT_SUMMARY_LINES];
        int n = r->exp->summary(r, p, lines, GT_SUMMARY_LINES);
        if (n)
            fputc('\n', f);
        for (int i = 0; i < n; i++)
            fprintf(f, "%s\n", lines[i]);
    }
    if (r->tl) {
        fputc('\n', f);
        gt_timeline_print(f, r->tl, 64);
    }
    if (r->trace) {
        fprintf(f, "\nCUDA calls (%s):\n", r->trace->n ? "set-up, the first iteration, teardown"
                                                      : "none recorded");
        gt_trace_print(f, r->trace, 2);
    }
}

static void report_csv(FILE *f, gt_run *r, int run, const gt_devprops *p)
{
    char desc[512];

    gt_experiment_describe(r->exp, r->vals, desc, sizeof desc);
    for (int s = 0; s < r->nseries; s++) {
        gt_series *se = &r->s[s];
        struct { const char *metric, *unit; gt_dist *d; double k; } m[2] = {
            {.metric = "bandwidth", .unit = "GB/s", .d = &se->bw, .k = 1e-9},
            {.metric = "latency", .unit = "s", .d = &se->lat, .k = 1.0},
        };
        double factor = 1.0, ceil;
        char label[64];

        ceil = gt_experiment_ceiling(r->exp, r->vals, s, p, &factor, label, sizeof label);
        for (int k = 0; k < 2; k++) {
            gt_summary x;
            gt_dist_summary(m[k].d, &x);
            fprintf(f, "%d,%s,", run, r->exp->name);
            gt_csv_cell(f, desc, true);
            fputc(',', f);
            gt_csv_cell(f, se->name, false);
            fprintf(f, ",%s,%s,%llu,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%llu,%llu,%llu,",
                    m[k].metric, m[k].unit, (unsigned long long)x.count,
                    x.min * m[k].k, x.p50 * m[k].k, x.p90 * m[k].k, x.p99 * m[k].k,
                    x.max * m[k].k, x.mean * m[k].k, x.stddev * m[k].k,
                    (unsigned long long)se->full, (unsigned long long)se->sampled,
                    (unsigned long long)se->failed);
            if (k == 0 && ceil > 0) {
                gt_csv_cell(f, label, true);
                fprintf(f, ",%.9g", ceil / factor * 1e-9);
            }
            else
                fputc(',', f);
            fprintf(f, ",%llu,", (unsigned long long)se->disturbed);
            if (k == 1 && se->clean_lat.count)
                fprintf(f, "%.9g", gt_dist_percentile(&se->clean_lat, 0.5));
            fputc('\n', f);
        }
    }
}

/* ---- the report, a run at a time ---- */

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

struct gt_report_writer {
    FILE *f;
    gt_format fmt;
    const gt_devprops *p;
    int nruns, i;
    gt_run *before;         /* the run written before (the HTML page's ghost) */
    gt_json_stream js;
    /* A sweep (text): the one parameter in which runs of one experiment
     * differ, told apart from the first run's values. */
    const gt_experiment *exp0;
    int64_t vals0[GT_MAX_PARAMS];
    int swept;              /* -1 none yet, -2 no sweep */
    int64_t svals[GT_SWEEP_MAX][GT_MAX_PARAMS];
    double sp50[GT_SWEEP_MAX][GT_SWEEP_SERIES];
};

gt_report_writer *gt_report_begin(FILE *f, gt_format fmt, const gt_devprops *p,
                                  const gt_recording *rec, int nruns)
{
    gt_report_writer *w = calloc(1, sizeof *w);
    char sub[700];

    if (!w)
        return NULL;
    w->f = f;
    w->fmt = fmt;
    w->p = p;
    w->nruns = nruns;
    w->swept = -1;
    switch (fmt) {
    case GT_FMT_JSON: {
        json_t *root = json_head(p, rec);
        int rc = gt_json_stream_begin(&w->js, f, root, JSON_FLAGS, "runs");
        json_decref(root);
        if (rc) {
            free(w);
            return NULL;
        }
        break;
    }
    case GT_FMT_HTML:
        if (rec)
            snprintf(sub, sizeof sub, "replayed from %s, recorded %s; %d configuration%s",
                     rec->path, rec->when, nruns, nruns == 1 ? "" : "s");
        else
            snprintf(sub, sizeof sub, "measured live; %d configuration%s", nruns,
                     nruns == 1 ? "" : "s");
        gt_html_begin(f, p, p->name, sub);
        break;
    case GT_FMT_CSV:
        fprintf(f, "run,experiment,config,series,metric,unit,count,min,p50,p90,p99,max,mean,"
                   "stddev,verified_full,verified_sampled,failed,ceiling,ceiling_bytes_once_GBps,"
                   "disturbed,clean_p50_s\n");
        break;
    default:
        fprintf(f, "gputui %s  device ", GT_VERSION);
        gt_report_device_line(f, p);
        if (rec)
            fprintf(f, "replayed from %s (recorded %s by gputui %s, format %d.%d)\n", rec->path,
                    rec->when, rec->version, rec->major, rec->minor);
    }
    return w;
}

static int json_run(gt_report_writer *w, gt_run *r)
{
    json_t *o = run_json(w->p, r);
    int rc = gt_json_stream_add(&w->js, o);

    json_decref(o);
    return rc;
}

/* What a sweep plot needs of run r. */
static void sweep_add(gt_report_writer *w, gt_run *r)
{
    if (w->i == 0) {
        w->exp0 = r->exp;
        memcpy(w->vals0, r->vals, sizeof w->vals0);
    } else if (r->exp != w->exp0) {
        w->swept = -2;
    }
    for (int k = 0; w->swept != -2 && k < r->exp->nparams; k++)
        if (r->vals[k] != w->vals0[k])
            w->swept = w->swept >= 0 && w->swept != k ? -2 : k;
    if (w->i < GT_SWEEP_MAX) {
        memcpy(w->svals[w->i], r->vals, sizeof w->svals[0]);
        for (int s = 0; s < GT_SWEEP_SERIES; s++)
            w->sp50[w->i][s] = gt_dist_percentile(&r->s[s].lat, 0.5);
    }
}

/* A sweep: each series' p50 latency against the swept parameter, as bars,
 * with the experiment's mark (the L2 set-aside) where it falls. */
static void sweep_plot(gt_report_writer *w)
{
    gt_sweep sw;
    int k = w->swept;

    if (w->i < 3 || k < 0)
        return;
    gt_sweep_begin(&sw, w->exp0, k, w->vals0, w->p);
    sw.n = w->i < GT_SWEEP_MAX ? w->i : GT_SWEEP_MAX;
    for (int i = 0; i < sw.n; i++) {
        sw.vals[i] = w->svals[i][k];
        for (int s = 0; s < sw.nseries; s++)
            sw.p50[i][s] = w->sp50[i][s];
    }
    gt_sweep_print(w->f, &sw);
}

int gt_report_add(gt_report_writer *w, gt_run *r)
{
    int rc = 0;

    switch (w->fmt) {
    case GT_FMT_JSON:
        rc = json_run(w, r);
        break;
    case GT_FMT_HTML:
        gt_html_run(w->f, w->p, r, w->i, w->before);
        break;
    case GT_FMT_CSV:
        report_csv(w->f, r, w->i + 1, w->p);
        break;
    default:
        if (w->nruns > 1)
            fprintf(w->f, "\n== run %d of %d\n", w->i + 1, w->nruns);
        report_text(w->f, w->p, r);
        sweep_add(w, r);
    }
    w->before = r;
    w->i++;
    return rc || ferror(w->f) ? -1 : 0;
}

int gt_report_end(gt_report_writer *w)
{
    int rc;

    if (!w)
        return -1;
    switch (w->fmt) {
    case GT_FMT_JSON:
        gt_json_stream_next(&w->js, NULL);
        break;
    case GT_FMT_HTML:
        gt_html_end(w->f);
        break;
    case GT_FMT_CSV:
        break;
    default:
        sweep_plot(w);
    }
    rc = ferror(w->f) ? -1 : 0;
    free(w);
    return rc;
}

int gt_report(FILE *f, gt_format fmt, const gt_devprops *p, gt_run *runs, int nruns,
              const gt_recording *rec)
{
    gt_report_writer *w = gt_report_begin(f, fmt, p, rec, nruns);
    int rc = w ? 0 : -1;

    for (int i = 0; w && i < nruns && !rc; i++)
        rc = gt_report_add(w, &runs[i]);
    return gt_report_end(w) || rc ? -1 : 0;
}
