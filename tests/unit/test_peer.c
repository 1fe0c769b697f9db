/* Two GPUs and one: the topology (peer choice, NVLink ceiling, JSON), the
 * refusals of every two-GPU part on one GPU, and the peer experiment and
 * --pairs all through a fake back-end with a chosen number of devices. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gputui/base/out.h"

#include "gputui/report/batch.h"
#include "gputui/report/pairs_judge.h"
#include "gputui/input/cli.h"
#include "gputui/engine/engine.h"
#include "experiments/peer/peer.h"
#include "experiments/transfer/transfer.h"
#include "experiments/vmm/vmm.h"
#include "gputui/measure/run.h"
#include "testutil.h"   /* after out.h and experiment.h: their helpers */

/* ---- the fake machine ---- */

static int ndev = 2, access_ok = 1;
static int slow_from = -1, slow_to = -1;    /* a pair whose copies take twice as long */
static _Atomic int setups, teardowns;
static _Atomic uint64_t pairs_seen;     /* bit 4*self + peer of every set-up */
static int pair_of[GT_MAX_DEVICES * GT_MAX_DEVICES];   /* a set-up's state: self*8 + peer */

static void machine(gt_topo *t)
{
    gt_topo_init(t);
    t->count = t->n = ndev;
    for (int i = 0; i < ndev; i++) {
        snprintf(t->dev[i].name, sizeof t->dev[i].name, "Fake GPU");
        snprintf(t->dev[i].pci_bus_id, sizeof t->dev[i].pci_bus_id, "00000000:%02X:00.0", 0x10 + i);
        t->dev[i].mem_total = 80ll << 30;
        for (int j = 0; j < ndev; j++)
            if (i != j)
                t->link[i][j] = (gt_topo_link){(int8_t)access_ok, 1, 18, 6, GT_PATH_SYS};
    }
}

static int p_setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                   gt_err *err)
{
    int peer = gt_peer_device(v, p);
    (void)info;
    if (peer < 0 || peer == p->ordinal) {
        gt_err_set(err, GT_EXIT_USAGE, "fake: no peer");
        return -1;
    }
    pairs_seen |= 1ull << (4 * p->ordinal + peer);
    setups++;
    pair_of[GT_MAX_DEVICES * p->ordinal + peer] = GT_MAX_DEVICES * p->ordinal + peer;
    *st = &pair_of[GT_MAX_DEVICES * p->ordinal + peer];
    return 0;
}

static int p_run(void *st, gt_sample *out, gt_err *err)
{
    int pair = *(int *)st;
    bool slow = pair == GT_MAX_DEVICES * slow_from + slow_to;
    (void)err;
    out[0] = (gt_sample){0, 0, GT_V_FULL, slow ? 2e-3 : 1e-3, 400000000};
    return 1;
}

static void p_teardown(void *st)
{
    if (st)
        teardowns++;
}

/* What a call wrote to standard output (gt_stdout), read back whole. */
static int stdout_of(int (*fn)(const gt_cli *, const gt_backend *), const gt_cli *c,
                     const gt_backend *be, char *out, size_t len)
{
    stdout_capture_t cap = stdout_capture();
    int rc = fn(c, be);

    stdout_captured(cap, out, len);
    return rc;
}

static const gt_exp_ops pops = {.setup = p_setup, .run = p_run, .teardown = p_teardown};
static int f_count(int *n, gt_err *e) { (void)e; *n = ndev; return 0; }
static int f_query(int o, gt_devprops *p, gt_err *e)
{
    (void)e;
    gt_devprops_init(p);
    p->ordinal = o;
    snprintf(p->name, sizeof p->name, "Fake GPU");
    machine(&p->topo);
    gt_dp_set(p, GT_DP_PEERS, access_ok ? ndev - 1 : 0);
    return 0;
}
static void f_refresh(gt_devprops *p) { (void)p; }
static void f_close(void) {}
static const gt_exp_ops *f_ops(const char *n) { return !strcmp(n, "peer") ? &pops : NULL; }
static const gt_backend fake = {.name = "fake", .device_count = f_count, .query = f_query,
                                .open = f_query, .refresh = f_refresh, .close = f_close, .ops = f_ops};

static void props(gt_devprops *p, int self)
{
    f_query(self, p, NULL);
}

/* ---- topology ---- */

