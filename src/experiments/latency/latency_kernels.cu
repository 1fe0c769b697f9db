// The latency experiment's kernels (src/experiments/latency/latency_gpu.c declares the
// launchers it uses): building a chain (chain.h) in GPU memory, and the
// walk: one thread, or one warp of 32 independent walkers, each load's
// address being the value the load before returned (a pointer chase: no
// arithmetic between the loads), timed inside the kernel by the global
// timer (ns) and clock64 (SM cycles), so no launch is counted, after an
// untimed warm walk in the same kernel.
#include <stdint.h>

#include <cuda_runtime_api.h>

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
