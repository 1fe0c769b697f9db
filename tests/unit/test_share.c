/* Taking turns on a GPU (share.c): the lock file's rules (created 0666, a
 * symbolic link, a FIFO, a second name or another program's file refused),
 * turns between two openings, a holder that dies, a holder that never lets
 * go (bounded wait, then the caller's wait callback names it), the other
 * processes' count, handing the turn to a waiter, and waiters served in
 * the order they came. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "gputui/engine/share.h"
#include "gputui/base/common.h"

#define UUID "GPU-12345678-abcd-ef01-2345-6789abcdef01"

static char dir[64], path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gputui-share-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/gputui-%s.lock", dir, UUID);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    rmdir(dir);
    return 0;
}

static void created_0666(void **state)
{
    gt_share s;
    struct stat st;
    char why[600], head[32] = "";
    FILE *f;
    mode_t old = umask(022);
    (void)state;
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), 0);
    umask(old);
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0666);
    assert_non_null(f = fopen(path, "r"));
    assert_non_null(fgets(head, sizeof head, f));
    fclose(f);
    assert_string_equal(head, "gputui share lock 1\n");
    assert_int_equal(gt_share_others(&s), 0);
    gt_share_close(&s);
    /* Opened again, the same file. */
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), 0);
    gt_share_close(&s);
}

static void refused(void **state)
{
    gt_share s;
    char why[600], other[160];
    FILE *f;
    (void)state;
    /* A symbolic link, even to a good lock file. */
    snprintf(other, sizeof other, "%s/target", dir);
    assert_non_null(f = fopen(other, "w"));
    fclose(f);
    assert_int_equal(symlink(other, path), 0);
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), -1);
    assert_non_null(strstr(why, "a symbolic link: refused"));
    assert_non_null(strstr(why, path));
    unlink(path);
    /* A FIFO. */
    assert_int_equal(mkfifo(path, 0666), 0);
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), -1);
    assert_non_null(strstr(why, "not a regular file: refused"));
    unlink(path);
    /* A second name for another file. */
    assert_int_equal(link(other, path), 0);
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), -1);
    assert_non_null(strstr(why, "more than one name"));
    unlink(path);
    /* Another program's file: left as it was. */
    assert_non_null(f = fopen(path, "w"));
    fputs("precious data, not a lock\n", f);
    fclose(f);
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), -1);
    assert_non_null(strstr(why, "not a gputui lock file: refused"));
    assert_non_null(f = fopen(path, "r"));
    assert_non_null(fgets(why, sizeof why, f));
    fclose(f);
    assert_string_equal(why, "precious data, not a lock\n");
    unlink(path);
    unlink(other);
    /* A UUID that would make another path. */
    assert_int_equal(gt_share_open(&s, dir, "../../etc/x", why, sizeof why), -1);
    assert_non_null(strstr(why, "no usable GPU UUID"));
    assert_int_equal(gt_share_open(&s, dir, "", why, sizeof why), -1);
    assert_int_equal(s.fd, -1);
    /* Closing or giving a share that is not open does nothing. */
    gt_share_give(&s);
    gt_share_close(&s);
}

static int waits_seen, holder_pid;

static void on_wait(void *ctx, const gt_share_holder *h, double waited)
{
    (void)ctx;
    (void)waited;
    waits_seen++;
    holder_pid = h->pid;
}

static bool yes(void *ctx)
{
    (void)ctx;
    return true;
}

