/* The inspection run (inspect_run.h) end to end on a fake back-end: a
 * healthy pair of H200s (the bundled two-GPU recording's properties) gives
 * a passing card with a row for the copy to the peer; each fault the fake
 * injects, in its copies or in what its "driver" says, reaches the right
 * row with the right verdict and exit status; a copy that would warn is
 * measured again; a failed copy to the peer is
 * its row, not the end of the inspection; and the card comes back the same
 * from the JSON a recording keeps. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <cmocka.h>

#include "gputui/engine/engine.h"
#include "experiments/peer/peer.h"
#include "experiments/transfer/transfer.h"
#include "gputui/input/cli.h"
#include "gputui/inspect/inspect_json.h"
#include "gputui/inspect/inspect_run.h"
#include "gputui/inspect/inspection.h"
#include "gputui/inspect/node.h"
#include "gputui/base/out.h"
#include "gputui/record/record.h"

#include "testutil.h"

enum { OK, LINK_GEN3_X8, H2D_SLOW, REPLAYS, THROTTLE, ECC, REMAP_FAILED, NVLINK_DOWN,
       PEER_SLOW, PEER_FAILS, PATTERN, H2D_BURST, NB_COPIES, NB_IDLE, NB_UNKNOWN, NFAULTS };
static _Atomic double copies_until;     /* NB_IDLE: the neighbour copies until then */
static int fault;
static atomic_int health_calls;
static atomic_int h2d_setups;           /* H2D measurements set up */
static gt_devprops h200;        /* GPU 0 of two H200s joined by NVLink */
static int ndev = 2;            /* GPUs of the fake machine, all alike */
static int odd_from = -1, odd_to = -1;     /* a link of a node 12% slower than the rest */

typedef struct fstate {
    int64_t v[GT_MAX_PARAMS];
    int kind;                   /* 0 transfer, 1 latency, 2 peer */
    bool burst;                 /* H2D_BURST: the first H2D measurement, slowed */
    bool odd;                   /* the copy over the odd link */
} fstate;

/* Bytes/s a healthy H200 gives (README figures). */
static double rate(const fstate *s, int series)
{
    if (s->kind == 2)
        return fault == PEER_SLOW ? 0.45 * 450e9 : fault == NVLINK_DOWN ? 17 / 18.0 * 394e9
             : s->odd ? 0.88 * 394e9 : 394e9;
    switch (s->v[GT_TR_DIR]) {
    case GT_DIR_H2D: return fault == LINK_GEN3_X8 ? 12.5e9 : fault == H2D_SLOW || s->burst ? 44e9
                          : fault == NB_COPIES ? 22e9 : 55e9;
    case GT_DIR_D2H: return fault == LINK_GEN3_X8 ? 12.5e9 : fault == NB_COPIES ? 30e9 : 55e9;
    case GT_DIR_BIDIR: return fault == LINK_GEN3_X8 ? 12e9 : series ? 49e9 : 50e9;
    default: return 1.995e12;
    }
}

static int setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err, int kind)
{
    fstate *s;
    (void)info;
    if (kind == 2 && fault == PEER_FAILS) {
        gt_err_set(err, GT_EXIT_FAIL, "cudaDeviceEnablePeerAccess: cudaErrorPeerAccessUnsupported");
        return -1;
    }
    if (!(s = calloc(1, sizeof *s)))
        return -1;
    memcpy(s->v, v, sizeof s->v);
    s->kind = kind;
    s->odd = kind == 2 && p->ordinal == odd_from && gt_peer_device(v, p) == odd_to;
    if (kind == 0 && v[GT_TR_DIR] == GT_DIR_H2D)
        s->burst = atomic_fetch_add(&h2d_setups, 1) == 0 && fault == H2D_BURST;
    *st = s;
    return 0;
}

static int t_setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *i, gt_err *e)
{
    return setup(st, v, p, i, e, 0);
}
static int l_setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *i, gt_err *e)
{
    return setup(st, v, p, i, e, 1);
}
static int p_setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *i, gt_err *e)
{
    return setup(st, v, p, i, e, 2);
}

