// How a warp touches memory, behind include/gputui/kernels.h: the
// coalescing experiment's strided move and its check, the L2 flush, and
// the shared-memory bank experiment's reads and their check.
#include "gputui/kernels.h"
#include "gputui/experiments/exp_banks.h"
#include "gputui/experiments/exp_coalesce.h"

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t add(uint32_t v, uint32_t k) { return v + k; }
__device__ __forceinline__ uint2 add(uint2 v, uint32_t k) { return make_uint2(v.x + k, v.y + k); }
__device__ __forceinline__ uint4 add(uint4 v, uint32_t k)
{
    return make_uint4(v.x + k, v.y + k, v.z + k, v.w + k);
}

// One element a thread: out[i * so + oo] = in[i * si + oi] + k.
template <typename T>
__global__ void co_move(T *__restrict__ out, const T *__restrict__ in, uint64_t n, uint32_t si,
                        uint32_t oi, uint32_t so, uint32_t oo, uint32_t k)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i * so + oo] = add(in[i * si + oi], k);
}

// Word c of the element written at position p of the output (elements of
// 'words' words): the input's pattern plus k where p is on the lattice,
// else the poison.
__device__ __forceinline__ uint32_t co_want(uint64_t p, uint32_t c, uint32_t words, uint64_t n,
                                            uint32_t si, uint32_t oi, uint32_t so, uint32_t oo,
                                            uint32_t k, uint32_t seed)
{
    if (p < oo || (p - oo) % so || (p - oo) / so >= n)
        return GT_CO_POISON;
    uint64_t src = (p - oo) / so * si + oi;
    return gt_pattern_word((size_t)(src * words + c), seed) + k;
}

__global__ void co_check(const uint32_t *out, uint64_t len, uint32_t words, uint64_t n,
                         uint32_t si, uint32_t oi, uint32_t so, uint32_t oo, uint32_t k,
                         uint32_t seed, int all, unsigned long long *bad)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x, m = all ? len : n;
    unsigned long long nb = 0;
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += stride) {
        uint64_t p = all ? j : j * so + oo;
        for (uint32_t c = 0; c < words; c++)
            nb += out[p * words + c] != co_want(p, c, words, n, si, oi, so, oo, k, seed);
    }
    if (nb)
        atomicAdd(bad, nb);
}

__global__ void l2_flush(const uint4 *p, size_t n, unsigned *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 v = p[i];
        acc += v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9E3779B1u)     // the buffer is zeros: never
        *sink = acc;
}

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

int grid(uint64_t n)
{
    return (int)((n + kThreads - 1) / kThreads);
}

}  // namespace

extern "C" cudaError_t gt_k_co_move(void *out, const void *in, uint64_t n, unsigned width,
                                    uint32_t si, uint32_t oi, uint32_t so, uint32_t oo,
                                    uint32_t k, cudaStream_t s)
{
    switch (width) {
    case 16:
        co_move<<<grid(n), kThreads, 0, s>>>((uint4 *)out, (const uint4 *)in, n, si, oi, so, oo, k);
        break;
    case 8:
        co_move<<<grid(n), kThreads, 0, s>>>((uint2 *)out, (const uint2 *)in, n, si, oi, so, oo, k);
        break;
    default:
        co_move<<<grid(n), kThreads, 0, s>>>((uint32_t *)out, (const uint32_t *)in, n, si, oi, so,
                                             oo, k);
        break;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_co_check(const void *out, uint64_t len, unsigned width, uint64_t n,
                                     uint32_t si, uint32_t oi, uint32_t so, uint32_t oo,
                                     uint32_t k, uint32_t seed, int all, unsigned long long *bad,
                                     int blocks, cudaStream_t s)
{
    co_check<<<blocks, kThreads, 0, s>>>((const uint32_t *)out, len, width / 4, n, si, oi, so, oo,
                                         k, seed, all, bad);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_l2_flush(const void *p, size_t bytes, unsigned *sink, int blocks,
                                     cudaStream_t s)
{
    l2_flush<<<blocks, kThreads, 0, s>>>((const uint4 *)p, bytes / 16, sink);
    return cudaGetLastError();
}

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
