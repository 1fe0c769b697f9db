// The stream-ordered allocator experiment's kernels behind
// include/gputui/kernels.h: every buffer of a list written and checked
// (buffer b's word w = gt_pattern_word(w, seed + b)), and one thread that
// waits a while.
#include "pool_kernels.h"

namespace {

constexpr int kThreads = 256;

__global__ void pool_fill(void *const *ptrs, size_t words, uint32_t seed)
{
    uint32_t *p = (uint32_t *)ptrs[blockIdx.y];
    for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < words;
         w += (size_t)gridDim.x * blockDim.x)
        p[w] = gt_pattern_word(w, seed + blockIdx.y);
}

__global__ void pool_check(void *const *ptrs, size_t words, uint32_t seed, unsigned long long *bad)
{
    const uint32_t *p = (const uint32_t *)ptrs[blockIdx.y];
    unsigned long long k = 0;
    for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < words;
         w += (size_t)gridDim.x * blockDim.x)
        k += p[w] != gt_pattern_word(w, seed + blockIdx.y);
    if (k)
        atomicAdd(bad, k);
}

__global__ void pool_wait(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

__global__ void pool_signal(volatile int *flag, int value)
{
    __threadfence_system();
    *flag = value;
}

dim3 grid(int n, size_t words, int blocks)
{
    size_t per = (words + kThreads - 1) / kThreads;
    size_t most = (size_t)(blocks > n ? blocks / n : 1);
    return dim3((unsigned)(per < most ? (per ? per : 1) : most), (unsigned)n);
}

}  // namespace

extern "C" cudaError_t gt_k_pool_fill(void *const *ptrs, int n, size_t words, uint32_t seed,
                                      int blocks, cudaStream_t s)
{
    pool_fill<<<grid(n, words, blocks), kThreads, 0, s>>>(ptrs, words, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_pool_check(void *const *ptrs, int n, size_t words, uint32_t seed,
                                       unsigned long long *bad, int blocks, cudaStream_t s)
{
    pool_check<<<grid(n, words, blocks), kThreads, 0, s>>>(ptrs, words, seed, bad);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_pool_wait(unsigned long long ns, cudaStream_t s)
{
    pool_wait<<<1, 1, 0, s>>>(ns);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_pool_signal(int *flag, int value, cudaStream_t s)
{
    pool_signal<<<1, 1, 0, s>>>(flag, value);
    return cudaGetLastError();
}
