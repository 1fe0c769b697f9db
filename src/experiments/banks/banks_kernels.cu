// The shared-memory bank experiment's kernels (banks_kernels.h): the
// reads and their check.
#include "banks.h"
#include "banks_kernels.h"
#include "gputui/kernels_launch.cuh"

namespace {

using gt_launch::grid;
using gt_launch::kThreads;

// Volatile shared-memory loads of 4, 8 or 16 bytes at a shared-window
// address, each word added to acc: neither the compiler nor the assembler
// may drop, merge or hoist them.
template <int W> __device__ __forceinline__ uint32_t lds(uint32_t addr);
template <> __device__ __forceinline__ uint32_t lds<4>(uint32_t addr)
{
    uint32_t a;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a) : "r"(addr));
    return a;
}
template <> __device__ __forceinline__ uint32_t lds<8>(uint32_t addr)
{
    uint32_t a, b;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr));
    return a + b;
}
template <> __device__ __forceinline__ uint32_t lds<16>(uint32_t addr)
{
    uint32_t a, b, c, d;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr));
    return a + b + c + d;
}

template <int W>
__global__ void bk_read(uint32_t *out, uint32_t stride, uint32_t reads, uint32_t seed)
{
    __shared__ __align__(16) uint32_t sm[GT_BK_SMEM / 4];
    for (uint32_t q = threadIdx.x; q < GT_BK_SMEM / 4; q += blockDim.x)
        sm[q] = gt_bk_word(q, seed);
    __syncthreads();
    uint32_t base = (uint32_t)__cvta_generic_to_shared(sm) +
                    gt_bk_addr(threadIdx.x & 31u, stride, W, 0);
    uint32_t acc = 0;
    for (uint32_t r = 0; r < reads; r += GT_BK_STEPS) {
#pragma unroll
        for (uint32_t k = 0; k < GT_BK_STEPS; k++)
            acc += lds<W>(base + k * 128u);
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void bk_check(const uint32_t *out, size_t n, const uint32_t *expect,
                         unsigned long long *bad)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && out[i] != expect[i & 31u])
        atomicAdd(bad, 1ull);
}

}  // namespace

extern "C" cudaError_t gt_k_bk_read(uint32_t *out, unsigned width, uint32_t stride,
                                    uint32_t reads, uint32_t seed, int blocks, int threads,
                                    cudaStream_t s)
{
    switch (width) {
    case 16: bk_read<16><<<blocks, threads, 0, s>>>(out, stride, reads, seed); break;
    case 8: bk_read<8><<<blocks, threads, 0, s>>>(out, stride, reads, seed); break;
    default: bk_read<4><<<blocks, threads, 0, s>>>(out, stride, reads, seed); break;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_bk_check(const uint32_t *out, size_t n, const uint32_t *expect,
                                     unsigned long long *bad, cudaStream_t s)
{
    bk_check<<<grid(n), kThreads, 0, s>>>(out, n, expect, bad);
    return cudaGetLastError();
}
