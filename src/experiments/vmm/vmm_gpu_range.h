/* vmm_range.h - private to the VMM experiment's GPU side: the state that
 * vmm.c (alloc, bandwidth, grow) and vmm_peer.c (another GPU reading and
 * writing VMM memory) share, and the range and pattern helpers of
 * vmm_range.c, below both. vmm.c reaches op=peer through vmm_peer.h;
 * vmm_peer.c never calls vmm.c. */
#ifndef GPUTUI_GPU_VMM_RANGE_H
#define GPUTUI_GPU_VMM_RANGE_H

#include "gpu/gpu.h"

#define MAX_PEERS 16
#define MAX_CHUNKS 4097

/* A reserved range and the physical chunks mapped into it, in order. */
typedef struct vrange {
    CUdeviceptr va;
    size_t reserved, mapped;        /* bytes */
    CUmemGenericAllocationHandle h[MAX_CHUNKS];
    size_t len[MAX_CHUNKS];
    int nh;
} vrange;

typedef struct vm {
    const gt_cu_api *cu;
    int op, dir, device, blocks;
    int data;                       /* bandwidth, read: GT_VMM_DATA_* (vmm_kernels.h) */
    bool comp;                      /* compressible memory asked for */
    bool ro;                        /* read: this GPU's own mapping read-only */
    int loc;                        /* GT_VMM_LOC_*: where cuMemCreate puts the memory */
    void *mapped;                   /* read on the host: cudaHostAlloc(Mapped) beside it */
    uint32_t *sums;                 /* read: each block's fold of the data (gt_k_vmm_expect) */
    bool rdma;                      /* GPUDirect RDMA capable memory asked for */
    int granted;                    /* what the allocation reads back: 1 compressible, 0 not */
    int rdma_granted;               /* ... and 1 RDMA capable, 0 not */
    char grant_note[300];           /* what they read back, for the set-up note */
    size_t size, gran, rsize;       /* asked, granularity, rounded */
    CUmemAllocationProp prop;
    CUmemAccessDesc access[1 + MAX_PEERS];
    int naccess;
    gt_timing t;                    /* bandwidth: a piece a copy; its stream and counters for all */
    uint32_t seed;
    /* bandwidth */
    vrange vsrc, vdst;
    void *rsrc, *rdst, *host;
    /* grow */
    size_t start, end, step, cur;   /* cur: bytes in both vectors, 0 = no cycle */
    vrange g;
    void *gr;                       /* the reallocated vector */
    /* peer (vmm_gpu_peer.c), share (vmm_gpu_share.c) */
    struct vm_peer *peer;
    struct vm_share *share;
} vm;

/* Unmaps and releases every chunk, frees the range; times[3] (unmap,
 * release, address free) if not NULL. Safe on an empty range. */
void gt_vrange_free(vm *z, vrange *r, double *times);
int gt_vrange_reserve(vm *z, vrange *r, size_t bytes, gt_err *err);
/* Creates 'bytes' of memory, maps it at the end of what is mapped and
 * grants access (this GPU, then the peers in a second call); times[4]
 * (create, map, access, peers' access) if not NULL. On failure nothing of
 * this chunk stays. */
int gt_vrange_grow(vm *z, vrange *r, size_t bytes, double *times, gt_err *err);
/* Whether the first chunk of r is compressible and RDMA capable, read back
 * from it (cuMemGetAllocationPropertiesFromHandle) into z->granted and
 * z->rdma_granted. */
int gt_vrange_granted(vm *z, const vrange *r, gt_err *err);
/* Words [first, first + n) of p get the pattern of z->seed, on z->s. */
int gt_vmm_fill(vm *z, void *p, size_t first, size_t n, gt_err *err);
/* Words of p[0 .. n) that differ from the pattern, or -1. */
long long gt_vmm_count_bad(vm *z, const void *p, size_t n, gt_err *err);
/* p[0 .. n) gets z->data (op=bandwidth and op=read), on z->s. */
int gt_vmm_fill_data(vm *z, void *p, size_t n, gt_err *err);

#endif
