/* The VMM experiment's op=share (vmm_gpu_share.h): memory made by
 * cuMemCreate with a POSIX file descriptor as its shareable handle, and a
 * second gputui process that imports it. Each sample: a fresh allocation,
 * mapped here and filled with the pattern of one seed; its descriptor
 * exported (timed) and sent with SCM_RIGHTS over the child's stdin, a
 * Unix socket, with the size, the seed and this process's address; the
 * child imports it, reserves its own range, maps it and opens it (each
 * timed on its clock), checks the first half against the pattern, writes
 * the second half with the pattern of seed + 1 and answers with its times,
 * its count of wrong words and its address; this process then checks the
 * second half. The memory is the same, the addresses need not be. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmm.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "vmm_gpu_share.h"

struct vm_share {
    pid_t pid;
    int sock, from;                 /* the child's stdin (a socket) and stdout */
    char this_va[24], other_va[24]; /* where each process mapped it, last sample */
};

/* One line from fd within timeout_s, without its newline; -1 on a timeout,
 * an error or the end of the stream. */
static int read_line(int fd, char *line, size_t len, double timeout_s)
{
    size_t got = 0;
    double t0 = gt_now();

    while (got + 1 < len) {
        struct pollfd pfd = {fd, POLLIN, 0};
        char c;
        int r = poll(&pfd, 1, 100);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r <= 0) {
            if (gt_now() - t0 > timeout_s)
                return -1;
            continue;
        }
        if (read(fd, &c, 1) != 1)
            return -1;
        if (c == '\n')
            break;
        line[got++] = c;
    }
    line[got] = '\0';
    return 0;
}

void gt_vmm_share_teardown(vm *z)
{
    struct vm_share *q = z->share;
    int status;

    if (!q)
        return;
    if (q->sock >= 0)
        close(q->sock);             /* the child reads the end of its stdin and exits */
    if (q->pid > 0) {
        pid_t got = 0;
        for (int i = 0; i < 200 && (got = waitpid(q->pid, &status, WNOHANG)) == 0; i++)
            usleep(10000);
        if (got != q->pid) {
            kill(q->pid, SIGKILL);
            waitpid(q->pid, &status, 0);
        }
    }
    if (q->from >= 0)
        close(q->from);
    free(q);
    z->share = NULL;
}

int gt_vmm_share_setup(vm *z, gt_setup_info *info, gt_err *err)
{
    struct vm_share *q = calloc(1, sizeof *q);
    char dev[16], line[160], why[200];
    char *argv[] = {"gputui", GT_CHILD_ARG, "vmm", "share", dev, NULL};
    CUdevice d;
    int ok = 0;
    double t0 = gt_now();

    if (!q) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    q->sock = q->from = -1;
    z->share = q;
    if (GT_CU(err, z->cu->cuDeviceGet(&d, z->device)) ||
        GT_CU(err, z->cu->cuDeviceGetAttribute(&ok,
              CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, d)))
        return -1;
    if (!ok) {
        gt_err_set(err, GT_EXIT_USAGE, "op=share: this device does not export memory as a "
                   "POSIX file descriptor (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_"
                   "SUPPORTED = 0)");
        return -1;
    }
    snprintf(dev, sizeof dev, "%d", z->device);
    if ((q->pid = gt_child_start(argv, GT_CHILD_SOCKET, &q->sock, &q->from, why,
                                 sizeof why)) < 0) {
        gt_err_set(err, GT_EXIT_FAIL, "op=share: %s", why);
        return -1;
    }
    if (read_line(q->from, line, sizeof line, 30) || strcmp(line, "ready")) {
        gt_err_set(err, GT_EXIT_FAIL, "op=share: the second process did not start its CUDA "
                   "context (%s)", line[0] ? line : "no answer in 30 s");
        return -1;
    }
    gt_setup_info_time(info, gt_now() - t0, "a second gputui process, its CUDA context made");
    /* One exchange before the samples, for where each process maps it. */
    {
        gt_sample first[4];
        if (gt_vmm_share_run(z, first, err) < 0)
            return -1;
        if (first[0].verify != GT_V_FULL) {
            gt_err_set(err, GT_EXIT_VERIFY, "op=share: the two processes did not see each "
                       "other's writes in the memory they share");
            return -1;
        }
    }
    snprintf(info->note, sizeof info->note, "each process checks every word the other wrote "
             "(the same memory, mapped at %s here and at %s there); the descriptor goes over "
             "a Unix socket (SCM_RIGHTS)", q->this_va, q->other_va);
    gt_setup_info_timing(info, "cuMemExportToShareableHandle on this process's clock; import, "
                         "map and access on the other's");
    return 0;
}

