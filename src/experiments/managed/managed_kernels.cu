// The managed-memory experiment's ping-pong kernel (src/experiments/managed/managed_gpu.c
// declares it): the first touch and the reads use kernels/memory.cu's fill
// and check of the pattern.
#include <stdint.h>

#include <cuda_runtime.h>

#include "gputui/kernels.h"

namespace {

constexpr int kThreads = 512;

// Every word must be pattern(i, seed) + k; it becomes + k + 1. res[0]
// counts the words that were not.
__global__ void mg_bump(uint32_t *p, size_t n, uint32_t seed, uint32_t k,
                        unsigned long long *res)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint32_t w = p[i];
        bad += w != gt_pattern_word(i, seed) + k;
        p[i] = w + 1;
    }
    if (bad)
        atomicAdd(&res[0], bad);
}

}  // namespace

extern "C" cudaError_t gt_k_mg_bump(uint32_t *p, size_t n, uint32_t seed, uint32_t k,
                                    unsigned long long *res, int blocks, cudaStream_t s)
{
    mg_bump<<<blocks, kThreads, 0, s>>>(p, n, seed, k, res);
    return cudaGetLastError();
}