static void turns(void **state)
{
    gt_share a, b;
    gt_share_holder h;
    char why[600];
    double t0;
    (void)state;
    assert_int_equal(gt_share_open(&a, dir, UUID, why, sizeof why), 0);
    assert_int_equal(gt_share_open(&b, dir, UUID, why, sizeof why), 0);
    assert_int_equal(gt_share_take(&a, 1, NULL, NULL, NULL), GT_SHARE_TAKEN);
    gt_share_holder_read(&a, &h);
    assert_int_equal(h.pid, (int)getpid());
    assert_int_equal(h.turns, 1);
    /* The holder never lets go: b waits its bound, told who holds it. */
    waits_seen = 0;
    t0 = gt_now();
    assert_int_equal(gt_share_take(&b, 0.1, NULL, on_wait, NULL), GT_SHARE_TIMEOUT);
    assert_true(gt_now() - t0 >= 0.1);
    assert_true(gt_now() - t0 < 1.0);
    assert_true(waits_seen >= 1);
    assert_int_equal(holder_pid, (int)getpid());
    assert_int_equal(gt_share_take(&b, 10, yes, NULL, NULL), GT_SHARE_CANCELLED);
    gt_share_give(&a);
    assert_int_equal(gt_share_take(&b, 0.1, NULL, NULL, NULL), GT_SHARE_TAKEN);
    gt_share_holder_read(&b, &h);
    assert_int_equal(h.turns, 2);
    assert_true(b.switched);        /* a had the GPU since b's last turn */
    gt_share_give(&b);
    assert_int_equal(gt_share_take(&b, 0.1, NULL, NULL, NULL), GT_SHARE_TAKEN);
    assert_false(b.switched);       /* nobody else in between */
    gt_share_give(&b);
    gt_share_close(&a);
    gt_share_close(&b);
}

/* The wait callback of a child that says once, on the descriptor its
 * context points at, that it is queued. */
static void say_queued(void *ctx, const gt_share_holder *h, double waited)
{
    int *fd = ctx;

    (void)h;
    (void)waited;
    if (*fd >= 0 && write(*fd, "w", 1) == 1)
        *fd = -1;
}

/* A child that takes the turn and reports its name on fd, then waits for
 * a byte on go (or dies when 'die'); where queued >= 0, it writes a byte
 * there once it waits in the queue. */
static pid_t child_queued(int report, int go, bool die, char name, int queued)
{
    pid_t pid = fork();
    gt_share s;
    char why[600], c;

    if (pid)
        return pid;
    alarm(20);      /* never left behind by a failed test */
    if (gt_share_open(&s, dir, UUID, why, sizeof why) ||
        gt_share_take(&s, 5, NULL, say_queued, &queued) != GT_SHARE_TAKEN)
        _exit(1);
    if (write(report, &name, 1) != 1)
        _exit(1);
    if (die)
        _exit(0);       /* no give, no close: the kernel drops the lock */
    if (read(go, &c, 1) != 1)
        _exit(1);
    gt_share_close(&s);
    _exit(0);
}

static pid_t child(int report, int go, bool die)
{
    return child_queued(report, go, die, 't', -1);
}

/* rep: children report on it; go: they wait for a byte on it. */
static void pipes(int rep[2], int go[2])
{
    assert_int_equal(pipe(rep), 0);
    assert_int_equal(pipe(go), 0);
}

static void close_pipes(int rep[2], int go[2])
{
    close(rep[0]);
    close(rep[1]);
    close(go[0]);
    close(go[1]);
}

/* The child is gone, and it exited 0. */
static void reap(pid_t pid)
{
    int status;

    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void dead_holder_and_others(void **state)
{
    int rep[2], go[2];
    gt_share s;
    char why[600], c;
    pid_t pid;
    (void)state;
    pipes(rep, go);
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), 0);
    /* A child that dies holding the turn. */
    pid = child(rep[1], go[0], true);
    assert_int_equal(read(rep[0], &c, 1), 1);
    reap(pid);
    assert_int_equal(gt_share_take(&s, 0.5, NULL, NULL, NULL), GT_SHARE_TAKEN);
    gt_share_give(&s);
    /* A live child: one other process; then none once it is gone. */
    pid = child(rep[1], go[0], false);
    assert_int_equal(read(rep[0], &c, 1), 1);
    assert_int_equal(gt_share_others(&s), 1);
    assert_int_equal(gt_share_take(&s, 0.05, NULL, NULL, NULL), GT_SHARE_TIMEOUT);
    assert_int_equal(write(go[1], "g", 1), 1);
    reap(pid);
    assert_int_equal(gt_share_others(&s), 0);
    gt_share_close(&s);
    close_pipes(rep, go);
}

