// The latency experiment's kernels (src/experiments/latency/latency_gpu.c declares the
// launchers it uses): building a chain (chain.h) in GPU memory, and the
// walk: one thread, or one warp of 32 independent walkers, each load's
// address being the value the load before returned (a pointer chase: no
// arithmetic between the loads), timed inside the kernel by the global
// timer (ns) and clock64 (SM cycles), so no launch is counted, after an
// untimed warm walk in the same kernel. And the same walk through shared
// memory: a block's own, or another block's of its cluster.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cg = cooperative_groups;

namespace {

typedef unsigned long long u64;

// Slot k holds the address of the slot after it: base + next(k) x stride.
__global__ void lat_linear(char *base, size_t slots, size_t stride)
{
    size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < slots; k += step)
        *(u64 *)(base + k * stride) = (u64)(uintptr_t)(base + (k + 1) % slots * stride);
}

__global__ void lat_scatter(char *base, const uint32_t *next, size_t slots, size_t stride)
{
    size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < slots; k += step)
        *(u64 *)(base + k * stride) = (u64)(uintptr_t)(base + (size_t)next[k] * stride);
}

// The global timer and the SM clock, read once p has arrived: the asm takes
// p as an input, so it waits for the load before it (no load of the warm
// walk is still in flight), and the timed loop's first load waits for it.
__device__ __forceinline__ u64 global_ns_after(u64 p)
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : "l"(p));
    return t;
}

__device__ __forceinline__ u64 clock_after(u64 p)
{
    u64 t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "l"(p));
    return t;
}

// The same, once a 32-bit offset has arrived (the walks in shared memory).
__device__ __forceinline__ u64 global_ns_after(uint32_t p)
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : "r"(p));
    return t;
}

__device__ __forceinline__ u64 clock_after(uint32_t p)
{
    u64 t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "r"(p));
    return t;
}

// Policy 0: ld.global (cached in L1); 1: ld.global.cg (L2 only);
// 2: ld.volatile.global. Written out: an address loaded from memory would
// otherwise be read with a generic ld, which is not what is measured.
template <int P>
__device__ __forceinline__ u64 load(u64 p)
{
    u64 v;
    if (P == 1)
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
    else if (P == 2)
        asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    else
        asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
    return v;
}

// The walk's own block first reads every slot of a chain that fits half
// the L2 (slots > 0: a block of TOUCH_THREADS, with ld.global.cg so none
// of it stays in the L1), untimed: whatever another process left in the
// L2 since the last sample, the chain's lines are back there for the SM
// that walks, and its pages in that SM's TLB. Then 'warm' untimed loads,
// in the same kernel on the same SM, so a chain that fits the L1 is found
// there (the L1 starts every kernel cold), then 'loads' timed ones; both
// go on along the same chain. Threads past the walkers only touch.
template <int P>
__global__ void lat_walk(const u64 *starts, int lanes, u64 warm, u64 loads, const char *base,
                         u64 slots, u64 stride, u64 *out, u64 *ends)
{
    if (slots) {
        u64 acc = 0, i = threadIdx.x, step = blockDim.x;
        for (; i + 3 * step < slots; i += 4 * step) {      // four loads in flight a thread
            u64 a = load<1>((u64)(uintptr_t)(base + i * stride));
            u64 b = load<1>((u64)(uintptr_t)(base + (i + step) * stride));
            u64 c = load<1>((u64)(uintptr_t)(base + (i + 2 * step) * stride));
            u64 d = load<1>((u64)(uintptr_t)(base + (i + 3 * step) * stride));
            acc += a ^ b ^ c ^ d;
        }
        for (; i < slots; i += step)
            acc += load<1>((u64)(uintptr_t)(base + i * stride));
        if (acc == 0x5EED5EED5EED5EEDull)    // never, but the loads must stay
            out[2] = acc;
        __syncthreads();
        if ((int)threadIdx.x >= lanes)
            return;
    }
    u64 p = starts[threadIdx.x];
    for (u64 i = 0; i < warm; i++)
        p = load<P>(p);
    __syncwarp();
    u64 t0 = global_ns_after(p), c0 = clock_after(p);
    for (u64 i = 0; i < loads; i++)
        p = load<P>(p);
    u64 c1 = clock_after(p), t1 = global_ns_after(p);
    ends[threadIdx.x] = p;      // depends on every load: none can be left out
    if (threadIdx.x == 0) {
        out[0] = t1 - t0;
        out[1] = c1 - c0;
    }
}

