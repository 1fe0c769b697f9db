/* The sharing experiment on the GPU (the row is
 * src/experiments/sharing/sharing.c). Set-up starts the second process:
 * this binary again (--internal sharing: GT_CHILD_ARG), whose stdin and stdout are two
 * pipes. Each sample times the work alone, then writes 'g' and waits for
 * the child's 'G' (its first kernel or copy is queued), times the same
 * work again, writes 's' and waits for 'S' (its GPU is idle again).
 * beside=stranger: the child copies from set-up to teardown, left out of
 * the children whose work counts as this process's, and each sample times
 * the work once, beside it.
 * latency: one thread follows a chain of 4-byte indices, 128 bytes apart,
 * events around the kernel, its end index checked; copy: 64 MiB from
 * pinned memory, events around it, every word checked on the GPU. */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gputui/cuda_backend.h"
#include "sharing.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

#define POISON 0xDEADBEEFu
#define ACK_WAIT_S 10.0

typedef struct sh {
    int measure;
    bool stranger;
    pid_t child;
    int cmd, ack;                   /* the child's stdin and stdout */
    uint32_t *chain, *dout, *hout;  /* latency */
    uint32_t start;
    uint32_t *src, *dst;            /* copy: pinned host, device */
    uint32_t seed;
    gt_timing t;                    /* one piece, without the gate */
} sh;

/* ---- the second process ---- */

static bool said(int fd, char want)
{
    char c;
    return read(fd, &c, 1) == 1 && c == want;
}

static int load(int device, const char *kind)
{
    bool copies = !strcmp(kind, "copies"), on = false;
    size_t bytes = GT_SH_COPY_BYTES;
    void *host = NULL, *dev = NULL;
    uint32_t *marks = NULL;
    cudaStream_t s;
    int sms = 1;

    if (!copies && strcmp(kind, "kernels"))
        return 64;
    if (cudaSetDevice(device) != cudaSuccess || cudaStreamCreate(&s) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        (copies ? cudaMallocHost(&host, bytes) != cudaSuccess || cudaMalloc(&dev, bytes) != cudaSuccess
                : cudaMalloc((void **)&marks, sizeof *marks) != cudaSuccess))
        return 1;
    if (write(1, "R", 1) != 1)
        return 1;
    for (;;) {
        struct pollfd p = {0, POLLIN, 0};
        char c;
        if (poll(&p, 1, on ? 0 : -1) > 0) {
            if (read(0, &c, 1) != 1 || c == 'q')
                break;
            if (c == 'g' || c == 's') {
                cudaStreamSynchronize(s);
                on = c == 'g';
                if (on)     /* the first piece of work queued before the answer */
                    copies ? cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s)
                           : gt_k_spin(1000000ull, 0, marks, sms * 4, s);
                if (write(1, on ? "G" : "S", 1) != 1)
                    break;
            }
            continue;
        }
        if (copies)
            cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
        else
            gt_k_spin(1000000ull, 0, marks, sms * 4, s);
        cudaStreamSynchronize(s);
    }
    cudaStreamSynchronize(s);
    cudaFreeHost(host);
    cudaFree(dev);
    cudaFree(marks);
    cudaStreamDestroy(s);
    return 0;
}

/* ---- this process ---- */

