/* gputui --batch --inspect (inspect_run.h): the measurements, the health
 * read around and during them, the bundled recording of the same model as
 * the reference, and the card written out. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/inspect_run.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gputui/experiments/exp_transfer.h"
#include "gputui/experiments/registry.h"
#include "gputui/inspect/card.h"
#include "gputui/measure/run.h"
#include "gputui/record/record.h"
#include "gputui/report/batch.h"

#define SAMPLES 20

/* The health poller: every 100 ms while the measurements run, merged. */
typedef struct poller {
    const gt_backend *be;
    gt_devprops props;
    pthread_mutex_t mu;
    bool stop, any;
    gt_health during;
} poller;

static void merge(gt_health *d, const gt_health *h, bool first)
{
    if (first) {
        *d = *h;
        d->reasons &= ~(uint64_t)GT_THR_IDLE;
        return;
    }
#define MAX(f) if (h->f > d->f) d->f = h->f
    MAX(pcie_gen);
    MAX(pcie_width);
    MAX(sm_clock);
    MAX(mem_clock);
    MAX(temp);
#undef MAX
    if (!isnan(h->power) && !(h->power <= d->power))
        d->power = h->power;
    if (h->reasons_known) {
        d->reasons_known = true;
        d->reasons |= h->reasons & ~(uint64_t)GT_THR_IDLE;   /* idle between measurements */
    }
}

