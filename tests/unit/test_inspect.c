/* The inspection card (card.h): a healthy H200's facts pass; each fault
 * the back-end can report (a downtrained link, slow H2D, rising replays, a
 * throttle reason, an ECC error, a failed row remap, an NVLink down) gets
 * its verdict and exit status; thresholds are read from the shipped file
 * and bad ones are refused by name; the writers' output parses (JSON,
 * CSV, and the Prometheus text format through tests/tools/promcheck.py). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "gputui/inspect/card.h"

#include "testutil.h"

static gt_thresholds th;

static int load(void **state)
{
    gt_err err;

    (void)state;
    gt_err_clear(&err);
    if (gt_thresholds_load(&th, "share/gputui/inspect.json", &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static void healthy_gpu(gt_health *h)
{
    gt_health_init(h);
    h->nvml = true;
    h->pcie_gen = h->pcie_gen_max = 5;
    h->pcie_width = h->pcie_width_max = 16;
    h->pcie_replays = 0;
    h->ecc_on = 1;
    h->ecc_vol_corr = h->ecc_vol_unc = h->ecc_agg_corr = h->ecc_agg_unc = 0;
    h->retired_sbe = h->retired_dbe = -1;   /* Hopper remaps rows */
    h->remap_corr = h->remap_unc = 0;
    h->remap_pending = h->remap_failed = 0;
    h->sm_clock = 1980;
    h->sm_clock_max = 1980;
    h->mem_clock = 3201;
    h->reasons_known = true;
    h->reasons = 0;
    h->temp = 40;
    h->temp_slowdown = 90;
    h->power = 300;
    h->power_limit = h->power_default_limit = 600;
    h->nvlinks = 18;
    h->nvlinks_up = 18;
    h->persistence = 1;
    h->mig = 0;
    h->compute_mode = 0;
    snprintf(h->driver, sizeof h->driver, "580.159.04");
    h->numa_node = 0;
    h->near_cpus = 1;
    snprintf(h->affinity, sizeof h->affinity, "0-47");
}

/* An H200 measured as gputui measured one (README figures). */
static void healthy(gt_inspect_facts *f)
{
    gt_inspect_facts_init(f);
    healthy_gpu(&f->before);
    f->before.nvlinks = f->before.nvlinks_up = 0;
    f->after = f->during = f->before;
    f->during_known = true;
    f->pcie_ceiling = 63.0e9;
    snprintf(f->pcie_label, sizeof f->pcie_label, "PCIe Gen5 x16");
    f->h2d = f->h2d_ref = 54.5e9;
    f->d2h = f->d2h_ref = 55.2e9;
    f->bidir = f->bidir_ref = 98.0e9;
    f->d2d = f->d2d_ref = 1.995e12;
    f->d2d_peak = 2.407e12;
    f->host_lat = f->host_lat_ref = 1.2e-6;
    f->pattern_errors = 0;
    f->pattern_copies = 40;
    f->pattern_bytes = 256.0 * (1 << 20);
    f->others = 0;
    f->cuda_driver = f->cuda_runtime = 13000;
    snprintf(f->ref_name, sizeof f->ref_name, "h200");
}

static void healthy_passes(void **state)
{
    gt_inspect_facts f;
    gt_inspect_card c = {0};
    (void)state;
    healthy(&f);
    gt_inspect_build(&c, &f, &th);
    for (int i = 0; i < c.nrows; i++)
        if (c.row[i].verdict != GT_IV_PASS && strcmp(c.row[i].id, "mem.retired"))
            fail_msg("%s: %s (%s)", c.row[i].id, gt_iverdict_name(c.row[i].verdict),
                     c.row[i].reason);
    assert_int_equal(card_row(&c, "mem.retired")->verdict, GT_IV_CANNOT);
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_PASS);
    assert_true(strstr(card_row(&c, "pcie.h2d")->expect, "80% of PCIe Gen5 x16 63.0 GB/s") != NULL);
}

/* One fault each: the row it lands on, its verdict, the exit status. */
typedef struct fault {
    const char *name, *row;
    gt_iverdict verdict;
    int status;
} fault;