// ---- the walks through shared memory (kind=shared and kind=dsmem) ----
//   own:    one block lays the chain out in its shared memory, slot k at
//           byte k x stride holding the byte offset of the slot after it,
//           and its walkers follow it (ld.shared);
//   remote: a cluster of N blocks (Hopper) each lays it out; block 0 walks
//           block 1's through the cluster's distributed shared memory (the
//           address cooperative_groups' map_shared_rank gives), and every
//           block waits at the cluster's barrier until the walk is done,
//           so the memory it reads stays there.

__device__ __forceinline__ void lay_out(char *sm, const uint32_t *next, uint32_t slots,
                                        uint32_t stride)
{
    for (uint32_t k = threadIdx.x; k < slots; k += blockDim.x)
        *(uint32_t *)(sm + (size_t)k * stride) = (next ? next[k] : (k + 1) % slots) * stride;
}

// Walker threadIdx.x from its start slot through the chain at base.
__device__ __forceinline__ void walk(const char *base, uint32_t stride, const uint32_t *starts,
                                     int lanes, u64 warm, u64 loads, u64 *out, uint32_t *ends)
{
    uint32_t p = starts[threadIdx.x] * stride;
    for (u64 i = 0; i < warm; i++)
        p = *(const volatile uint32_t *)(base + p);
    // The walkers alone (1 or 32 lanes): the rest of warp 0 has gone on to
    // the cluster's barrier, and a full mask would wait for them there.
    __syncwarp(lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1);
    u64 t0 = global_ns_after(p), c0 = clock_after(p);
    for (u64 i = 0; i < loads; i++)
        p = *(const volatile uint32_t *)(base + p);
    u64 c1 = clock_after(p), t1 = global_ns_after(p);
    ends[threadIdx.x] = p / stride;
    if (threadIdx.x == 0) {
        out[0] = t1 - t0;
        out[1] = c1 - c0;
    }
}

__global__ void smem_own(const uint32_t *next, uint32_t slots, uint32_t stride,
                         const uint32_t *starts, int lanes, u64 warm, u64 loads, u64 *out,
                         uint32_t *ends)
{
    extern __shared__ __align__(16) char sm[];
    lay_out(sm, next, slots, stride);
    __syncthreads();
    if ((int)threadIdx.x < lanes)
        walk(sm, stride, starts, lanes, warm, loads, out, ends);
}

__global__ void smem_remote(const uint32_t *next, uint32_t slots, uint32_t stride,
                            const uint32_t *starts, int lanes, u64 warm, u64 loads, u64 *out,
                            uint32_t *ends)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) char sm[];
    cg::cluster_group cluster = cg::this_cluster();
    lay_out(sm, next, slots, stride);
    cluster.sync();
    if (cluster.block_rank() == 0 && (int)threadIdx.x < lanes)
        walk((const char *)cluster.map_shared_rank((void *)sm, 1), stride, starts, lanes, warm,
             loads, out, ends);
    cluster.sync();
#else
    if (blockIdx.x == 0 && threadIdx.x == 0)
        out[0] = out[1] = 0;        // no clusters here: a walk of no time, which the host refuses
#endif
}

const int THREADS = 256;

}  // namespace

extern "C" cudaError_t gt_k_lat_build(void *base, const uint32_t *next, size_t slots,
                                      size_t stride, int blocks, cudaStream_t s)
{
    if (next)
        lat_scatter<<<blocks, 256, 0, s>>>((char *)base, next, slots, stride);
    else
        lat_linear<<<blocks, 256, 0, s>>>((char *)base, slots, stride);
    return cudaGetLastError();
}

