/* Host memory of every kind gputui compares: pageable (malloc), pinned
 * (cudaMallocHost), cudaHostAlloc with flags, and malloc + cudaHostRegister.
 * Used by the transfer and host-alloc experiments; each times the steps
 * it reports around these calls. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/experiments/host.h"
#include "gputui/base/units.h"
#include "gpu.h"

const char *gt_hostmem_flag_names(unsigned f, bool reg, char *buf, size_t n)
{
    size_t off = 0;

    buf[0] = '\0';
    if (f & (reg ? cudaHostRegisterPortable : cudaHostAllocPortable))
        off += (size_t)snprintf(buf + off, n - off, "Portable");
    if (!reg && (f & cudaHostAllocWriteCombined))
        off += (size_t)snprintf(buf + off, n - off, "%sWriteCombined", off ? "|" : "");
    if (f & (reg ? cudaHostRegisterMapped : cudaHostAllocMapped))
        off += (size_t)snprintf(buf + off, n - off, "%sMapped", off ? "|" : "");
    if (reg && (f & cudaHostRegisterReadOnly))
        off += (size_t)snprintf(buf + off, n - off, "%sReadOnly", off ? "|" : "");
    if (!off)
        snprintf(buf, n, "Default");
    return buf;
}

/* The trace's argument for cudaHostAlloc and cudaHostRegister (trace_args.h). */
const char *gt_ta_hostflags(unsigned flags, int reg, char *buf)
{
    return gt_hostmem_flag_names(flags, reg != 0, buf, GT_TA_BUF);
}

unsigned gt_hostmem_flags(int kind, bool portable, bool wc, bool mapped)
{
    if (kind == GT_HOST_HOSTALLOC)
        return (portable ? cudaHostAllocPortable : 0) | (wc ? cudaHostAllocWriteCombined : 0) |
               (mapped ? cudaHostAllocMapped : 0);
    if (kind == GT_HOST_REGISTER)
        return (portable ? cudaHostRegisterPortable : 0) | (mapped ? cudaHostRegisterMapped : 0);
    return 0;
}

int gt_hostmem_alloc(gt_hostbuf *h, int kind, size_t bytes, unsigned flags, gt_err *err)
{
    char sz[32];

    memset(h, 0, sizeof *h);
    h->kind = kind;
    switch (kind) {
    case GT_HOST_PINNED:
        if (GT_CUDA_ALLOC(err, cudaMallocHost(&h->p, bytes)))
            return -1;
        h->pinned = true;
        return 0;
    case GT_HOST_HOSTALLOC:
        if (GT_CUDA_ALLOC(err, cudaHostAlloc(&h->p, bytes, flags)))
            return -1;
        h->pinned = true;
        return 0;
    default:
        /* Pageable memory as a program gets it from malloc (glibc: 16 B
         * past a page boundary at these sizes, and a page-aligned
         * destination takes pageable D2H up to 1.3x faster on an H200
         * host); memory to register covers whole pages. */
        h->p = gt_fault_hit() ? NULL
             : kind == GT_HOST_PAGEABLE ? malloc(bytes)
                                        : aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
        if (!h->p) {
            gt_err_set(err, GT_EXIT_FAIL, "malloc(%s) failed: out of host memory",
                       gt_format_size(bytes, sz, sizeof sz));
            return -1;
        }
        return 0;
    }
}

int gt_hostmem_register(gt_hostbuf *h, size_t bytes, unsigned flags, gt_err *err)
{
    if (GT_CUDA_ALLOC(err, cudaHostRegister(h->p, bytes, flags)))
        return -1;
    h->registered = true;
    return 0;
}

void gt_hostmem_map(gt_hostbuf *h)
{
    h->dev = NULL;
    if (h->kind == GT_HOST_PAGEABLE)
        return;
    /* Mapped when asked for, and always for cudaMallocHost/cudaHostAlloc
     * under unified addressing. */
    if (cudaHostGetDevicePointer(&h->dev, h->p, 0) != cudaSuccess) {
        cudaGetLastError();
        h->dev = NULL;
    }
}

int gt_hostmem_owner_enter(int owner, int *prev, gt_err *err)
{
    *prev = -1;
    if (owner < 0)
        return 0;
    if (GT_CUDA(err, cudaGetDevice(prev)))
        return -1;
    return GT_CUDA(err, cudaSetDevice(owner));
}

void gt_hostmem_owner_leave(gt_hostbuf *h, int owner, int prev)
{
    if (prev < 0)
        return;
    cudaSetDevice(prev);
    cudaGetLastError();
    h->foreign = h->p != NULL;
    h->owner = owner;
}

void gt_hostmem_free(gt_hostbuf *h)
{
    int prev = -1;

    if (!h->p)
        return;
    if (h->foreign && cudaGetDevice(&prev) == cudaSuccess)
        cudaSetDevice(h->owner);
    if (h->pinned) {
        GT_TA("%p", h->p);
        GT_CUDA_Q(cudaFreeHost(h->p));
    } else {
        if (h->registered)
            GT_TA("%p", h->p), GT_CUDA_Q(cudaHostUnregister(h->p));
        free(h->p);
    }
    if (prev >= 0)
        cudaSetDevice(prev);
    cudaGetLastError();
    memset(h, 0, sizeof *h);
}
