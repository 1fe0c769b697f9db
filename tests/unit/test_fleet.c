/* gputui --fleet (fleet.h): 50 synthetic inspection cards of two models,
 * written as --inspect writes them, with two outliers (one host's H2D 20%
 * slow, another's failed ECC row) named, and no other; a file that is no
 * card is an outlier too; bad paths are refused by name. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "gputui/inspect/fleet.h"

static gt_thresholds th;
static char dir[64], base[64];

static int setup(void **state)
{
    gt_err err;

    (void)state;
    gt_err_clear(&err);
    snprintf(base, sizeof base, "/tmp/gputui-fleet-XXXXXX");
    if (!mkdtemp(base) || gt_thresholds_load(&th, "share/gputui/inspect.json", &err))
        return -1;
    return 0;
}

/* Each test writes its cards into a directory of its own. */
static void fresh_dir(const char *name)
{
    snprintf(dir, sizeof dir, "%s/%s", base, name);
    assert_int_equal(mkdir(dir, 0700), 0);
}

static int teardown(void **state)
{
    char cmd[128];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf %s", base);
    return system(cmd) ? -1 : 0;
}

/* Card i: an H200 (i even) or an H100, figures within +-2% of the model's,
 * its host latency times lat. */
static void write_card_lat(int i, bool slow_h2d, bool ecc_error, bool busy, double lat)
{
    gt_inspect_facts f;
    gt_inspect_card c = {0};
    double jitter = 1.0 + 0.02 * sin(i * 1.7);
    bool h200 = i % 2 == 0;
    char path[128];
    FILE *out;

    gt_inspect_facts_init(&f);
    gt_health_init(&f.before);
    f.before.nvml = true;
    f.before.ecc_on = 1;
    f.before.ecc_vol_unc = ecc_error ? 2 : 0;
    f.before.sm_clock = f.before.sm_clock_max = 1980;
    f.after = f.during = f.before;
    f.during_known = true;
    f.pcie_ceiling = 63e9;
    f.h2d = 54.8e9 * jitter * (slow_h2d ? 0.8 : 1.0);
    f.d2h = 55.0e9 * jitter;
    f.bidir = 99e9 * jitter;
    f.d2d = (h200 ? 1995e9 : 1431e9) * jitter;
    f.d2d_peak = h200 ? 2407e9 : 1676e9;
    f.host_lat = 1.2e-6 / jitter * lat;
    f.others = busy;
    if (busy) {
        f.h2d *= 0.4;                           /* a neighbour's copies halve it */
        f.h2d_busy = 1.0;
        snprintf(f.others_text, sizeof f.others_text, "pid 4242 nvbandwidth (512 MiB)");
        snprintf(f.neighbour, sizeof f.neighbour, "%s: moving 54.1 GB/s on the link",
                 f.others_text);
    }
    snprintf(c.device, sizeof c.device, "%s", h200 ? "NVIDIA H200" : "NVIDIA H100 80GB HBM3");
    snprintf(c.uuid, sizeof c.uuid, "GPU-%04d", i);
    snprintf(c.host, sizeof c.host, "node%02d", i);
    gt_inspect_build(&c, &f, &th);
    snprintf(path, sizeof path, "%s/node%02d.json", dir, i);
    out = fopen(path, "w");
    assert_non_null(out);
    assert_int_equal(gt_inspect_print_json(out, &c), 0);
    fclose(out);
}

static void write_card_busy(int i, bool slow_h2d, bool ecc_error, bool busy)
{
    write_card_lat(i, slow_h2d, ecc_error, busy, 1.0);
}

static void write_card(int i, bool slow_h2d, bool ecc_error)
{
    write_card_busy(i, slow_h2d, ecc_error, false);
}

/* A load from host memory goes through the host: 10% above the median is
 * the host's state, 20% an outlier. */
static void host_latency(void **state)
{
    const char *paths[] = {dir};
    gt_fleet_card *cards;
    gt_err err;
    int n;
    (void)state;
    fresh_dir("latency");
    for (int i = 0; i < 8; i++)
        write_card_lat(2 * i + 1, false, false, false, i == 2 ? 1.10 : i == 5 ? 1.20 : 1.0);
    gt_err_clear(&err);
    assert_int_equal(gt_fleet_load(paths, 1, &cards, &n, &err), 0);
    assert_int_equal(n, 8);
    assert_int_equal(gt_fleet_judge(cards, n), 1);
    for (int i = 0; i < n; i++) {
        if (!strcmp(cards[i].host, "node11"))
            assert_non_null(strstr(cards[i].outlier, "pcie.latency +"));
        else if (cards[i].outlier[0])
            fail_msg("%s: outlier '%s'", cards[i].host, cards[i].outlier);
    }
    free(cards);
}