static void picks_the_peer(void **state)
{
    gt_topo t;
    gt_topo_link l = {1, 1, 18, 6, GT_PATH_SYS};
    char b[16];
    (void)state;
    ndev = 3, access_ok = 1;
    machine(&t);
    assert_int_equal(gt_topo_pick_peer(&t, 0, -1), 1);
    assert_int_equal(gt_topo_pick_peer(&t, 1, -1), 0);
    assert_int_equal(gt_topo_pick_peer(&t, 0, 2), 2);
    assert_int_equal(gt_topo_pick_peer(&t, 0, 0), -1);     /* itself */
    assert_int_equal(gt_topo_pick_peer(&t, 0, 3), -1);     /* no such GPU */
    t.link[0][1].access = 0;                                /* auto prefers access */
    assert_int_equal(gt_topo_pick_peer(&t, 0, -1), 2);
    ndev = 1;
    machine(&t);
    assert_int_equal(gt_topo_pick_peer(&t, 0, -1), -1);
    /* NVLink 4.0 x18: 25 GB/s a link, one way. */
    assert_near(gt_topo_nvlink_bw(&l), 450e9, 1);
    assert_string_equal(gt_topo_link_short(&l, b, sizeof b), "NV18");
    assert_string_equal(gt_topo_nvlink_name(6), "NVLink 4.0");
    l.nvlinks = 0;
    assert_near(gt_topo_nvlink_bw(&l), 0, 0);
    assert_string_equal(gt_topo_link_short(&l, b, sizeof b), "SYS");
    l.nvlinks = -1, l.path = GT_PATH_UNKNOWN;
    assert_string_equal(gt_topo_link_short(&l, b, sizeof b), "N/A");
    ndev = 2;
}

static void topology_json_round_trip(void **state)
{
    gt_topo t, back;
    gt_topo_line lines[32];
    json_t *o;
    int n;
    (void)state;
    ndev = 2, access_ok = 1;
    machine(&t);
    t.link[1][0].atomics = -1;
    t.link[1][0].path = GT_PATH_PXB;
    o = gt_topo_json(&t);
    gt_topo_read(o, &back);
    json_decref(o);
    assert_int_equal(back.count, 2);
    assert_int_equal(back.n, 2);
    assert_string_equal(back.dev[1].pci_bus_id, "00000000:11:00.0");
    assert_true(back.dev[0].mem_total == 80ll << 30);
    assert_int_equal(back.link[0][1].access, 1);
    assert_int_equal(back.link[0][1].nvlinks, 18);
    assert_int_equal(back.link[0][1].nvlink_ver, 6);
    assert_int_equal(back.link[1][0].atomics, -1);
    assert_int_equal(back.link[1][0].path, GT_PATH_PXB);
    /* A recording made before topologies: nothing known. */
    gt_topo_read(NULL, &back);
    assert_int_equal(back.count, 0);
    /* Every GPU and every ordered pair is listed, the current one marked. */
    n = gt_topo_lines(&t, 1, lines, 32);
    assert_true(n >= 6);
    assert_non_null(strstr(lines[2], "GPU 1*"));
    assert_non_null(strstr(lines[4], "0->1 NV18"));
    assert_non_null(strstr(lines[5], "NVLink 4.0 x18: 450 GB/s"));
}

/* ---- refusals ---- */

static void one_gpu_refuses_every_two_gpu_part(void **state)
{
    gt_devprops p;
    int64_t v[GT_MAX_PARAMS];
    char msg[512];
    (void)state;
    ndev = 1, access_ok = 0;
    props(&p, 0);
    gt_experiment_defaults(&gt_exp_peer, v);
    assert_refused(&gt_exp_peer, v, &p, "needs two GPUs; this machine has one");
    gt_experiment_defaults(&gt_exp_transfer, v);
    v[GT_TR_OWNER] = GT_OWNER_OTHER;
    assert_refused(&gt_exp_transfer, v, &p, "alloc-on: other needs a second GPU");
    v[GT_TR_HOST] = GT_HOST_PAGEABLE;      /* does not apply: nothing to refuse */
    assert_int_equal(gt_experiment_check(&gt_exp_transfer, v, &p, msg, sizeof msg), 0);
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_PEER] = GT_VMM_PEER_RW;
    assert_refused(&gt_exp_vmm, v, &p, "needs two GPUs");
    v[GT_VMM_OP] = GT_VMM_OP_PEER;
    v[GT_VMM_PEER] = GT_VMM_PEER_OFF;
    assert_refused(&gt_exp_vmm, v, &p, "op=peer");
    ndev = 2, access_ok = 1;
}

