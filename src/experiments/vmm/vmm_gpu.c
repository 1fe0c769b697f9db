/* The Virtual Memory Management experiment on the GPU.
 *   alloc:     each VMM call (reserve, create, map, set access, unmap,
 *              release, address free) and cudaMalloc/cudaFree and
 *              cudaMallocAsync/cudaFreeAsync (each with a stream
 *              synchronise), timed on the CPU; every allocation is filled
 *              and checked on the GPU before it is released.
 *   bandwidth, read: the data moved (vmm_gpu_data.c).
 * location=host or host-numa puts the VMM memory on the host (the read
 * then also times mapped cudaHostAlloc memory, its runtime twin).
 * share:     another gputui process imports the memory by a file
 *              descriptor (vmm_gpu_share.c).
 * With access=ro, this GPU's own mapping is read-only once the data is
 * in, and a write through it is tried in a child process (vmm_gpu_ro.c).
 * With compression on, cuMemCreate asks for compressible memory and the
 * set-up reads back whether it was granted; bandwidth and read fill the
 * memory with the data asked for (vmm_kernels.h).
 *   grow:      one step per iteration of a vector growing from start to
 *              end, two ways: a chunk mapped at the end of a range
 *              reserved once, or cudaMalloc of the new size + copy +
 *              cudaFree. After every step the whole vector is checked.
 * Every driver call goes through GT_CU, which names the call and the
 * CUresult; every failure unwinds what was done so far. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmm.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"
#include "vmm_gpu_range.h"
#include "vmm_gpu_peer.h"
#include "vmm_gpu_ro.h"
#include "vmm_gpu_share.h"
#include "vmm_gpu_data.h"

/* Writes the pattern over a fresh allocation and reads it back. */
static int usable(vm *z, void *p, size_t bytes, bool *ok, gt_err *err)
{
    long long bad;

    if (gt_vmm_fill(z, p, 0, bytes / 4, err) || (bad = gt_vmm_count_bad(z, p, bytes / 4, err)) < 0)
        return -1;
    *ok = bad == 0;
    return 0;
}

static size_t free_now(void)
{
    size_t f = 0, t = 0;

    if (cudaMemGetInfo(&f, &t) != cudaSuccess)
        cudaGetLastError();
    return f;
}

/* ---- set-up and teardown ---- */

static void grow_reset(vm *z)
{
    gt_vrange_free(z, &z->g, NULL);
    gt_free_device(&z->gr);
    z->cur = 0;
}

static void teardown(void *state)
{
    vm *z = state;

    if (!z)
        return;
    gt_vmm_peer_teardown(z);
    gt_vmm_share_teardown(z);
    gt_gpu_quiesce();
    if (z->cu) {
        gt_vrange_free(z, &z->vsrc, NULL);
        gt_vrange_free(z, &z->vdst, NULL);
        grow_reset(z);
    }
    gt_free_device(&z->rsrc);
    gt_free_device(&z->rdst);
    gt_free_device(&z->sums);
    gt_free_pinned(&z->host);
    gt_free_pinned(&z->mapped);
    gt_timing_free(&z->t);
    free(z);
}

static int grow_start(vm *z, gt_err *err);
static int grow_step(vm *z, gt_sample *out, size_t *peak, gt_err *err);

/* Where cuMemCreate puts the memory (z->prop.location): this GPU, the
 * host, or one host NUMA node, as far as the toolkit gputui was built
 * with knows them (the row's check refuses the rest, naming the version). */