static void fifty_two_outliers(void **state)
{
    const char *paths[] = {dir};
    gt_fleet_card *cards;
    gt_err err;
    int n, outliers;
    (void)state;
    fresh_dir("fifty");
    for (int i = 0; i < 50; i++)
        write_card(i, i == 17, i == 32);
    gt_err_clear(&err);
    assert_int_equal(gt_fleet_load(paths, 1, &cards, &n, &err), 0);
    assert_int_equal(n, 50);
    outliers = gt_fleet_judge(cards, n);
    for (int i = 0; i < n; i++) {
        bool want = !strcmp(cards[i].host, "node17") || !strcmp(cards[i].host, "node32");
        if (want != (cards[i].outlier[0] != '\0'))
            fail_msg("%s: outlier '%s'", cards[i].host, cards[i].outlier);
    }
    assert_int_equal(outliers, 2);
    for (int i = 0; i < n; i++) {
        if (!strcmp(cards[i].host, "node17"))
            assert_non_null(strstr(cards[i].outlier, "pcie.h2d -2"));
        if (!strcmp(cards[i].host, "node32"))
            assert_non_null(strstr(cards[i].outlier, "failed mem.ecc_unc"));
    }
    {
        FILE *f = tmpfile();
        assert_int_equal(gt_fleet_print(f, GT_FMT_TEXT, cards, n), 0);
        assert_int_equal(gt_fleet_print(f, GT_FMT_JSON, cards, n), 0);
        fclose(f);
    }
    free(cards);
}

/* A card measured beside a neighbour's copies is listed as busy, on its
 * own: not an outlier, and its figures stay out of the medians. */
static void busy_card(void **state)
{
    const char *paths[] = {dir};
    gt_fleet_card *cards;
    char text[8192] = "";
    gt_err err;
    FILE *f;
    int n;
    (void)state;
    fresh_dir("busy");
    for (int i = 0; i < 6; i++)
        write_card_busy(2 * i, false, false, i == 3);
    gt_err_clear(&err);
    assert_int_equal(gt_fleet_load(paths, 1, &cards, &n, &err), 0);
    assert_int_equal(gt_fleet_judge(cards, n), 0);
    assert_int_equal(gt_fleet_busy(cards, n), 1);
    assert_int_equal(cards[3].status, GT_INSPECT_EXIT_BUSY);
    assert_string_equal(cards[3].outlier, "");
    assert_non_null(strstr(cards[3].busy, "pcie.h2d"));
    assert_non_null(strstr(cards[3].busy, "nvbandwidth"));
    f = tmpfile();
    assert_int_equal(gt_fleet_print(f, GT_FMT_TEXT, cards, n), 0);
    rewind(f);
    fread(text, 1, sizeof text - 1, f);
    fclose(f);
    assert_non_null(strstr(text, "0 outliers, 1 busy"));
    assert_non_null(strstr(text, "5 cards;"));
    assert_non_null(strstr(text, "busy, not judged"));
    assert_null(strstr(text, "OUTLIER"));
    free(cards);
}

static void no_card_and_bad_paths(void **state)
{
    char path[128], missing[128];
    const char *one[1], *two[2];
    gt_fleet_card *cards;
    gt_err err;
    int n;
    FILE *f;
    (void)state;
    fresh_dir("one");
    write_card(0, false, false);
    snprintf(path, sizeof path, "%s/node99.json", dir);
    f = fopen(path, "w");
    fputs("{\"something\": 1}\n", f);
    fclose(f);
    one[0] = dir;
    gt_err_clear(&err);
    assert_int_equal(gt_fleet_load(one, 1, &cards, &n, &err), 0);
    assert_int_equal(gt_fleet_judge(cards, n), 1);
    assert_int_equal(cards[n - 1].status, -1);
    assert_non_null(strstr(cards[n - 1].outlier, "not a gputui inspection card"));
    free(cards);
    snprintf(missing, sizeof missing, "%s/none", dir);
    two[0] = path;
    two[1] = missing;
    assert_int_equal(gt_fleet_load(two, 2, &cards, &n, &err), -1);
    assert_non_null(strstr(err.msg, "none: No such file"));
    assert_int_equal(mkdir(missing, 0700), 0);
    one[0] = missing;
    assert_int_equal(gt_fleet_load(one, 1, &cards, &n, &err), -1);
    assert_non_null(strstr(err.msg, "no inspection cards"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fifty_two_outliers),
        cmocka_unit_test(host_latency),
        cmocka_unit_test(no_card_and_bad_paths),
        cmocka_unit_test(busy_card),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
