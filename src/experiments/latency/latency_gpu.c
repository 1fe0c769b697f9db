/* The latency experiment on the GPU: the chain (chain.h) is laid out in
 * memory of the chosen kind, then each sample is one walk of 'loads'
 * dependent loads per walker, timed inside the kernel (latency_kernels.cu).
 * The walk goes on from where the last one ended; the host walks the same
 * chain to know where each walker must end. Parameters are read by name
 * from the table row (src/experiments/latency/latency.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* latency_kernels.cu: slot k holds the address of the slot after it. */
cudaError_t gt_k_lat_build(void *base, const uint32_t *next, size_t slots, size_t stride,
                           int blocks, cudaStream_t s);
cudaError_t gt_k_lat_walk(const unsigned long long *starts, int lanes, unsigned long long warm,
                          unsigned long long loads, int policy, const void *base,
                          unsigned long long touch_slots, unsigned long long stride,
                          unsigned long long *out, unsigned long long *ends, cudaStream_t s);
cudaError_t gt_k_lat_carveout(int policy, int pct, int *got);
/* latency_kernels.cu: the chain in shared memory, walked by block 0
 * in its own (cluster 0) or in block 1's of a cluster of that many. */
cudaError_t gt_k_smem_walk(int cluster, const uint32_t *next, uint32_t slots, uint32_t stride,
                           const uint32_t *starts, int lanes, unsigned long long warm,
                           unsigned long long loads, unsigned long long *out, uint32_t *ends,
                           cudaStream_t s);
cudaError_t gt_k_smem_max_cluster(size_t smem, int *most);

/* Chains up to this size are walked once, untimed, at the start of every
 * sample's kernel, so the L1 (which every kernel starts cold) holds them
 * when it can (256 KiB on Hopper, the largest L1 yet); past it the L2
 * keeps the chain warm between kernels. */
#define WARM_MAX ((size_t)1 << 20)
/* ... with at most this many loads a walker. Larger device chains that
 * fit half the L2 are read whole by the walk's own block, untimed, at the
 * start of every walk: another process's turn on the GPU may have left
 * its data in the L2 since the last. Read by the whole grid instead, as
 * it once was, a 16 MiB chain walked 15-20% slower on an H200 while
 * another gputui walked its own between turns (162 against 141 ns),
 * though the two chains together fit the L2: the lines must have been
 * read by the SM that walks. */
#define WARM_LOADS_MAX ((uint64_t)1 << 16)

extern const gt_experiment gt_exp_latency;

enum { K_DEVICE, K_MAPPED, K_MANAGED, K_MANAGED_CPU, K_PEER, K_SHARED, K_DSMEM };

typedef struct lat {
    int kind, policy, lanes, self, peer, blocks;
    int carve, carve_got;           /* % shared asked (-1: default), and read back */
    int cluster;                    /* dsmem: blocks in the cluster; shared: 0 */
    uint32_t *dnext;                /* shared, dsmem: the random order, on the GPU */
    bool random, peer_enabled, touch;
    size_t size, slots, stride;
    uint64_t loads, warm;           /* a walker's timed and untimed loads per walk */
    uint32_t *next;                 /* random: the order, on the host */
    void *buf;                      /* device address of the chain */
    void *host;                     /* mapped: the pinned host buffer */
    uint32_t start[32];             /* each walker's slot before the next walk */
    unsigned long long *dstarts, *dends;    /* slot addresses, on this GPU */
    unsigned long long *hends;              /* pinned */
    unsigned long long *dout, *hout;
    cudaStream_t s;
} lat;

/* A parameter's value, or -1 with err set when the row has no such name. */
static int64_t value(const int64_t *v, const char *name, gt_err *err)
{
    int i = gt_experiment_param(&gt_exp_latency, name);

    if (i < 0) {
        gt_err_set(err, GT_EXIT_FAIL, "internal: the latency row has no parameter '%s'", name);
        return -1;
    }
    return v[i];
}

