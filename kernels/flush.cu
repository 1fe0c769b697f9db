// The L2 flush (include/gputui/kernels.h): a read of a buffer larger than
// the L2, so that it holds clean lines and nothing of what came before.
#include "gputui/kernels.h"

namespace {

constexpr int kThreads = 256;

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

}  // namespace

extern "C" cudaError_t gt_k_l2_flush(const void *p, size_t bytes, unsigned *sink, int blocks,
                                     cudaStream_t s)
{
    l2_flush<<<blocks, kThreads, 0, s>>>((const uint4 *)p, bytes / 16, sink);
    return cudaGetLastError();
}
