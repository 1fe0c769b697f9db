/* The portability layer (port.h): the rename that never replaces, both
 * with the system's own call and with that call refused (the fallback a
 * file system or kernel without it gets); the binary's own path; the
 * engine's wake-up; host memory; a PCIe id that is not one; a file-size
 * limit that fails a write instead of killing the process; a stream with
 * its own writer, and its failure. Built twice:
 * test_port with the system's own calls, test_port_posix with port.c's
 * POSIX fallbacks alone (GT_PORT_POSIX), as a system without them runs. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gputui/base/port.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gt-port-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];

    (void)state;
    gt_port_test_refuse_native_rename(0);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void put(const char *name, const char *text)
{
    char p[128];
    FILE *f;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    assert_non_null(f = fopen(p, "w"));
    fputs(text, f);
    fclose(f);
}

/* The file's text, "" when it does not exist. */
static const char *get(const char *name)
{
    static char buf[64];
    char p[128];
    FILE *f;
    size_t n;

    snprintf(p, sizeof p, "%s/%s", dir, name);
    buf[0] = '\0';
    if (!(f = fopen(p, "r")))
        return buf;
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int rn(const char *from, const char *to)
{
    char a[128], b[128];

    snprintf(a, sizeof a, "%s/%s", dir, from);
    snprintf(b, sizeof b, "%s/%s", dir, to);
    return gt_port_rename_noreplace(a, b);
}

/* The same four cases, natively and with the native call refused. */
static void no_replace_cases(void)
{
    char p[128];

    put("a", "new");
    assert_int_equal(rn("a", "b"), 0);
    assert_string_equal(get("a"), "");
    assert_string_equal(get("b"), "new");

    put("c", "mine");
    errno = 0;
    assert_int_equal(rn("c", "b"), -1);
    assert_int_equal(errno, EEXIST);
    assert_string_equal(get("b"), "new");       /* not replaced */
    assert_string_equal(get("c"), "mine");      /* not lost */

    /* A dangling symbolic link in the way counts as a name that exists. */
    snprintf(p, sizeof p, "%s/link", dir);
    assert_int_equal(symlink("/nonexistent/target", p), 0);
    errno = 0;
    assert_int_equal(rn("c", "link"), -1);
    assert_int_equal(errno, EEXIST);
    assert_string_equal(get("c"), "mine");

    errno = 0;
    assert_int_equal(rn("missing", "d"), -1);
    assert_int_equal(errno, ENOENT);
}

static void rename_native(void **state)
{
    (void)state;
    no_replace_cases();
}

static void rename_native_refused_enosys(void **state)
{
    (void)state;
    gt_port_test_refuse_native_rename(ENOSYS);
    no_replace_cases();
}

static void rename_native_refused_einval(void **state)
{
    (void)state;
    gt_port_test_refuse_native_rename(EINVAL);
    no_replace_cases();
}

/* Any other refusal is the answer: no fallback is tried. */
static void rename_other_error_is_final(void **state)
{
    (void)state;
    put("a", "x");
    gt_port_test_refuse_native_rename(EACCES);
    errno = 0;
    assert_int_equal(rn("a", "b"), -1);
    assert_int_equal(errno, EACCES);
    assert_string_equal(get("a"), "x");
    assert_string_equal(get("b"), "");
}

static void exe_path_and_dir(void **state)
{
    char path[4096], d[4096], spawn[4096];

    (void)state;
    assert_non_null(gt_port_exe_path(path, sizeof path));
    assert_int_equal(path[0], '/');
    assert_int_equal(access(path, X_OK), 0);
    assert_non_null(strstr(path, "test_port"));
    assert_non_null(gt_port_exe_dir(d, sizeof d));
    assert_int_equal(strncmp(path, d, strlen(d)), 0);
    assert_int_equal(path[strlen(d)], '/');
    assert_null(strchr(path + strlen(d) + 1, '/'));
    assert_non_null(gt_port_exe_for_spawn(spawn, sizeof spawn));
    assert_int_equal(access(spawn, X_OK), 0);
    assert_null(gt_port_exe_path(path, 4));     /* too small: no truncated path */
}

static int readable(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void wake_up(void **state)
{
    gt_wake w;

    (void)state;
    assert_int_equal(gt_wake_open(&w), 0);
    assert_false(readable(w.rfd));
    gt_wake_signal(&w);
    gt_wake_signal(&w);
    assert_true(readable(w.rfd));
    gt_wake_drain(&w);
    assert_false(readable(w.rfd));      /* two signals, one drain */
    gt_wake_drain(&w);                  /* nothing to drain: never blocks */
    for (int i = 0; i < 100000; i++)    /* more than a pipe holds: never blocks */
        gt_wake_signal(&w);
    assert_true(readable(w.rfd));
    gt_wake_drain(&w);
    assert_false(readable(w.rfd));
    gt_wake_close(&w);
    assert_int_equal(w.rfd, -1);
}

static void memory_and_pci(void **state)
{
    unsigned char cfg[64];

    (void)state;
#if defined(__linux__) && !defined(GT_PORT_POSIX)
    assert_true(gt_port_mem_available() > 0);
#else
    (void)gt_port_mem_available();      /* 0 where unknown; never fails */
#endif
    assert_int_equal(gt_port_pci_config("ffff:ff:1f.7", cfg, sizeof cfg), -1);
    assert_int_equal(gt_port_pci_config("../../../etc/passwd", cfg, sizeof cfg), -1);
    assert_int_equal(gt_port_pci_config("", cfg, sizeof cfg), -1);
}

/* Past RLIMIT_FSIZE a write fails with EFBIG; without the port's call
 * the signal would end this test binary. */
static void file_size_limit_fails_the_write(void **state)
{
    struct rlimit old, lim;
    char p[128], block[8192];
    FILE *f;
    size_t n;

    (void)state;
    memset(block, 'x', sizeof block);
    gt_port_ignore_file_size_signal();
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 4096;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    snprintf(p, sizeof p, "%s/big", dir);
    assert_non_null(f = fopen(p, "w"));
    setvbuf(f, NULL, _IONBF, 0);
    errno = 0;
    n = fwrite(block, 1, sizeof block, f);
    assert_true(n < sizeof block);
    assert_int_equal(errno, EFBIG);
    fclose(f);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
}

/* What a stream with its own writer gave it. */
static char got[256];
static size_t ngot;
static bool refuse;

static long collect(void *cookie, const char *buf, size_t n)
{
    assert_ptr_equal(cookie, got);
    if (refuse) {
        errno = ENOSPC;
        return -1;
    }
    assert_true(ngot + n < sizeof got);
    memcpy(got + ngot, buf, n);
    ngot += n;
    return (long)n;
}

static void stream_with_a_writer(void **state)
{
    FILE *f;
    (void)state;
    ngot = 0;
    refuse = false;
    assert_non_null(f = gt_port_write_stream(got, collect));
    fprintf(f, "%d lines, ", 2);
    assert_int_equal(gt_port_stream_flush(f), 0);
    assert_int_equal(ngot, 9);
    fputs("the second\n", f);
    assert_int_equal(gt_port_stream_close(f), 0);
    assert_int_equal(ngot, 20);
    assert_memory_equal(got, "2 lines, the second\n", 20);

    refuse = true;
    assert_non_null(f = gt_port_write_stream(got, collect));
    fputs("a full disk\n", f);
    assert_int_equal(gt_port_stream_close(f), EOF);
}

/* Host NUMA node lists as Linux writes them, and text that is not one. */
static void numa_node_lists(void **state)
{
    (void)state;
    assert_int_equal(gt_port_parse_nodes("0\n"), 1);
    assert_int_equal(gt_port_parse_nodes("0-3"), 0xF);
    assert_int_equal(gt_port_parse_nodes("0,2-3\n"), 0xD);
    assert_int_equal(gt_port_parse_nodes("62"), (int64_t)1 << 62);
    assert_int_equal(gt_port_parse_nodes(""), -1);
    assert_int_equal(gt_port_parse_nodes("63"), -1);
    assert_int_equal(gt_port_parse_nodes("3-1"), -1);
    assert_int_equal(gt_port_parse_nodes("0;1"), -1);
    assert_int_equal(gt_port_parse_nodes("-1"), -1);
    /* Here: a mask, or -1 where the system does not say. */
    int64_t m = gt_port_numa_nodes();
    assert_true(m == -1 || m > 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    gt_port_set_argv0(argv[0]);     /* the POSIX fallback finds the binary from it */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(rename_native, setup, teardown),
        cmocka_unit_test_setup_teardown(rename_native_refused_enosys, setup, teardown),
        cmocka_unit_test_setup_teardown(rename_native_refused_einval, setup, teardown),
        cmocka_unit_test_setup_teardown(rename_other_error_is_final, setup, teardown),
        cmocka_unit_test(exe_path_and_dir),
        cmocka_unit_test(wake_up),
        cmocka_unit_test(memory_and_pci),
        cmocka_unit_test_setup_teardown(file_size_limit_fails_the_write, setup, teardown),
        cmocka_unit_test(stream_with_a_writer),
        cmocka_unit_test(numa_node_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
