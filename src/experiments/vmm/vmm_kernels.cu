// The VMM experiment's kernels behind vmm_kernels.h: its data written,
// read back and folded against the data's own fold, and compared word by
// word against what was written.
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

// Every word of p[0 .. n) against the data, one 16-byte load an iteration
// a thread, a grid's width apart, then the words past the last whole
// vector: res[0] += the words that differ, res[1] = min(res[1], the first).
template <int KIND>
__device__ void compare(const uint32_t *p, size_t n, uint32_t seed, unsigned long long *res)
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

template <int KIND>
__global__ void check(const uint32_t *p, size_t n, uint32_t seed, unsigned long long *res)
{
    compare<KIND>(p, n, seed, res);
}

// A thread's words folded in the order it takes them: word k of each
// 16-byte vector into lane k, a lane turned one bit left before each word,
// so that a word in the wrong place changes the fold as a wrong word does.
// The lanes' sum is what a thread hands on. Two integer operations a word:
// the read stays bound by memory whatever the data (a comparison with
// random words, made from the index, cost the read a fifth of its rate on
// an H200).
struct fold {
    uint32_t l[4] = {0, 0, 0, 0};

    __device__ __forceinline__ void add(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
    {
        l[0] = __funnelshift_l(l[0], l[0], 1) ^ a;
        l[1] = __funnelshift_l(l[1], l[1], 1) ^ b;
        l[2] = __funnelshift_l(l[2], l[2], 1) ^ c;
        l[3] = __funnelshift_l(l[3], l[3], 1) ^ d;
    }
    __device__ __forceinline__ void add(uint4 v) { add(v.x, v.y, v.z, v.w); }
    __device__ __forceinline__ uint32_t sum() const { return l[0] + 3u * l[1] + 5u * l[2] + 7u * l[3]; }
};

// Vector i of the memory (MEM) or of the data itself (the expected fold).
template <int KIND, bool MEM>
__device__ __forceinline__ uint4 vec(const uint4 *q, size_t i, uint32_t seed)
{
    if (MEM)
        return q[i];
    return make_uint4(gt_vmm_data_word(KIND, 4 * i, seed), gt_vmm_data_word(KIND, 4 * i + 1, seed),
                      gt_vmm_data_word(KIND, 4 * i + 2, seed),
                      gt_vmm_data_word(KIND, 4 * i + 3, seed));
}

// This thread's fold of p[0 .. n): four 16-byte loads in flight, each a
// grid's width from the last, then the vectors and words left over.
template <int KIND, bool MEM>
__device__ uint32_t fold_thread(const uint32_t *p, size_t n, uint32_t seed)
{
    const uint4 *q = (const uint4 *)p;
    size_t n4 = n / 4, stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    fold f;

    for (; i + 3 * stride < n4; i += 4 * stride) {
        uint4 a = vec<KIND, MEM>(q, i, seed), b = vec<KIND, MEM>(q, i + stride, seed);
        uint4 c = vec<KIND, MEM>(q, i + 2 * stride, seed), d = vec<KIND, MEM>(q, i + 3 * stride, seed);
        f.add(a);
        f.add(b);
        f.add(c);
        f.add(d);
    }
    for (; i < n4; i += stride)
        f.add(vec<KIND, MEM>(q, i, seed));
    for (size_t w = 4 * n4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < n; w += stride)
        f.add(MEM ? p[w] : gt_vmm_data_word(KIND, w, seed), 0, 0, 0);
    return f.sum();
}

// The block's sum of its threads' folds, in every thread.
__device__ uint32_t block_sum(uint32_t v)
{
    __shared__ uint32_t warps[kThreads / 32];

    for (int o = 16; o; o >>= 1)
        v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    if ((threadIdx.x & 31) == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0;
    for (int k = 0; k < kThreads / 32; k++)
        v += warps[k];
    return v;
}

template <int KIND>
__global__ void expect(size_t n, uint32_t seed, uint32_t *sums)
{
    uint32_t s = block_sum(fold_thread<KIND, false>(nullptr, n, seed));

    if (threadIdx.x == 0)
        sums[blockIdx.x] = s;
}

// The read: every word folded; a block whose fold is not the data's
// compares its words one by one, to count them and find the first.
template <int KIND>
__global__ void read(const uint32_t *p, size_t n, uint32_t seed, const uint32_t *sums,
                     unsigned long long *res)
{
    if (block_sum(fold_thread<KIND, true>(p, n, seed)) != sums[blockIdx.x])
        compare<KIND>(p, n, seed, res);     // only this block's share: the same threads
}

int grid_for(size_t n, int blocks)
{
    return gt_launch::grid_upto(n, kThreads, blocks);
}

// The grid of the read, of its expected folds and of the check: one, so
// that block b folds the same words in the read as in gt_k_vmm_expect.
int read_grid(size_t n, int blocks)
{
    return grid_for(n / 4 + 1, blocks);
}

}  // namespace

// One launch of K<KIND> for the data 'kind' (GT_VMM_DATA_*).
#define GT_VMM_BY_KIND(K, kind, g, s, ...)                                             \
    switch (kind) {                                                                    \
    case GT_VMM_DATA_RANDOM: K<GT_VMM_DATA_RANDOM><<<g, kThreads, 0, s>>>(__VA_ARGS__); break;     \
    case GT_VMM_DATA_ZEROS: K<GT_VMM_DATA_ZEROS><<<g, kThreads, 0, s>>>(__VA_ARGS__); break;       \
    case GT_VMM_DATA_CONSTANT: K<GT_VMM_DATA_CONSTANT><<<g, kThreads, 0, s>>>(__VA_ARGS__); break; \
    default: K<GT_VMM_DATA_PATTERN><<<g, kThreads, 0, s>>>(__VA_ARGS__); break;                   \
    }

extern "C" cudaError_t gt_k_vmm_fill(uint32_t *p, size_t first, size_t n, int kind, uint32_t seed,
                                     int blocks, cudaStream_t s)
{
    GT_VMM_BY_KIND(fill, kind, grid_for(n, blocks), s, p, first, n, seed)
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_vmm_expect(size_t n, int kind, uint32_t seed, uint32_t *sums,
                                       int blocks, cudaStream_t s)
{
    GT_VMM_BY_KIND(expect, kind, read_grid(n, blocks), s, n, seed, sums)
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_vmm_read(const uint32_t *p, size_t n, int kind, uint32_t seed,
                                     const uint32_t *sums, unsigned long long *res, int blocks,
                                     cudaStream_t s)
{
    GT_VMM_BY_KIND(read, kind, read_grid(n, blocks), s, p, n, seed, sums, res)
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_vmm_check(const uint32_t *p, size_t n, int kind, uint32_t seed,
                                      unsigned long long *res, int blocks, cudaStream_t s)
{
    GT_VMM_BY_KIND(check, kind, read_grid(n, blocks), s, p, n, seed, res)
    return cudaGetLastError();
}