static void two_gpus_check_the_pair(void **state)
{
    gt_devprops p;
    int64_t v[GT_MAX_PARAMS];
    char msg[512], label[64];
    double f;
    (void)state;
    ndev = 2, access_ok = 1;
    props(&p, 0);
    gt_experiment_defaults(&gt_exp_peer, v);
    assert_int_equal(gt_experiment_check(&gt_exp_peer, v, &p, msg, sizeof msg), 0);
    assert_int_equal(gt_peer_device(v, &p), 1);
    v[GT_PE_PEER] = 1 + 0;                  /* itself */
    assert_refused(&gt_exp_peer, v, &p, "peer: 0 is the GPU the experiment runs on; allowed "
                   "here: auto, 1");
    v[GT_PE_PEER] = 1 + 5;
    assert_refused(&gt_exp_peer, v, &p, "peer: 5 is not a device of this machine");
    v[GT_PE_PEER] = GT_PE_AUTO;
    v[GT_PE_ENGINE] = GT_PE_SM;
    v[GT_PE_ACCESS] = GT_PE_ACCESS_OFF;
    assert_refused(&gt_exp_peer, v, &p, "engine=sm reaches the peer's memory from a kernel");
    v[GT_PE_ENGINE] = GT_PE_CE;
    assert_int_equal(gt_experiment_check(&gt_exp_peer, v, &p, msg, sizeof msg), 0);
    v[GT_PE_MEASURE] = GT_PE_LATENCY;
    assert_refused(&gt_exp_peer, v, &p, "measure=latency");
    /* The NVLink ceiling, and PCIe when the copy is staged. */
    gt_experiment_defaults(&gt_exp_peer, v);
    f = gt_experiment_ceiling(&gt_exp_peer, v, 0, &p, &(double){0}, label, sizeof label);
    assert_near(f, 450e9, 1);
    assert_string_equal(label, "NVLink 4.0 x18");
    v[GT_PE_ACCESS] = GT_PE_ACCESS_OFF;
    gt_experiment_ceiling(&gt_exp_peer, v, 0, &p, &(double){0}, label, sizeof label);
    assert_non_null(strstr(label, "PCIe"));
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_PEER;
    v[GT_VMM_PEER] = GT_VMM_PEER_RW;
    f = gt_experiment_ceiling(&gt_exp_vmm, v, 0, &p, &(double){0}, label, sizeof label);
    assert_near(f, 450e9, 1);
    assert_string_equal(label, "NVLink 4.0 x18");
    /* Without NVML the link is not known: no ceiling rather than a guess. */
    p.topo.link[0][1].nvlinks = -1;
    p.topo.link[0][1].nvlink_ver = 0;
    gt_experiment_defaults(&gt_exp_peer, v);
    assert_near(gt_experiment_ceiling(&gt_exp_peer, v, 0, &p, &(double){0}, label, sizeof label),
                0, 0);
    assert_string_equal(label, "link N/A (no NVML)");
    props(&p, 0);
    /* No peer access between them: only staged copies. */
    access_ok = 0;
    props(&p, 0);
    gt_experiment_defaults(&gt_exp_peer, v);
    assert_refused(&gt_exp_peer, v, &p, "allowed here: access=off with engine=ce");
    v[GT_PE_ACCESS] = GT_PE_ACCESS_OFF;
    assert_int_equal(gt_experiment_check(&gt_exp_peer, v, &p, msg, sizeof msg), 0);
    access_ok = 1;
    /* Series: both directions name both copies. */
    {
        const char *names[GT_MAX_SERIES];
        gt_experiment_defaults(&gt_exp_peer, v);
        v[GT_PE_DIR] = GT_PE_BOTH;
        assert_int_equal(gt_exp_peer.series(v, names), 2);
        assert_string_equal(names[1], "peer reads this");
        gt_experiment_defaults(&gt_exp_vmm, v);
        v[GT_VMM_PEER] = GT_VMM_PEER_RW;
        assert_int_equal(gt_exp_vmm.series(v, names), GT_VMM_NALLOC_SERIES);
        v[GT_VMM_PEER] = GT_VMM_PEER_OFF;
        assert_int_equal(gt_exp_vmm.series(v, names), GT_VMM_NALLOC_SERIES - 1);
    }
}

/* ---- through the engine and --pairs all ---- */