/* Sends fd with text over the socket. */
static int send_fd(int sock, int fd, const char *text, gt_err *err)
{
    struct msghdr m;
    struct iovec io = {(void *)text, strlen(text)};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } ctl;
    struct cmsghdr *c;

    memset(&m, 0, sizeof m);
    memset(&ctl, 0, sizeof ctl);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = ctl.buf;
    m.msg_controllen = sizeof ctl.buf;
    c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    if (sendmsg(sock, &m, MSG_NOSIGNAL) != (ssize_t)io.iov_len) {
        gt_err_set(err, GT_EXIT_FAIL, "op=share: sending the descriptor to the other process: "
                   "%s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Words of p[0 .. n) that differ from the pattern of seed, or -1. */
static long long wrong(vm *z, const void *p, size_t n, uint32_t seed, gt_err *err)
{
    uint32_t keep = z->seed;
    long long bad;

    z->seed = seed;
    bad = gt_vmm_count_bad(z, p, n, err);
    z->seed = keep;
    return bad;
}

int gt_vmm_share_run(vm *z, gt_sample *out, gt_err *err)
{
    struct vm_share *q = z->share;
    size_t words = z->rsize / 4, half = words / 2;
    uint32_t seed = (uint32_t)(gt_now() * 1e6) | 1u;
    double t0, t_export, ti, tm, ta;
    unsigned long long child_bad;
    long long bad;
    char msg[96], line[200], va[24];
    int fd = -1;
    vrange r;

    if (gt_vrange_reserve(z, &r, z->rsize, err))
        return -1;
    if (gt_vrange_grow(z, &r, z->rsize, NULL, err) ||
        GT_CUDA(err, gt_k_fill_pattern((uint32_t *)r.va, words, seed, z->blocks, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        goto fail;
    t0 = gt_now();
    GT_TA("fd, %s", GT_TA_S(z->rsize));
    if (GT_CU(err, z->cu->cuMemExportToShareableHandle(&fd, r.h[0],
                                                       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                                       0)))
        goto fail;
    t_export = gt_now() - t0;
    snprintf(msg, sizeof msg, "map %zu %u %llx\n", z->rsize, seed, (unsigned long long)r.va);
    if (send_fd(q->sock, fd, msg, err))
        goto fail;
    close(fd);
    fd = -1;
    if (read_line(q->from, line, sizeof line, 30)) {
        gt_err_set(err, GT_EXIT_FAIL, "op=share: no answer from the other process in 30 s");
        goto fail;
    }
    if (sscanf(line, "ok %lf %lf %lf %llu %23s", &ti, &tm, &ta, &child_bad, va) != 5) {
        gt_err_set(err, GT_EXIT_FAIL, "op=share: the other process: %s",
                   strncmp(line, "fail ", 5) ? line : line + 5);
        goto fail;
    }
    snprintf(q->other_va, sizeof q->other_va, "0x%s", va);
    snprintf(q->this_va, sizeof q->this_va, "0x%llx", (unsigned long long)r.va);
    if ((bad = wrong(z, (const uint32_t *)r.va + half, words - half, seed + 1, err)) < 0)
        goto fail;
    gt_vrange_free(z, &r, NULL);
    {
        int v = child_bad == 0 && bad == 0 ? GT_V_FULL : GT_V_FAILED;
        double t[4] = {t_export, ti, tm, ta};
        for (int i = 0; i < 4; i++)
            out[i] = (gt_sample){0, (uint8_t)(GT_VMM_S_EXPORT + i), (uint8_t)v, t[i], z->rsize};
    }
    return 4;
fail:
    if (fd >= 0)
        close(fd);
    gt_vrange_free(z, &r, NULL);
    return -1;
}

/* ---- the other process ---- */

/* The next descriptor and its line from stdin: 1, 0 at the end of the
 * stream, -1 on an error. */
static int receive(int *fd, char *text, size_t len)
{
    struct msghdr m;
    struct iovec io = {text, len - 1};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int))];
    } ctl;
    struct cmsghdr *c;
    ssize_t n;

    memset(&m, 0, sizeof m);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = ctl.buf;
    m.msg_controllen = sizeof ctl.buf;
    do
        n = recvmsg(0, &m, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return n == 0 ? 0 : -1;
    text[n] = '\0';
    *fd = -1;
    for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            memcpy(fd, CMSG_DATA(c), sizeof *fd);
    return *fd >= 0 ? 1 : -1;
}

/* One descriptor: imported, mapped at an address of this process's own,
 * opened, its first half checked and its second half written. */
static void serve(vm *z, int fd, size_t size, uint32_t seed)
{
    CUmemGenericAllocationHandle h;
    CUdeviceptr va = 0;
    CUmemAccessDesc rw;
    double t0 = gt_now(), ti, tm, ta;
    size_t words = size / 4, half = words / 2;
    long long bad;
    gt_err err;

    gt_err_clear(&err);
    memset(&rw, 0, sizeof rw);
    rw.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    rw.location.id = z->device;
    rw.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (GT_CU(&err, z->cu->cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)fd,
                                                          CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))) {
        close(fd);
        printf("fail %s\n", err.msg);
        return;
    }
    ti = gt_now() - t0;
    close(fd);
    if (GT_CU(&err, z->cu->cuMemAddressReserve(&va, size, 0, 0, 0))) {
        z->cu->cuMemRelease(h);
        printf("fail %s\n", err.msg);
        return;
    }
    t0 = gt_now();
    if (GT_CU(&err, z->cu->cuMemMap(va, size, 0, h, 0)))
        goto release;
    tm = gt_now() - t0;
    t0 = gt_now();
    if (GT_CU(&err, z->cu->cuMemSetAccess(va, size, &rw, 1)))
        goto unmap;
    ta = gt_now() - t0;
    z->seed = seed;
    if ((bad = gt_vmm_count_bad(z, (void *)va, half, &err)) < 0 ||
        GT_CUDA(&err, gt_k_fill_pattern((uint32_t *)va + half, words - half, seed + 1, z->blocks,
                                        z->t.s)) ||
        GT_CUDA(&err, cudaStreamSynchronize(z->t.s)))
        goto unmap;
    printf("ok %.9f %.9f %.9f %lld %llx\n", ti, tm, ta, bad, (unsigned long long)va);
    fflush(stdout);
    z->cu->cuMemUnmap(va, size);
    z->cu->cuMemRelease(h);
    z->cu->cuMemAddressFree(va, size);
    return;
unmap:
    z->cu->cuMemUnmap(va, size);
release:
    z->cu->cuMemRelease(h);
    z->cu->cuMemAddressFree(va, size);
    printf("fail %s\n", err.msg);
}