static void teardown(void *state)
{
    lat *z = state;

    if (!z)
        return;
    gt_gpu_quiesce();
    if (z->kind == K_PEER && z->buf) {
        cudaSetDevice(z->peer);
        gt_free_device(&z->buf);
        cudaSetDevice(z->self);
    }
    if (z->peer_enabled)
        GT_CUDA_Q(cudaDeviceDisablePeerAccess(z->peer));
    if (z->kind == K_MAPPED)
        gt_free_pinned(&z->host);
    else
        gt_free_device(&z->buf);
    gt_free_device(&z->dnext);
    gt_free_device(&z->dstarts);
    gt_free_device(&z->dends);
    gt_free_device(&z->dout);
    gt_free_pinned(&z->hends);
    gt_free_pinned(&z->hout);
    gt_destroy_stream(&z->s);
    free(z->next);
    free(z);
}

/* The chain written by the CPU into buf (mapped and managed-cpu memory),
 * pointing at the GPU's addresses of the same slots. */
static void cpu_build(lat *z, void *buf)
{
    for (size_t k = 0; k < z->slots; k++) {
        size_t to = z->next ? z->next[k] : (k + 1) % z->slots;
        uint64_t addr = (uint64_t)(uintptr_t)z->buf + to * z->stride;
        memcpy((char *)buf + k * z->stride, &addr, sizeof addr);
    }
}

/* The chain written by a kernel on the current GPU into buf. */
static int gpu_build(lat *z, void *buf, int blocks, gt_err *err)
{
    uint32_t *dnext = NULL;
    int rc = 0;

    if (z->next && (GT_CUDA_ALLOC(err, cudaMalloc((void **)&dnext, z->slots * 4)) ||
                    GT_CUDA(err, cudaMemcpy(dnext, z->next, z->slots * 4, cudaMemcpyHostToDevice))))
        rc = -1;
    if (!rc && (GT_CUDA(err, gt_k_lat_build(buf, dnext, z->slots, z->stride, blocks, 0)) ||
                GT_CUDA(err, cudaDeviceSynchronize())))
        rc = -1;
    if (dnext)
        cudaFree(dnext);
    return rc;
}

static int walk(lat *z, uint64_t loads, double *ns, double *cycles, bool *ok, gt_err *err);

/* Loads per walker in the set-up's first walk: enough for the walkers
 * together to pass over the whole chain, up to 2^20 each (0.4 s at device
 * memory's latency; 2^16 over PCIe or a link); a sample's worth for
 * managed-cpu, where every walk pays page faults by design. */
static uint64_t first_pass(const lat *z)
{
    uint64_t whole = (z->slots + (size_t)z->lanes - 1) / (size_t)z->lanes;
    uint64_t cap = z->kind == K_DEVICE || z->kind == K_MANAGED ? 1u << 20 : 1u << 16;

    if (z->kind == K_MANAGED_CPU)
        return z->loads;
    if (whole > cap)
        whole = cap;
    return whole > z->loads ? whole : z->loads;
}

/* kind=shared or dsmem: each kernel lays the chain out in shared memory
 * from the order, which goes to the GPU (random) or is k + 1 (linear); a
 * cluster must fit the GPU at once. */