static void inject(int k, gt_inspect_facts *f)
{
    switch (k) {
    case 0:                                         /* Gen5 x16 running at Gen3 x8 */
        f->during.pcie_gen = 3;
        f->during.pcie_width = 8;
        f->h2d = f->d2h = 12.5e9;                   /* and its copies with it */
        f->bidir = 24e9;
        break;
    case 1: f->h2d *= 0.8; break;                   /* H2D 20% slow */
    case 2: f->after.pcie_replays = 7; break;       /* replays rising */
    case 3: f->during.reasons = GT_THR_HW_SLOWDOWN; break;
    case 4: f->after.ecc_vol_unc = 1; break;        /* an uncorrected ECC error */
    case 5: f->after.remap_failed = 1; break;       /* a row remap failed */
    case 6:                                         /* an NVLink down */
        f->after.nvlinks = 18;
        f->after.nvlinks_up = 17;
        break;
    case 7: f->during.reasons = GT_THR_SW_POWER; break;
    case 8: f->after.remap_pending = 1; break;
    case 9: f->pattern_errors = 3; break;
    case 10: f->d2d = 0.8 * f->d2d_ref; break;       /* memory 20% slow for its model */
    }
}

static void faults(void **state)
{
    static const fault table[] = {
        {"Gen5 x16 link at Gen3 x8", "pcie.link", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {"H2D 20% slow", "pcie.h2d", GT_IV_WARN, GT_INSPECT_EXIT_WARN},
        {"replay counter rising", "pcie.replays", GT_IV_WARN, GT_INSPECT_EXIT_WARN},
        {"HW slowdown", "clk.reasons", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {"uncorrected ECC error", "mem.ecc_unc", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {"row remap failed", "mem.remap", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {"NVLink down", "peer.nvlink", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {"power cap", "clk.reasons", GT_IV_WARN, GT_INSPECT_EXIT_WARN},
        {"row remap pending", "mem.remap", GT_IV_WARN, GT_INSPECT_EXIT_WARN},
        {"pattern errors", "mem.pattern", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
        {"D2D 20% below the model", "mem.d2d_ref", GT_IV_FAIL, GT_INSPECT_EXIT_FAIL},
    };
    (void)state;
    for (int k = 0; k < (int)(sizeof table / sizeof *table); k++) {
        gt_inspect_facts f;
        gt_inspect_card c = {0};
        const gt_inspect_row *r;
        healthy(&f);
        inject(k, &f);
        gt_inspect_build(&c, &f, &th);
        r = card_row(&c, table[k].row);
        if (r->verdict != table[k].verdict || gt_inspect_status(&c) != table[k].status)
            fail_msg("%s: %s is %s (%s), status %d; wanted %s, %d", table[k].name, r->id,
                     gt_iverdict_name(r->verdict), r->reason, gt_inspect_status(&c),
                     gt_iverdict_name(table[k].verdict), table[k].status);
        assert_true(r->reason[0] != '\0');
    }
}

/* Read while idle, the link's state says nothing; without NVML every
 * health row says it cannot tell, and why. */
static void idle_and_unknown(void **state)
{
    gt_inspect_facts f;
    gt_inspect_card c = {0};
    (void)state;
    healthy(&f);
    f.during_known = false;
    f.after.pcie_gen = 1;
    gt_inspect_build(&c, &f, &th);
    assert_int_equal(card_row(&c, "pcie.link")->verdict, GT_IV_CANNOT);
    assert_true(strstr(card_row(&c, "pcie.link")->reason, "idle") != NULL);

    healthy(&f);
    gt_health_init(&f.before);
    snprintf(f.before.note, sizeof f.before.note, "NVML not found (libnvidia-ml.so.1)");
    f.during = f.after = f.before;
    f.others = -1;
    gt_inspect_build(&c, &f, &th);
    assert_int_equal(card_row(&c, "mem.ecc")->verdict, GT_IV_CANNOT);
    assert_string_equal(card_row(&c, "clk.reasons")->reason, "NVML not found (libnvidia-ml.so.1)");
    assert_int_equal(card_row(&c, "sw.others")->verdict, GT_IV_CANNOT);
    assert_int_equal(card_row(&c, "pcie.h2d")->verdict, GT_IV_PASS);     /* measured all the same */
}

static void bad_thresholds(void **state)
{
    static const struct { const char *text, *says; } bad[] = {
        {"{}", "no \"thresholds\" object"},
        {"{\"thresholds\": {\"x\": {\"of\": \"sky\", \"warn_below\": 1, \"reason\": \"r\", "
         "\"source\": \"s\"}}}", "\"of\" must be one of ceiling, reference, max, value"},
        {"{\"thresholds\": {\"x\": {\"of\": \"value\", \"warn_below\": 1}}}",
         "needs a \"reason\" and a \"source\""},
        {"{\"thresholds\": {\"x\": {\"of\": \"value\", \"reason\": \"r\", \"source\": \"s\"}}}",
         "has no bound"},
        {"{\"thresholds\": {\"x\": {\"of\": \"value\", \"warn_belo\": 1, \"reason\": \"r\", "
         "\"source\": \"s\"}}}", "unknown key \"warn_belo\""},
        {"{\"thresholds\": {\"x\": {\"of\": \"value\", \"warn_below\": \"1\", \"reason\": \"r\", "
         "\"source\": \"s\"}}}", "\"warn_below\" must be a number"},
        {"{\"thresholds\": ", "t.json:1:"},
    };
    gt_thresholds t;
    gt_err err;
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        gt_err_clear(&err);
        assert_int_equal(gt_thresholds_parse(&t, bad[i].text, "t.json", &err), -1);
        if (!strstr(err.msg, bad[i].says))
            fail_msg("'%s': '%s' does not say '%s'", bad[i].text, err.msg, bad[i].says);
    }
    /* Every threshold the card uses is in the shipped file. */
    {
        gt_inspect_facts f;
        gt_inspect_card c = {0};
        healthy(&f);
        f.npeers = 1;
        f.peer[0] = (gt_peer_fact){0, 1, 700e9, 900e9, "NVLink x18"};
        gt_inspect_build(&c, &f, &th);
        for (int i = 0; i < c.nrows; i++)
            assert_true(strstr(c.row[i].reason, "no threshold") == NULL);
    }
}

/* Another program's work: a row it disturbed is busy, never WARN or FAIL;
 * one a few samples of which it disturbed is judged by the clean ones; a
 * fault of the hardware's own still fails; an idle neighbour passes. */
static void busy_rows(void **state)
{
    const char *who = "pid 4242 nvbandwidth (512 MiB): moving 54.1 GB/s on the link";
    gt_inspect_facts f;
    gt_inspect_card c = {0};
    const gt_inspect_row *r;
    (void)state;

    healthy(&f);
    inject(1, &f);                              /* H2D 20% below: what a neighbour does */
    f.h2d_busy = f.d2h_busy = 1.0;
    f.others = 1;
    snprintf(f.others_text, sizeof f.others_text, "pid 4242 nvbandwidth (512 MiB)");
    snprintf(f.neighbour, sizeof f.neighbour, "%s", who);
    snprintf(f.counters, sizeof f.counters, "NVML PCIe throughput");
    gt_inspect_build(&c, &f, &th);
    r = card_row(&c, "pcie.h2d");
    assert_int_equal(r->verdict, GT_IV_BUSY);
    assert_non_null(strstr(r->reason, "busy: cannot judge"));
    assert_non_null(strstr(r->reason, "nvbandwidth"));
    assert_int_equal(card_row(&c, "pcie.d2h")->verdict, GT_IV_BUSY);
    assert_int_equal(card_row(&c, "pcie.bidir")->verdict, GT_IV_PASS);
    r = card_row(&c, "sw.others");
    assert_int_equal(r->verdict, GT_IV_BUSY);
    assert_non_null(strstr(r->reason, "2 rows not judged"));
    assert_non_null(strstr(r->reason, "--wait-quiet"));
    for (int i = 0; i < c.nrows; i++)
        if (c.row[i].verdict == GT_IV_FAIL || c.row[i].verdict == GT_IV_WARN)
            fail_msg("%s: %s beside a neighbour", c.row[i].id, gt_iverdict_name(c.row[i].verdict));
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_BUSY);
    assert_true(gt_inspect_busy(&c));

    /* A few disturbed samples: the clean ones judge, and the row says so. */
    f.h2d_busy = 0.2;
    f.d2h_busy = 0;
    gt_inspect_build(&c, &f, &th);
    r = card_row(&c, "pcie.h2d");
    assert_int_equal(r->verdict, GT_IV_WARN);
    assert_non_null(strstr(r->reason, "from its clean samples (20%"));
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_WARN);

    /* Busy, and an uncorrected ECC error: the failure stands. */
    f.h2d_busy = 1.0;
    inject(4, &f);
    gt_inspect_build(&c, &f, &th);
    assert_int_equal(card_row(&c, "pcie.h2d")->verdict, GT_IV_BUSY);
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_FAIL);

    /* A power cap under a neighbour's load is busy; a hardware slowdown
     * still fails. */
    healthy(&f);
    inject(7, &f);
    f.d2d_sm_busy = 1.0;
    gt_inspect_build(&c, &f, &th);
    assert_int_equal(card_row(&c, "clk.reasons")->verdict, GT_IV_BUSY);
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_BUSY);
    inject(3, &f);
    gt_inspect_build(&c, &f, &th);
    assert_int_equal(card_row(&c, "clk.reasons")->verdict, GT_IV_FAIL);

    /* A copy to a peer beside a neighbour. */
    healthy(&f);
    f.npeers = 1;
    f.peer[0] = (gt_peer_fact){.a = 0, .b = 1, .bw = 200e9, .ceiling = 900e9,
                               .link = "NVLink x18", .busy = 0.9};
    gt_inspect_build(&c, &f, &th);
    assert_int_equal(card_row(&c, "peer.bw")->verdict, GT_IV_BUSY);

    /* A neighbour that held a context and did nothing. */
    healthy(&f);
    f.others = 1;
    snprintf(f.others_text, sizeof f.others_text, "pid 77 python (1.0 GiB)");
    gt_inspect_build(&c, &f, &th);
    r = card_row(&c, "sw.others");
    assert_int_equal(r->verdict, GT_IV_PASS);
    assert_non_null(strstr(r->reason, "idle"));
    assert_int_equal(gt_inspect_status(&c), GT_INSPECT_EXIT_PASS);
}

static void card(gt_inspect_card *c)
{
    gt_inspect_facts f;

    healthy(&f);
    inject(1, &f);
    f.npeers = 2;
    f.peer[0] = (gt_peer_fact){0, 1, 700e9, 900e9, "NVLink x18"};
    f.peer[1] = (gt_peer_fact){1, 0, 690e9, 900e9, "NVLink x18"};
    memset(c, 0, sizeof *c);
    snprintf(c->device, sizeof c->device, "NVIDIA H200 \"test\"");
    snprintf(c->uuid, sizeof c->uuid, "GPU-0000");
    snprintf(c->host, sizeof c->host, "node\\7");
    c->wall_s = 21.5;
    gt_inspect_build(c, &f, &th);
}

static void writers(void **state)
{
    gt_inspect_card c;
    char path[] = "/tmp/gputui-inspect-XXXXXX", cmd[256];
    json_error_t je;
    json_t *j;
    FILE *f;
    int fd;
    (void)state;
    card(&c);
    /* JSON: the rows, their verdicts, the status. */
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_int_equal(gt_inspect_print_json(f, &c), 0);
    fclose(f);
    j = json_load_file(path, 0, &je);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "status")), GT_INSPECT_EXIT_WARN);
    assert_int_equal(json_array_size(json_object_get(j, "rows")), (size_t)c.nrows);
    json_decref(j);
    /* Prometheus: strict format check. */
    f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(gt_inspect_print_prometheus(f, &c), 0);
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 tests/tools/promcheck.py %s", path);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "grep -q '^gputui_inspect_busy{.*} 0$' %s", path);
    assert_int_equal(system(cmd), 0);
    /* ... and the checker refuses a broken file. */
    f = fopen(path, "a");
    fputs("gputui_inspect_status{gpu=\"0\" 3\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "python3 tests/tools/promcheck.py %s >/dev/null", path);
    assert_int_not_equal(system(cmd), 0);
    /* CSV: a header and a line per row. */
    f = fopen(path, "w");
    assert_int_equal(gt_inspect_print_csv(f, &c), 0);
    fclose(f);
    {
        char line[1024];
        int n = 0;
        f = fopen(path, "r");
        while (fgets(line, sizeof line, f))
            n++;
        fclose(f);
        assert_int_equal(n, c.nrows + 1);
    }
    /* Text: every row's name and the summary. */
    f = fopen(path, "w");
    assert_int_equal(gt_inspect_print_text(f, &c), 0);
    fclose(f);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(healthy_passes), cmocka_unit_test(faults),
        cmocka_unit_test(idle_and_unknown), cmocka_unit_test(bad_thresholds),
        cmocka_unit_test(writers), cmocka_unit_test(busy_rows),
    };
    return cmocka_run_group_tests(tests, load, NULL);
}
