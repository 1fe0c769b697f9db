/* One inspection, step by step (inspection.h): the configurations, the
 * health poller, the reference recording and the facts the card is built
 * from. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/inspection.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gputui/experiments/registry.h"
#include "gputui/inspect/inspect_json.h"
#include "gputui/record/record.h"

/* The steps every inspection takes; copies to peers follow them. */
enum { ST_H2D, ST_D2H, ST_BIDIR, ST_D2D, ST_D2D_SM, ST_LAT, ST_FIXED };
#define STEPS_MAX (ST_FIXED + GT_MAX_DEVICES)

typedef struct step {
    const char *what;
    const char *set[12];
} step;

static const step fixed[ST_FIXED] = {
    {.what = "h2d", .set = {"transfer", "dir", "h2d", "host", "pinned", "size", "64M", NULL}},
    {.what = "d2h", .set = {"transfer", "dir", "d2h", "host", "pinned", "size", "64M", NULL}},
    {.what = "h2d+d2h", .set = {"transfer", "dir", "bidir", "host", "pinned", "size", "64M", NULL}},
    {.what = "d2d", .set = {"transfer", "dir", "d2d", "size", "256M", NULL}},
    {.what = "d2d by SMs", .set = {"transfer", "dir", "d2d", "method", "sm", "size", "256M", NULL}},
    {.what = "host latency", .set = {"latency", "kind", "mapped", "size", "2M", NULL}},
};

/* The health poller: every 100 ms while the measurements run, merged. */
typedef struct poller {
    const gt_backend *be;
    gt_devprops props;
    pthread_mutex_t mu;
    bool stop, any;
    gt_health during;
} poller;

struct gt_inspection {
    const gt_backend *be;
    gt_devprops p;
    gt_thresholds th;
    gt_recording rec;
    bool have_rec;
    const gt_experiment *exp[STEPS_MAX];
    int64_t vals[STEPS_MAX][GT_MAX_PARAMS];
    char what[STEPS_MAX][16];
    int n, cur;
    bool again[ST_FIXED];           /* the step was measured a second time */
    double t0, fail_samples, checked;
    gt_inspect_facts f;
    poller pl;
    pthread_t tid;
    bool polling;
};

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

/* An experiment's defaults with "name=value" pairs set (set[0]: the
 * experiment). */