static void *poll_health(void *arg)
{
    poller *p = arg;
    struct timespec ts = {0, 100 * 1000 * 1000};
    gt_health h;

    for (;;) {
        pthread_mutex_lock(&p->mu);
        bool stop = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (stop)
            break;
        p->be->health(&p->props, &h);
        pthread_mutex_lock(&p->mu);
        merge(&p->during, &h, !p->any);
        p->any = true;
        pthread_mutex_unlock(&p->mu);
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* exp's defaults with "name=value" pairs set. */
static int config(const gt_experiment *exp, int64_t *vals, const char *const *set)
{
    char err[200];

    gt_experiment_defaults(exp, vals);
    for (int i = 0; set[i]; i += 2) {
        int k = gt_experiment_param(exp, set[i]);
        if (k < 0 || gt_param_parse(&exp->params[k], set[i + 1], &vals[k], err, sizeof err)) {
            fprintf(stderr, "gputui: --inspect: %s=%s: %s\n", set[i], set[i + 1],
                    k < 0 ? "no such parameter" : err);
            return -1;
        }
    }
    return 0;
}

/* The bundled recording of this GPU's model ("NVIDIA H200" -> h200). */
static bool reference(const gt_bundle *b, const gt_devprops *p, gt_recording *rec, char *name,
                      size_t len)
{
    const char *n = strncmp(p->name, "NVIDIA ", 7) ? p->name : p->name + 7;
    char model[32], path[700], why[300];
    size_t k = 0;
    gt_err err;

    while (n[k] && isalnum((unsigned char)n[k]) && k + 1 < sizeof model) {
        model[k] = (char)tolower((unsigned char)n[k]);
        k++;
    }
    model[k] = '\0';
    if (!k || gt_bundle_resolve(b, model, path, sizeof path, why, sizeof why))
        return false;
    gt_err_clear(&err);
    if (gt_recording_load(rec, path, &err))
        return false;
    snprintf(name, len, "%s", model);
    return true;
}

/* The recorded p50 of series s of this configuration (bandwidth or
 * latency), NAN if the recording lacks it. */
static double recorded(const gt_recording *rec, const gt_experiment *exp, const int64_t *vals,
                       int s, bool bw)
{
    gt_run r;
    double v = NAN;
    int i;

    if (!rec || (i = gt_recording_find(rec, exp, vals)) < 0)
        return NAN;
    if (gt_rec_config_run(&rec->cfg[i], &r))
        return NAN;
    if (s < r.nseries)
        v = gt_dist_percentile(bw ? &r.s[s].bw : &r.s[s].lat, 0.5);
    gt_run_free(&r);
    return v;
}

typedef struct step {
    const gt_experiment *exp;
    const char *set[8];
} step;

int gt_inspect_batch(const gt_cli *cli, gt_engine *eng, const gt_backend *be,
                     const gt_bundle *bundle)
{
    static const char *const what[] = {"h2d", "d2h", "bidir", "d2d", "d2d-sm", "latency"};
    const step steps[] = {
        {&gt_exp_transfer, {"dir", "h2d", "host", "pinned", "size", "64M", NULL}},
        {&gt_exp_transfer, {"dir", "d2h", "host", "pinned", "size", "64M", NULL}},
        {&gt_exp_transfer, {"dir", "bidir", "host", "pinned", "size", "64M", NULL}},
        {&gt_exp_transfer, {"dir", "d2d", "size", "256M", NULL}},
        {&gt_exp_transfer, {"dir", "d2d", "method", "sm", "size", "256M", NULL}},
        {gt_experiment_find("latency"), {"kind", "mapped", "size", "2M", NULL}},
    };
    int64_t vals[6][GT_MAX_PARAMS];
    double t0 = gt_now(), factor = 1, fail_samples = 0, checked = 0;
    gt_inspect_facts f;
    gt_inspect_card c;
    gt_thresholds th;
    gt_recording rec;
    bool have_rec;
    gt_devprops p;
    gt_status st;
    gt_err err;
    char path[700], label[64];
    poller pl;
    pthread_t tid;
    bool polling = false;
    int rc = 0, status;

    gt_err_clear(&err);
    snprintf(path, sizeof path, "%s/inspect.json", bundle->dir[0] ? bundle->dir : "share/gputui");
    if (gt_thresholds_load(&th, path, &err)) {
        fprintf(stderr, "gputui: --inspect: the thresholds: %s\n", err.msg);
        return GT_INSPECT_EXIT_NORUN;
    }
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (!steps[i].exp || config(steps[i].exp, vals[i], steps[i].set))
            return GT_INSPECT_EXIT_NORUN;
    gt_engine_props(eng, &p);
    gt_inspect_facts_init(&f);
    have_rec = reference(bundle, &p, &rec, f.ref_name, sizeof f.ref_name);
    if (be && be->health) {
        be->health(&p, &f.before);
        memset(&pl, 0, sizeof pl);
        pl.be = be;
        pl.props = p;
        pthread_mutex_init(&pl.mu, NULL);
        polling = pthread_create(&tid, NULL, poll_health, &pl) == 0;
    } else {
        snprintf(f.before.note, sizeof f.before.note, "this back-end cannot read the GPU's health");
    }

    for (size_t i = 0; i < sizeof steps / sizeof *steps && !rc; i++) {
        gt_run run;
        double p50[2];
        if (!cli->format)
            fprintf(stderr, "gputui: --inspect: %s ...\n", what[i]);
        rc = gt_batch_measure(cli, eng, steps[i].exp, vals[i], SAMPLES, &run, NULL);
        if (rc)
            break;
        for (int s = 0; s < 2; s++)
            p50[s] = s < run.nseries ? gt_dist_percentile(&run.s[s].bw, 0.5) : NAN;
        switch (i) {
        case 0: f.h2d = p50[0]; break;
        case 1: f.d2h = p50[0]; break;
        case 2: f.bidir = p50[0] + p50[1]; break;
        case 3: f.d2d = p50[0]; break;
        case 5: f.host_lat = gt_dist_percentile(&run.s[0].lat, 0.5); break;
        }
        if (i == 3 || i == 4) {
            fail_samples += (double)run.s[0].failed;
            checked += (double)gt_run_count(&run);
        }
        gt_run_free(&run);
    }
    if (polling) {
        pthread_mutex_lock(&pl.mu);
        pl.stop = true;
        pthread_mutex_unlock(&pl.mu);
        pthread_join(tid, NULL);
        pthread_mutex_destroy(&pl.mu);
        f.during = pl.during;
        f.during_known = pl.any;
        be->health(&p, &f.after);
    } else {
        f.after = f.during = f.before;
    }
    if (rc) {
        if (have_rec)
            gt_recording_free(&rec);
        fprintf(stderr, "gputui: --inspect: the measurements did not run (see above)\n");
        return rc > 128 ? rc : GT_INSPECT_EXIT_NORUN;
    }

    f.pcie_ceiling = gt_experiment_ceiling(&gt_exp_transfer, vals[0], 0, &p, &factor, label,
                                           sizeof label) / factor;
    snprintf(f.pcie_label, sizeof f.pcie_label, "%s", label);
    f.d2d_peak = gt_experiment_ceiling(&gt_exp_transfer, vals[3], 0, &p, &factor, label,
                                       sizeof label) / factor;
    f.pattern_errors = (int64_t)fail_samples;
    f.pattern_copies = (int)checked;
    f.pattern_bytes = (double)(256u << 20);
    if (have_rec) {
        f.h2d_ref = recorded(&rec, &gt_exp_transfer, vals[0], 0, true);
        f.d2h_ref = recorded(&rec, &gt_exp_transfer, vals[1], 0, true);
        f.bidir_ref = recorded(&rec, &gt_exp_transfer, vals[2], 0, true) +
                      recorded(&rec, &gt_exp_transfer, vals[2], 1, true);
        f.d2d_ref = recorded(&rec, &gt_exp_transfer, vals[3], 0, true);
        f.host_lat_ref = recorded(&rec, steps[5].exp, vals[5], 0, false);
        gt_recording_free(&rec);
    }
    gt_engine_status(eng, &st);
    f.others = st.share.users_known ? st.share.foreign : -1;
    snprintf(f.others_text, sizeof f.others_text, "%s", st.share.foreign_text);
    f.cuda_driver = gt_dp_ok(&p, GT_DP_DRIVER_CUDA) ? (int)gt_dp_get(&p, GT_DP_DRIVER_CUDA) : 0;
    f.cuda_runtime = gt_dp_ok(&p, GT_DP_RUNTIME) ? (int)gt_dp_get(&p, GT_DP_RUNTIME) : 0;
    f.gpus = 1;

    memset(&c, 0, sizeof c);
    snprintf(c.device, sizeof c.device, "%s", p.name);
    snprintf(c.uuid, sizeof c.uuid, "%s", p.uuid);
    if (gethostname(c.host, sizeof c.host))
        snprintf(c.host, sizeof c.host, "?");
    c.host[sizeof c.host - 1] = '\0';
    c.ordinal = p.ordinal;
    gt_inspect_build(&c, &f, &th);
    c.wall_s = gt_now() - t0;
    status = gt_inspect_status(&c);
    switch (cli->format) {
    case GT_FMT_JSON: rc = gt_inspect_print_json(stdout, &c); break;
    case GT_FMT_CSV: rc = gt_inspect_print_csv(stdout, &c); break;
    case GT_FMT_PROMETHEUS: rc = gt_inspect_print_prometheus(stdout, &c); break;
    default: rc = gt_inspect_print_text(stdout, &c); break;
    }
    if (fflush(stdout) || rc) {
        fprintf(stderr, "gputui: --inspect: cannot write the card\n");
        return GT_INSPECT_EXIT_NORUN;
    }
    return status;
}