int gt_vmm_share_child(int device)
{
    vm z;
    gt_err err;
    char text[128];
    int fd, r;

    /* Never outlive the gputui that started it: killed when it ends, and
     * ending at the end of its socket. */
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() == 1)
        return GT_EXIT_FAIL;
    memset(&z, 0, sizeof z);
    gt_err_clear(&err);
    z.device = device;
    if (!(z.cu = gt_cu(&err)) || GT_CUDA(&err, cudaSetDevice(device)) ||
        GT_CUDA(&err, cudaFree(NULL)) ||
        GT_CUDA(&err, cudaDeviceGetAttribute(&z.blocks, cudaDevAttrMultiProcessorCount, device)) ||
        gt_timing_init(&z.t, &(gt_timing_spec){.pieces = 1, .ungated = true}, &err)) {
        printf("setup %s\n", err.msg);
        fflush(stdout);
        return GT_EXIT_FAIL;
    }
    z.blocks *= 4;
    printf("ready\n");
    fflush(stdout);
    while ((r = receive(&fd, text, sizeof text)) > 0) {
        size_t size;
        unsigned seed;
        if (sscanf(text, "map %zu %u", &size, &seed) != 2 || size < 8) {
            close(fd);
            printf("fail a message the other process does not know: %.40s\n", text);
            fflush(stdout);
            continue;
        }
        serve(&z, fd, size, (uint32_t)seed);
        fflush(stdout);
    }
    gt_timing_free(&z.t);
    return r < 0 ? GT_EXIT_FAIL : 0;
}
