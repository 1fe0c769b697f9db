// The latency experiment's kernels (src/gpu/latency.c declares the
// launchers it uses): building a chain (chain.h) in GPU memory, and the
// walk: one thread, or one warp of 32 independent walkers, each load's
// address coming from the load before, timed inside the kernel by the
// global timer (ns) and clock64 (SM cycles), so no launch is counted.
#include <stdint.h>

#include <cuda_runtime_api.h>

namespace {

__global__ void lat_linear(uint32_t *buf, size_t slots, uint32_t sw)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < slots; k += stride)
        buf[k * sw] = (uint32_t)(((k + 1) % slots) * sw);
}

__global__ void lat_scatter(uint32_t *buf, const uint32_t *next, size_t slots, uint32_t sw)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < slots; k += stride)
        buf[k * sw] = next[k] * sw;
}

__device__ __forceinline__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Policy 0: ld.global (cached in L1); 1: ld.global.cg (L2 only);
// 2: ld.volatile.global.
template <int P>
__device__ __forceinline__ uint32_t load(const uint32_t *p)
{
    if (P == 1)
        return __ldcg(p);
    if (P == 2)
        return *(const volatile uint32_t *)p;
    return *p;
}

template <int P>
__global__ void lat_walk(const uint32_t *buf, const uint32_t *starts, unsigned long long loads,
                         unsigned long long *out, uint32_t *ends)
{
    uint32_t j = starts[threadIdx.x];
    __syncwarp();
    unsigned long long t0 = global_ns(), c0 = clock64();
    for (unsigned long long i = 0; i < loads; i++)
        j = load<P>(buf + j);
    unsigned long long c1 = clock64(), t1 = global_ns();
    ends[threadIdx.x] = j;      // depends on every load: none can be left out
    if (threadIdx.x == 0) {
        out[0] = t1 - t0;
        out[1] = c1 - c0;
    }
}

}  // namespace

extern "C" cudaError_t gt_k_lat_build(uint32_t *buf, const uint32_t *next, size_t slots,
                                      uint32_t stride_words, int blocks, cudaStream_t s)
{
    if (next)
        lat_scatter<<<blocks, 256, 0, s>>>(buf, next, slots, stride_words);
    else
        lat_linear<<<blocks, 256, 0, s>>>(buf, slots, stride_words);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_lat_walk(const uint32_t *buf, const uint32_t *starts, int lanes,
                                     unsigned long long loads, int policy,
                                     unsigned long long *out, uint32_t *ends, cudaStream_t s)
{
    switch (policy) {
    case 1: lat_walk<1><<<1, lanes, 0, s>>>(buf, starts, loads, out, ends); break;
    case 2: lat_walk<2><<<1, lanes, 0, s>>>(buf, starts, loads, out, ends); break;
    default: lat_walk<0><<<1, lanes, 0, s>>>(buf, starts, loads, out, ends); break;
    }
    return cudaGetLastError();
}