static void engine_runs_the_pair_and_refuses_one_gpu(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    int64_t v[GT_MAX_PARAMS];
    gt_sample buf[64];
    (void)state;
    ndev = 2, access_ok = 1, setups = teardowns = pairs_seen = 0;
    gt_experiment_defaults(&gt_exp_peer, v);
    assert_int_equal(gt_engine_start(&e, &fake, 1, &err), 0);
    gt_engine_configure(e, &gt_exp_peer, v);
    for (int i = 0; i < 2000 && !setups; i++) {
        poll(NULL, 0, 2);
        gt_engine_drain(e, buf, 64);
    }
    gt_engine_stop(e);
    assert_int_equal(setups, 1);
    assert_int_equal(teardowns, 1);
    assert_int_equal(pairs_seen, 1ull << (4 * 1 + 0));  /* device 1 with peer 0 */

    ndev = 1, setups = 0;
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    gt_engine_configure(e, &gt_exp_peer, v);
    for (int i = 0; i < 2000; i++) {
        poll(NULL, 0, 2);
        gt_engine_status(e, &st);
        if (st.state == GT_ST_ERROR)
            break;
    }
    gt_engine_stop(e);
    assert_int_equal(st.state, GT_ST_ERROR);
    assert_non_null(strstr(st.msg, "needs two GPUs"));
    assert_int_equal(setups, 0);
    ndev = 2;
}

