/* The VMM experiment's op=peer: memory made with cuMemCreate on this GPU,
 * mapped, and opened to the other GPUs by cuMemSetAccess (rw or ro). A
 * copy kernel on the first peer reads it into the peer's own memory and,
 * with rw, writes it back; both are timed with events on the peer's
 * stream and checked in full. With ro, set-up has a child process try a
 * write from the peer (vmm_gpu_ro.c) and shows the driver's answer. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmm.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "vmm_gpu_peer.h"
#include "vmm_gpu_ro.h"

#define POISON 0xA5A5A5A5u

struct vm_peer {
    int dev, blocks;
    bool ro;
    uint32_t *local;                    /* size bytes on the peer */
    uint32_t seed;
    void *va;                           /* the range, mapped for the peer */
    size_t bytes;
    gt_timing t;                        /* on the peer: its read, its write */
};

static int on(int dev, gt_err *err)
{
    return GT_CUDA(err, cudaSetDevice(dev));
}

void gt_vmm_peer_teardown(vm *z)
{
    struct vm_peer *q = z->peer;

    if (!q)
        return;
    cudaSetDevice(q->dev);
    gt_timing_free(&q->t);
    gt_free_device(&q->local);
    cudaSetDevice(z->device);
    cudaGetLastError();
    free(q);
    z->peer = NULL;
}

int gt_vmm_peer_setup(vm *z, gt_setup_info *info, gt_err *err)
{
    struct vm_peer *q = calloc(1, sizeof *q);
    double t0 = gt_now(), tv[4] = {0};
    int sms = 1;
    char a[32];

    if (!q) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->peer = q;
    q->dev = z->access[1].location.id;
    q->ro = z->access[1].flags == CU_MEM_ACCESS_FLAGS_PROT_READ;
    gt_format_size(z->rsize, a, sizeof a);
    if (gt_vrange_reserve(z, &z->vdst, z->rsize, err) ||
        gt_vrange_grow(z, &z->vdst, z->rsize, tv, err))
        return -1;
    gt_setup_info_time(info, gt_now() - t0 - tv[3], "VMM: reserve + create + map + access %s", a);
    gt_setup_info_time(info, tv[3], "cuMemSetAccess for GPU %d (%s)", q->dev, q->ro ? "ro" : "rw");
    if (gt_vmm_fill(z, (void *)z->vdst.va, 0, z->size / 4, err) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        return -1;
    if (q->ro)
        gt_vmm_try_ro_write(z, q->dev, info);
    if (!q->ro)
        snprintf(info->note, sizeof info->note, "GPU %d reads it into its own memory, then "
                 "writes it back; each destination poisoned first, then checked in full by "
                 "GPU %d", q->dev, q->dev);
    if (on(q->dev, err))
        return -1;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, q->dev) != cudaSuccess)
        cudaGetLastError();
    q->blocks = 4 * sms;
    q->seed = z->seed;
    q->va = (void *)z->vdst.va;
    q->bytes = z->size;
    if (gt_timing_init(&q->t, &(gt_timing_spec){.pieces = 2, .ungated = true}, err) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&q->local, z->size)))
        return -1;
    gt_setup_info_timing(info, "events on GPU %d's stream around its copy kernel", q->dev);
    return on(z->device, err);
}

/* On the peer, piece 0 reads the range into its own buffer and piece 1
 * writes it back: each destination poisoned first, then checked in full
 * against the pattern. */
enum { READ, WRITE };

static int poison(void *state, int i, cudaStream_t s, gt_err *err)
{
    struct vm_peer *q = state;

    return GT_CUDA(err, gt_k_fill_word(i == READ ? q->local : q->va, q->bytes / 4, POISON,
                                       q->blocks, s));
}

static int copy(void *state, int i, cudaStream_t s, gt_err *err)
{
    struct vm_peer *q = state;

    return GT_CUDA(err, i == READ ? gt_k_copy(q->local, q->va, q->bytes, q->blocks, s)
                                  : gt_k_copy(q->va, q->local, q->bytes, q->blocks, s));
}

static int copied(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    struct vm_peer *q = state;

    return GT_CUDA(err, gt_k_verify_pattern(i == READ ? q->local : q->va, q->bytes / 4, q->seed,
                                            bad, q->blocks, s));
}

int gt_vmm_peer_run(vm *z, gt_sample *out, gt_err *err)
{
    static const uint8_t series[2] = {[READ] = GT_VMM_S_PEER_READ, [WRITE] = GT_VMM_S_PEER_WRITE};
    struct vm_peer *q = z->peer;
    gt_timed w = {.pieces = q->ro ? 1 : 2, .apart = true, .prepare = poison, .work = copy,
                  .check = copied};
    double sec[2];
    uint64_t bad[2];

    if (on(q->dev, err) || gt_timed_sample(&q->t, &w, q, sec, bad, err)) {
        on(z->device, err);
        return -1;
    }
    for (int i = 0; i < w.pieces; i++)
        out[i] = (gt_sample){0, series[i], bad[i] ? GT_V_FAILED : GT_V_FULL, sec[i], z->size};
    return on(z->device, err) ? -1 : w.pieces;
}
