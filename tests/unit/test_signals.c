/* The signals (signals.h): the first SIGTERM, SIGINT or SIGHUP only sets
 * the flag the loops read; a second, while the stop still waits (on a
 * kernel that never ends, say), ends the process at once with 128 + the
 * signal and one line on stderr, after the last words (the TUI's: the
 * terminal given back). Each case runs in a child process. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gputui/base/signals.h"

/* Runs body in a child whose stderr goes to a pipe; its exit status and
 * what it wrote. */
static int in_child(void (*body)(void), char *err, size_t n)
{
    int fd[2], status = -1;
    ssize_t got, all = 0;
    pid_t pid;

    assert_int_equal(pipe(fd), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        body();
        _exit(0);
    }
    close(fd[1]);
    while (all + 1 < (ssize_t)n && (got = read(fd[0], err + all, n - 1 - (size_t)all)) > 0)
        all += got;
    err[all] = '\0';
    close(fd[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void one_signal(void)
{
    gt_signals_install();
    raise(SIGTERM);
    _exit(gt_signal_caught == SIGTERM ? 7 : 8);     /* went on, with the flag set */
}

static void two_signals(void)
{
    gt_signals_install();
    raise(SIGINT);
    raise(SIGTERM);     /* the stop "still waits": this one ends it */
    _exit(9);
}

static void last_words(void)
{
    static const char said[] = "terminal given back\n";
    ssize_t rc = write(STDERR_FILENO, said, sizeof said - 1);
    (void)rc;
}

static void two_signals_with_last_words(void)
{
    gt_signals_install();
    gt_signals_last_words(last_words);
    raise(SIGTERM);
    raise(SIGHUP);
    _exit(9);
}

static void first_sets_the_flag(void **state)
{
    char err[256];
    (void)state;
    assert_int_equal(in_child(one_signal, err, sizeof err), 7);
    assert_string_equal(err, "");
}

static void second_ends_at_once(void **state)
{
    char err[256];
    (void)state;
    assert_int_equal(in_child(two_signals, err, sizeof err), 128 + SIGTERM);
    assert_string_equal(err, "gputui: a second signal: ending now, without waiting for the GPU\n");
}

static void last_words_come_first(void **state)
{
    char err[256];
    (void)state;
    assert_int_equal(in_child(two_signals_with_last_words, err, sizeof err), 128 + SIGHUP);
    assert_string_equal(err, "terminal given back\n"
                             "gputui: a second signal: ending now, without waiting for the GPU\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_sets_the_flag),
        cmocka_unit_test(second_ends_at_once),
        cmocka_unit_test(last_words_come_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
