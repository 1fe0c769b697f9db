#define _POSIX_C_SOURCE 200809L
/* Command line and parameter table: every option, every bad value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/input/cli.h"
#include "gputui/input/options.h"
#include "experiments/transfer/transfer.h"
#include "gputui/experiments/registry.h"

static int parse(gt_cli *c, gt_err *e, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;

    argv[argc++] = "gputui";
    va_start(ap, e);
    for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    gt_err_clear(e);
    return gt_cli_parse(argc, argv, c, e);
}

static void defaults(void **state)
{
    gt_cli c;
    gt_err e;
    (void)state;
    assert_int_equal(parse(&c, &e, NULL), 0);
    assert_int_equal(c.mode, GT_MODE_TUI);
    assert_ptr_equal(c.exp, &gt_exp_transfer);
    assert_int_equal(c.vals[GT_TR_HOST], GT_HOST_PINNED);
    assert_int_equal(c.vals[GT_TR_DIR], GT_DIR_H2D);
    assert_int_equal(c.vals[GT_TR_SIZE], 64ll << 20);
    assert_int_equal(c.samples, 50);
    assert_int_equal(c.format, GT_FMT_TEXT);
}

static void the_issue_example(void **state)
{
    gt_cli c;
    gt_err e;
    (void)state;
    assert_int_equal(parse(&c, &e, "--batch", "-e", "transfer", "--host", "pinned", "--dir",
                           "h2d", "--size", "64M", "--samples", "50", "--format", "json", NULL), 0);
    assert_int_equal(c.mode, GT_MODE_BATCH);
    assert_int_equal(c.format, GT_FMT_JSON);
    assert_int_equal(c.vals[GT_TR_SIZE], 64ll << 20);
    assert_int_equal(parse(&c, &e, "--batch", "--size=1.5G", "--dir=bidir", "--format=csv",
                           "--host", "hostalloc", "--write-combined", "--mapped=on",
                           "--portable", "--method", "sm", "--iters", "10", "--warmup", "0",
                           "--device", "1", NULL), 0);
    assert_int_equal(c.vals[GT_TR_SIZE], 3ll << 29);
    assert_int_equal(c.vals[GT_TR_DIR], GT_DIR_BIDIR);
    assert_int_equal(c.vals[GT_TR_WC], 1);
    assert_int_equal(c.vals[GT_TR_MAPPED], 1);
    assert_int_equal(c.vals[GT_TR_PORTABLE], 1);
    assert_int_equal(c.vals[GT_TR_METHOD], GT_METHOD_SM);
    assert_int_equal(c.vals[GT_TR_ITERS], 10);
    assert_int_equal(c.vals[GT_TR_WARMUP], 0);
    assert_int_equal(c.device, 1);
    assert_int_equal(c.format, GT_FMT_CSV);
}

static void modes(void **state)
{
    gt_cli c;
    gt_err e;
    (void)state;
    assert_int_equal(parse(&c, &e, "--help", NULL), 0);
    assert_int_equal(c.mode, GT_MODE_HELP);
    assert_int_equal(parse(&c, &e, "-V", NULL), 0);
    assert_int_equal(c.mode, GT_MODE_VERSION);
    assert_int_equal(parse(&c, &e, "--list-devices", NULL), 0);
    assert_int_equal(c.mode, GT_MODE_LIST);
    assert_int_equal(parse(&c, &e, "--no-color", "--trace", "/tmp/x", NULL), 0);
    assert_true(c.no_color);
    assert_string_equal(c.trace, "/tmp/x");
}

/* Each bad input: exit status 64 and a message naming the option and,
 * where there is a range or a set, the allowed values. */
