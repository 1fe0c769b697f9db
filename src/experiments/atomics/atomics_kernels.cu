// The atomics experiment's kernels (atomics_kernels.h): every thread's
// 'ops' atomic operations on K targets 'stride' apart, thread t's
// operation i on target (t + i) mod K (or each thread on its own), as
// written or aggregated by hand across a warp; in shared memory, each
// block's bins merged into the targets at its end; the targets set to the
// operation's identity before, and checked after against what the host
// worked out. One kernel for each operation, type, scope and place, so
// that none branches on them in its loop.
#include <string.h>

#include "atomics.h"
#include "atomics_kernels.h"

namespace {

typedef unsigned long long u64;

// The atomic of scope S (GT_AT_BLOCK, _DEVICE, _SYSTEM) on p.
template <int S, typename T>
__device__ __forceinline__ void add(T *p, T v)
{
    if constexpr (S == GT_AT_BLOCK)
        atomicAdd_block(p, v);
    else if constexpr (S == GT_AT_SYSTEM)
        atomicAdd_system(p, v);
    else
        atomicAdd(p, v);
}

template <int S, typename T>
__device__ __forceinline__ void min_of(T *p, T v)
{
    if constexpr (S == GT_AT_BLOCK)
        atomicMin_block(p, v);
    else if constexpr (S == GT_AT_SYSTEM)
        atomicMin_system(p, v);
    else
        atomicMin(p, v);
}

template <int S, typename T>
__device__ __forceinline__ void max_of(T *p, T v)
{
    if constexpr (S == GT_AT_BLOCK)
        atomicMax_block(p, v);
    else if constexpr (S == GT_AT_SYSTEM)
        atomicMax_system(p, v);
    else
        atomicMax(p, v);
}

template <int S, typename W>
__device__ __forceinline__ W cas(W *p, W expect, W v)
{
    if constexpr (S == GT_AT_BLOCK)
        return atomicCAS_block(p, expect, v);
    else if constexpr (S == GT_AT_SYSTEM)
        return atomicCAS_system(p, expect, v);
    else
        return atomicCAS(p, expect, v);
}

// The word a target's bits are swapped as by atomicCAS.
template <typename T> struct word { typedef unsigned int type; };
template <> struct word<u64> { typedef u64 type; };
template <> struct word<double> { typedef u64 type; };

template <typename T>
__device__ __forceinline__ typename word<T>::type bits(T v)
{
    typename word<T>::type w;
    memcpy(&w, &v, sizeof w);
    return w;
}

template <typename T>
__device__ __forceinline__ T value(typename word<T>::type w)
{
    T v;
    memcpy(&v, &w, sizeof v);
    return v;
}

// x -> f(x) by a CAS loop: read, compute, swap if no one got there first.
template <int S, typename T, typename F>
__device__ __forceinline__ void cas_loop(T *p, F f)
{
    typedef typename word<T>::type W;
    W *w = (W *)p, old = *(volatile W *)w, seen;
    do {
        seen = old;
        old = cas<S>(w, seen, bits(f(value<T>(seen))));
    } while (old != seen);
}

// Operation OP of thread t's i-th turn on p.
template <int OP, int S, typename T>
__device__ __forceinline__ void op(T *p, T v)
{
    if constexpr (OP == GT_AT_ADD)
        add<S>(p, (T)1);
    else if constexpr (OP == GT_AT_MIN)
        min_of<S>(p, v);
    else if constexpr (OP == GT_AT_MAX)
        max_of<S>(p, v);
    else if constexpr (OP == GT_AT_CAS)
        cas_loop<S>(p, [](T x) { return (T)(x + (T)1); });
    else
        cas_loop<S>(p, [](T x) { return (T)(x * (T)3); });
}

// What an address holds before the first operation.
template <int OP, typename T>
__device__ __forceinline__ T identity()
{
    if constexpr (OP == GT_AT_MIN)
        return (T)~(T)0;
    else if constexpr (OP == GT_AT_MUL)
        return (T)1;
    else
        return (T)0;
}

// A block's bin merged into its target (device scope): what the bin
// gathered, combined as the operation combines.
template <int OP, typename T>
__device__ __forceinline__ void merge(T *g, T bin)
{
    if constexpr (OP == GT_AT_ADD || OP == GT_AT_CAS)
        atomicAdd(g, bin);
    else if constexpr (OP == GT_AT_MIN)
        atomicMin(g, bin);
    else if constexpr (OP == GT_AT_MAX)
        atomicMax(g, bin);
    else
        cas_loop<GT_AT_DEVICE>(g, [bin](T x) { return (T)(x * bin); });
}

template <int OP, typename T, int S, bool SH, bool AGG>
__global__ void __launch_bounds__(GT_AT_THREADS)
at_run(T *g, u64 k, uint32_t stride, int own, uint32_t ops, uint32_t seed)
{
    extern __shared__ __align__(8) unsigned char raw[];
    T *bins = (T *)raw, *base = SH ? bins : g;
    // 32-bit steps: the targets span at most 1 GiB (atomics.c). The
    // address is an index times the stride, not a pointer stepped along:
    // the next addresses then depend on no atomic, and the compiler issues
    // an unrolled loop's atomics back to back.
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, kk = (uint32_t)k;
    uint32_t a = own ? t : t % kk;

    if (SH) {
        for (uint32_t b = threadIdx.x; b < kk; b += blockDim.x)
            bins[(size_t)b * stride] = identity<OP, T>();
        __syncthreads();
    }
    for (uint32_t i = 0; i < ops; i++) {
        T *p = base + a * stride;
        if constexpr (AGG) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
            // The lanes on this address elect the lowest; it adds for all.
            unsigned same = __match_any_sync(__activemask(), (u64)(uintptr_t)p);
            if ((threadIdx.x & 31) == (unsigned)(__ffs(same) - 1))
                add<S>(p, (T)__popc(same));
#else
            add<S>(p, (T)1);        // no __match_any_sync before 7.0 (the row refuses it)
#endif
        } else {
            op<OP, S>(p, (T)gt_at_value(t, i, seed));
        }
        if (!own)
            a = a + 1 == kk ? 0 : a + 1;
    }
    if (SH) {
        __syncthreads();
        for (uint32_t b = threadIdx.x; b < kk; b += blockDim.x)
            merge<OP>(g + (size_t)b * stride, bins[(size_t)b * stride]);
    }
}