static int f_run(void *state, gt_sample *out, gt_err *err)
{
    const fstate *s = state;
    int n = s->kind == 0 && s->v[GT_TR_DIR] == GT_DIR_BIDIR ? 2 : 1;
    (void)err;
    for (int i = 0; i < n; i++) {
        out[i] = (gt_sample){0, (uint8_t)i, GT_V_FULL, 0, 0};
        if (s->kind == 1) {
            out[i].sec = 1.2e-6;        /* one load of mapped host memory */
            continue;
        }
        out[i].bytes = (uint64_t)s->v[s->kind == 2 ? GT_PE_SIZE : GT_TR_SIZE];
        out[i].sec = (double)out[i].bytes / rate(s, i);
        if (fault == PATTERN && s->kind == 0 && s->v[GT_TR_DIR] == GT_DIR_D2D)
            out[i].verify = GT_V_FAILED;
    }
    return n;
}

static void f_teardown(void *st) { free(st); }

static const gt_exp_ops tops = {.setup = t_setup, .run = f_run, .teardown = f_teardown};
static const gt_exp_ops lops = {.setup = l_setup, .run = f_run, .teardown = f_teardown};
static const gt_exp_ops pops = {.setup = p_setup, .run = f_run, .teardown = f_teardown};

static const gt_exp_ops *f_ops(const char *n)
{
    return !strcmp(n, "transfer") ? &tops : !strcmp(n, "latency") ? &lops
         : !strcmp(n, "peer") ? &pops : NULL;
}

static int f_count(int *n, gt_err *e) { (void)e; *n = ndev; return 0; }
static int f_query(int o, gt_devprops *p, gt_err *e)
{
    (void)e;
    *p = h200;
    p->ordinal = o;
    /* ndev GPUs, each pair joined as the recorded two are */
    p->topo.count = p->topo.n = ndev;
    for (int i = 0; i < ndev; i++) {
        p->topo.dev[i] = h200.topo.dev[0];
        snprintf(p->topo.dev[i].pci_bus_id, sizeof p->topo.dev[i].pci_bus_id,
                 "00000000:%02X:00.0", 0x10 + i);
        for (int j = 0; j < ndev; j++)
            p->topo.link[i][j] = h200.topo.link[0][1];
    }
    return 0;
}
static int f_open(int o, gt_devprops *p, gt_err *e) { return f_query(o, p, e); }
static void f_refresh(gt_devprops *p) { (void)p; }
static void f_close(void) {}

/* What the driver says: a healthy H200 with NVLinks, and the fault. The
 * first call is "before"; later ones are during and after. */
static void f_health(const gt_devprops *p, gt_health *h)
{
    bool later = atomic_fetch_add(&health_calls, 1) > 0;
    (void)p;
    gt_health_init(h);
    h->nvml = true;
    h->pcie_gen = h->pcie_gen_max = 5;
    h->pcie_width = h->pcie_width_max = 16;
    h->pcie_replays = fault == REPLAYS && later ? 7 : 0;
    h->ecc_on = 1;
    h->ecc_vol_corr = h->ecc_agg_corr = h->ecc_agg_unc = 0;
    h->ecc_vol_unc = fault == ECC && later ? 1 : 0;
    h->remap_corr = h->remap_unc = 0;
    h->remap_pending = 0;
    h->remap_failed = fault == REMAP_FAILED;
    h->sm_clock = h->sm_clock_max = 1980;
    h->mem_clock = 3201;
    h->reasons_known = true;
    h->reasons = fault == THROTTLE && later ? GT_THR_HW_SLOWDOWN : 0;
    h->temp = 40;
    h->temp_slowdown = 89;
    h->power = 300;
    h->power_limit = h->power_default_limit = 700;
    h->nvlinks = 18;
    h->nvlinks_up = fault == NVLINK_DOWN ? 17 : 18;
    h->persistence = 1;
    h->mig = 0;
    h->compute_mode = 0;
    snprintf(h->driver, sizeof h->driver, "580.159.04");
    h->near_cpus = 1;
    if (fault == LINK_GEN3_X8 && later) {
        h->pcie_gen = 3;
        h->pcie_width = 8;
    }
}

/* The other programs: with a neighbour (NB_*) one holds a context; the
 * driver does not say whether it had work, and the link's counters see
 * it copy (NB_COPIES, and its copies slow this GPU's above), see nothing
 * but their own noise (NB_IDLE), or are missing (NB_UNKNOWN). */
static void f_users(gt_gpu_users *u, const int *skip, int nskip)
{
    (void)skip, (void)nskip;
    memset(u, 0, sizeof *u);
    u->known = true;
    if (fault < NB_COPIES)
        return;
    u->n = 1;
    u->p[0] = (gt_gpu_proc){.pid = 4242, .name = "nvbandwidth", .mem = 512ull << 20};
}

