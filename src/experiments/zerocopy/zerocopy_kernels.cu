// The zero-copy experiment's kernel behind include/gputui/kernels.h.
#include "zerocopy_kernels.h"
#include "gputui/experiments/patterns.h"

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

// *bad += elements of out that differ from a + b of iteration 'seed'.
__global__ void zc_check(const float *out, size_t n, uint32_t seed, unsigned long long *bad)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long k = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        k += out[i] != gt_zc_a(i, seed) + gt_zc_b(i, seed);
    if (k)
        atomicAdd(bad, k);
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

extern "C" cudaError_t gt_k_zc_check(const float *out, size_t n, uint32_t seed,
                                    unsigned long long *bad, int blocks, cudaStream_t s)
{
    zc_check<<<blocks, 256, 0, s>>>(out, n, seed, bad);
    return cudaGetLastError();
}
