/* --batch -e EXP --pairs all: the configuration of an experiment between
 * two GPUs (its row's pair_param: the peer experiment) over every ordered
 * pair of GPUs, one engine per device in turn, printed as a
 * matrix in the manner of p2pBandwidthLatencyTest (row: the GPU that
 * copies or reads, column: its peer), then judged (pairs_judge.h): the
 * exit status is 2 where a pair is slower than its link type's median by
 * more than a tenth, 3 where NVLink joins a pair without peer access. */
#include "gputui/report/batch.h"
#include "gputui/base/out.h"
#include "gputui/report/pairs_judge.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


/* The figure of one pair: the p50 bandwidth (both directions: their sum)
 * or the p50 latency. */
static double figure(gt_run *r, bool latency)
{
    double x = 0;

    if (latency)
        return r->s[0].lat.count ? gt_dist_percentile(&r->s[0].lat, 0.5) : NAN;
    for (int s = 0; s < r->nseries; s++) {
        if (!r->s[s].bw.count)
            return NAN;
        x += gt_dist_percentile(&r->s[s].bw, 0.5);
    }
    return x;
}

/* The verdict of the matrix as JSON: its status and every pair. */
static json_t *verdict_json(const gt_pairs_verdict *v, bool latency)
{
    json_t *o = json_object(), *pairs = json_array();
    double scale = latency ? 1e9 : 1e-9;
    char why[256];

    for (int k = 0; k < v->n; k++) {
        const gt_pair_judged *p = &v->p[k];
        json_t *e = json_object();
        json_object_set_new(e, "from", json_integer(p->from));
        json_object_set_new(e, "to", json_integer(p->to));
        json_object_set_new(e, "link", json_string(p->link));
        json_object_set_new(e, "status", json_string(gt_pair_level_name(p->level)));
        json_object_set_new(e, "median", isfinite(p->median) ? json_real(p->median * scale)
                                                             : json_null());
        json_object_set_new(e, "pairs_of_link", json_integer(p->group));
        json_object_set_new(e, "why", json_string(gt_pair_judged_text(p, latency, why,
                                                                      sizeof why)));
        json_array_append_new(pairs, e);
    }
    json_object_set_new(o, "status", json_string(gt_pair_level_name(v->worst)));
    json_object_set_new(o, "warn_below_median", json_real(GT_PAIRS_WARN_SHARE));
    json_object_set_new(o, "pairs", pairs);
    return o;
}

/* Text: each pair that warns or fails, then the verdict in one line. */
static void print_verdict(FILE *f, const gt_pairs_verdict *v, bool latency)
{
    char why[256];
    int judged = 0;

    for (int k = 0; k < v->n; k++) {
        const gt_pair_judged *p = &v->p[k];
        judged += p->level == GT_PV_PASS || p->level == GT_PV_WARN;
        if (p->level == GT_PV_WARN || p->level == GT_PV_FAIL)
            fprintf(f, "%s  %s\n", p->level == GT_PV_FAIL ? "FAIL" : "WARN",
                    gt_pair_judged_text(p, latency, why, sizeof why));
    }
    if (v->worst != GT_PV_PASS)
        fprintf(f, "verdict: %s (%d pair%s slower than the median of its link "
                "type by more than %.0f%%, %d without peer access over NVLink)\n",
                v->worst == GT_PV_FAIL ? "FAIL" : "WARN", v->warn, v->warn == 1 ? "" : "s",
                100 * (1 - GT_PAIRS_WARN_SHARE), v->fail);
    else if (judged)
        fprintf(f, "verdict: PASS (%d pairs, each within %.0f%% of the median "
                "of its link type)\n", judged, 100 * (1 - GT_PAIRS_WARN_SHARE));
    else
        fprintf(f, "verdict: PASS (no link type with %d pairs or more to "
                "compare; no NVLink without peer access)\n", GT_PAIRS_MIN_GROUP);
}

json_t *gt_pairs_json(const gt_pairs_matrix *pm, const gt_pairs_verdict *v)
{
    double scale = pm->latency ? 1e9 : 1e-9;
    json_t *o = json_object(), *rows = json_array();

    for (int i = 0; i < pm->n; i++) {
        json_t *row = json_array();
        for (int j = 0; j < pm->n; j++)
            json_array_append_new(row, isfinite(pm->m[i][j]) ? json_real(pm->m[i][j] * scale)
                                                             : json_null());
        json_array_append_new(rows, row);
    }
    json_object_set_new(o, "experiment", json_string(pm->what));
    json_object_set_new(o, "configuration", json_string(pm->desc));
    json_object_set_new(o, "device", json_string(pm->name));
    json_object_set_new(o, "unit", json_string(pm->latency ? "ns" : "GB/s"));
    json_object_set_new(o, "rows", json_string("the GPU that copies or reads"));
    json_object_set_new(o, "samples", json_integer(pm->samples));
    json_object_set_new(o, "matrix", rows);
    json_object_set_new(o, "verdict", verdict_json(v, pm->latency));
    return o;
}

