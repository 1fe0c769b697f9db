// The coalescing experiment's kernels (coalesce_kernels.h): the strided
// move and its check.
#include "coalesce.h"
#include "coalesce_kernels.h"
#include "gputui/kernels_launch.cuh"

namespace {

using gt_launch::grid;
using gt_launch::kThreads;

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
