/* A child process of gputui itself, for what must not happen in this
 * process: a fault that would end its CUDA contexts (vmm_gpu_peer.c), or a
 * process's first CUDA call and a device reset (runtime.c). The child is
 * the binary gputui runs from (or the one gt_cuda_set_child_program
 * named), with argv; its first line of output comes back, its stderr goes
 * to /dev/null. The sharing experiment's second
 * process (sharing.c) is started here too, and talked to through pipes. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gputui/base/port.h"
#include "gputui/base/units.h"
#include "gpu.h"

extern char **environ;

/* What a child runs: this binary, unless a program that is not gputui
 * (make soak, the unwind test) names the gputui to start. */
static char program[1024];

void gt_cuda_set_child_program(const char *path)
{
    snprintf(program, sizeof program, "%s", path ? path : "");
}

/* The last children started: their GPU work is this process's own, not
 * another program's (cuda_backend.c's users() leaves them out). */
static int recent[GT_CHILDREN_KEPT];
static unsigned nrecent;

void gt_child_note(int pid)
{
    recent[nrecent++ % GT_CHILDREN_KEPT] = pid;
}

void gt_child_forget(int pid)
{
    for (unsigned i = 0; i < GT_CHILDREN_KEPT; i++)
        if (recent[i] == pid)
            recent[i] = 0;
}

int gt_child_recent(int *pids, int max)
{
    int n = 0;

    for (unsigned i = 0; i < GT_CHILDREN_KEPT && i < nrecent && n < max; i++)
        pids[n++] = recent[i];
    return n;
}

int gt_child_start(char *const argv[], int in_kind, int *to_child, int *from_child,
                   char *why, size_t whylen)
{
    char exe[1024] = "";
    posix_spawn_file_actions_t fa;
    int out[2], in[2] = {-1, -1};
    bool with_stdin = in_kind != GT_CHILD_NO_STDIN;
    pid_t pid = -1;
    int rc = 0;

    if (pipe(out)) {
        snprintf(why, whylen, "pipe: %s", strerror(errno));
        return -1;
    }
    /* A socket carries file descriptors (SCM_RIGHTS) as well as bytes:
     * in[1] is this process's end, in[0] the child's stdin. */
    if (with_stdin && (in_kind == GT_CHILD_SOCKET ? socketpair(AF_UNIX, SOCK_STREAM, 0, in)
                                                  : pipe(in))) {
        snprintf(why, whylen, "%s: %s", in_kind == GT_CHILD_SOCKET ? "socketpair" : "pipe",
                 strerror(errno));
        close(out[0]);
        close(out[1]);
        return -1;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    if (with_stdin) {
        posix_spawn_file_actions_adddup2(&fa, in[0], 0);
        posix_spawn_file_actions_addclose(&fa, in[1]);
    }
    if (program[0])
        snprintf(exe, sizeof exe, "%s", program);
    if (exe[0] || gt_port_exe_for_spawn(exe, sizeof exe))
        rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);   /* an error number */
    if (rc)
        pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    if (with_stdin)
        close(in[0]);
    if (pid <= 0) {
        if (!exe[0])
            snprintf(why, whylen, "gputui could not start itself: its own path is unknown");
        else
            snprintf(why, whylen, "gputui could not start %s: %s", program[0] ? program
                     : "itself", strerror(rc));
        close(out[0]);
        if (with_stdin)
            close(in[1]);
        return -1;
    }
    gt_child_note((int)pid);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    *from_child = out[0];
    if (with_stdin) {
        fcntl(in[1], F_SETFD, FD_CLOEXEC);
        *to_child = in[1];
    }
    return (int)pid;
}

int gt_child_line(char *const argv[], double timeout_s, char *line, size_t len, int *status)
{
    size_t got = 0;
    int fd;
    pid_t pid;
    double t0 = gt_now();

    line[0] = '\0';
    *status = -1;
    if ((pid = gt_child_start(argv, GT_CHILD_NO_STDIN, NULL, &fd, line, len)) < 0)
        return -1;
    while (got + 1 < len) {
        struct pollfd pfd = {fd, POLLIN, 0};
        ssize_t r;
        if (poll(&pfd, 1, 100) <= 0) {
            if (gt_now() - t0 > timeout_s) {
                kill(pid, SIGKILL);
                break;
            }
            continue;
        }
        if ((r = read(fd, line + got, len - 1 - got)) <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    waitpid(pid, status, 0);
    line[got] = '\0';
    line[strcspn(line, "\n")] = '\0';
    return 0;
}