static int place(vm *z, const int64_t *v, gt_err *err)
{
    z->loc = v[GT_VMM_OP] == GT_VMM_OP_ALLOC || v[GT_VMM_OP] == GT_VMM_OP_READ
                 ? (int)v[GT_VMM_LOC] : GT_VMM_LOC_DEVICE;
    switch (z->loc) {
    case GT_VMM_LOC_DEVICE:
        z->prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        z->prop.location.id = z->device;
        return 0;
#if CUDA_VERSION >= 13000
    case GT_VMM_LOC_HOST:
        z->prop.location.type = CU_MEM_LOCATION_TYPE_HOST;
        z->prop.location.id = 0;
        return 0;
#endif
#if CUDA_VERSION >= 12020
    case GT_VMM_LOC_HOST_NUMA:
        z->prop.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
        z->prop.location.id = (int)v[GT_VMM_NUMA];
        return 0;
#endif
    default:
        gt_err_set(err, GT_EXIT_USAGE, "location: this gputui was built with CUDA %d.%d, "
                   "whose cuMemCreate does not place memory there; allowed: device",
                   CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
        return -1;
    }
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    vm *z = calloc(1, sizeof *z);
    char a[32], b[32], c[32];
    size_t g;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    if (!(z->cu = gt_cu(err)))
        goto fail;
    z->op = (int)v[GT_VMM_OP];
    z->dir = (int)v[GT_VMM_DIR];
    z->size = (size_t)v[GT_VMM_SIZE];
    z->blocks = gt_gpu_sms() * 4;
    z->data = z->op == GT_VMM_OP_BANDWIDTH || z->op == GT_VMM_OP_READ ? (int)v[GT_VMM_DATA]
                                                                       : GT_VMM_DATA_PATTERN;
    z->ro = z->op == GT_VMM_OP_READ && v[GT_VMM_ACCESS] == GT_VMM_ACCESS_RO;
    z->comp = v[GT_VMM_COMP] == GT_VMM_COMP_ON && (z->op == GT_VMM_OP_ALLOC ||
              z->op == GT_VMM_OP_BANDWIDTH || z->op == GT_VMM_OP_READ);
    z->rdma = v[GT_VMM_RDMA] == GT_VMM_COMP_ON && (z->op == GT_VMM_OP_ALLOC ||
              z->op == GT_VMM_OP_BANDWIDTH || z->op == GT_VMM_OP_READ);
    cudaGetDevice(&z->device);
    z->prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    if (place(z, v, err))
        goto fail;
    if (z->op == GT_VMM_OP_SHARE)   /* exportable as a file descriptor */
        z->prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    if (z->comp)    /* the granularity may differ for compressible memory: asked with it */
        z->prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
    if (z->rdma)
        z->prop.allocFlags.gpuDirectRDMACapable = 1;
    if (GT_CU(err, z->cu->cuMemGetAllocationGranularity(&g, &z->prop,
              v[GT_VMM_GRAN] == GT_VMM_GRAN_MIN ? CU_MEM_ALLOC_GRANULARITY_MINIMUM
                                                : CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)))
        goto fail;
    z->gran = g;
    z->rsize = gt_vmm_round(z->size, g);
    /* Who may touch the memory: this GPU, and the peers if asked. */
    z->access[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    z->access[0].location.id = z->device;
    z->access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    z->naccess = 1;
    if (v[GT_VMM_PEER] != GT_VMM_PEER_OFF) {
        int n = 0, can;
        cudaGetDeviceCount(&n);
        for (int o = 0; o < n && z->naccess <= MAX_PEERS; o++)
            if (o != z->device && cudaDeviceCanAccessPeer(&can, o, z->device) == cudaSuccess && can) {
                CUmemAccessDesc *d = &z->access[z->naccess++];
                d->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
                d->location.id = o;
                d->flags = v[GT_VMM_PEER] == GT_VMM_PEER_RO ? CU_MEM_ACCESS_FLAGS_PROT_READ
                                                             : CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
            }
        cudaGetLastError();
        if (z->naccess == 1) {
            gt_err_set(err, GT_EXIT_USAGE, "peer-access: no other GPU can access device %d",
                       z->device);
            goto fail;
        }
    }
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 3, .ungated = true, .sleep = true,
                                                 .flush_bytes = z->op == GT_VMM_OP_READ ?
                                                                gt_l2_flush_size(p) : 0},
                       err))
        goto fail;
    z->seed = (uint32_t)(gt_now() * 1e6);

    switch (z->op) {
    case GT_VMM_OP_ALLOC:
        if (z->comp || z->rdma) {   /* one allocation made and released: the grant */
            vrange r;
            if (gt_vrange_reserve(z, &r, z->rsize, err))
                goto fail;
            if (gt_vrange_grow(z, &r, z->rsize, NULL, err) || gt_vrange_granted(z, &r, err)) {
                gt_vrange_free(z, &r, NULL);
                goto fail;
            }
            gt_vrange_free(z, &r, NULL);
        }
        snprintf(info->note, sizeof info->note, "each allocation is filled and read back on "
                 "the GPU before it is released; %s granularity %s: %s -> %s%s",
                 v[GT_VMM_GRAN] == GT_VMM_GRAN_MIN ? "minimum" : "recommended",
                 gt_format_size(g, a, sizeof a), gt_format_size(z->size, b, sizeof b),
                 gt_format_size(z->rsize, c, sizeof c), gt_vmm_granted_note(z));
        break;
    case GT_VMM_OP_READ:
        if (gt_vmm_read_setup(z, info, err))
            goto fail;
        break;
    case GT_VMM_OP_SHARE:
        if (gt_vmm_share_setup(z, info, err))
            goto fail;
        break;
    case GT_VMM_OP_BANDWIDTH:
        if (gt_vmm_bandwidth_setup(z, info, err))
            goto fail;
        break;
    case GT_VMM_OP_PEER:
        if (gt_vmm_peer_setup(z, info, err))
            goto fail;
        break;
    default: {
        /* One whole growth, untimed per step, for its totals and peaks. */
        z->start = (size_t)v[GT_VMM_START];
        z->end = (size_t)v[GT_VMM_END];
        z->step = (size_t)v[GT_VMM_STEP];
        size_t base = free_now(), peak[2] = {0, 0}, steps = 0;
        double tot[2] = {0, 0};
        gt_sample s[2];
        if (grow_start(z, err))
            goto fail;
        while (z->cur) {
            size_t pk[2];
            if (grow_step(z, s, pk, err))
                goto fail;
            for (int i = 0; i < 2; i++) {
                tot[i] += s[i].sec;
                if (base - pk[i] > peak[i] && pk[i] < base)
                    peak[i] = base - pk[i];
                if (s[i].verify != GT_V_FULL) {
                    gt_err_set(err, GT_EXIT_VERIFY, "grow: the data did not survive step %zu "
                               "(%s)", steps + 1, i ? "reallocate" : "map in place");
                    goto fail;
                }
            }
            steps++;
        }
        gt_setup_info_time(info, tot[0], "grow by mapping, %zu steps; peak +%s", steps,
                           gt_format_size(peak[0], a, sizeof a));
        gt_setup_info_time(info, tot[1], "grow by reallocating; peak +%s",
                           gt_format_size(peak[1], b, sizeof b));
        snprintf(info->note, sizeof info->note, "after every step the whole vector, on the "
                 "GPU; peaks: cudaMemGetInfo after each allocation");
        break;
    }
    }
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* ---- op=alloc ---- */