// The L1/shared split the walk of this policy asks for: pct of the SM's
// SRAM for shared memory (cudaSharedmemCarveoutDefault: no preference),
// and what the kernel's attributes read back after (*got).
extern "C" cudaError_t gt_k_lat_carveout(int policy, int pct, int *got)
{
    const void *f = policy == 1 ? (const void *)lat_walk<1>
                  : policy == 2 ? (const void *)lat_walk<2> : (const void *)lat_walk<0>;
    cudaFuncAttributes a;
    cudaError_t rc = cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, pct);

    if (rc == cudaSuccess && (rc = cudaFuncGetAttributes(&a, f)) == cudaSuccess)
        *got = a.preferredShmemCarveout;
    return rc;
}

// touch_slots > 0: the walk's block reads that many slots from base
// first (lat_walk), with this many threads.
#define TOUCH_THREADS 1024

extern "C" cudaError_t gt_k_lat_walk(const unsigned long long *starts, int lanes,
                                     unsigned long long warm, unsigned long long loads,
                                     int policy, const void *base,
                                     unsigned long long touch_slots, unsigned long long stride,
                                     unsigned long long *out, unsigned long long *ends,
                                     cudaStream_t s)
{
    int threads = touch_slots ? TOUCH_THREADS : lanes;
    const char *b = (const char *)base;

    switch (policy) {
    case 1:
        lat_walk<1><<<1, threads, 0, s>>>(starts, lanes, warm, loads, b, touch_slots, stride, out, ends);
        break;
    case 2:
        lat_walk<2><<<1, threads, 0, s>>>(starts, lanes, warm, loads, b, touch_slots, stride, out, ends);
        break;
    default:
        lat_walk<0><<<1, threads, 0, s>>>(starts, lanes, warm, loads, b, touch_slots, stride, out, ends);
        break;
    }
    return cudaGetLastError();
}


// cluster 0: block 0 walks its own shared memory; 2 to 16: a cluster of
// that many blocks, block 0 walking block 1's. smem: slots x stride bytes.
extern "C" cudaError_t gt_k_smem_walk(int cluster, const uint32_t *next, uint32_t slots,
                                      uint32_t stride, const uint32_t *starts, int lanes,
                                      unsigned long long warm, unsigned long long loads,
                                      unsigned long long *out, uint32_t *ends, cudaStream_t s)
{
    size_t smem = (size_t)slots * stride;

    if (!cluster) {
        cudaError_t rc = cudaFuncSetAttribute(smem_own, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)smem);
        if (rc != cudaSuccess)
            return rc;
        smem_own<<<1, THREADS, smem, s>>>(next, slots, stride, starts, lanes, warm, loads, out,
                                          ends);
        return cudaGetLastError();
    }
#if CUDART_VERSION >= 11080
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cudaError_t rc;

    if ((rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)smem)) != cudaSuccess ||
        (rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeNonPortableClusterSizeAllowed,
                                   cluster > 8)) != cudaSuccess)
        return rc;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)cluster;
    at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)cluster);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, smem_remote, next, slots, stride, starts, lanes, warm, loads,
                              out, ends);
#else
    (void)next, (void)slots, (void)stride, (void)starts, (void)lanes, (void)warm, (void)loads;
    (void)out, (void)ends, (void)s;
    return cudaErrorNotSupported;
#endif
}

// The largest cluster of blocks of smem bytes this GPU can run at once
// (cudaOccupancyMaxPotentialClusterSize, non-portable sizes allowed).
extern "C" cudaError_t gt_k_smem_max_cluster(size_t smem, int *most)
{
#if CUDART_VERSION >= 11080
    cudaLaunchConfig_t cfg = {};
    cudaError_t rc;

    if ((rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)smem)) != cudaSuccess ||
        (rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeNonPortableClusterSizeAllowed,
                                   1)) != cudaSuccess)
        return rc;
    cfg.gridDim = dim3(16);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    return cudaOccupancyMaxPotentialClusterSize(most, (const void *)smem_remote, &cfg);
#else
    (void)smem;
    *most = 0;
    return cudaErrorNotSupported;
#endif
}