static int config(const char *const *set, const gt_experiment **exp, int64_t *vals, gt_err *err)
{
    char why[200];

    if (!(*exp = gt_experiment_find(set[0]))) {
        gt_err_set(err, GT_EXIT_FAIL, "no experiment %s", set[0]);
        return -1;
    }
    gt_experiment_defaults(*exp, vals);
    for (int i = 1; set[i]; i += 2) {
        int k = gt_experiment_param(*exp, set[i]);
        if (k < 0 || gt_param_parse(&(*exp)->params[k], set[i + 1], &vals[k], why, sizeof why)) {
            gt_err_set(err, GT_EXIT_FAIL, "%s=%s: %s", set[i], set[i + 1],
                       k < 0 ? "no such parameter" : why);
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
    if (!b || !k || gt_bundle_resolve(b, model, path, sizeof path, why, sizeof why))
        return false;
    gt_err_clear(&err);
    if (gt_recording_load(rec, path, &err))
        return false;
    snprintf(name, len, "%s", model);
    return true;
}

/* The recorded p50 of series s of this configuration (bandwidth or
 * latency), NAN if the recording lacks it. */
static double recorded(const gt_inspection *in, int k, int s, bool bw)
{
    gt_run r;
    double v = NAN;
    int i;

    if (!in->have_rec || (i = gt_recording_find(&in->rec, in->exp[k], in->vals[k])) < 0)
        return NAN;
    if (gt_rec_config_run(&in->rec.cfg[i], &r))
        return NAN;
    if (s < r.nseries)
        v = gt_dist_percentile(bw ? &r.s[s].bw : &r.s[s].lat, 0.5);
    gt_run_free(&r);
    return v;
}

int gt_inspection_thresholds(gt_thresholds *th, const gt_bundle *bundle, gt_err *err)
{
    char path[700];

    snprintf(path, sizeof path, "%s/inspect.json",
             bundle && bundle->dir[0] ? bundle->dir : "share/gputui");
    return gt_thresholds_load(th, path, err);
}

/* A copy to GPU b: the peer experiment, this GPU's copy engine writing
 * b's memory. */
static int peer_config(int b, const gt_experiment **exp, int64_t *vals, gt_err *err)
{
    char ord[8];
    const char *set[] = {"peer", "peer", ord, "measure", "bandwidth", "engine", "ce",
                         "op", "write", "size", "256M", NULL};

    snprintf(ord, sizeof ord, "%d", b);
    return config(set, exp, vals, err);
}

static int peer_step(gt_inspection *in, int b, gt_err *err)
{
    gt_peer_fact *pf = &in->f.peer[in->f.npeers];

    if (peer_config(b, &in->exp[in->n], in->vals[in->n], err))
        return -1;
    snprintf(in->what[in->n], sizeof in->what[in->n], "peer %d", b);
    memset(pf, 0, sizeof *pf);
    pf->a = in->p.ordinal;
    pf->b = b;
    pf->bw = pf->ceiling = NAN;
    in->f.npeers++;
    in->n++;
    return 0;
}

/* What the figures are judged against: the link's and the memory's
 * ceilings and the bundled recording's figures, set before the first step
 * so that each step's figure can be judged as soon as it is taken. */
static void bases(gt_inspection *in)
{
    double factor = 1;
    char label[64];

    in->f.pcie_ceiling = gt_experiment_ceiling(in->exp[ST_H2D], in->vals[ST_H2D], 0, &in->p,
                                               &factor, label, sizeof label) / factor;
    snprintf(in->f.pcie_label, sizeof in->f.pcie_label, "%s", label);
    gt_inspect_host_link(&in->p, in->f.host_link, sizeof in->f.host_link);
    in->f.d2d_peak = gt_experiment_ceiling(in->exp[ST_D2D], in->vals[ST_D2D], 0, &in->p,
                                           &factor, label, sizeof label) / factor;
    in->f.h2d_ref = recorded(in, ST_H2D, 0, true);
    in->f.d2h_ref = recorded(in, ST_D2H, 0, true);
    in->f.bidir_ref = recorded(in, ST_BIDIR, 0, true) + recorded(in, ST_BIDIR, 1, true);
    in->f.d2d_ref = recorded(in, ST_D2D, 0, true);
    in->f.host_lat_ref = recorded(in, ST_LAT, 0, false);
}

int gt_inspection_start(gt_inspection **out, const gt_backend *be, const gt_devprops *p,
                        const gt_bundle *bundle, gt_err *err)
{
    gt_inspection *in = calloc(1, sizeof *in);

    *out = NULL;
    if (!in) {
        gt_err_set(err, GT_EXIT_FAIL, "out of memory");
        return -1;
    }
    in->t0 = gt_now();
    in->be = be;
    in->p = *p;
    gt_inspect_facts_init(&in->f);
    if (gt_inspection_thresholds(&in->th, bundle, err))
        goto fail;
    for (int i = 0; i < ST_FIXED; i++) {
        if (config(fixed[i].set, &in->exp[i], in->vals[i], err))
            goto fail;
        snprintf(in->what[i], sizeof in->what[i], "%s", fixed[i].what);
    }
    in->n = ST_FIXED;
    in->f.gpus = p->topo.count > 0 ? p->topo.count : 1;
    for (int b = 0; b < p->topo.n && b < GT_MAX_DEVICES && in->f.npeers < GT_PEERS_MAX; b++)
        if (b != p->ordinal && peer_step(in, b, err))
            goto fail;
    in->have_rec = reference(bundle, p, &in->rec, in->f.ref_name, sizeof in->f.ref_name);
    bases(in);
    if (be && be->health) {
        be->health(p, &in->f.before);
        in->pl.be = be;
        in->pl.props = *p;
        pthread_mutex_init(&in->pl.mu, NULL);
        in->polling = pthread_create(&in->tid, NULL, poll_health, &in->pl) == 0;
        if (!in->polling)
            pthread_mutex_destroy(&in->pl.mu);
    } else {
        snprintf(in->f.before.note, sizeof in->f.before.note,
                 "this back-end cannot read the GPU's health");
    }
    *out = in;
    return 0;
fail:
    gt_inspection_free(in);
    return -1;
}

bool gt_inspection_next(const gt_inspection *in, const gt_experiment **exp, int64_t *vals,
                        const char **what, int *i, int *n)
{
    if (i)
        *i = in->cur;
    if (n)
        *n = in->n;
    if (in->cur >= in->n)
        return false;
    if (exp)
        *exp = in->exp[in->cur];
    if (vals)
        memcpy(vals, in->vals[in->cur], sizeof in->vals[in->cur]);
    if (what)
        *what = in->what[in->cur];
    return true;
}

const char *gt_inspection_step(const gt_inspection *in, int i)
{
    return i >= 0 && i < in->n ? in->what[i] : NULL;
}

/* The share of run's samples marked disturbed: the most of any series. */
static double disturbed_share(const gt_run *run)
{
    double m = 0;

    for (int s = 0; s < run->nseries; s++)
        if (gt_series_disturbed_share(&run->s[s]) > m)
            m = gt_series_disturbed_share(&run->s[s]);
    return m;
}

/* Series s's p50, of its clean samples as every judged figure is
 * (run.h); of them all when none is clean (the row is busy then). */
static double p50(gt_run *run, int s, bool bw)
{
    gt_dist *d;

    if (s >= run->nseries)
        return NAN;
    d = gt_series_judged(&run->s[s], bw);
    if (!d->count)
        d = bw ? &run->s[s].bw : &run->s[s].lat;
    return gt_dist_percentile(d, 0.5);
}

/* Who disturbed a step, as the engine saw them after it. */
static void saw(gt_inspection *in, const gt_status *st)
{
    if (!st || in->f.neighbour[0])
        return;
    gt_share_others_text(&st->share, in->f.neighbour, sizeof in->f.neighbour);
    snprintf(in->f.counters, sizeof in->f.counters, "%s", st->share.traffic_source);
}

/* The copies that get a second look: the card's rows their figure
 * stands on, the fact that holds it and the one that keeps the first. */
#define FACT(n) offsetof(gt_inspect_facts, n)
static const struct {
    int step;
    const char *rows[2];
    size_t fact, first;
} second_look[] = {
    {.step = ST_H2D, .rows = {"pcie.h2d"}, .fact = FACT(h2d), .first = FACT(h2d_first)},
    {.step = ST_D2H, .rows = {"pcie.d2h"}, .fact = FACT(d2h), .first = FACT(d2h_first)},
    {.step = ST_BIDIR, .rows = {"pcie.bidir"}, .fact = FACT(bidir), .first = FACT(bidir_first)},
    {.step = ST_D2D, .rows = {"mem.d2d", "mem.d2d_ref"}, .fact = FACT(d2d),
     .first = FACT(d2d_first)},
};
#undef FACT

/* Whether the card, built now, would warn or fail on a row of look l. */
static bool judged_low(const gt_inspection *in, size_t l)
{
    gt_inspect_card *c;
    bool low = false;

    if (!(c = calloc(1, sizeof *c)))
        return false;
    gt_inspect_build(c, &in->f, &in->th);
    for (int i = 0; i < c->nrows; i++)
        for (int j = 0; j < 2 && second_look[l].rows[j]; j++)
            if (!strcmp(c->row[i].id, second_look[l].rows[j]))
                low |= c->row[i].verdict == GT_IV_WARN || c->row[i].verdict == GT_IV_FAIL;
    free(c);
    return low;
}

/* A copy's figure the card would warn or fail on is measured once more,
 * and the second stands; the first is kept for the card to say: a burst
 * of someone else's traffic does not give a healthy GPU a warning, and a
 * slow link is slow twice. True when step k is to be measured again. */
static bool look_again(gt_inspection *in, int k)
{
    char *f = (char *)&in->f;

    for (size_t l = 0; l < sizeof second_look / sizeof *second_look; l++)
        if (second_look[l].step == k && !in->again[k] && judged_low(in, l)) {
            memcpy(f + second_look[l].first, f + second_look[l].fact, sizeof(double));
            in->again[k] = true;
            snprintf(in->what[k], sizeof in->what[k], "%s again", fixed[k].what);
            return true;
        }
    return false;
}

int gt_inspection_take(gt_inspection *in, gt_run *run, const char *error, const gt_status *st)
{
    int k = in->cur;
    double share;

    if (k >= in->n)
        return -1;
    in->cur++;
    share = run ? disturbed_share(run) : 0;
    if (share > GT_DISTURBED_SHARE)
        saw(in, st);
    if (k >= ST_FIXED) {
        gt_peer_fact *pf = &in->f.peer[k - ST_FIXED];
        double factor = 1;
        char label[64];
        if (!run) {
            snprintf(pf->note, sizeof pf->note, "%s", error ? error : "the copy failed");
            return 0;
        }
        pf->bw = p50(run, 0, true);
        pf->busy = share;
        pf->ceiling = gt_experiment_ceiling(in->exp[k], in->vals[k], 0, &in->p, &factor, label,
                                            sizeof label) / factor;
        if (!(pf->ceiling > 0))
            pf->ceiling = NAN;
        snprintf(pf->link, sizeof pf->link, "%s", label);
        return 0;
    }
    if (!run)
        return -1;
    switch (k) {
    case ST_H2D: in->f.h2d = p50(run, 0, true); in->f.h2d_busy = share; break;
    case ST_D2H: in->f.d2h = p50(run, 0, true); in->f.d2h_busy = share; break;
    case ST_BIDIR:
        in->f.bidir = p50(run, 0, true) + p50(run, 1, true);
        in->f.bidir_busy = share;
        break;
    case ST_D2D: in->f.d2d = p50(run, 0, true); in->f.d2d_busy = share; break;
    case ST_D2D_SM: in->f.d2d_sm_busy = share; break;
    case ST_LAT: in->f.host_lat = p50(run, 0, false); in->f.host_lat_busy = share; break;
    }
    if (k == ST_D2D || k == ST_D2D_SM) {
        in->fail_samples += (double)run->s[0].failed;
        in->checked += (double)gt_run_count(run);
    }
    if (look_again(in, k))
        in->cur--;
    return 0;
}

static void stop_polling(gt_inspection *in)
{
    if (!in->polling)
        return;
    pthread_mutex_lock(&in->pl.mu);
    in->pl.stop = true;
    pthread_mutex_unlock(&in->pl.mu);
    pthread_join(in->tid, NULL);
    pthread_mutex_destroy(&in->pl.mu);
    in->polling = false;
}

void gt_inspect_host_link(const gt_devprops *p, char *key, size_t n)
{
    gt_link_kind kind;
    char label[64];

    gt_host_link(p, &kind, label, sizeof label);
    if (kind == GT_LINK_PCIE)
        snprintf(key, n, "gen%lld", (long long)gt_dp_get(p, GT_DP_PCIE_GEN_MAX));
    else
        snprintf(key, n, "%s", kind == GT_LINK_C2C ? "c2c" : kind == GT_LINK_NONE ? "integrated" : "");
}

void gt_inspection_finish(gt_inspection *in, const gt_status *st, gt_inspect_facts *f,
                          gt_inspect_card *c)
{
    bool polled = in->polling;

    stop_polling(in);
    if (polled) {
        in->f.during = in->pl.during;
        in->f.during_known = in->pl.any;
        in->be->health(&in->p, &in->f.after);
    } else {
        in->f.after = in->f.during = in->f.before;
    }
    if (in->cur > ST_D2D_SM) {
        in->f.pattern_errors = (int64_t)in->fail_samples;
        in->f.pattern_copies = (int)in->checked;
        in->f.pattern_bytes = (double)(256u << 20);
    }
    in->f.others = st && st->share.users_known ? st->share.foreign : -1;
    if (st)
        snprintf(in->f.others_text, sizeof in->f.others_text, "%s", st->share.foreign_text);
    in->f.cuda_driver = gt_dp_ok(&in->p, GT_DP_DRIVER_CUDA) ? (int)gt_dp_get(&in->p,
                                                                             GT_DP_DRIVER_CUDA) : 0;
    in->f.cuda_runtime = gt_dp_ok(&in->p, GT_DP_RUNTIME) ? (int)gt_dp_get(&in->p, GT_DP_RUNTIME)
                                                         : 0;
    *f = in->f;
    memset(c, 0, sizeof *c);
    snprintf(c->device, sizeof c->device, "%s", in->p.name);
    snprintf(c->uuid, sizeof c->uuid, "%s", in->p.uuid);
    if (gethostname(c->host, sizeof c->host))
        snprintf(c->host, sizeof c->host, "?");
    c->host[sizeof c->host - 1] = '\0';
    c->ordinal = in->p.ordinal;
    gt_inspect_build(c, f, &in->th);
    c->wall_s = gt_now() - in->t0;
}

void gt_inspection_free(gt_inspection *in)
{
    if (!in)
        return;
    stop_polling(in);
    if (in->have_rec)
        gt_recording_free(&in->rec);
    free(in);
}

int gt_inspection_replay(const char *json, const gt_thresholds *th, gt_inspect_card *c,
                         gt_err *err)
{
    gt_inspect_facts f;
    gt_inspect_card meta;

    if (gt_inspect_json_read(json, &f, &meta, err))
        return -1;
    *c = meta;
    gt_inspect_build(c, &f, th);
    return 0;
}

bool gt_inspection_config(const char *row_id, int peer, const gt_experiment **exp,
                          int64_t *vals)
{
    static const struct { const char *id; int step; } rows[] = {
        {.id = "pcie.link", .step = ST_H2D},
        {.id = "pcie.h2d", .step = ST_H2D},
        {.id = "pcie.d2h", .step = ST_D2H},
        {.id = "pcie.bidir", .step = ST_BIDIR},
        {.id = "pcie.replays", .step = ST_BIDIR},
        {.id = "pcie.latency", .step = ST_LAT},
        {.id = "mem.d2d", .step = ST_D2D},
        {.id = "mem.d2d_ref", .step = ST_D2D},
        {.id = "mem.pattern", .step = ST_D2D},
        {.id = "clk.sm", .step = ST_D2D_SM},
    };
    gt_err err;

    gt_err_clear(&err);
    if (!strcmp(row_id, "peer.bw") && peer >= 0)
        return peer_config(peer, exp, vals, &err) == 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (!strcmp(rows[i].id, row_id))
            return config(fixed[rows[i].step].set, exp, vals, &err) == 0;
    return false;
}
