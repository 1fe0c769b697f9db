// The dependent-read chain behind include/gputui/kernels.h: a chain of
// 4-byte indices and one thread that follows it, each read's address
// coming from the read before.
#include "gputui/kernels.h"

namespace {

__global__ void chain_init(uint32_t *p, size_t n, uint32_t step)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = (uint32_t)((i + step) % n);
}

__global__ void chase(const uint32_t *p, uint32_t start, unsigned long long hops, uint32_t *out,
                      unsigned target)
{
    uint32_t j = start;

    if (blockIdx.x != target)
        return;
    for (unsigned long long k = 0; k < hops; k++)
        j = p[j];
    *out = j;
}

}  // namespace

extern "C" cudaError_t gt_k_chain_init(uint32_t *p, size_t n, uint32_t step, int blocks,
                                       cudaStream_t s)
{
    chain_init<<<blocks > 0 ? blocks : 1, 256, 0, s>>>(p, n, step);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_chase(const uint32_t *p, uint32_t start, unsigned long long hops,
                                  uint32_t *out, int blocks, int target, cudaStream_t s)
{
    chase<<<blocks > 0 ? blocks : 1, 1, 0, s>>>(p, start, hops, out, (unsigned)target);
    return cudaGetLastError();
}
