// The L2 persistence experiment's kernels behind include/gputui/kernels.h.
#include "l2_kernels.h"

namespace {

// The Programming Guide's pattern: every thread updates one word of the
// persisting region and one word of the streaming array. The grid sweeps
// the streaming array a region-sized tile at a time, so each word of the
// region is updated once per tile, always by the same thread (no races):
//   v = ++persist[j]; stream[t + j] += v.
__global__ void touch(uint32_t *stream, size_t ns, uint32_t *persist, size_t np)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t j0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t t = 0; t < ns; t += np)
        for (size_t j = j0; j < np && t + j < ns; j += stride) {
            uint32_t v = persist[j] + 1;
            persist[j] = v;
            stream[t + j] += v;
        }
}

// After k launches, with stream = pattern(seed) and persist = pattern(pseed)
// at the start, tile q of word j holds s0 + k (p0 + q + 1) + c k (k - 1) / 2
// and persist[j] = p0 + k c, where c = the number of tiles that reach j.
__global__ void check(const uint32_t *stream, size_t ns, const uint32_t *persist, size_t np,
                      uint32_t seed, uint32_t pseed, uint32_t k, unsigned long long *bad)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    uint32_t tri = (uint32_t)((unsigned long long)k * (k - 1) / 2);
    unsigned long long n = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < ns; i += stride) {
        size_t q = i / np, j = i - q * np;
        uint32_t c = (uint32_t)((ns - j + np - 1) / np), p0 = gt_pattern_word(j, pseed);
        n += stream[i] != gt_pattern_word(i, seed) + k * (p0 + (uint32_t)q + 1) + c * tri;
        if (i < np)
            n += persist[i] != p0 + k * c;
    }
    if (n)
        atomicAdd(bad, n);
}

}  // namespace

extern "C" cudaError_t gt_k_l2_touch(uint32_t *stream, size_t ns, uint32_t *persist, size_t np,
                                     int blocks, cudaStream_t s)
{
    touch<<<blocks, 256, 0, s>>>(stream, ns, persist, np);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_l2_check(const uint32_t *stream, size_t ns, const uint32_t *persist,
                                     size_t np, uint32_t seed, uint32_t pseed, uint32_t k,
                                     unsigned long long *bad, int blocks, cudaStream_t s)
{
    check<<<blocks, 256, 0, s>>>(stream, ns, persist, np, seed, pseed, k, bad);
    return cudaGetLastError();
}
