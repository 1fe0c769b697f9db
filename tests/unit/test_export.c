/* 'x' exports: never over another file, a suffix on collision, a
 * fallback directory when the one asked for cannot be written, nothing
 * left behind when a write fails. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "experiments/transfer/transfer.h"
#include "gputui/report/export.h"

static char dir[64];

static bool exists(const char *d, const char *name)
{
    char p[256];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", d, name);
    return lstat(p, &st) == 0;
}

static void one_run(gt_run *r)
{
    int64_t v[GT_MAX_PARAMS];
    gt_experiment_defaults(&gt_exp_transfer, v);
    gt_run_init(r, &gt_exp_transfer, v, 1);
    for (int i = 0; i < 2000; i++) {
        gt_sample s = {1, 0, GT_V_FULL, 1e-3 * (1 + i % 7), 64ull << 20};
        gt_run_add(r, &s);
    }
}

static void collisions_and_links(void **state)
{
    gt_devprops p;
    gt_run r;
    char msg[1600], link_to[128];
    (void)state;
    gt_devprops_init(&p);
    one_run(&r);
    snprintf(dir, sizeof dir, "/tmp/gputui-export-XXXXXX");
    assert_non_null(mkdtemp(dir));
    assert_int_equal(gt_export(dir, "20261122-101010", &p, &r, 1, NULL, msg, sizeof msg), 0);
    assert_true(exists(dir, "gputui-20261122-101010.json"));
    assert_true(exists(dir, "gputui-20261122-101010.csv"));
    assert_true(exists(dir, "gputui-20261122-101010.html"));
    /* The same second again: -2, then -3 (a link in the way counts). */
    assert_int_equal(gt_export(dir, "20261122-101010", &p, &r, 1, NULL, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "gputui-20261122-101010-2.json, .csv and .html"));
    snprintf(link_to, sizeof link_to, "%s/gputui-20261122-101010-3.csv", dir);
    assert_int_equal(symlink("/tmp/gputui-export-victim", link_to), 0);
    assert_int_equal(gt_export(dir, "20261122-101010", &p, &r, 1, NULL, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "-4.json"));
    assert_false(exists(dir, "gputui-20261122-101010-3.json"));   /* not part of a set */
    assert_false(exists("/tmp", "gputui-export-victim"));
    gt_run_free(&r);
}

static void fallback_directory(void **state)
{
    gt_devprops p;
    gt_run r;
    char msg[1600], state_home[128], want[200];
    (void)state;
    gt_devprops_init(&p);
    one_run(&r);
    snprintf(state_home, sizeof state_home, "%s/state", dir);
    mkdir(state_home, 0700);
    setenv("XDG_STATE_HOME", state_home, 1);
    assert_int_equal(gt_export("/nonexistent-gputui-dir", "20261122-111111", &p, &r, 1, NULL, msg,
                               sizeof msg), 0);
    snprintf(want, sizeof want, "%s/gputui/gputui-20261122-111111.json", state_home);
    assert_non_null(strstr(msg, want));
    assert_non_null(strstr(msg, "cannot write in /nonexistent-gputui-dir (No such file or directory)"));
    /* Nowhere to fall back to: says where it tried. */
    setenv("XDG_STATE_HOME", "/dev/null/state", 1);
    assert_int_equal(gt_export("/nonexistent-gputui-dir", "20261122-111111", &p, &r, 1, NULL, msg,
                               sizeof msg), -1);
    assert_non_null(strstr(msg, "export failed: cannot write in /nonexistent-gputui-dir"));
    assert_non_null(strstr(msg, "nor in /dev/null/state/gputui"));
    unsetenv("XDG_STATE_HOME");
    gt_run_free(&r);
}

/* A full disk (a file size limit): -1, and neither file is left. */
static void full_disk(void **state)
{
    gt_devprops p;
    gt_run r;
    char msg[1600];
    struct rlimit old, lim;
    (void)state;
    gt_devprops_init(&p);
    one_run(&r);
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &old);
    lim.rlim_cur = 512;
    lim.rlim_max = old.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    assert_int_equal(gt_export(dir, "20261122-121212", &p, &r, 1, NULL, msg, sizeof msg), -1);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, SIG_DFL);
    print_message("%s\n", msg);
    assert_non_null(strstr(msg, "(File too large); nothing was kept"));
    assert_false(exists(dir, "gputui-20261122-121212.json"));
    assert_false(exists(dir, "gputui-20261122-121212.csv"));
    assert_false(exists(dir, "gputui-20261122-121212.html"));
    gt_run_free(&r);
    {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        assert_int_equal(system(cmd), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(collisions_and_links),
        cmocka_unit_test(fallback_directory),
        cmocka_unit_test(full_disk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