void gt_pairs_print(FILE *f, gt_format fmt, const gt_pairs_matrix *pm, const gt_pairs_verdict *v)
{
    const char *unit = pm->latency ? "ns" : "GB/s";
    double scale = pm->latency ? 1e9 : 1e-9;
    bool latency = pm->latency;
    int n = pm->n;

    if (fmt == GT_FMT_JSON) {
        json_t *o = gt_pairs_json(pm, v);
        json_dumpf(o, f, JSON_INDENT(2));
        fputc('\n', f);
        json_decref(o);
        return;
    }
    if (fmt == GT_FMT_CSV) {
        fprintf(f, "from,to,%s,link,verdict\n", latency ? "latency_ns" : "bandwidth_gbs");
        for (int k = 0; k < v->n; k++) {
            const gt_pair_judged *p = &v->p[k];
            if (isfinite(p->figure))
                fprintf(f, "%d,%d,%.3f,%s,%s\n", p->from, p->to, p->figure * scale, p->link,
                        gt_pair_level_name(p->level));
            else if (p->level == GT_PV_FAIL)
                fprintf(f, "%d,%d,,%s,fail\n", p->from, p->to, p->link);
        }
        return;
    }
    fprintf(f, "%s matrix, %s: %s\n%s, p50 of %lld samples per pair%s; row: the GPU that "
            "copies or reads, column: its peer\n", pm->what, pm->name, pm->desc, unit,
            (long long)pm->samples, latency ? "" : " (dir=both: the sum of both directions)");
    fprintf(f, "%8s", "");
    for (int j = 0; j < n; j++)
        fprintf(f, "   GPU %-3d", j);
    fprintf(f, "\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "GPU %-4d", i);
        for (int j = 0; j < n; j++) {
            if (i == j || !isfinite(pm->m[i][j]))
                fprintf(f, " %9s", i == j ? "-" : "N/A");
            else
                fprintf(f, " %9.1f", pm->m[i][j] * scale);
        }
        fprintf(f, "\n");
    }
    print_verdict(f, v, latency);
}

int gt_batch_pairs(const gt_cli *cli, const gt_backend *be)
{
    gt_pairs_matrix pm = {.latency = !gt_experiment_bandwidth(cli->exp, cli->vals),
                          .samples = cli->samples};
    double (*m)[GT_MAX_DEVICES] = pm.m;
    bool latency = pm.latency;
    int pair = cli->exp->pair_param ? gt_experiment_param(cli->exp, cli->exp->pair_param) : -1;
    char msg[512], *name = pm.name;
    gt_topo topo;
    gt_pairs_verdict verdict;
    uint64_t bad = 0;
    gt_err err;
    int n = 0, measured = 0, rc = GT_EXIT_OK;

    gt_err_clear(&err);
    if (pair < 0) {
        fprintf(gt_stderr(), "gputui: --pairs all: %s measures one GPU, not a pair\n", cli->exp->name);
        return GT_EXIT_USAGE;
    }
    if (be->device_count(&n, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return GT_EXIT_FAIL;
    }
    if (n < 2) {
        fprintf(gt_stderr(), "gputui: --pairs all needs two GPUs; this machine has one\n");
        return GT_EXIT_USAGE;
    }
    if (n > GT_MAX_DEVICES) {
        fprintf(gt_stderr(), "gputui: --pairs all: measuring the first %d of %d GPUs\n",
                GT_MAX_DEVICES, n);
        n = GT_MAX_DEVICES;
    }
    for (int i = 0; i < GT_MAX_DEVICES; i++)
        for (int j = 0; j < GT_MAX_DEVICES; j++)
            m[i][j] = NAN;
    for (int i = 0; i < n && rc == GT_EXIT_OK; i++) {
        gt_engine *eng;
        gt_devprops props;
        if (gt_engine_start(&eng, be, i, &err)) {
            fprintf(gt_stderr(), "gputui: GPU %d: %s\n", i, err.msg);
            return err.code ? err.code : GT_EXIT_FAIL;
        }
        gt_engine_set_share(eng, !cli->no_share_lock, NULL, 0);
        gt_engine_props(eng, &props);
        if (!name[0]) {
            snprintf(name, sizeof pm.name, "%s", props.name);
            topo = props.topo;
        }
        else if (strcmp(name, props.name) && strlen(name) + strlen(props.name) + 3 < sizeof pm.name)
            strcat(strcat(name, " + "), props.name);
        for (int j = 0; j < n; j++) {
            int64_t vals[GT_MAX_PARAMS];
            gt_run run;
            int r;
            if (j == i)
                continue;
            memcpy(vals, cli->vals, sizeof vals);
            vals[pair] = j + 1;
            if (gt_experiment_check(cli->exp, vals, &props, msg, sizeof msg)) {
                fprintf(gt_stderr(), "gputui: GPU %d -> GPU %d skipped: %s\n", i, j, msg);
                continue;
            }
            r = gt_batch_measure(cli, eng, cli->exp, vals, cli->samples, &run, NULL);
            if (r == 0) {
                m[i][j] = figure(&run, latency);
                bad += gt_run_failed(&run);
                measured++;
            }
            gt_run_free(&run);
            if (r > 128) {
                rc = r;
                break;
            }
        }
        gt_engine_stop(eng);
    }
    if (rc != GT_EXIT_OK)
        return rc;
    if (!measured) {
        fprintf(gt_stderr(), "gputui: no pair of GPUs could be measured\n");
        return GT_EXIT_FAIL;
    }
    {
        int64_t vals[GT_MAX_PARAMS];
        memcpy(vals, cli->vals, sizeof vals);
        gt_experiment_describe(cli->exp, vals, pm.desc, sizeof pm.desc);
    }
    pm.n = n;
    snprintf(pm.what, sizeof pm.what, "%s", cli->exp->name);
    gt_pairs_judge(&topo, n, m, latency, &verdict);
    gt_pairs_print(gt_stdout(), cli->format, &pm, &verdict);
    if (bad) {
        fprintf(gt_stderr(), "gputui: %llu samples FAILED verification\n", (unsigned long long)bad);
        return GT_EXIT_VERIFY;
    }
    return verdict.worst == GT_PV_FAIL ? GT_EXIT_VERIFY
         : verdict.worst == GT_PV_WARN ? GT_EXIT_WARN : GT_EXIT_OK;
}
