/* The VMM experiment's ops that move the data (vmm_gpu_data.h):
 *   bandwidth: the same copy into (out of) VMM memory and cudaMalloc
 *              memory, timed with events, destination checked in full;
 *   read:      a kernel reads every word of VMM memory and of cudaMalloc
 *              memory (and, with the VMM memory on the host, of mapped
 *              cudaHostAlloc memory) and checks it against what was
 *              written (a fold a block, vmm_kernels.h), timed with events
 *              from an emptied L2.
 * The memory holds z->data (vmm.h's gt_vmm_data_word). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "vmm.h"
#include "gputui/base/units.h"
#include "vmm_gpu_data.h"
#include "vmm_gpu_ro.h"
#include "vmm_kernels.h"

/* What the allocation said of compression and GPUDirect RDMA, for the
 * set-up note. */
const char *gt_vmm_granted_note(vm *z)
{
    const char *c = !z->comp ? "" : z->granted
        ? "; compressible memory: asked and granted (the allocation reads back "
          "CU_MEM_ALLOCATION_COMP_GENERIC)"
        : "; compression asked and NOT granted: the driver made plain memory, so these are "
          "figures of uncompressed memory";
    const char *r = !z->rdma ? "" : z->rdma_granted
        ? "; GPUDirect RDMA capable: asked and granted"
        : "; GPUDirect RDMA asked and NOT granted (the allocation reads back 0)";

    snprintf(z->grant_note, sizeof z->grant_note, "%s%s", c, r);
    return z->grant_note;
}

static int bandwidth_buffers(vm *z, gt_setup_info *info, gt_err *err)
{
    bool d2d = z->dir == GT_VMM_D2D;
    double t0 = gt_now(), tv[4] = {0};
    char a[32];

    gt_format_size(z->rsize, a, sizeof a);
    if (gt_vrange_reserve(z, &z->vdst, z->rsize, err) || gt_vrange_grow(z, &z->vdst, z->rsize, tv, err))
        return -1;
    if (d2d && (gt_vrange_reserve(z, &z->vsrc, z->rsize, err) ||
                gt_vrange_grow(z, &z->vsrc, z->rsize, NULL, err)))
        return -1;
    if ((z->comp || z->rdma) && gt_vrange_granted(z, &z->vdst, err))
        return -1;
    gt_setup_info_time(info, gt_now() - t0, "VMM: reserve + create + map + access %s%s", a,
                       d2d ? " x 2" : "");
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc(&z->rdst, z->size)) ||
        (d2d && GT_CUDA_ALLOC(err, cudaMalloc(&z->rsrc, z->size))))
        return -1;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s%s",
                       gt_format_size(z->size, a, sizeof a), d2d ? " x 2" : "");
    if (!d2d) {
        t0 = gt_now();
        if (GT_CUDA_ALLOC(err, cudaMallocHost(&z->host, z->size)))
            return -1;
        gt_setup_info_time(info, gt_now() - t0, "cudaMallocHost %s (host side)", a);
    }
    snprintf(info->note, sizeof info->note, "every word of the destination, on the GPU, after "
             "every copy%s", gt_vmm_granted_note(z));
    return 0;
}