static int run_alloc(vm *z, gt_sample *out, gt_err *err)
{
    vrange r;
    double tv[4], tf[3], t0, t1, t2;
    void *p = NULL;
    bool ok;
    int k = 0;

    /* VMM: reserve, create, map, access; check; unmap, release, free. */
    t0 = gt_now();
    if (gt_vrange_reserve(z, &r, z->rsize, err))
        return -1;
    t1 = gt_now();
    if (gt_vrange_grow(z, &r, z->rsize, tv, err) || usable(z, (void *)r.va, z->rsize, &ok, err)) {
        gt_vrange_free(z, &r, NULL);
        return -1;
    }
    gt_vrange_free(z, &r, tf);
    double vt[7] = {t1 - t0, tv[0], tv[1], tv[2], tf[0], tf[1], tf[2]};
    for (int i = 0; i < 7; i++)
        out[k++] = (gt_sample){0, (uint8_t)(GT_VMM_S_RESERVE + i), ok ? GT_V_FULL : GT_V_FAILED,
                               vt[i], z->rsize};
    if (z->naccess > 1)
        out[k++] = (gt_sample){0, GT_VMM_S_ACCESS_PEERS, ok ? GT_V_FULL : GT_V_FAILED, tv[3],
                               z->rsize};

    /* cudaMalloc / cudaFree. */
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc(&p, z->size)))
        return -1;
    t1 = gt_now();
    if (usable(z, p, z->size, &ok, err)) {
        cudaFree(p);
        return -1;
    }
    t2 = gt_now();
    if (GT_CUDA(err, cudaFree(p)))
        return -1;
    out[k++] = (gt_sample){0, GT_VMM_S_MALLOC, ok ? GT_V_FULL : GT_V_FAILED, t1 - t0, z->size};
    out[k++] = (gt_sample){0, GT_VMM_S_FREE, ok ? GT_V_FULL : GT_V_FAILED, gt_now() - t2, z->size};

    /* Stream-ordered: each call with the synchronise that makes it real. */
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMallocAsync(&p, z->size, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        return -1;
    t1 = gt_now();
    if (usable(z, p, z->size, &ok, err)) {
        cudaFreeAsync(p, z->t.s);
        cudaStreamSynchronize(z->t.s);
        return -1;
    }
    t2 = gt_now();
    if (GT_CUDA(err, cudaFreeAsync(p, z->t.s)) || GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        return -1;
    out[k++] = (gt_sample){0, GT_VMM_S_MALLOC_ASYNC, ok ? GT_V_FULL : GT_V_FAILED, t1 - t0, z->size};
    out[k++] = (gt_sample){0, GT_VMM_S_FREE_ASYNC, ok ? GT_V_FULL : GT_V_FAILED, gt_now() - t2,
                           z->size};
    return k;
}

/* ---- op=grow ---- */

/* Both vectors at the start size, patterned. */
static int grow_start(vm *z, gt_err *err)
{
    grow_reset(z);
    if (gt_vrange_reserve(z, &z->g, gt_vmm_round(z->end, z->gran), err) ||
        gt_vrange_grow(z, &z->g, z->start, NULL, err) ||
        GT_CUDA_ALLOC(err, cudaMalloc(&z->gr, z->start)) ||
        gt_vmm_fill(z, (void *)z->g.va, 0, z->start / 4, err) || gt_vmm_fill(z, z->gr, 0, z->start / 4, err) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s))) {
        grow_reset(z);
        return -1;
    }
    z->cur = z->start;
    return 0;
}