template <int OP, typename T>
__global__ void at_reset(T *g, u64 k, uint32_t stride)
{
    for (u64 a = (u64)blockIdx.x * blockDim.x + threadIdx.x; a < k; a += (u64)gridDim.x * blockDim.x)
        g[a * stride] = identity<OP, T>();
}

template <typename T>
__global__ void at_check(const T *g, const T *expect, u64 k, uint32_t stride,
                         unsigned long long *bad)
{
    unsigned long long b = 0;
    for (u64 a = (u64)blockIdx.x * blockDim.x + threadIdx.x; a < k; a += (u64)gridDim.x * blockDim.x)
        b += bits(g[a * stride]) != bits(expect[a]);
    if (b)
        atomicAdd(bad, b);
}

// ---- dispatch: the kernel of a shape, never one the row refuses ----

struct call {
    const gt_at_shape *sh;
    void *g;
    const void *expect;
    unsigned long long *bad;
    int blocks;
    cudaStream_t s;
    int what;       // 0 run, 1 reset, 2 check
};

template <int OP, typename T, int S, bool SH, bool AGG>
cudaError_t go(const call &c)
{
    const gt_at_shape *sh = c.sh;
    T *g = (T *)c.g;

    if (c.what == 1) {
        at_reset<OP, T><<<256, 256, 0, c.s>>>(g, sh->k, sh->stride);
    } else if (c.what == 2) {
        at_check<T><<<256, 256, 0, c.s>>>(g, (const T *)c.expect, sh->k, sh->stride, c.bad);
    } else {
        size_t smem = SH ? ((size_t)(sh->k - 1) * sh->stride + 1) * sizeof(T) : 0;
        if (smem > 48 * 1024) {
            cudaError_t rc = cudaFuncSetAttribute(at_run<OP, T, S, SH, AGG>,
                                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  (int)smem);
            if (rc != cudaSuccess)
                return rc;
        }
        at_run<OP, T, S, SH, AGG><<<c.blocks, GT_AT_THREADS, smem, c.s>>>(
            g, sh->k, sh->stride, sh->own, sh->ops, sh->seed);
    }
    return cudaGetLastError();
}

template <int OP, typename T, int S>
cudaError_t by_place(const call &c)
{
    bool sh = c.sh->where == GT_AT_SHARED, agg = c.sh->agg == GT_AT_WARP;

    if constexpr (OP == GT_AT_ADD) {
        if (agg)
            return sh ? go<OP, T, S, true, true>(c) : go<OP, T, S, false, true>(c);
    }
    if (agg)
        return cudaErrorInvalidValue;
    return sh ? go<OP, T, S, true, false>(c) : go<OP, T, S, false, false>(c);
}

template <int OP, typename T>
cudaError_t by_scope(const call &c)
{
    switch (c.sh->scope) {
    case GT_AT_BLOCK: return by_place<OP, T, GT_AT_BLOCK>(c);
    case GT_AT_SYSTEM: return by_place<OP, T, GT_AT_SYSTEM>(c);
    default: return by_place<OP, T, GT_AT_DEVICE>(c);
    }
}

template <int OP>
cudaError_t by_type(const call &c)
{
    switch (c.sh->type) {
    case GT_AT_U32: return by_scope<OP, unsigned int>(c);
    case GT_AT_U64: return by_scope<OP, u64>(c);
    default: break;
    }
    if constexpr (OP == GT_AT_ADD || OP == GT_AT_CAS) {     // floats: add and cas alone
        if (c.sh->type == GT_AT_F32)
            return by_scope<OP, float>(c);
        if (c.sh->type == GT_AT_F64)
            return by_scope<OP, double>(c);
    }
    return cudaErrorInvalidValue;
}

cudaError_t dispatch(const call &c)
{
    switch (c.sh->op) {
    case GT_AT_ADD: return by_type<GT_AT_ADD>(c);
    case GT_AT_MIN: return by_type<GT_AT_MIN>(c);
    case GT_AT_MAX: return by_type<GT_AT_MAX>(c);
    case GT_AT_CAS: return by_type<GT_AT_CAS>(c);
    case GT_AT_MUL: return by_type<GT_AT_MUL>(c);
    default: return cudaErrorInvalidValue;
    }
}

}  // namespace

extern "C" cudaError_t gt_k_at_reset(const gt_at_shape *sh, void *targets, cudaStream_t s)
{
    return dispatch(call{sh, targets, nullptr, nullptr, 0, s, 1});
}

extern "C" cudaError_t gt_k_at_run(const gt_at_shape *sh, void *targets, int blocks,
                                   cudaStream_t s)
{
    return dispatch(call{sh, targets, nullptr, nullptr, blocks, s, 0});
}

extern "C" cudaError_t gt_k_at_check(const gt_at_shape *sh, const void *targets,
                                     const void *expect, unsigned long long *bad, cudaStream_t s)
{
    return dispatch(call{sh, (void *)targets, expect, bad, 0, s, 2});
}