static void f_traffic(gt_link_traffic *t)
{
    memset(t, 0, sizeof *t);
    if (fault == NB_UNKNOWN)
        return;
    t->known = true;
    bool copying = fault == NB_COPIES || (fault == NB_IDLE && gt_now() < copies_until);
    t->rx_Bps = copying ? 33e9 : 0.4e6;
    t->tx_Bps = copying ? 21e9 : 1.1e6;
    t->window_s = 0.02;
    snprintf(t->source, sizeof t->source, "fake PCIe counters");
}

static const gt_backend fake = {.name = "fake", .device_count = f_count, .query = f_query,
                                .open = f_open, .refresh = f_refresh, .close = f_close,
                                .ops = f_ops, .health = f_health, .users = f_users,
                                .traffic = f_traffic};

static int load(void **state)
{
    (void)state;
    if (recording_props("share/gputui/2xh200.gtr.gz", &h200))
        return -1;
    /* Another name: no bundled recording of this model to compare with. */
    snprintf(h200.name, sizeof h200.name, "Fake H200");
    return 0;
}

/* One inspection on the fake with this fault: 0 and the card, or the
 * run's status; wait: --wait-quiet's value ("": none). */
static int inspect_waiting(int f, const char *wait, gt_inspect_facts *facts, gt_inspect_card *c)
{
    gt_bundle bundle;
    gt_engine *eng;
    gt_cli cli;
    gt_err err;
    int rc;
    char *argv[] = {"gputui", "--batch", "--inspect", "--format", "json", "--wait-quiet",
                    (char *)wait, NULL};

    fault = f;
    health_calls = 0;
    h2d_setups = 0;
    memset(&bundle, 0, sizeof bundle);
    snprintf(bundle.dir, sizeof bundle.dir, "share/gputui");
    gt_err_clear(&err);
    assert_int_equal(gt_cli_parse(wait[0] ? 7 : 5, argv, &cli, &err), 0);
    assert_int_equal(gt_engine_start(&eng, &fake, 0, &err), 0);
    rc = gt_inspect_measure(&cli, eng, &fake, &bundle, NULL, facts, c);
    gt_engine_stop(eng);
    return rc;
}

static int inspect(int f, gt_inspect_facts *facts, gt_inspect_card *c)
{
    return inspect_waiting(f, "", facts, c);
}

/* gt_inspect_node on the fake, what it wrote to standard output in out. */
static int stdout_of(const gt_cli *cli, const gt_bundle *bundle, char *out, size_t len)
{
    stdout_capture_t cap = stdout_capture();
    int rc = gt_inspect_node(cli, &fake, bundle);

    stdout_captured(cap, out, len);
    return rc;
}

/* --wait-quiet: a neighbour copies for the first 0.6 s; the first step
 * waits it out, and every row is judged. */
static void wait_quiet(void **state)
{
    gt_inspect_facts f;
    gt_inspect_card c;
    double t0 = gt_now();
    (void)state;
    copies_until = t0 + 0.6;
    assert_int_equal(inspect_waiting(NB_IDLE, "20", &f, &c), 0);
    copies_until = 0;
    assert_true(gt_now() - t0 >= 0.6);
    assert_true(gt_now() - t0 < 15);
    assert_true(f.h2d_busy == 0);
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_PASS);
    /* Without it, the same neighbour makes the card busy. */
    copies_until = gt_now() + 30;
    assert_int_equal(inspect(NB_IDLE, &f, &c), 0);
    copies_until = 0;
    assert_true(f.h2d_busy > 0.95);
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_BUSY);
}

static void healthy_pair(void **state)
{
    gt_inspect_facts f;
    gt_inspect_card c;
    const gt_inspect_row *r;
    (void)state;
    assert_int_equal(inspect(OK, &f, &c), 0);
    for (int i = 0; i < c.nrows; i++)
        if (c.row[i].verdict == GT_IV_FAIL || c.row[i].verdict == GT_IV_WARN)
            fail_msg("%s: %s (%s)", c.row[i].id, gt_iverdict_name(c.row[i].verdict),
                     c.row[i].reason);
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_PASS);
    assert_int_equal(f.npeers, 1);
    r = card_row(&c, "peer.bw");
    assert_int_equal(r->peer, 1);
    assert_int_equal(r->verdict, GT_IV_PASS);
    assert_true(fabs(r->value - 394e9) < 1e9);
    assert_non_null(strstr(r->expect, "NVLink"));
    assert_true(fabs(f.h2d - 55e9) < 1e8);
    assert_true(fabs(f.bidir - 99e9) < 1e8);
    assert_true(f.pattern_copies >= 2 * GT_INSPECT_SAMPLES);
    assert_int_equal(f.pattern_errors, 0);
    assert_true(fabs(f.host_lat - 1.2e-6) < 1e-9);
    assert_string_equal(c.device, "Fake H200");
}