/* One step both ways: out[0] map in place, out[1] reallocate; peak[i] the
 * free device memory during step i as if way i were alone (the other
 * way's vector, whose size is known, added back). The vectors are reset
 * once they reach the end. */
static int grow_step(vm *z, gt_sample *out, size_t *peak, gt_err *err)
{
    size_t next = z->cur + z->step;
    double t0, t1, t2, t3;
    long long bad;
    void *n = NULL;

    /* (a) map a chunk at the end: the pointer and the data stay. */
    t0 = gt_now();
    if (gt_vrange_grow(z, &z->g, z->step, NULL, err))
        return -1;
    t1 = gt_now();
    peak[0] = free_now() + z->cur;         /* the reallocated vector holds cur bytes */
    if (gt_vmm_fill(z, (void *)z->g.va, z->cur / 4, z->step / 4, err) ||
        (bad = gt_vmm_count_bad(z, (void *)z->g.va, next / 4, err)) < 0)
        return -1;
    out[0] = (gt_sample){0, GT_VMM_S_VMM, bad ? GT_V_FAILED : GT_V_FULL, t1 - t0, z->step};

    /* (b) cudaMalloc the new size, copy, free the old one. */
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc(&n, next)))
        return -1;
    t1 = gt_now();
    peak[1] = free_now() + z->g.mapped;    /* old and new both held; not timed */
    t2 = gt_now();
    if (GT_CUDA(err, cudaMemcpyAsync(n, z->gr, z->cur, cudaMemcpyDeviceToDevice, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s))) {
        cudaFree(n);
        return -1;
    }
    cudaFree(z->gr);
    z->gr = n;
    t3 = gt_now();
    if (gt_vmm_fill(z, z->gr, z->cur / 4, z->step / 4, err) ||
        (bad = gt_vmm_count_bad(z, z->gr, next / 4, err)) < 0)
        return -1;
    out[1] = (gt_sample){0, GT_VMM_S_RUNTIME, bad ? GT_V_FAILED : GT_V_FULL, (t1 - t0) + (t3 - t2),
                         z->step};
    z->cur = next;
    if (z->cur + z->step > z->end)
        grow_reset(z);      /* the next iteration starts over */
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    vm *z = state;
    size_t peak[2];

    switch (z->op) {
    case GT_VMM_OP_ALLOC:
        return run_alloc(z, out, err);
    case GT_VMM_OP_BANDWIDTH:
        return gt_vmm_bandwidth_run(z, out, err);
    case GT_VMM_OP_PEER:
        return gt_vmm_peer_run(z, out, err);
    case GT_VMM_OP_READ:
        return gt_vmm_read_run(z, out, err);
    case GT_VMM_OP_SHARE:
        return gt_vmm_share_run(z, out, err);
    default:
        if (!z->cur && grow_start(z, err))
            return -1;
        return grow_step(z, out, peak, err) ? -1 : 2;
    }
}

/* The child processes: "share DEVICE" (op=share's other process), or a
 * write into read-only memory ("SELF WRITER", vmm_gpu_ro.h). */
static int child(int argc, char **argv, double t_main)
{
    (void)t_main;
    if (argc == 2 && !strcmp(argv[0], "share"))
        return gt_vmm_share_child(atoi(argv[1]));
    return gt_vmm_ro_child(argc, argv);
}

GT_GPU_OPS(vmm) = {.setup = setup, .run = run, .teardown = teardown, .child = child};