/* op=read: a VMM range and a cudaMalloc buffer, both holding the data. */
int gt_vmm_read_setup(vm *z, gt_setup_info *info, gt_err *err)
{
    double t0 = gt_now();
    char a[32];

    gt_format_size(z->rsize, a, sizeof a);
    if (gt_vrange_reserve(z, &z->vdst, z->rsize, err) ||
        gt_vrange_grow(z, &z->vdst, z->rsize, NULL, err))
        return -1;
    gt_setup_info_time(info, gt_now() - t0, "VMM: reserve + create + map + access %s", a);
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc(&z->rdst, z->size)))
        return -1;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s",
                       gt_format_size(z->size, a, sizeof a));
    if (z->loc != GT_VMM_LOC_DEVICE) {
        t0 = gt_now();
        if (GT_CUDA_ALLOC(err, cudaHostAlloc(&z->mapped, z->size, cudaHostAllocMapped)))
            return -1;
        gt_setup_info_time(info, gt_now() - t0, "cudaHostAlloc(Mapped) %s",
                           gt_format_size(z->size, a, sizeof a));
        if (gt_vmm_fill_data(z, z->mapped, z->size / 4, err))
            return -1;
    }
    if (((z->comp || z->rdma) && gt_vrange_granted(z, &z->vdst, err)) ||
        gt_vmm_fill_data(z, (void *)z->vdst.va, z->size / 4, err) ||
        gt_vmm_fill_data(z, z->rdst, z->size / 4, err) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->sums, (size_t)z->blocks * sizeof *z->sums)) ||
        GT_CUDA(err, gt_k_vmm_expect(z->size / 4, z->data, z->seed, z->sums, z->blocks, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        return -1;
    snprintf(info->note, sizeof info->note, "the read checks every word (a fold a block)%s",
             gt_vmm_granted_note(z));
    if (z->ro) {    /* this GPU's mapping turned read-only, once it holds the data */
        CUmemAccessDesc ro = z->access[0];
        ro.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
        GT_TA("%s, dev %d ro", GT_TA_S(z->rsize), z->device);
        if (GT_CU(err, z->cu->cuMemSetAccess(z->vdst.va, z->rsize, &ro, 1)))
            return -1;
        gt_vmm_try_ro_write(z, z->device, info);
        if (z->comp || z->rdma)
            snprintf(info->note + strlen(info->note), sizeof info->note - strlen(info->note),
                     "%s", gt_vmm_granted_note(z));
    }
    gt_setup_info_timing(info, "events around each read kernel; before each, the L2 emptied "
                         "by a read of %s", z->t.flush ? gt_format_size(z->t.flush_bytes, a,
                         sizeof a) : "nothing (L2 size unknown)");
    return 0;
}

int gt_vmm_bandwidth_setup(vm *z, gt_setup_info *info, gt_err *err)
{
    if (bandwidth_buffers(z, info, err))
        return -1;
    /* The sources hold the data for good. */
    if (z->dir == GT_VMM_D2D) {
        if (gt_vmm_fill_data(z, (void *)z->vsrc.va, z->size / 4, err) ||
            gt_vmm_fill_data(z, z->rsrc, z->size / 4, err))
            return -1;
    } else if (z->dir == GT_VMM_D2H) {
        if (gt_vmm_fill_data(z, (void *)z->vdst.va, z->size / 4, err) ||
            gt_vmm_fill_data(z, z->rdst, z->size / 4, err))
            return -1;
    } else if (gt_vmm_fill_data(z, z->host, z->size / 4, err)) {
        return -1;
    }
    return GT_CUDA(err, cudaStreamSynchronize(z->t.s));
}

/* ---- op=bandwidth ---- */

/* Piece 0 copies between the VMM ranges, piece 1 between the cudaMalloc
 * buffers (the host side pinned): source and destination of piece i. */
static void ends(const vm *z, int i, void **src, void **dst)
{
    switch (z->dir) {
    case GT_VMM_H2D:
        *src = z->host, *dst = i ? z->rdst : (void *)z->vdst.va;
        break;
    case GT_VMM_D2H:
        *src = i ? z->rdst : (void *)z->vdst.va, *dst = z->host;
        break;
    default:
        *src = i ? z->rsrc : (void *)z->vsrc.va, *dst = i ? z->rdst : (void *)z->vdst.va;
        break;
    }
}

static int poison(void *state, int i, cudaStream_t s, gt_err *err)
{
    vm *z = state;
    void *src, *dst;

    ends(z, i, &src, &dst);
    return GT_CUDA(err, gt_k_fill_word(dst, z->size / 4, 0xA5A5A5A5u, z->blocks, s));
}

static int copy(void *state, int i, cudaStream_t s, gt_err *err)
{
    vm *z = state;
    void *src, *dst;

    ends(z, i, &src, &dst);
    return GT_CUDA(err, cudaMemcpyAsync(dst, src, z->size, cudaMemcpyDefault, s));
}

/* Every word of the destination against the pattern. */
static int copied(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    vm *z = state;
    void *src, *dst;

    ends(z, i, &src, &dst);
    return GT_CUDA(err, gt_k_vmm_check(dst, z->size / 4, z->data, z->seed, bad, z->blocks, s));
}

int gt_vmm_bandwidth_run(vm *z, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = 2, .apart = true, .prepare = poison, .work = copy,
                               .check = copied};

    return gt_timed_samples(&z->t, &w, z, z->size, out, err);
}

/* ---- op=read ---- */

/* Piece 0 reads the VMM range, piece 1 the cudaMalloc buffer (piece 2 the
 * mapped host buffer); the read counts the words that differ from the data
 * into the piece's counter. */
static int read_one(void *state, int i, cudaStream_t s, gt_err *err)
{
    vm *z = state;
    const void *p = i == GT_VMM_S_MAPPED ? z->mapped : i ? z->rdst : (const void *)z->vdst.va;

    return GT_CUDA(err, gt_k_vmm_read(p, z->size / 4, z->data, z->seed, z->sums,
                                      z->t.dbad + 2 * i, z->blocks, s));
}

int gt_vmm_read_run(vm *z, gt_sample *out, gt_err *err)
{
    static const gt_timed dev = {.pieces = 2, .apart = true, .work = read_one},
                          host = {.pieces = 3, .apart = true, .work = read_one};

    return gt_timed_samples(&z->t, z->loc == GT_VMM_LOC_DEVICE ? &dev : &host, z, z->size, out,
                            err);
}