static void bad_values(void **state)
{
    static const struct { const char *a, *b, *must1, *must2; } bad[] = {
        {"--host", "gpu", "host", "pageable, pinned, hostalloc, register"},
        {"--dir", "up", "dir", "h2d, d2h, d2d, bidir"},
        {"--method", "dma", "method", "ce, sm"},
        {"--size", "2K", "size", "4 KiB to 4 GiB"},
        {"--size", "8G", "size", "4 KiB to 4 GiB"},
        {"--size", "5X", "size", "4 KiB to 4 GiB"},
        {"--size", "4097", "size", "multiple of 4"},
        {"--size", "-1", "size", "4 KiB to 4 GiB"},
        {"--iters", "0", "iters", "1 to 1000"},
        {"--iters", "1001", "iters", "1 to 1000"},
        {"--iters", "ten", "iters", "1 to 1000"},
        {"--warmup", "-1", "warmup", "0 to 1000"},
        {"--warmup", "3.5", "warmup", "0 to 1000"},
        {"--mapped=maybe", NULL, "mapped", "on or off"},
        {"--samples", "0", "--samples", "1 to 1000000"},
        {"--samples", "x", "--samples", "1 to 1000000"},
        {"--device", "-1", "--device", "0 to 1023"},
        {"--format", "xml", "--format", "text, json, csv"},
        {"-e", "nope", "experiment", "transfer"},
        {"--bogus", "1", "--bogus", "--help"},
    };
    gt_cli c;
    gt_err e;
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = parse(&c, &e, "--batch", bad[i].a, bad[i].b, NULL);
        if (rc != -1 || e.code != GT_EXIT_USAGE || !strstr(e.msg, bad[i].must1) ||
            !strstr(e.msg, bad[i].must2))
            fail_msg("%s %s -> rc %d code %d '%s'", bad[i].a, bad[i].b, rc, e.code, e.msg);
    }
}

static void missing_value_and_strays(void **state)
{
    gt_cli c;
    gt_err e;
    (void)state;
    assert_int_equal(parse(&c, &e, "--size", NULL), -1);
    assert_non_null(strstr(e.msg, "--size needs a value"));
    assert_int_equal(parse(&c, &e, "stray", NULL), -1);
    assert_int_equal(e.code, GT_EXIT_USAGE);
    assert_int_equal(parse(&c, &e, "--format", "json", NULL), -1);
    assert_non_null(strstr(e.msg, "only with --batch"));
}

static void flags_that_do_not_apply(void **state)
{
    gt_cli c;
    gt_err e;
    (void)state;
    assert_int_equal(parse(&c, &e, "--host", "pinned", "--write-combined", NULL), -1);
    assert_non_null(strstr(e.msg, "--write-combined applies only with host=hostalloc"));
    assert_int_equal(parse(&c, &e, "--host", "register", "--write-combined", NULL), -1);
    assert_int_equal(parse(&c, &e, "--host", "pinned", "--mapped", NULL), -1);
    assert_non_null(strstr(e.msg, "hostalloc or host=register"));
    assert_int_equal(parse(&c, &e, "--dir", "d2d", "--host", "pageable", NULL), -1);
    assert_non_null(strstr(e.msg, "not dir=d2d"));
    assert_int_equal(parse(&c, &e, "--host", "register", "--mapped", "--portable", NULL), 0);
}

/* --inspect: in the TUI or batch, with --record or --replay but no
 * experiment of its own, and the one report that writes Prometheus text. */
static void inspect_options(void **state)
{
    gt_cli c;
    gt_err e;
    (void)state;
    assert_int_equal(parse(&c, &e, "--batch", "--inspect", "--format", "prometheus", NULL), 0);
    assert_true(c.inspect);
    assert_int_equal(c.format, GT_FMT_PROMETHEUS);
    assert_int_equal(parse(&c, &e, "--batch", "--inspect", "-d", "1", NULL), 0);
    assert_int_equal(parse(&c, &e, "--inspect", NULL), 0);         /* the TUI's card */
    assert_int_equal(c.mode, GT_MODE_TUI);
    assert_true(c.inspect);
    assert_int_equal(parse(&c, &e, "--batch", "--inspect", "--replay", "x.gtr", NULL), 0);
    assert_int_equal(parse(&c, &e, "--batch", "--inspect", "--record", "x.gtr", NULL), 0);
    assert_int_equal(parse(&c, &e, "--inspect", "--record", "x.gtr", "--replay", "y.gtr",
                           NULL), -1);
    assert_int_equal(e.code, GT_EXIT_USAGE);
    assert_non_null(strstr(e.msg, "give one of them"));
    assert_int_equal(parse(&c, &e, "--batch", "--inspect", "-e", "latency", NULL), -1);
    assert_non_null(strstr(e.msg, "cannot be used with -e"));
    assert_int_equal(parse(&c, &e, "--batch", "--inspect", "--size", "4M", NULL), -1);
    assert_non_null(strstr(e.msg, "an experiment's parameters"));
    assert_int_equal(parse(&c, &e, "--inspect", "--compare", "h100", NULL), -1);
    assert_non_null(strstr(e.msg, "--compare"));
    assert_int_equal(parse(&c, &e, "--batch", "--format", "prometheus", NULL), -1);
    assert_non_null(strstr(e.msg, "use it with --inspect"));
    assert_int_equal(parse(&c, &e, "--batch", "--format", "xml", NULL), -1);
    assert_non_null(strstr(e.msg, "prometheus with --inspect"));
    /* --fleet: the paths after it, and --format text, json or html alone. */
    assert_int_equal(parse(&c, &e, "--fleet", "cards", "more/a.json", "--format", "json", NULL), 0);
    assert_int_equal(c.mode, GT_MODE_FLEET);
    assert_int_equal(c.nfleet, 2);
    assert_string_equal(c.fleet[1], "more/a.json");
    assert_int_equal(parse(&c, &e, "--fleet", NULL), -1);
    assert_non_null(strstr(e.msg, "needs a directory or files"));
    assert_int_equal(parse(&c, &e, "--fleet", "d", "--format", "csv", NULL), -1);
    assert_non_null(strstr(e.msg, "only --format text, json or html"));
    assert_int_equal(parse(&c, &e, "--fleet", "d", "--format", "html", NULL), 0);
    assert_int_equal(parse(&c, &e, "--fleet", "d", "-e", "latency", NULL), -1);
    assert_int_equal(e.code, GT_EXIT_USAGE);
}

