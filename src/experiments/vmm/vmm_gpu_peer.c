/* The VMM experiment's op=peer: memory made with cuMemCreate on this GPU,
 * mapped, and opened to the other GPUs by cuMemSetAccess (rw or ro). A
 * copy kernel on the first peer reads it into the peer's own memory and,
 * with rw, writes it back; both are timed with events on the peer's
 * stream and checked in full. With ro, set-up has a child process try a
 * write from the peer (try_write) and shows the driver's answer. */
#define _GNU_SOURCE
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmm.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "gputui/base/port.h"
#include "vmm_gpu_peer.h"

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

/* ro: what the driver answers a kernel on the peer that writes one word.
 * Such a fault ends every CUDA context of the process that makes it, so
 * it is made by a child process (gt_vmm_child) with a VMM
 * allocation of its own, mapped the same way; its one line of output is
 * the answer. */
static void try_write(vm *z, struct vm_peer *q, gt_setup_info *info)
{
    char self[16], peer[16], line[96] = "";
    char *argv[] = {"gputui", GT_CHILD_ARG, "vmm", self, peer, NULL};
    int status;
    double t0 = gt_now();

    snprintf(self, sizeof self, "%d", z->device);
    snprintf(peer, sizeof peer, "%d", q->dev);
    if (gt_child_line(argv, 30, line, sizeof line, &status) && strncmp(line, "pipe", 4) == 0) {
        snprintf(info->note, sizeof info->note, "ro: the write from GPU %d was not tried "
                 "(%s); reads checked in full", q->dev, line);
        return;
    }
    gt_setup_info_time(info, gt_now() - t0, "ro write tried in a child process");
    if (!strncmp(line, "refused ", 8))
        snprintf(info->note, sizeof info->note, "ro: a write from GPU %d faults: %s (tried in a "
                 "child process: the fault ends a process's CUDA contexts); reads checked in full",
                 q->dev, line + 8);
    else if (!strcmp(line, "accepted"))
        snprintf(info->note, sizeof info->note, "ro: a write from GPU %d was ACCEPTED (tried in "
                 "a child process); reads checked in full", q->dev);
    else
        snprintf(info->note, sizeof info->note, "ro: the write from GPU %d could not be tried: "
                 "%s; reads checked in full", q->dev, line[0] ? line : "no answer from the child");
}

/* The child: VMM memory on 'self', read-write there and read-only for
 * 'peer'; a kernel on the peer writes one word. Prints "refused ERROR",
 * "accepted" or "setup MESSAGE". */
static int ro_write_probe(int self, int peer)
{
    vm z;
    gt_err err;
    size_t g;
    cudaError_t rc;

    memset(&z, 0, sizeof z);
    gt_err_clear(&err);
    z.device = self;
    z.prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    z.prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    z.prop.location.id = self;
    z.access[0].location = z.prop.location;
    z.access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    z.access[1].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    z.access[1].location.id = peer;
    z.access[1].flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    z.naccess = 2;
    if (!(z.cu = gt_cu(&err)) || on(self, &err) || GT_CUDA(&err, cudaFree(NULL)) ||
        GT_CU(&err, z.cu->cuMemGetAllocationGranularity(&g, &z.prop,
                                                        CU_MEM_ALLOC_GRANULARITY_MINIMUM)) ||
        gt_vrange_reserve(&z, &z.vdst, g, &err) || gt_vrange_grow(&z, &z.vdst, g, NULL, &err) ||
        GT_CUDA(&err, cudaMemset((void *)z.vdst.va, 0, g)) ||
        GT_CUDA(&err, cudaDeviceSynchronize()) || on(peer, &err)) {
        printf("setup %s\n", err.msg);
        return GT_EXIT_FAIL;
    }
    rc = gt_k_fill_word((uint32_t *)z.vdst.va, 1, POISON, 1, 0);
    if (rc == cudaSuccess)
        rc = cudaDeviceSynchronize();
    if (rc == cudaSuccess)
        printf("accepted\n");
    else
        printf("refused %s (%s)\n", cudaGetErrorName(rc), cudaGetErrorString(rc));
    fflush(stdout);
    _exit(0);       /* the contexts are gone: nothing to release */
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
        try_write(z, q, info);
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

int gt_vmm_child(int argc, char **argv, double t_main)
{
    (void)t_main;
    if (argc != 2) {
        printf("setup the VMM child takes SELF PEER\n");
        return 64;
    }
    return ro_write_probe(atoi(argv[0]), atoi(argv[1]));
}