static void faults(void **state)
{
    static const struct { int fault; const char *name, *row; gt_iverdict v; int status; } t[] = {
        {LINK_GEN3_X8, "Gen5 x16 link at Gen3 x8", "pcie.link", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {H2D_SLOW, "H2D 20% slow", "pcie.h2d", GT_IV_WARN, GT_INSPECT_EXIT_WARN},
        {REPLAYS, "replay counter rising", "pcie.replays", GT_IV_WARN, GT_INSPECT_EXIT_WARN},
        {THROTTLE, "HW slowdown", "clk.reasons", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {ECC, "uncorrected ECC error", "mem.ecc_unc", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {REMAP_FAILED, "row remap failed", "mem.remap", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {NVLINK_DOWN, "an NVLink down", "peer.nvlink", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {PEER_SLOW, "peer copy at 45% of NVLink", "peer.bw", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {PEER_FAILS, "peer access refused", "peer.bw", GT_IV_CANNOT, GT_INSPECT_EXIT_PASS},
        {PATTERN, "device copies fail their check", "mem.pattern", GT_IV_FAIL,
         GT_INSPECT_EXIT_FAIL},
        {H2D_BURST, "H2D slow only while first measured", "pcie.h2d", GT_IV_PASS,
         GT_INSPECT_EXIT_PASS},
        {NB_COPIES, "a neighbour copies", "pcie.h2d", GT_IV_BUSY, GT_INSPECT_EXIT_BUSY},
        {NB_IDLE, "a neighbour holds a context, idle", "sw.others", GT_IV_PASS,
         GT_INSPECT_EXIT_PASS},
        {NB_UNKNOWN, "a neighbour, no counters", "sw.others", GT_IV_BUSY, GT_INSPECT_EXIT_BUSY},
    };
    (void)state;
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        gt_inspect_facts f;
        gt_inspect_card c;
        const gt_inspect_row *r;
        assert_int_equal(inspect(t[k].fault, &f, &c), 0);
        r = card_row(&c, t[k].row);
        if (r->verdict != t[k].v || gt_inspect_status(&c) != t[k].status)
            fail_msg("%s: %s is %s (%s), status %d; wanted %s, %d", t[k].name, r->id,
                     gt_iverdict_name(r->verdict), r->reason, gt_inspect_status(&c),
                     gt_iverdict_name(t[k].v), t[k].status);
        if (t[k].fault == PEER_FAILS)
            assert_non_null(strstr(r->reason, "cudaErrorPeerAccessUnsupported"));
        /* Beside a neighbour no row is WARN or FAIL, and its row names it. */
        for (int i = 0; t[k].fault >= NB_COPIES && i < c.nrows; i++)
            if (c.row[i].verdict == GT_IV_WARN || c.row[i].verdict == GT_IV_FAIL)
                fail_msg("%s: %s is %s (%s)", t[k].name, c.row[i].id,
                         gt_iverdict_name(c.row[i].verdict), c.row[i].reason);
        if (t[k].fault == NB_COPIES) {
            assert_true(f.h2d_busy > 0.95);
            assert_non_null(strstr(card_row(&c, "sw.others")->reason, "pid 4242 nvbandwidth"));
            assert_non_null(strstr(card_row(&c, "sw.others")->reason, "moving 54.0 GB/s"));
            assert_string_equal(f.counters, "fake PCIe counters");
        }
        if (t[k].fault == NB_IDLE)
            assert_true(f.h2d_busy == 0);
    }
}

/* A copy that would warn is measured once more and the second figure
 * stands: a burst that slowed the first passes, a slow link warns after
 * two looks, and a healthy one is measured once. */
static void second_look(void **state)
{
    gt_inspect_facts f;
    gt_inspect_card c;
    (void)state;
    assert_int_equal(inspect(OK, &f, &c), 0);
    assert_int_equal(h2d_setups, 1);
    assert_true(isnan(f.h2d_first));
    assert_null(strstr(card_row(&c, "pcie.h2d")->reason, "first look"));
    assert_int_equal(inspect(H2D_BURST, &f, &c), 0);
    assert_int_equal(h2d_setups, 2);
    assert_true(fabs(f.h2d - 55e9) < 1e8);
    assert_true(fabs(f.h2d_first - 44e9) < 1e8);
    assert_int_equal(card_row(&c, "pcie.h2d")->verdict, GT_IV_PASS);
    assert_non_null(strstr(card_row(&c, "pcie.h2d")->reason,
                           "the first look read 44.00 GB/s, so it was measured again"));
    assert_int_equal(inspect(H2D_SLOW, &f, &c), 0);
    assert_int_equal(h2d_setups, 2);
    assert_true(fabs(f.h2d - 44e9) < 1e8);
    assert_int_equal(card_row(&c, "pcie.h2d")->verdict, GT_IV_WARN);
    assert_non_null(strstr(card_row(&c, "pcie.h2d")->reason, "the first look read"));
}

/* What a recording keeps builds the same card again. */
static void json_round_trip(void **state)
{
    gt_thresholds th;
    gt_err err;
    (void)state;
    gt_err_clear(&err);
    assert_int_equal(gt_inspection_thresholds(&th, NULL, &err), 0);
    for (int k = 0; k < NFAULTS; k++) {
        gt_inspect_facts f;
        gt_inspect_card a, b;
        char *json;
        assert_int_equal(inspect(k, &f, &a), 0);
        assert_non_null(json = gt_inspect_json_write(&f, &a));
        assert_int_equal(gt_inspection_replay(json, &th, &b, &err), 0);
        free(json);
        assert_string_equal(a.device, b.device);
        assert_string_equal(a.host, b.host);
        assert_true(fabs(a.wall_s - b.wall_s) < 1e-9);
        assert_int_equal(a.nrows, b.nrows);
        for (int i = 0; i < a.nrows; i++) {
            assert_string_equal(a.row[i].id, b.row[i].id);
            assert_string_equal(a.row[i].figure, b.row[i].figure);
            assert_string_equal(a.row[i].expect, b.row[i].expect);
            assert_string_equal(a.row[i].reason, b.row[i].reason);
            assert_int_equal(a.row[i].verdict, b.row[i].verdict);
            assert_int_equal(a.row[i].peer, b.row[i].peer);
        }
    }
}

/* A bad inspection object is refused with the member named. */
static void bad_json(void **state)
{
    gt_inspect_facts f;
    gt_inspect_card c;
    gt_err err;
    (void)state;
    gt_err_clear(&err);
    assert_int_equal(gt_inspect_json_read("[1]", &f, &c, &err), -1);
    assert_non_null(strstr(err.msg, "not a JSON object"));
    assert_int_equal(gt_inspect_json_read("{\"gpu\":{},\"facts\":{\"h2d\":\"fast\"},"
                                          "\"before\":{},\"during\":{},\"after\":{}}",
                                          &f, &c, &err), -1);
    assert_non_null(strstr(err.msg, "facts.h2d is not a number"));
    assert_int_equal(gt_inspect_json_read("{\"gpu\":{}}", &f, &c, &err), -1);
    assert_non_null(strstr(err.msg, "no \"facts\" object"));
    /* Missing members stay unknown. */
    assert_int_equal(gt_inspect_json_read("{\"gpu\":{\"ordinal\":3},\"facts\":{},\"before\":{},"
                                          "\"during\":{},\"after\":{}}", &f, &c, &err), 0);
    assert_int_equal(c.ordinal, 3);
    assert_true(isnan(f.h2d));
    assert_int_equal(f.after.pcie_gen, -1);
}

/* -d all on a fake node of eight H200s, one of its 56 links 12% slower
 * than the rest (each card still passes: 0.77 of the NVLink's ceiling):
 * the node's verdict names that link and exits 2; without it, 0. */
static void node_names_the_odd_link(void **state)
{
    static char out[1 << 20];
    char *text[] = {"gputui", "--batch", "--inspect", "-d", "all", NULL};
    char *json[] = {"gputui", "--batch", "--inspect", "-d", "all", "--format", "json", NULL};
    gt_bundle bundle;
    gt_cli cli;
    gt_err err;
    json_error_t je;
    json_t *o;
    (void)state;

    memset(&bundle, 0, sizeof bundle);
    snprintf(bundle.dir, sizeof bundle.dir, "share/gputui");
    fault = OK, ndev = 8, odd_from = 4, odd_to = 6;
    gt_err_clear(&err);
    assert_int_equal(gt_cli_parse(5, text, &cli, &err), 0);
    assert_true(cli.all_devices);
    assert_int_equal(stdout_of(&cli, &bundle, out, sizeof out), GT_INSPECT_EXIT_WARN);
    assert_non_null(strstr(out, "== GPU 7 of 8 =="));
    assert_non_null(strstr(out, "WARN  GPU 4 -> GPU 6: 346.7 GB/s, 12% below the median of "
                                "its 56 NV18 pairs (394.0 GB/s)"));
    assert_non_null(strstr(out, "fleet: 8 cards, 0 outliers, 0 busy"));
    assert_non_null(strstr(out, "node: WARN, 8 GPUs: 1 link slower than its type's median, "
                                "0 NVLink without peer access"));
    assert_int_equal(gt_cli_parse(7, json, &cli, &err), 0);
    assert_int_equal(stdout_of(&cli, &bundle, out, sizeof out), GT_INSPECT_EXIT_WARN);
    assert_non_null(o = json_loads(out, 0, &je));
    assert_int_equal(json_integer_value(json_object_get(o, "status")), GT_INSPECT_EXIT_WARN);
    assert_int_equal(json_array_size(json_object_get(o, "cards")), 8);
    assert_string_equal(json_string_value(json_object_get(json_object_get(
                            json_object_get(o, "links"), "verdict"), "status")), "warn");
    json_decref(o);
    /* Prometheus: every card's families once, each link's verdict, the
     * node's status; strict format */
    {
        char *prom[] = {"gputui", "--batch", "--inspect", "-d", "all", "--format",
                        "prometheus", NULL};
        char path[] = "/tmp/gputui-node-XXXXXX", cmd[256];
        int fd;
        FILE *f;
        assert_int_equal(gt_cli_parse(7, prom, &cli, &err), 0);
        assert_int_equal(stdout_of(&cli, &bundle, out, sizeof out), GT_INSPECT_EXIT_WARN);
        assert_non_null(strstr(out, "gputui_node_link_verdict{from=\"4\",to=\"6\",link=\"NV18\""));
        assert_non_null(strstr(out, "\"} 1\ngputui_node_link_verdict{from=\"4\",to=\"7\""));
        assert_non_null(strstr(out, ",gpus=\"8\"} 2\n"));
        assert_non_null(strstr(out, "gputui_inspect_status{gpu=\"7\""));
        assert_true((fd = mkstemp(path)) >= 0);
        assert_non_null(f = fdopen(fd, "w"));
        fputs(out, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "python3 tests/tools/promcheck.py %s", path);
        assert_int_equal(system(cmd), 0);
        unlink(path);
    }
    /* HTML: one page, the verdict, the links' table with the odd cell
     * marked, the cards against each other, then each card */
    {
        char *html[] = {"gputui", "--batch", "--inspect", "-d", "all", "--format", "html",
                        NULL};
        assert_int_equal(gt_cli_parse(7, html, &cli, &err), 0);
        assert_int_equal(stdout_of(&cli, &bundle, out, sizeof out), GT_INSPECT_EXIT_WARN);
        assert_non_null(strstr(out, "node: WARN, 8 GPUs: 1 link slower than its type"));
        assert_non_null(strstr(out, "<table class=\"links\">"));
        assert_non_null(strstr(out, "<td class=\"v-warn\"><span>346.7</span>"));
        assert_non_null(strstr(out, "GPU 4 -&gt; GPU 6: 346.7 GB/s, 12% below the median"));
        assert_non_null(strstr(out, "GPU 7: Fake H200"));
        assert_non_null(strstr(out, "</html>"));
        assert_null(strstr(strstr(out, "<html") + 1, "<html"));      /* one page */
    }
    /* a healthy node */
    odd_from = odd_to = -1;
    assert_int_equal(gt_cli_parse(5, text, &cli, &err), 0);
    assert_int_equal(stdout_of(&cli, &bundle, out, sizeof out), GT_INSPECT_EXIT_PASS);
    assert_non_null(strstr(out, "node: PASS, 8 GPUs: every card passes, every link within a "
                                "tenth of its type"));
    ndev = 2;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(healthy_pair), cmocka_unit_test(faults),
        cmocka_unit_test(json_round_trip), cmocka_unit_test(bad_json),
        cmocka_unit_test(wait_quiet), cmocka_unit_test(second_look),
        cmocka_unit_test(node_names_the_odd_link),
    };
    return cmocka_run_group_tests_name("inspect_run", tests, load, NULL);
}