/* The holder gives the turn while a child waits for it: the child gets it
 * before the holder can take it again. */
static void handed_to_a_waiter(void **state)
{
    int rep[2], go[2];
    gt_share s;
    char why[600], c;
    pid_t pid;
    (void)state;
    pipes(rep, go);
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), 0);
    assert_int_equal(gt_share_take(&s, 1, NULL, NULL, NULL), GT_SHARE_TAKEN);
    pid = child(rep[1], go[0], false);
    /* Until the child's slot says it waits. */
    for (int i = 0; i < 500; i++) {
        struct timespec ts = {0, 2000000};
        if (gt_share_others(&s) == 1)
            break;
        nanosleep(&ts, NULL);
    }
    {
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    gt_share_give(&s);
    assert_int_equal(read(rep[0], &c, 1), 1);
    assert_int_equal(gt_share_take(&s, 0.02, NULL, NULL, NULL), GT_SHARE_TIMEOUT);
    assert_int_equal(write(go[1], "g", 1), 1);
    reap(pid);
    assert_int_equal(gt_share_take(&s, 0.5, NULL, NULL, NULL), GT_SHARE_TAKEN);
    gt_share_close(&s);
    close_pipes(rep, go);
}

/* Waiters take the turn in the order they came: b, which waited first,
 * then c, though c may poll first. Each is started once the one before
 * says it is queued (a time alone did not do: a child under
 * ThreadSanitizer on a busy machine took longer to queue). */
static void in_order(void **state)
{
    int rep[2], go[2], queued[2];
    gt_share s;
    char why[600], c[2], w;
    pid_t b, cc;
    (void)state;
    pipes(rep, go);
    assert_int_equal(pipe(queued), 0);
    assert_int_equal(gt_share_open(&s, dir, UUID, why, sizeof why), 0);
    assert_int_equal(gt_share_take(&s, 1, NULL, NULL, NULL), GT_SHARE_TAKEN);
    b = child_queued(rep[1], go[0], false, 'b', queued[1]);
    assert_int_equal(read(queued[0], &w, 1), 1);
    cc = child_queued(rep[1], go[0], false, 'c', queued[1]);
    assert_int_equal(read(queued[0], &w, 1), 1);
    close(queued[0]);
    close(queued[1]);
    gt_share_give(&s);
    assert_int_equal(read(rep[0], &c[0], 1), 1);
    assert_int_equal(c[0], 'b');
    assert_int_equal(write(go[1], "g", 1), 1);
    assert_int_equal(read(rep[0], &c[1], 1), 1);
    assert_int_equal(c[1], 'c');
    assert_int_equal(write(go[1], "g", 1), 1);
    reap(b);
    reap(cc);
    gt_share_close(&s);
    close_pipes(rep, go);
}

static void default_dir(void **state)
{
    (void)state;
    setenv("GPUTUI_LOCK_DIR", "/somewhere", 1);
    assert_string_equal(gt_share_default_dir(), "/somewhere");
    unsetenv("GPUTUI_LOCK_DIR");
    assert_true(!strcmp(gt_share_default_dir(), "/dev/shm") ||
                !strcmp(gt_share_default_dir(), "/tmp"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(created_0666, setup, teardown),
        cmocka_unit_test_setup_teardown(refused, setup, teardown),
        cmocka_unit_test_setup_teardown(turns, setup, teardown),
        cmocka_unit_test_setup_teardown(dead_holder_and_others, setup, teardown),
        cmocka_unit_test_setup_teardown(handed_to_a_waiter, setup, teardown),
        cmocka_unit_test_setup_teardown(in_order, setup, teardown),
        cmocka_unit_test(default_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
