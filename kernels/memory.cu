// Fill, verify and copy kernels behind include/gputui/kernels.h.
#include "gputui/kernels.h"
#include "gputui/kernels_launch.cuh"

namespace {

constexpr int kThreads = 512;

// Words first .. first+n-1 of the pattern, at p[first ..].
__global__ void fill_pattern(uint32_t *p, size_t first, size_t n, uint32_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = first + (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < first + n;
         i += stride)
        p[i] = ((uint32_t)i * GT_PATTERN_K) ^ seed;
}

__global__ void fill_word(uint32_t *p, size_t n, uint32_t v)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = v;
}

__global__ void verify_pattern(const uint32_t *p, size_t n, uint32_t seed,
                               unsigned long long *res)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        if (p[i] != (((uint32_t)i * GT_PATTERN_K) ^ seed)) {
            if (!bad)
                first = i;
            bad++;
        }
    }
    if (bad) {
        atomicAdd(&res[0], bad);
        atomicMin(&res[1], first);
    }
}

// 16-byte accesses, four independent loads in flight per thread.
__global__ void copy16(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n; i += stride)
        dst[i] = src[i];
}

__global__ void copy4(uint32_t *dst, const uint32_t *src, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

int grid_for(size_t n, int blocks)
{
    return gt_launch::grid_upto(n, kThreads, blocks);
}

}  // namespace

extern "C" cudaError_t gt_k_fill_pattern(uint32_t *p, size_t n, uint32_t seed, int blocks,
                                         cudaStream_t s)
{
    fill_pattern<<<grid_for(n, blocks), kThreads, 0, s>>>(p, 0, n, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_fill_pattern_at(uint32_t *p, size_t first, size_t n, uint32_t seed,
                                            int blocks, cudaStream_t s)
{
    fill_pattern<<<grid_for(n, blocks), kThreads, 0, s>>>(p, first, n, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_fill_word(uint32_t *p, size_t n, uint32_t v, int blocks,
                                      cudaStream_t s)
{
    fill_word<<<grid_for(n, blocks), kThreads, 0, s>>>(p, n, v);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_verify_pattern(const uint32_t *p, size_t n, uint32_t seed,
                                           unsigned long long *res, int blocks, cudaStream_t s)
{
    verify_pattern<<<grid_for(n, blocks), kThreads, 0, s>>>(p, n, seed, res);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_copy(void *dst, const void *src, size_t bytes, int blocks,
                                 cudaStream_t s)
{
    size_t n16 = bytes / 16, tail = (bytes % 16) / 4;
    if (n16)
        copy16<<<grid_for(n16, blocks), kThreads, 0, s>>>((uint4 *)dst, (const uint4 *)src, n16);
    if (tail)
        copy4<<<1, 4, 0, s>>>((uint32_t *)dst + n16 * 4, (const uint32_t *)src + n16 * 4, tail);
    return cudaGetLastError();
}
