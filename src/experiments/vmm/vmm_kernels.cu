// The VMM experiment's kernels behind vmm_kernels.h: its data written,
// and read back word by word against what was written.
#include "vmm_kernels.h"
#include "gputui/kernels_launch.cuh"

namespace {

constexpr int kThreads = 512;

template <int KIND>
__global__ void fill(uint32_t *p, size_t first, size_t n, uint32_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = first + (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < first + n;
         i += stride)
        p[i] = gt_vmm_data_word(KIND, i, seed);
}

template <int KIND>
__device__ __forceinline__ unsigned long long differ(uint4 v, size_t w, uint32_t seed,
                                                     unsigned long long *first)
{
    unsigned long long bad = 0;
    uint32_t x[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; k++)
        if (x[k] != gt_vmm_data_word(KIND, w + k, seed)) {
            if (w + k < *first)
                *first = w + k;
            bad++;
        }
    return bad;
}

// One 16-byte load an iteration, a grid's width apart, then the words
// past the last whole vector. Four loads in flight a thread, each a grid's
// width from the last, read compressible memory 8 to 20% slower on an H100
// (tests/gpu/refprobe_vmm.cu, REFPROBE_READ4): the loop is left plain.
template <int KIND>
__global__ void read(const uint32_t *p, size_t n, uint32_t seed, unsigned long long *res)
{
    const uint4 *q = (const uint4 *)p;
    size_t n4 = n / 4, stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0, first = ~0ull;

    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
        bad += differ<KIND>(q[i], 4 * i, seed, &first);
    for (size_t w = 4 * n4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < n; w += stride)
        if (p[w] != gt_vmm_data_word(KIND, w, seed)) {
            if (w < first)
                first = w;
            bad++;
        }
    if (bad) {
        atomicAdd(&res[0], bad);
        atomicMin(&res[1], first);
    }
}

int grid_for(size_t n, int blocks)
{
    return gt_launch::grid_upto(n, kThreads, blocks);
}

}  // namespace

extern "C" cudaError_t gt_k_vmm_fill(uint32_t *p, size_t first, size_t n, int kind, uint32_t seed,
                                     int blocks, cudaStream_t s)
{
    int g = grid_for(n, blocks);

    switch (kind) {
    case GT_VMM_DATA_RANDOM: fill<GT_VMM_DATA_RANDOM><<<g, kThreads, 0, s>>>(p, first, n, seed); break;
    case GT_VMM_DATA_ZEROS: fill<GT_VMM_DATA_ZEROS><<<g, kThreads, 0, s>>>(p, first, n, seed); break;
    case GT_VMM_DATA_CONSTANT: fill<GT_VMM_DATA_CONSTANT><<<g, kThreads, 0, s>>>(p, first, n, seed); break;
    default: fill<GT_VMM_DATA_PATTERN><<<g, kThreads, 0, s>>>(p, first, n, seed); break;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_vmm_read(const uint32_t *p, size_t n, int kind, uint32_t seed,
                                     unsigned long long *res, int blocks, cudaStream_t s)
{
    int g = grid_for(n / 4 + 1, blocks);

    switch (kind) {
    case GT_VMM_DATA_RANDOM: read<GT_VMM_DATA_RANDOM><<<g, kThreads, 0, s>>>(p, n, seed, res); break;
    case GT_VMM_DATA_ZEROS: read<GT_VMM_DATA_ZEROS><<<g, kThreads, 0, s>>>(p, n, seed, res); break;
    case GT_VMM_DATA_CONSTANT: read<GT_VMM_DATA_CONSTANT><<<g, kThreads, 0, s>>>(p, n, seed, res); break;
    default: read<GT_VMM_DATA_PATTERN><<<g, kThreads, 0, s>>>(p, n, seed, res); break;
    }
    return cudaGetLastError();
}
