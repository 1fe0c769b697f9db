// The latency experiment's kernels (src/gpu/latency.c declares the
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

// 'warm' untimed loads first, in the same kernel on the same SM, so a
// chain that fits the L1 is found there (the L1 starts every kernel
// cold), then 'loads' timed ones; both go on along the same chain.
template <int P>
__global__ void lat_walk(const u64 *starts, u64 warm, u64 loads, u64 *out, u64 *ends)
{
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

// One load of every slot, by the whole grid: brings a chain that fits the
// L2 back into it, and its pages into the GPU's TLBs, before a walk.
__global__ void lat_touch(const char *base, size_t slots, size_t stride, u64 *sink)
{
    u64 acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < slots;
         i += (size_t)gridDim.x * blockDim.x)
        acc += *(const volatile u64 *)(base + i * stride);
    if (acc == 0x5EED5EED5EED5EEDull)    // never, but the loads must stay
        *sink = acc;
}

}  // namespace

extern "C" cudaError_t gt_k_lat_touch(const void *base, size_t slots, size_t stride,
                                      unsigned long long *sink, int blocks, cudaStream_t s)
{
    lat_touch<<<blocks, 256, 0, s>>>((const char *)base, slots, stride, sink);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_lat_build(void *base, const uint32_t *next, size_t slots,
                                      size_t stride, int blocks, cudaStream_t s)
{
    if (next)
        lat_scatter<<<blocks, 256, 0, s>>>((char *)base, next, slots, stride);
    else
        lat_linear<<<blocks, 256, 0, s>>>((char *)base, slots, stride);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_lat_walk(const unsigned long long *starts, int lanes,
                                     unsigned long long warm, unsigned long long loads,
                                     int policy, unsigned long long *out,
                                     unsigned long long *ends, cudaStream_t s)
{
    switch (policy) {
    case 1: lat_walk<1><<<1, lanes, 0, s>>>(starts, warm, loads, out, ends); break;
    case 2: lat_walk<2><<<1, lanes, 0, s>>>(starts, warm, loads, out, ends); break;
    default: lat_walk<0><<<1, lanes, 0, s>>>(starts, warm, loads, out, ends); break;
    }
    return cudaGetLastError();
}
