/* Two GPUs and one: the topology (peer choice, NVLink ceiling, JSON), the
 * refusals of every two-GPU part on one GPU, and the peer experiment and
 * --pairs all through a fake back-end with a chosen number of devices. */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/report/batch.h"
#include "gputui/input/cli.h"
#include "gputui/engine/engine.h"
#include "experiments/peer/peer.h"
#include "experiments/transfer/transfer.h"
#include "experiments/vmm/vmm.h"
#include "gputui/measure/run.h"

/* ---- the fake machine ---- */

static int ndev = 2, access_ok = 1;
static _Atomic int setups, teardowns;
static _Atomic int pairs_seen;          /* bit 4*self + peer of every set-up */

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
    pairs_seen |= 1 << (4 * p->ordinal + peer);
    setups++;
    *st = (void *)&setups;
    return 0;
}

static int p_run(void *st, gt_sample *out, gt_err *err)
{
    (void)st, (void)err;
    out[0] = (gt_sample){0, 0, GT_V_FULL, 1e-3, 400000000};
    return 1;
}

static void p_teardown(void *st)
{
    if (st)
        teardowns++;
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

static void expect_refusal(const gt_experiment *e, const int64_t *v, const gt_devprops *p,
                           const char *want)
{
    char msg[512];
    if (!gt_experiment_check(e, v, p, msg, sizeof msg))
        fail_msg("%s: accepted, expected a refusal containing '%s'", e->name, want);
    if (!strstr(msg, want))
        fail_msg("%s: '%s' does not contain '%s'", e->name, msg, want);
}

static void one_gpu_refuses_every_two_gpu_part(void **state)
{
    gt_devprops p;
    int64_t v[GT_MAX_PARAMS];
    char msg[512];
    (void)state;
    ndev = 1, access_ok = 0;
    props(&p, 0);
    gt_experiment_defaults(&gt_exp_peer, v);
    expect_refusal(&gt_exp_peer, v, &p, "needs two GPUs; this machine has one");
    gt_experiment_defaults(&gt_exp_transfer, v);
    v[GT_TR_OWNER] = GT_OWNER_OTHER;
    expect_refusal(&gt_exp_transfer, v, &p, "alloc-on: other needs a second GPU");
    v[GT_TR_HOST] = GT_HOST_PAGEABLE;      /* does not apply: nothing to refuse */
    assert_int_equal(gt_experiment_check(&gt_exp_transfer, v, &p, msg, sizeof msg), 0);
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_PEER] = GT_VMM_PEER_RW;
    expect_refusal(&gt_exp_vmm, v, &p, "needs two GPUs");
    v[GT_VMM_OP] = GT_VMM_OP_PEER;
    v[GT_VMM_PEER] = GT_VMM_PEER_OFF;
    expect_refusal(&gt_exp_vmm, v, &p, "op=peer");
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
    expect_refusal(&gt_exp_peer, v, &p, "peer: 0 is the GPU the experiment runs on; allowed "
                   "here: auto, 1");
    v[GT_PE_PEER] = 1 + 5;
    expect_refusal(&gt_exp_peer, v, &p, "peer: 5 is not a device of this machine");
    v[GT_PE_PEER] = GT_PE_AUTO;
    v[GT_PE_ENGINE] = GT_PE_SM;
    v[GT_PE_ACCESS] = GT_PE_ACCESS_OFF;
    expect_refusal(&gt_exp_peer, v, &p, "engine=sm reaches the peer's memory from a kernel");
    v[GT_PE_ENGINE] = GT_PE_CE;
    assert_int_equal(gt_experiment_check(&gt_exp_peer, v, &p, msg, sizeof msg), 0);
    v[GT_PE_MEASURE] = GT_PE_LATENCY;
    expect_refusal(&gt_exp_peer, v, &p, "measure=latency");
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
    expect_refusal(&gt_exp_peer, v, &p, "allowed here: access=off with engine=ce");
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
    assert_int_equal(pairs_seen, 1 << (4 * 1 + 0));    /* device 1 with peer 0 */

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(picks_the_peer),
        cmocka_unit_test(topology_json_round_trip),
        cmocka_unit_test(one_gpu_refuses_every_two_gpu_part),
        cmocka_unit_test(two_gpus_check_the_pair),
        cmocka_unit_test(engine_runs_the_pair_and_refuses_one_gpu),
        cmocka_unit_test(pairs_measures_every_ordered_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
