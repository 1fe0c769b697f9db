/* A child process of gputui itself, for what must not happen in this
 * process: a fault that would end its CUDA contexts (vmm_peer.c), or a
 * process's first CUDA call and a device reset (runtime.c). The child is
 * the binary gputui runs from, with argv; its first line of output comes
 * back, its stderr goes to /dev/null. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gputui/base/port.h"
#include "gputui/base/units.h"
#include "gpu.h"

extern char **environ;

/* The last children started: their GPU work is this process's own, not
 * another program's (cuda_backend.c's users() leaves them out). */
static int recent[GT_CHILDREN_KEPT];
static unsigned nrecent;

void gt_child_note(int pid)
{
    recent[nrecent++ % GT_CHILDREN_KEPT] = pid;
}

int gt_child_recent(int *pids, int max)
{
    int n = 0;

    for (unsigned i = 0; i < GT_CHILDREN_KEPT && i < nrecent && n < max; i++)
        pids[n++] = recent[i];
    return n;
}

int gt_child_line(char *const argv[], double timeout_s, char *line, size_t len, int *status)
{
    char exe[1024];
    posix_spawn_file_actions_t fa;
    int fds[2];
    size_t got = 0;
    pid_t pid;
    double t0 = gt_now();

    line[0] = '\0';
    *status = -1;
    if (pipe(fds)) {
        snprintf(line, len, "pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    if (!gt_port_exe_for_spawn(exe, sizeof exe) ||
        posix_spawn(&pid, exe, &fa, NULL, argv, environ))
        pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    if (pid > 0)
        gt_child_note((int)pid);
    close(fds[1]);
    while (pid > 0 && got + 1 < len) {
        struct pollfd pfd = {fds[0], POLLIN, 0};
        ssize_t r;
        if (poll(&pfd, 1, 100) <= 0) {
            if (gt_now() - t0 > timeout_s) {
                kill(pid, SIGKILL);
                break;
            }
            continue;
        }
        if ((r = read(fds[0], line + got, len - 1 - got)) <= 0)
            break;
        got += (size_t)r;
    }
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, status, 0);
    line[got] = '\0';
    line[strcspn(line, "\n")] = '\0';
    if (pid <= 0) {
        snprintf(line, len, "gputui could not start itself: %s",
                 exe[0] ? strerror(errno) : "its own path is unknown");
        return -1;
    }
    return 0;
}
