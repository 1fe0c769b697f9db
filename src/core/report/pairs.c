/* --batch -e EXP --pairs all: the configuration of an experiment between
 * two GPUs (its row's pair_param: the peer experiment) over every ordered
 * pair of GPUs, one engine per device in turn, printed as a
 * matrix in the manner of p2pBandwidthLatencyTest (row: the GPU that
 * copies or reads, column: its peer). */
#include "gputui/report/batch.h"
#include "gputui/base/out.h"

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

static void print_matrix(const gt_cli *cli, int n, double m[GT_MAX_DEVICES][GT_MAX_DEVICES],
                         bool latency, const char *desc, const char *name)
{
    const char *unit = latency ? "ns" : "GB/s";
    double scale = latency ? 1e9 : 1e-9;

    if (cli->format == GT_FMT_JSON) {
        json_t *o = json_object(), *rows = json_array();
        for (int i = 0; i < n; i++) {
            json_t *row = json_array();
            for (int j = 0; j < n; j++)
                json_array_append_new(row, isfinite(m[i][j]) ? json_real(m[i][j] * scale)
                                                             : json_null());
            json_array_append_new(rows, row);
        }
        json_object_set_new(o, "experiment", json_string(cli->exp->name));
        json_object_set_new(o, "configuration", json_string(desc));
        json_object_set_new(o, "device", json_string(name));
        json_object_set_new(o, "unit", json_string(unit));
        json_object_set_new(o, "rows", json_string("the GPU that copies or reads"));
        json_object_set_new(o, "samples", json_integer(cli->samples));
        json_object_set_new(o, "matrix", rows);
        json_dumpf(o, gt_stdout(), JSON_INDENT(2));
        fputc('\n', gt_stdout());
        json_decref(o);
        return;
    }
    if (cli->format == GT_FMT_CSV) {
        fprintf(gt_stdout(), "from,to,%s\n", latency ? "latency_ns" : "bandwidth_gbs");
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i != j && isfinite(m[i][j]))
                    fprintf(gt_stdout(), "%d,%d,%.3f\n", i, j, m[i][j] * scale);
        return;
    }
    fprintf(gt_stdout(), "%s matrix, %s: %s\n%s, p50 of %lld samples per pair%s; row: the GPU that copies "
           "or reads, column: its peer\n", cli->exp->name, name, desc, unit, (long long)cli->samples,
           latency ? "" : " (dir=both: the sum of both directions)");
    fprintf(gt_stdout(), "%8s", "");
    for (int j = 0; j < n; j++)
        fprintf(gt_stdout(), "   GPU %-3d", j);
    fprintf(gt_stdout(), "\n");
    for (int i = 0; i < n; i++) {
        fprintf(gt_stdout(), "GPU %-4d", i);
        for (int j = 0; j < n; j++) {
            if (i == j || !isfinite(m[i][j]))
                fprintf(gt_stdout(), " %9s", i == j ? "-" : "N/A");
            else
                fprintf(gt_stdout(), " %9.1f", m[i][j] * scale);
        }
        fprintf(gt_stdout(), "\n");
    }
}

int gt_batch_pairs(const gt_cli *cli, const gt_backend *be)
{
    double m[GT_MAX_DEVICES][GT_MAX_DEVICES];
    bool latency = !gt_experiment_bandwidth(cli->exp, cli->vals);
    int pair = cli->exp->pair_param ? gt_experiment_param(cli->exp, cli->exp->pair_param) : -1;
    char desc[512], msg[512], name[128] = "";
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
        if (!name[0])
            snprintf(name, sizeof name, "%s", props.name);
        else if (strcmp(name, props.name) && strlen(name) + strlen(props.name) + 3 < sizeof name)
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
        gt_experiment_describe(cli->exp, vals, desc, sizeof desc);
    }
    print_matrix(cli, n, m, latency, desc, name);
    if (bad) {
        fprintf(gt_stderr(), "gputui: %llu samples FAILED verification\n", (unsigned long long)bad);
        return GT_EXIT_VERIFY;
    }
    return GT_EXIT_OK;
}