static void usage_lists_every_param(void **state)
{
    static char buf[65536];
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    (void)state;
    gt_options_usage(f);
    fclose(f);
    assert_true(strlen(buf) < sizeof buf - 2);      /* not cut off */
    for (int e = 0; e < gt_nexperiments; e++) {
        char head[96];
        snprintf(head, sizeof head, "experiment '%s'", gt_experiments[e]->name);
        assert_non_null(strstr(buf, head));
        for (int i = 0; i < gt_experiments[e]->nparams; i++) {
            char opt[64];
            snprintf(opt, sizeof opt, "  --%s ", gt_experiments[e]->params[i].name);
            assert_non_null(strstr(buf, opt));
        }
    }
    assert_non_null(strstr(buf, "--batch"));
    assert_non_null(strstr(buf, "exit status"));
}

/* Batch sweeps: every combination of the lists, duplicates and
 * combinations where a listed value does not apply left out. */
static void sweeps(void **state)
{
    static int64_t cfg[GT_MAX_CONFIGS][GT_MAX_PARAMS];
    gt_cli c;
    gt_err e;
    char err[400];
    (void)state;
    assert_int_equal(parse(&c, &e, "--batch", "--dir", "h2d,d2h", "--size", "4M,64M,1G", NULL), 0);
    assert_int_equal(gt_cli_configs(&c, cfg, GT_MAX_CONFIGS, err, sizeof err), 6);
    assert_int_equal(cfg[0][GT_TR_DIR], GT_DIR_H2D);
    assert_int_equal(cfg[1][GT_TR_DIR], GT_DIR_D2H);
    assert_int_equal(cfg[5][GT_TR_SIZE], 1ll << 30);
    /* d2d takes no host memory: its three host kinds collapse into one. */
    assert_int_equal(parse(&c, &e, "--batch", "--dir", "h2d,d2d", "--host",
                           "pageable,pinned,register", NULL), 0);
    assert_int_equal(gt_cli_configs(&c, cfg, GT_MAX_CONFIGS, err, sizeof err), 4);
    /* write-combined applies to hostalloc only. */
    assert_int_equal(parse(&c, &e, "--batch", "--host", "pinned,hostalloc",
                           "--write-combined=off,on", NULL), 0);
    assert_int_equal(gt_cli_configs(&c, cfg, GT_MAX_CONFIGS, err, sizeof err), 3);
    /* Limits: too many values in one list, too many configurations. */
    assert_int_equal(parse(&c, &e, "--batch", "--iters", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
                           NULL), -1);
    assert_non_null(strstr(e.msg, "more than 16 values"));
    assert_int_equal(parse(&c, &e, "--batch", "--iters", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16",
                           "--warmup", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15",
                           "--size", "4K,8K,16K", NULL), -1);
    assert_non_null(strstr(e.msg, "more than 512 configurations"));
    /* One bad value in a list names it. */
    assert_int_equal(parse(&c, &e, "--batch", "--size", "4M,9G", NULL), -1);
    assert_non_null(strstr(e.msg, "allowed: 4 KiB to 4 GiB"));
    /* Lists are for batch mode. */
    assert_int_equal(parse(&c, &e, "--size", "4M,8M", NULL), -1);
    assert_non_null(strstr(e.msg, "a list of values applies only with --batch"));
}

