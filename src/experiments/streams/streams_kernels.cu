// The stream-overlap experiment's kernels behind include/gputui/kernels.h.
#include "streams.h"
#include "streams_kernels.h"

namespace {

// 'work' steps of x = x * GT_STR_LCG_A + c on every word: a dependent chain
// of integer multiply-adds whose result the CPU checks in closed form.
__global__ void lcg(uint32_t *p, size_t n, uint32_t work, uint32_t c)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint32_t x = p[i];
#pragma unroll 4
        for (uint32_t k = 0; k < work; k++)
            x = x * GT_STR_LCG_A + c;
        p[i] = x;
    }
}

__global__ void empty() {}

}  // namespace

extern "C" cudaError_t gt_k_lcg(uint32_t *p, size_t nwords, uint32_t work, uint32_t c,
                                int blocks, cudaStream_t s)
{
    lcg<<<blocks, 256, 0, s>>>(p, nwords, work, c);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_empty(cudaStream_t s)
{
    empty<<<1, 1, 0, s>>>();
    return cudaGetLastError();
}
