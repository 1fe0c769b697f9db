#include "gputui/report/report.h"
#include "gputui/base/out.h"
#include "gputui/measure/trace.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "gputui/record/record.h"
#include "gputui/report/html.h"
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

static int report_json(FILE *f, const gt_devprops *p, gt_run *runs, int nruns,
                       const gt_recording *rec)
{
    json_t *root = json_object(), *arr = json_array();
    int rc;

    json_object_set_new(root, "tool", json_string("gputui"));
    json_object_set_new(root, "version", json_string(GT_VERSION));
    if (rec) {
        json_t *o = json_object();
        char fmt[16];
        snprintf(fmt, sizeof fmt, "%d.%d", rec->major, rec->minor);
        json_object_set_new(o, "path", json_string(rec->path));
        json_object_set_new(o, "created", json_string(rec->created));
        json_object_set_new(o, "gputui_version", json_string(rec->version));
        json_object_set_new(o, "format", json_string(fmt));
        json_object_set_new(o, "lines_dropped", json_integer((json_int_t)rec->dropped));
        json_object_set_new(root, "recording", o);
    }
    json_object_set_new(root, "device", gt_devprops_json(p));
    for (int i = 0; i < nruns; i++)
        json_array_append_new(arr, run_json(p, &runs[i]));
    json_object_set_new(root, "runs", arr);
    rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', f);
    json_decref(root);
    return rc;
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

/* The one parameter in which runs of one experiment differ, or -1. */
static int swept_param(gt_run *runs, int nruns)
{
    int swept = -1;

    if (nruns < 3)
        return -1;
    for (int i = 1; i < nruns; i++)
        if (runs[i].exp != runs[0].exp)
            return -1;
    for (int k = 0; k < runs[0].exp->nparams; k++)
        for (int i = 1; i < nruns; i++)
            if (runs[i].vals[k] != runs[0].vals[k]) {
                if (swept >= 0 && swept != k)
                    return -1;
                swept = k;
            }
    return swept;
}

/* A sweep: each series' p50 latency against the swept parameter, as bars,
 * with the experiment's mark (the L2 set-aside) where it falls. */
static void sweep_plot(FILE *f, const gt_devprops *p, gt_run *runs, int nruns)
{
    gt_sweep sw;
    const gt_experiment *e = runs[0].exp;
    int k = swept_param(runs, nruns);

    if (k < 0)
        return;
    gt_sweep_begin(&sw, e, k, runs[0].vals, p);
    sw.n = nruns < GT_SWEEP_MAX ? nruns : GT_SWEEP_MAX;
    for (int i = 0; i < sw.n; i++) {
        sw.vals[i] = runs[i].vals[k];
        for (int s = 0; s < sw.nseries; s++)
            sw.p50[i][s] = gt_dist_percentile(&runs[i].s[s].lat, 0.5);
    }
    gt_sweep_print(f, &sw);
}

static void report_text_all(FILE *f, const gt_devprops *p, gt_run *runs, int nruns,
                            const gt_recording *rec)
{
    fprintf(f, "gputui %s  device ", GT_VERSION);
    gt_report_device_line(f, p);
    if (rec)
        fprintf(f, "replayed from %s (recorded %s by gputui %s, format %d.%d)\n", rec->path,
                rec->created, rec->version, rec->major, rec->minor);
    for (int i = 0; i < nruns; i++) {
        if (nruns > 1)
            fprintf(f, "\n== run %d of %d\n", i + 1, nruns);
        report_text(f, p, &runs[i]);
    }
    sweep_plot(f, p, runs, nruns);
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

int gt_report(FILE *f, gt_format fmt, const gt_devprops *p, gt_run *runs, int nruns,
              const gt_recording *rec)
{
    switch (fmt) {
    case GT_FMT_JSON:
        return report_json(f, p, runs, nruns, rec);
    case GT_FMT_HTML:
        return gt_report_html(f, p, runs, nruns, rec);
    case GT_FMT_CSV:
        fprintf(f, "run,experiment,config,series,metric,unit,count,min,p50,p90,p99,max,mean,"
                   "stddev,verified_full,verified_sampled,failed,ceiling,ceiling_bytes_once_GBps,"
                   "disturbed,clean_p50_s\n");
        for (int i = 0; i < nruns; i++)
            report_csv(f, &runs[i], i + 1, p);
        return ferror(f) ? -1 : 0;
    default:
        report_text_all(f, p, runs, nruns, rec);
        return ferror(f) ? -1 : 0;
    }
}