static int spawn(sh *z, int device, int beside, gt_err *err)
{
    char dev[16], why[300];
    char *argv[] = {"gputui", GT_CHILD_ARG, "sharing", dev,
                    beside == GT_SH_KERNELS ? "kernels" : "copies", NULL};
    struct pollfd p;
    int pid;

    snprintf(dev, sizeof dev, "%d", device);
    /* A dead child makes a write fail with EPIPE: the engine's thread has
     * every signal blocked, SIGPIPE included. */
    if ((pid = gt_child_start(argv, GT_CHILD_PIPE, &z->cmd, &z->ack, why, sizeof why)) < 0) {
        gt_err_set(err, GT_EXIT_FAIL, "sharing: the second process: %s", why);
        return -1;
    }
    z->child = (pid_t)pid;
    p = (struct pollfd){z->ack, POLLIN, 0};
    if (poll(&p, 1, (int)(ACK_WAIT_S * 1000)) <= 0) {
        gt_err_set(err, GT_EXIT_FAIL, "sharing: the second process (pid %d) was not ready on "
                   "GPU %d within %.0f s", pid, device, ACK_WAIT_S);
        return -1;
    }
    if (!said(z->ack, 'R')) {
        int status = 0;
        pid_t got = 0;
        /* It closed its output: it ended, or is ending (else teardown kills it). */
        for (int i = 0; i < 100 && (got = waitpid(z->child, &status, WNOHANG)) == 0; i++)
            usleep(10000);
        if (got != z->child) {
            gt_err_set(err, GT_EXIT_FAIL, "sharing: the second process did not start on GPU "
                       "%d: it said something other than ready", device);
            return -1;
        }
        z->child = 0;
        gt_err_set(err, GT_EXIT_FAIL, "sharing: the second process did not start on GPU %d: "
                   "it exited with status %d (no CUDA context, out of memory, or not gputui)",
                   device, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        return -1;
    }
    if (beside == GT_SH_STRANGER)
        gt_child_forget(pid);
    return 0;
}

/* Sends c and waits for the child's answer. */
static int tell(sh *z, char c, char want, gt_err *err)
{
    struct pollfd p = {z->ack, POLLIN, 0};

    if (write(z->cmd, &c, 1) != 1 || poll(&p, 1, (int)(ACK_WAIT_S * 1000)) <= 0 ||
        !said(z->ack, want)) {
        gt_err_set(err, GT_EXIT_FAIL, "sharing: the second process stopped answering");
        return -1;
    }
    return 0;
}

static void teardown(void *state)
{
    sh *z = state;
    int status;

    if (!z)
        return;
    if (z->child > 0 && write(z->cmd, "q", 1) != 1) {
        /* gone already */
    }
    if (z->cmd >= 0)
        close(z->cmd);
    if (z->ack >= 0)
        close(z->ack);
    if (z->child > 0) {
        for (int i = 0; i < 200 && waitpid(z->child, &status, WNOHANG) == 0; i++)
            usleep(10000);
        if (waitpid(z->child, &status, WNOHANG) == 0) {
            kill(z->child, SIGKILL);
            waitpid(z->child, &status, 0);
        }
    }
    gt_timing_free(&z->t);
    gt_free_device(&z->chain);
    gt_free_device(&z->dout);
    gt_free_pinned(&z->hout);
    gt_free_pinned(&z->src);
    gt_free_device(&z->dst);
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    sh *z = calloc(1, sizeof *z);
    size_t words = GT_SH_CHAIN_BYTES / 4;
    double t0 = gt_now();
    int device = 0;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->cmd = z->ack = -1;
    z->measure = (int)v[GT_SH_MEASURE];
    z->seed = (uint32_t)(gt_now() * 1e6) | 1;
    cudaGetDevice(&device);
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 1, .ungated = true}, err))
        goto fail;
    if (z->measure == GT_SH_LATENCY) {
        if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->chain, GT_SH_CHAIN_BYTES)) ||
            GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dout, sizeof *z->dout)) ||
            GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hout, sizeof *z->hout)) ||
            GT_CUDA(err, gt_k_chain_init(z->chain, words, GT_SH_STEP_BYTES / 4, gt_gpu_sms(),
                                         z->t.s)))
            goto fail;
    } else {
        if (GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->src, GT_SH_COPY_BYTES)) ||
            GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dst, GT_SH_COPY_BYTES)))
            goto fail;
        for (size_t i = 0; i < GT_SH_COPY_BYTES / 4; i++)
            z->src[i] = gt_pattern_word(i, z->seed);
    }
    if (GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "%s", z->measure == GT_SH_LATENCY ?
                       "cudaMalloc 16 MiB, chain built" : "cudaMallocHost + cudaMalloc 64 MiB");
    t0 = gt_now();
    z->stranger = v[GT_SH_BESIDE] == GT_SH_STRANGER;
    if (spawn(z, device, (int)v[GT_SH_BESIDE], err) || (z->stranger && tell(z, 'g', 'G', err)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "the second process: started, its context made%s",
                       z->stranger ? ", copying from now on" : "");
    snprintf(info->note, sizeof info->note, "%s", z->measure == GT_SH_LATENCY ?
             "the chase's end index against the host's" :
             "every copied word, on the GPU, after each copy");
    gt_setup_info_timing(info, "events around the %s, %s", z->measure == GT_SH_LATENCY ?
                         "kernel" : "copy", z->stranger ? "while the second process copies; "
                         "marked disturbed when gputui sees it" : "alone and then with the "
                         "second process loading the GPU");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* copy: the destination poisoned. */
static int poison(void *state, int i, cudaStream_t s, gt_err *err)
{
    sh *z = state;

    (void)i;
    return z->measure == GT_SH_COPY &&
           GT_CUDA(err, gt_k_fill_word(z->dst, GT_SH_COPY_BYTES / 4, POISON, gt_gpu_sms(), s));
}

/* The chase of GT_SH_HOPS hops, or the pinned copy. */
static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    sh *z = state;

    (void)i;
    return GT_CUDA(err, z->measure == GT_SH_LATENCY
                            ? gt_k_chase(z->chain, z->start, GT_SH_HOPS, z->dout, 1, 0, s)
                            : cudaMemcpyAsync(z->dst, z->src, GT_SH_COPY_BYTES,
                                              cudaMemcpyHostToDevice, s));
}

