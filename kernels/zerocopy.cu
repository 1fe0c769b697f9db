// The zero-copy experiment's kernel behind include/gputui/kernels.h.
#include "gputui/kernels.h"

namespace {

// One pass: the plain kernel, c[i] = a[i] + b[i], as any program would write it.
__global__ void add(float *out, const float *a, const float *b, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = a[i] + b[i];
}

// Several passes: volatile loads, so that every pass reads memory again
// instead of reusing registers.
__global__ void add_passes(float *out, const float *a, const float *b, size_t n, int passes)
{
    const volatile float *va = a, *vb = b;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float acc = 0.0f;
        for (int p = 0; p < passes; p++)
            acc += va[i] + vb[i];
        out[i] = acc / (float)passes;
    }
}

}  // namespace

extern "C" cudaError_t gt_k_add_passes(float *out, const float *a, const float *b, size_t n,
                                       int passes, int blocks, int threads, cudaStream_t s)
{
    if (passes == 1)
        add<<<blocks, threads, 0, s>>>(out, a, b, n);
    else
        add_passes<<<blocks, threads, 0, s>>>(out, a, b, n, passes);
    return cudaGetLastError();
}
