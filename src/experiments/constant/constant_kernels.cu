// The __constant__ memory experiment's kernels and symbol calls
// (src/experiments/constant/constant_gpu.c declares what it uses): the array lives here, so the
// calls that name it (cudaMemcpyToSymbol, cudaMemcpyFromSymbol,
// cudaGetSymbolAddress) are made here too.
#include <stdint.h>

#include <cuda_runtime.h>

#include "constant.h"

namespace {

__constant__ uint32_t c_words[GT_CO_MAX_BYTES / 4];

// Each thread sums 'reads' words of the first GT_CO_WORDS: mode 0 every
// thread of a warp on word k (a broadcast), mode 1 thread 'lane' on word
// k + lane of constant memory, mode 2 the same in global memory.
template <int MODE>
__global__ void co_read(const uint32_t *g, uint32_t reads, uint32_t *out)
{
    uint32_t lane = threadIdx.x & 31, acc = 0;
    for (uint32_t k = 0; k < reads; k++) {
        uint32_t i = (MODE == 0 ? k : k + lane) & (GT_CO_WORDS - 1);
        acc += MODE == 2 ? g[i] : c_words[i];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

}  // namespace

extern "C" cudaError_t gt_k_co_read(int mode, const uint32_t *g, uint32_t reads, int blocks,
                                    int threads, uint32_t *out, cudaStream_t s)
{
    switch (mode) {
    case 0: co_read<0><<<blocks, threads, 0, s>>>(g, reads, out); break;
    case 1: co_read<1><<<blocks, threads, 0, s>>>(g, reads, out); break;
    default: co_read<2><<<blocks, threads, 0, s>>>(g, reads, out); break;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_co_to_symbol(const void *src, size_t bytes)
{
    return cudaMemcpyToSymbol(c_words, src, bytes);
}

extern "C" cudaError_t gt_k_co_from_symbol(void *dst, size_t bytes)
{
    return cudaMemcpyFromSymbol(dst, c_words, bytes);
}

extern "C" cudaError_t gt_k_co_symbol_address(void **p)
{
    return cudaGetSymbolAddress(p, c_words);
}