/* copy: every copied word against the pattern. */
static int copied(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    sh *z = state;

    (void)i;
    return GT_CUDA(err, gt_k_verify_pattern(z->dst, GT_SH_COPY_BYTES / 4, z->seed, bad,
                                            gt_gpu_sms(), s));
}

/* One timed run of the work: seconds (a hop's, for latency), and whether
 * it checked out (latency: the chase's end index against the host's). */
static int timed(sh *z, double *sec, bool *ok, gt_err *err)
{
    bool chase = z->measure == GT_SH_LATENCY;
    gt_timed w = {.pieces = 1, .prepare = poison, .work = work, .check = chase ? NULL : copied};
    uint64_t bad;

    if (gt_timed_sample(&z->t, &w, z, sec, &bad, err))
        return -1;
    *ok = bad == 0;
    if (chase) {
        size_t words = GT_SH_CHAIN_BYTES / 4;
        uint32_t want = (uint32_t)(((uint64_t)z->start + (uint64_t)GT_SH_HOPS *
                                    (GT_SH_STEP_BYTES / 4)) % words);
        if (GT_CUDA(err, cudaMemcpyAsync(z->hout, z->dout, sizeof *z->hout,
                                         cudaMemcpyDeviceToHost, z->t.s)) ||
            GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
            return -1;
        *ok = *z->hout == want;
        z->start = want;
        *sec /= GT_SH_HOPS;
    }
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    sh *z = state;
    double sec[2];
    bool ok[2];
    uint64_t bytes = z->measure == GT_SH_LATENCY ? 4 : GT_SH_COPY_BYTES;

    if (z->stranger) {
        if (timed(z, &sec[0], &ok[0], err))
            return -1;
        out[0] = (gt_sample){0, GT_SH_S_STRANGER, ok[0] ? GT_V_FULL : GT_V_FAILED, sec[0],
                             bytes};
        return 1;
    }
    if (timed(z, &sec[0], &ok[0], err) || tell(z, 'g', 'G', err))
        return -1;
    if (timed(z, &sec[1], &ok[1], err)) {
        tell(z, 's', 'S', err);
        return -1;
    }
    if (tell(z, 's', 'S', err))
        return -1;
    for (int s = 0; s < 2; s++)
        out[s] = (gt_sample){0, (uint8_t)s, ok[s] ? GT_V_FULL : GT_V_FAILED, sec[s], bytes};
    return 2;
}

/* The second process: "DEVICE KIND" (kernels or copies) loads DEVICE
 * while its stdin says 'g' (go) until 's' (stop), acknowledging each on
 * stdout, and exits at 'q' or the end of its input. */
static int child(int argc, char **argv, double t_main)
{
    (void)t_main;
    if (argc != 2)
        return 64;
    return load(atoi(argv[0]), argv[1]);
}

GT_GPU_OPS(sharing) = {.setup = setup, .run = run, .teardown = teardown, .child = child};