static int shared_setup(lat *z, gt_setup_info *info, gt_err *err)
{
    double t0 = gt_now();
    int most = 0;
    char a[32];

    if (z->next && (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dnext, z->slots * 4)) ||
                    GT_CUDA(err, cudaMemcpy(z->dnext, z->next, z->slots * 4,
                                            cudaMemcpyHostToDevice))))
        return -1;
    gt_format_size(z->size, a, sizeof a);
    if (z->kind == K_DSMEM) {
        if (GT_CUDA(err, gt_k_smem_max_cluster(z->size, &most)))
            return -1;
        if (most < z->cluster) {
            gt_err_set(err, GT_EXIT_USAGE, "cluster: %d blocks of %s of shared memory; this GPU "
                       "runs at most %d at once (cudaOccupancyMaxPotentialClusterSize); allowed "
                       "here: %s", z->cluster, a, most, most >= 8 ? "2, 4 or 8" : most >= 4 ?
                       "2 or 4" : most >= 2 ? "2" : "none: a smaller size");
            return -1;
        }
    }
    gt_setup_info_time(info, gt_now() - t0, "the order to the GPU; each walk lays the %s chain "
                       "out in shared memory%s", a, z->kind == K_DSMEM ? " of every block of "
                       "the cluster" : "");
    return 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    lat *z = calloc(1, sizeof *z);
    int64_t kind, stride, order, cache, lanes, loads, carve, cluster;
    double t0, ns, cyc;
    char a[32], b[32];
    uint64_t first;
    bool ok;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    if ((kind = value(v, "kind", err)) < 0 || (stride = value(v, "stride", err)) < 0 ||
        (order = value(v, "order", err)) < 0 || (cache = value(v, "cache", err)) < 0 ||
        (lanes = value(v, "threads", err)) < 0 || (loads = value(v, "loads", err)) < 0 ||
        (carve = value(v, "carveout", err)) < 0 || (cluster = value(v, "cluster", err)) < 0 ||
        (z->size = (size_t)value(v, "size", err)) == (size_t)-1)
        goto fail;
    z->kind = (int)kind;
    z->policy = (int)cache;
    z->cluster = z->kind == K_DSMEM ? 2 << cluster : 0;       /* 2, 4, 8, 16 */
    /* (the split applies where the L1 caches the chain: latency.c) */
    z->carve = carve && cache == 0 && (kind == K_DEVICE || kind == K_MANAGED)
                   ? (int)(carve - 1) * 25 : cudaSharedmemCarveoutDefault;
    z->lanes = lanes ? 32 : 1;
    z->loads = (uint64_t)loads;
    z->random = order == 0;
    z->stride = (size_t)stride;
    z->slots = z->size / (size_t)stride;
    if (z->kind != K_MANAGED_CPU && z->size <= WARM_MAX) {
        z->warm = (z->slots + (size_t)z->lanes - 1) / (size_t)z->lanes;
        if (z->warm > WARM_LOADS_MAX)
            z->warm = WARM_LOADS_MAX;
    }
    z->blocks = gt_gpu_sms() * 4;
    z->touch = z->kind == K_DEVICE && z->size > WARM_MAX && gt_dp_ok(p, GT_DP_L2) &&
               z->size <= (size_t)gt_dp_get(p, GT_DP_L2) / 2;
    cudaGetDevice(&z->self);
    z->peer = gt_topo_pick_peer(&p->topo, p->ordinal, -1);

    t0 = gt_now();
    if (z->random) {
        if (!(z->next = malloc(z->slots * sizeof *z->next))) {
            gt_err_set(err, GT_EXIT_FAIL, "out of host memory (%zu slots)", z->slots);
            goto fail;
        }
        gt_chain_order(z->next, z->slots, true, (uint64_t)(gt_now() * 1e9) | 1);
        gt_setup_info_time(info, gt_now() - t0, "random order of %zu slots (host)", z->slots);
    }
    gt_format_size(z->size, a, sizeof a);
    t0 = gt_now();
    switch (z->kind) {
    case K_MAPPED:
        if (GT_CUDA_ALLOC(err, cudaHostAlloc(&z->host, z->size, cudaHostAllocMapped)) ||
            GT_CUDA(err, cudaHostGetDevicePointer(&z->buf, z->host, 0)))
            goto fail;
        cpu_build(z, z->host);
        gt_setup_info_time(info, gt_now() - t0, "cudaHostAlloc(Mapped) %s + chain (CPU)", a);
        break;
    case K_MANAGED:
    case K_MANAGED_CPU:
        if (GT_CUDA_ALLOC(err, cudaMallocManaged(&z->buf, z->size, cudaMemAttachGlobal)))
            goto fail;
        if (z->kind == K_MANAGED_CPU)
            cpu_build(z, z->buf);
        else if (gpu_build(z, z->buf, z->blocks, err))
            goto fail;
        gt_setup_info_time(info, gt_now() - t0, "cudaMallocManaged %s + chain (%s)", a,
                           z->kind == K_MANAGED ? "GPU: first touch there" : "CPU");
        break;
    case K_PEER:
        if (z->peer < 0) {
            gt_err_set(err, GT_EXIT_USAGE, "kind=peer needs a second GPU");
            goto fail;
        }
        if (GT_CUDA(err, cudaSetDevice(z->peer)) ||
            GT_CUDA_ALLOC(err, cudaMalloc(&z->buf, z->size)) ||
            gpu_build(z, z->buf, z->blocks, err) || GT_CUDA(err, cudaSetDevice(z->self)))
            goto fail;
        {
            cudaError_t rc = GT_CUDA_Q(cudaDeviceEnablePeerAccess(z->peer, 0));
            if (rc != cudaSuccess && rc != cudaErrorPeerAccessAlreadyEnabled && GT_CUDA(err, rc))
                goto fail;
            z->peer_enabled = rc == cudaSuccess;
        }
        gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s on GPU %d + chain, peer access", a,
                           z->peer);
        break;
    case K_SHARED:
    case K_DSMEM:
        if (shared_setup(z, info, err))
            goto fail;
        break;
    default:
        if (GT_CUDA_ALLOC(err, cudaMalloc(&z->buf, z->size)) ||
            gpu_build(z, z->buf, z->blocks, err))
            goto fail;
        gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s + chain (GPU)", a);
        break;
    }
    if (GT_CUDA(err, cudaStreamCreateWithFlags(&z->s, cudaStreamNonBlocking)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dstarts, 32 * sizeof *z->dstarts)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dends, 32 * sizeof *z->dends)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dout, 3 * sizeof *z->dout)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hends, 32 * sizeof *z->hends)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hout, 2 * sizeof *z->hout)))
        goto fail;
    /* Every set-up says its split: the attribute stays with the kernel. */
    if (GT_CUDA(err, gt_k_lat_carveout(z->policy, z->carve, &z->carve_got)))
        goto fail;
    t0 = gt_now();
    gt_chain_lane_starts(z->next, z->slots, 0, z->lanes, z->start);
    /* One pass over the whole chain now, so the samples find it where it
     * settles (an L2-sized chain read once by this SM, TLBs filled), not
     * on its first touch; and how many SM cycles a load takes (the row
     * reads the clock back from this note: keep "SM cycles a load (N
     * GHz)"). */
    first = first_pass(z);
    if (walk(z, first, &ns, &cyc, &ok, err))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "first walk: %llu loads%s", (unsigned long long)first,
                       first * (uint64_t)z->lanes >= z->slots ? ", the whole chain" : "");
    snprintf(info->note, sizeof info->note, "each walker's end slot against the host's walk of "
             "the same chain; first walk: %.1f ns = %.0f SM cycles a load (%.2f GHz)%s", ns, cyc,
             ns > 0 ? cyc / ns : 0.0, ok ? "" : ", FAILED");
    if (z->carve != cudaSharedmemCarveoutDefault)
        snprintf(info->note + strlen(info->note), sizeof info->note - strlen(info->note),
                 "; carveout: %d%% shared asked, the walk's attribute reads %d%% "
                 "(cudaFuncGetAttributes: a preference; the driver picks the nearest split the "
                 "SM has)", z->carve, z->carve_got);
    if (z->kind == K_SHARED || z->kind == K_DSMEM)
        gt_setup_info_timing(info, "global timer and clock64 in the kernel around %llu loads of %d "
                             "walker%s in %s, after %llu untimed ones; %s",
                             (unsigned long long)z->loads, z->lanes, z->lanes > 1 ? "s" : "",
                             z->kind == K_SHARED ? "the block's own shared memory"
                                                 : "block 1's shared memory, from block 0 of "
                                                   "the cluster",
                             (unsigned long long)z->warm,
                             gt_format_size((uint64_t)stride, b, sizeof b));
    else if (z->warm)
        gt_setup_info_timing(info, "global timer and clock64 in the kernel around %llu loads of %d "
                             "walker%s, after %llu untimed ones over the whole chain in the same "
                             "kernel (the L1 starts each kernel cold); %s",
                             (unsigned long long)z->loads, z->lanes, z->lanes > 1 ? "s" : "",
                             (unsigned long long)z->warm,
                             gt_format_size((uint64_t)stride, b, sizeof b));
    else
        gt_setup_info_timing(info, "global timer and clock64 in the kernel around %llu loads of %d "
                             "walker%s%s; %s", (unsigned long long)z->loads, z->lanes,
                             z->lanes > 1 ? "s" : "", z->touch ? ", after a read of the whole "
                             "chain by the walk's own block (it fits half the L2)" : "",
                             gt_format_size((uint64_t)stride, b, sizeof b));
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* One walk of every walker from z->start: per-load ns and cycles; *ok if
 * every walker ended where the host's walk ends (and the walk took time:
 * a kernel built without clusters times none). Through shared memory a
 * walker's start and end are 32-bit slots; elsewhere, 64-bit addresses. */