/* --compare and the recording options, and every bad use of them. */
static void compare_and_record_options(void **state)
{
    gt_cli c;
    gt_err e;
    (void)state;
    assert_int_equal(parse(&c, &e, "--compare", "h200", "h100", "--size", "4M", NULL), 0);
    assert_int_equal(c.ncompare, 2);
    assert_string_equal(c.compare[0], "h200");
    assert_string_equal(c.compare[1], "h100");
    assert_int_equal(c.vals[GT_TR_SIZE], 4 << 20);
    assert_int_equal(parse(&c, &e, "--compare", "b.gtr", "--dir", "d2h", NULL), 0);
    assert_int_equal(c.ncompare, 1);
    assert_int_equal(parse(&c, &e, "--batch", "--compare", "a", "b", "--format", "json", NULL), 0);
    static const struct { const char *args[6], *must; } bad[] = {
        {{"--batch", "--compare", "b.gtr"}, "--batch --compare needs two recordings"},
        {{"--compare", "a", "b", "--replay", "c"}, "--compare cannot be used with --replay"},
        {{"--compare", "a", "--record", "c"}, "--compare cannot be used with --record"},
        {{"--compare"}, "--compare needs a value"},
        {{"--record-samples", "10"}, "--record-samples applies only with --record FILE"},
        {{"--record", "x", "--record-samples", "0"}, "--record-samples: '0' is not valid (allowed: a whole number from 1 to 1000000)"},
        {{"--record", "x", "--record-seconds", "0"}, "--record-seconds: '0' is not valid (allowed: a number of seconds from 0.01 to 3600)"},
        {{"--record", "x", "--record-seconds", "nan"}, "--record-seconds: 'nan' is not valid"},
        {{"--record", "x", "--record-seconds", "2s"}, "--record-seconds: '2s' is not valid"},
        {{"--batch", "--inspect", "--wait-quiet", "-1"}, "--wait-quiet: '-1' is not valid (allowed: a number of seconds from 0 to 3600)"},
        {{"--batch", "--inspect", "--wait-quiet", "4000"}, "--wait-quiet: '4000' is not valid"},
        {{"--batch", "--wait-quiet", "10"}, "--wait-quiet applies only with --batch --inspect"},
        {{"--inspect", "--wait-quiet", "10"}, "--wait-quiet applies only with --batch --inspect"},
        {{"--batch", "--inspect", "--replay", "h200", "--wait-quiet", "5"}, "(not with --replay)"},
        {{"--fleet", "d", "--wait-quiet", "5"}, "--fleet reads inspection cards"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[8] = {"gputui"};
        int argc = 1;
        for (int k = 0; k < 6 && bad[i].args[k]; k++)
            argv[argc++] = (char *)bad[i].args[k];
        gt_err_clear(&e);
        if (gt_cli_parse(argc, argv, &c, &e) != -1 || e.code != GT_EXIT_USAGE ||
            !strstr(e.msg, bad[i].must))
            fail_msg("case %zu: '%s', wanted '%s'", i, e.msg, bad[i].must);
    }
    assert_int_equal(parse(&c, &e, "--batch", "--inspect", "--wait-quiet", "30", NULL), 0);
    assert_near(c.wait_quiet, 30, 1e-12);
    assert_int_equal(parse(&c, &e, "--record", "x.gtr.gz", "--record-samples", "40",
                           "--record-seconds", "0.5", NULL), 0);
    assert_int_equal(c.record_samples, 40);
    assert_near(c.record_seconds, 0.5, 1e-12);
    assert_int_equal(parse(&c, &e, NULL), 0);
    assert_int_equal(c.record_samples, 300);           /* the defaults */
    assert_near(c.record_seconds, 2.0, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compare_and_record_options),
        cmocka_unit_test(sweeps),
        cmocka_unit_test(defaults), cmocka_unit_test(the_issue_example),
        cmocka_unit_test(modes), cmocka_unit_test(bad_values),
        cmocka_unit_test(missing_value_and_strays),
        cmocka_unit_test(flags_that_do_not_apply),
        cmocka_unit_test(usage_lists_every_param),
        cmocka_unit_test(inspect_options),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