static int parse(gt_cli *c, gt_err *e, const char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = "gputui";
    for (; *args; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    gt_err_clear(e);
    return gt_cli_parse(argc, argv, c, e);
}

static void pairs_measures_every_ordered_pair(void **state)
{
    static const char *const ok[] = {"--batch", "-e", "peer", "--pairs", "all", "--samples",
                                     "5", NULL};
    static const char *const other[] = {"--batch", "-e", "transfer", "--pairs", "all", NULL};
    static const char *const peer[] = {"--batch", "-e", "peer", "--pairs", "all", "--peer", "1",
                                       NULL};
    static const char *const tui[] = {"-e", "peer", "--pairs", "all", NULL};
    gt_cli c;
    gt_err e;
    FILE *saved;
    (void)state;
    assert_int_equal(parse(&c, &e, other), -1);
    assert_non_null(strstr(e.msg, "with another experiment"));
    assert_int_equal(parse(&c, &e, peer), -1);
    assert_non_null(strstr(e.msg, "with --peer"));
    assert_int_equal(parse(&c, &e, tui), -1);
    assert_non_null(strstr(e.msg, "--pairs applies only with --batch"));
    assert_int_equal(parse(&c, &e, ok), 0);
    assert_true(c.pairs);

    ndev = 3, access_ok = 1, pairs_seen = 0;
    saved = stdout;
    stdout = fopen("/dev/null", "w");
    assert_int_equal(gt_batch_pairs(&c, &fake), GT_EXIT_OK);
    fclose(stdout);
    stdout = saved;
    /* 0->1, 0->2, 1->0, 1->2, 2->0, 2->1 */
    assert_int_equal(pairs_seen, (1 << 1) | (1 << 2) | (1 << 4) | (1 << 6) | (1 << 8) | (1 << 9));
    ndev = 1;
    assert_int_equal(gt_batch_pairs(&c, &fake), GT_EXIT_USAGE);
    ndev = 2;
}

/* ---- the matrix judged ---- */

/* Eight GPUs joined by NVLink 4.0 x18, every pair at 392.8 GB/s or 830 ns
 * but one. */
static void eight(gt_topo *t, double m[GT_MAX_DEVICES][GT_MAX_DEVICES], double x)
{
    ndev = 8, access_ok = 1;
    machine(t);
    for (int i = 0; i < GT_MAX_DEVICES; i++)
        for (int j = 0; j < GT_MAX_DEVICES; j++)
            m[i][j] = i == j ? NAN : x;
}

static void judge_names_the_odd_link(void **state)
{
    double m[GT_MAX_DEVICES][GT_MAX_DEVICES];
    gt_pairs_verdict v;
    gt_topo t;
    char b[256];
    int odd = -1;
    (void)state;

    eight(&t, m, 392.8e9);
    gt_pairs_judge(&t, 8, m, false, &v);
    assert_int_equal(v.n, 56);
    assert_int_equal(v.worst, GT_PV_PASS);
    /* 12% below the others: a warning that names the pair and its link */
    m[3][5] = 345.0e9;
    gt_pairs_judge(&t, 8, m, false, &v);
    assert_int_equal(v.worst, GT_PV_WARN);
    assert_int_equal(v.warn, 1);
    for (int k = 0; k < v.n; k++)
        if (v.p[k].level == GT_PV_WARN)
            odd = k;
    assert_int_equal(v.p[odd].from, 3);
    assert_int_equal(v.p[odd].to, 5);
    assert_string_equal(gt_pair_judged_text(&v.p[odd], false, b, sizeof b),
                        "GPU 3 -> GPU 5: 345.0 GB/s, 12% below the median of its 56 NV18 pairs "
                        "(392.8 GB/s)");
    /* 8% below is within the tenth */
    m[3][5] = 362.0e9;
    gt_pairs_judge(&t, 8, m, false, &v);
    assert_int_equal(v.worst, GT_PV_PASS);

    /* latency: higher is worse */
    eight(&t, m, 830e-9);
    m[6][1] = 1000e-9;
    gt_pairs_judge(&t, 8, m, true, &v);
    assert_int_equal(v.warn, 1);
    for (int k = 0; k < v.n; k++)
        if (v.p[k].level == GT_PV_WARN)
            assert_true(v.p[k].from == 6 && v.p[k].to == 1);
    m[6][1] = 700e-9;                      /* faster than the rest: no warning */
    gt_pairs_judge(&t, 8, m, true, &v);
    assert_int_equal(v.worst, GT_PV_PASS);

    /* NVLink by the topology, no peer access, not measured: a failure */
    eight(&t, m, 392.8e9);
    t.link[2][7].access = 0;
    m[2][7] = NAN;
    gt_pairs_judge(&t, 8, m, false, &v);
    assert_int_equal(v.worst, GT_PV_FAIL);
    assert_int_equal(v.fail, 1);
    for (int k = 0; k < v.n; k++)
        if (v.p[k].level == GT_PV_FAIL)
            assert_non_null(strstr(gt_pair_judged_text(&v.p[k], false, b, sizeof b),
                                   "GPU 2 -> GPU 7: no peer access, though the topology joins "
                                   "them by NVLink (NV18)"));
    /* ... but over PCIe alone, a pair without access is not a fault */
    t.link[2][7].nvlinks = 0;
    gt_pairs_judge(&t, 8, m, false, &v);
    assert_int_equal(v.worst, GT_PV_PASS);

    /* two GPUs: two pairs of a link, too few to compare */
    eight(&t, m, 392.8e9);
    m[0][1] = 100e9;
    gt_pairs_judge(&t, 2, m, false, &v);
    assert_int_equal(v.n, 2);
    assert_int_equal(v.worst, GT_PV_PASS);
    assert_int_equal(v.p[0].level, GT_PV_ALONE);
    ndev = 2;
}

/* --pairs all on a fake node of eight GPUs, one of its 56 links half as
 * fast: the matrix names it and exits 2. */
static void pairs_all_warns_of_a_slow_link(void **state)
{
    static const char *const args[] = {"--batch", "-e", "peer", "--pairs", "all", "--samples",
                                       "3", NULL};
    static const char *const json[] = {"--batch", "-e", "peer", "--pairs", "all", "--samples",
                                       "3", "--format", "json", NULL};
    static char out[1 << 16];
    gt_cli c;
    gt_err e;
    json_t *o;
    json_error_t je;
    (void)state;

    assert_int_equal(parse(&c, &e, args), 0);
    ndev = 8, access_ok = 1, slow_from = 4, slow_to = 6;
    assert_int_equal(stdout_of(gt_batch_pairs, &c, &fake, out, sizeof out), GT_EXIT_WARN);
    assert_non_null(strstr(out, "WARN  GPU 4 -> GPU 6: 200.0 GB/s, 50% below the median of "
                                "its 56 NV18 pairs (400.0 GB/s)"));
    assert_non_null(strstr(out, "verdict: WARN (1 pair slower"));
    assert_int_equal(parse(&c, &e, json), 0);
    assert_int_equal(stdout_of(gt_batch_pairs, &c, &fake, out, sizeof out), GT_EXIT_WARN);
    assert_non_null(o = json_loads(out, 0, &je));
    assert_string_equal(json_string_value(json_object_get(json_object_get(o, "verdict"),
                                                          "status")), "warn");
    json_decref(o);
    /* healthy: every pair the same */
    slow_from = slow_to = -1;
    assert_int_equal(parse(&c, &e, args), 0);
    assert_int_equal(stdout_of(gt_batch_pairs, &c, &fake, out, sizeof out), GT_EXIT_OK);
    assert_non_null(strstr(out, "verdict: PASS (56 pairs, each within 10% of the median of its "
                                "link type)"));
    ndev = 2;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(picks_the_peer),
        cmocka_unit_test(topology_json_round_trip),
        cmocka_unit_test(one_gpu_refuses_every_two_gpu_part),
        cmocka_unit_test(two_gpus_check_the_pair),
        cmocka_unit_test(engine_runs_the_pair_and_refuses_one_gpu),
        cmocka_unit_test(pairs_measures_every_ordered_pair),
        cmocka_unit_test(judge_names_the_odd_link),
        cmocka_unit_test(pairs_all_warns_of_a_slow_link),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