static int walk(lat *z, uint64_t loads, double *ns, double *cycles, bool *ok, gt_err *err)
{
    bool slots = z->kind == K_SHARED || z->kind == K_DSMEM;
    size_t each = slots ? 4 : 8;
    unsigned long long addrs[32];
    uint32_t expect[32];

    for (int l = 0; l < z->lanes; l++) {
        addrs[l] = (uintptr_t)z->buf + (unsigned long long)z->start[l] * z->stride;
        expect[l] = gt_chain_walk(z->next, z->slots, z->start[l], z->warm + loads);
    }
    /* managed-cpu: the CPU reads the slots this walk will load, so their
     * pages are on the CPU's side when the GPU comes. */
    if (z->kind == K_MANAGED_CPU) {
        volatile uint32_t sink = 0;
        const volatile uint8_t *b = z->buf;
        for (int l = 0; l < z->lanes; l++)
            for (uint64_t i = 0, k = z->start[l]; i < loads; i++)
                sink += b[k * z->stride], k = z->next ? z->next[k] : (k + 1) % z->slots;
        (void)sink;
    }
    if (GT_CUDA(err, cudaMemcpyAsync(z->dstarts, slots ? (const void *)z->start : addrs,
                                     (size_t)z->lanes * each, cudaMemcpyHostToDevice, z->s)) ||
        (slots ? GT_CUDA(err, gt_k_smem_walk(z->cluster, z->dnext, (uint32_t)z->slots,
                                             (uint32_t)z->stride, (const uint32_t *)z->dstarts,
                                             z->lanes, z->warm, loads, z->dout,
                                             (uint32_t *)z->dends, z->s))
               : GT_CUDA(err, gt_k_lat_walk(z->dstarts, z->lanes, z->warm, loads, z->policy,
                                            z->buf, z->touch ? z->slots : 0, z->stride, z->dout,
                                            z->dends, z->s))) ||
        GT_CUDA(err, cudaMemcpyAsync(z->hout, z->dout, 2 * sizeof *z->hout,
                                     cudaMemcpyDeviceToHost, z->s)) ||
        GT_CUDA(err, cudaMemcpyAsync(z->hends, z->dends, (size_t)z->lanes * each,
                                     cudaMemcpyDeviceToHost, z->s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->s)))
        return -1;
    *ok = z->hout[0] > 0;
    for (int l = 0; l < z->lanes; l++) {
        *ok &= slots ? ((const uint32_t *)z->hends)[l] == expect[l]
                     : z->hends[l] == (uintptr_t)z->buf + (unsigned long long)expect[l] * z->stride;
        z->start[l] = expect[l];
    }
    *ns = (double)z->hout[0] / (double)loads;
    *cycles = (double)z->hout[1] / (double)loads;
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    lat *z = state;
    double ns, cyc;
    bool ok;

    if (walk(z, z->loads, &ns, &cyc, &ok, err))
        return -1;
    out[0] = (gt_sample){0, 0, ok ? GT_V_FULL : GT_V_FAILED, ns * 1e-9, 4};
    return 1;
}

GT_GPU_OPS(latency) = {.setup = setup, .run = run, .teardown = teardown};
