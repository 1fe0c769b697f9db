/* The VMM experiment's ranges: a reserved virtual range with physical
 * chunks mapped into it in order, and the pattern fill and check on the
 * GPU. What vmm.c (alloc, bandwidth, grow) and vmm_peer.c (op=peer) both
 * use; it calls neither of them. */
#define _GNU_SOURCE
#include <string.h>

#include "gputui/kernels.h"
#include "vmm.h"
#include "vmm_gpu_range.h"
#include "vmm_kernels.h"

/* ---- a VMM range ---- */

void gt_vrange_free(vm *z, vrange *r, double *times)
{
    double t0 = gt_now(), t1, t2;
    gt_err ignore;

    if (r->mapped)
        GT_TA("%s", GT_TA_S(r->mapped)), GT_CU(&ignore, z->cu->cuMemUnmap(r->va, r->mapped));
    t1 = gt_now();
    for (int i = 0; i < r->nh; i++)
        GT_CU(&ignore, z->cu->cuMemRelease(r->h[i]));
    t2 = gt_now();
    if (r->reserved)
        GT_TA("%s", GT_TA_S(r->reserved)), GT_CU(&ignore, z->cu->cuMemAddressFree(r->va, r->reserved));
    if (times) {
        times[0] = t1 - t0;
        times[1] = t2 - t1;
        times[2] = gt_now() - t2;
    }
    memset(r, 0, sizeof *r);
}

int gt_vrange_reserve(vm *z, vrange *r, size_t bytes, gt_err *err)
{
    memset(r, 0, sizeof *r);
    GT_TA("%s", GT_TA_S(bytes));
    if (GT_CU_ALLOC(err, z->cu->cuMemAddressReserve(&r->va, bytes, 0, 0, 0)))
        return -1;
    r->reserved = bytes;
    return 0;
}

/* See vmm.h. */
int gt_vrange_grow(vm *z, vrange *r, size_t bytes, double *times, gt_err *err)
{
    CUmemGenericAllocationHandle h;
    CUdeviceptr at = r->va + r->mapped;
    double t0 = gt_now(), t1, t2, t3;
    gt_err ignore;

    if (r->nh == MAX_CHUNKS || r->mapped + bytes > r->reserved) {
        gt_err_set(err, GT_EXIT_FAIL, "internal: the reserved range is full");
        return -1;
    }
    GT_TA("%s, pinned %s memory%s%s", GT_TA_S(bytes), z->loc == GT_VMM_LOC_DEVICE ? "device" : "host",
          z->comp ? ", compressible" : "", z->rdma ? ", RDMA capable" : "");
    if (GT_CU_ALLOC(err, z->cu->cuMemCreate(&h, bytes, &z->prop, 0)))
        return -1;
    t1 = gt_now();
    GT_TA("%s", GT_TA_S(bytes));
    if (GT_CU(err, z->cu->cuMemMap(at, bytes, 0, h, 0))) {
        GT_CU(&ignore, z->cu->cuMemRelease(h));
        return -1;
    }
    t2 = gt_now();
    /* This GPU first, then the peers: their share of the cost shows. */
    GT_TA("%s, dev %d rw", GT_TA_S(bytes), z->device);
    if (GT_CU(err, z->cu->cuMemSetAccess(at, bytes, z->access, 1)))
        goto unmap;
    t3 = gt_now();
    if (z->naccess > 1) {
        GT_TA("%s, %d peers %s", GT_TA_S(bytes), z->naccess - 1,
              z->access[1].flags == CU_MEM_ACCESS_FLAGS_PROT_READ ? "ro" : "rw");
        if (GT_CU(err, z->cu->cuMemSetAccess(at, bytes, z->access + 1, (size_t)z->naccess - 1)))
            goto unmap;
    }
    if (times) {
        times[0] = t1 - t0;
        times[1] = t2 - t1;
        times[2] = t3 - t2;
        times[3] = gt_now() - t3;
    }
    r->h[r->nh] = h;
    r->len[r->nh++] = bytes;
    r->mapped += bytes;
    return 0;
unmap:
    GT_CU(&ignore, z->cu->cuMemUnmap(at, bytes));
    GT_CU(&ignore, z->cu->cuMemRelease(h));
    return -1;
}

int gt_vrange_granted(vm *z, const vrange *r, gt_err *err)
{
    CUmemAllocationProp got;

    memset(&got, 0, sizeof got);
    if (!r->nh) {
        gt_err_set(err, GT_EXIT_FAIL, "internal: no chunk to read the properties of");
        return -1;
    }
    if (GT_CU(err, z->cu->cuMemGetAllocationPropertiesFromHandle(&got, r->h[0])))
        return -1;
    z->granted = got.allocFlags.compressionType == CU_MEM_ALLOCATION_COMP_GENERIC;
    z->rdma_granted = got.allocFlags.gpuDirectRDMACapable != 0;
    return 0;
}

/* ---- checks on the GPU ---- */

int gt_vmm_fill(vm *z, void *p, size_t first, size_t n, gt_err *err)
{
    return GT_CUDA(err, gt_k_fill_pattern_at(p, first, n, z->seed, z->blocks, z->t.s));
}

long long gt_vmm_count_bad(vm *z, const void *p, size_t n, gt_err *err)
{
    static const unsigned long long init[2] = {0, ~0ull};

    memcpy(z->t.hbad, init, sizeof init);
    if (GT_CUDA(err, cudaMemcpyAsync(z->t.dbad, z->t.hbad, sizeof init, cudaMemcpyHostToDevice, z->t.s)) ||
        GT_CUDA(err, gt_k_verify_pattern(p, n, z->seed, z->t.dbad, z->blocks, z->t.s)) ||
        GT_CUDA(err, cudaMemcpyAsync(z->t.hbad, z->t.dbad, sizeof init, cudaMemcpyDeviceToHost, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        return -1;
    return (long long)z->t.hbad[0];
}

int gt_vmm_fill_data(vm *z, void *p, size_t n, gt_err *err)
{
    return GT_CUDA(err, gt_k_vmm_fill(p, 0, n, z->data, z->seed, z->blocks, z->t.s));
}
