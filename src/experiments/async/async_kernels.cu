// The async experiment's kernels (async_kernels.h): global memory into
// shared memory a tile at a time, four ways, every word of each tile
// checked (16 bytes a read) once it has landed, then worked on.
//   plain:    each thread loads 16 bytes into registers, up to four at a
//             time, and stores them; the block waits for the tile.
//   cp.async: each thread's cp.async (4, 8 or 16 bytes) into one of
//             'stages' buffers, a commit group a tile (sm_80).
//   bulk:     thread 0's cp.async.bulk of the whole tile, its bytes counted
//             in by the stage's mbarrier (sm_90).
//   tma:      thread 0's cp.async.bulk.tensor.2d of a box of the tensor
//             map, counted in the same way (sm_90).
// A block takes tiles blockIdx.x, + gridDim.x, ...; with S stages it has
// the next S - 1 on their way while it works on one. Code for an
// architecture without the instructions is left out at compile time; such
// a kernel only marks its sample wrong, and the host never launches it
// there (async.c refuses the way first).
#include <cuda.h>
#include <stdint.h>
#include <string.h>

#include "async.h"
#include "async_kernels.h"

#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000
#define AS_HOPPER_BUILD 1
#else
#define AS_HOPPER_BUILD 0
#endif
// A tensor map passed by value stays in the kernel's parameters, where the
// TMA reads it; the annotation exists from compute capability 7.0.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
#define AS_GRID_CONST __grid_constant__
#else
#define AS_GRID_CONST
#endif

namespace {

typedef unsigned long long u64;

// A thread's words of one tile in shared memory, 16 bytes at a time (so
// that the check keeps up with the copy at one block an SM): each word
// against the pattern (word 'first' + j of the buffer, or for a TMA box of
// 64-word rows, first + (j / 64) x GT_AS_ROW_WORDS + j mod 64, four words
// never straddling a row), then, where WORK, 'compute' dependent
// multiply-adds on it.
template <bool WORK>
__device__ __forceinline__ void check(const uint4 *tile, uint32_t vecs, u64 first, bool box,
                                      uint32_t seed, uint32_t compute, u64 &bad, uint32_t &acc)
{
    for (uint32_t v = threadIdx.x; v < vecs; v += blockDim.x) {
        const uint4 q = tile[v];
        const uint32_t j = 4 * v, w[4] = {q.x, q.y, q.z, q.w};
        const u64 at = box ? first + (u64)(j / GT_AS_BOX_W) * GT_AS_ROW_WORDS + j % GT_AS_BOX_W
                           : first + j;
#pragma unroll
        for (uint32_t e = 0; e < 4; e++) {
            uint32_t x = w[e];
            bad += x != gt_pattern_word((size_t)(at + e), seed);
            if (WORK) {
                for (uint32_t c = 0; c < compute; c++)
                    x = x * 1664525u + 1013904223u;
                acc ^= x;
            }
        }
    }
}

// The check of a tile, and its work where there is some: the loop without
// work is the one the check alone needs.
__device__ __forceinline__ void consume(const uint4 *tile, uint32_t vecs, u64 first, bool box,
                                        uint32_t seed, uint32_t compute, u64 &bad,
                                        uint32_t &acc)
{
    if (compute)
        check<true>(tile, vecs, first, box, seed, compute, bad, acc);
    else
        check<false>(tile, vecs, first, box, seed, compute, bad, acc);
}

__device__ __forceinline__ void finish(u64 bad, uint32_t acc, u64 *dbad, uint32_t *sink)
{
    if (bad)
        atomicAdd(dbad, bad);
    if (acc == 0x5EED5EEDu)     // rarely; the work must stay
        sink[0] = acc;
}

// The tiles of this block: blockIdx.x + k x gridDim.x for k < MINE.
#define MINE(ntiles) ((ntiles) > blockIdx.x ? ((ntiles) - blockIdx.x + gridDim.x - 1) / gridDim.x : 0)
// A kernel of an architecture without its instructions: every sample wrong.
#define NOT_HERE(dbad) do { if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(dbad, 1ull << 40); } while (0)

__global__ void
as_plain(const uint4 *g, uint32_t tile, u64 ntiles, uint32_t seed, uint32_t compute, u64 *dbad,
         uint32_t *sink)
{
    extern __shared__ __align__(16) unsigned char smem[];
    uint4 *s = (uint4 *)smem;
    const uint32_t vecs = tile / 16, bd = blockDim.x;
    u64 bad = 0;
    uint32_t acc = 0;

    for (u64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const uint4 *src = g + t * vecs;
        // Up to GT_AS_PLAIN_LOADS loads a thread in flight, then their
        // stores. The empty asm keeps the compiler from storing the first
        // before it asks for the next: a store to shared memory it cannot
        // tell apart from a load would then wait for each load in turn.
        for (uint32_t i = threadIdx.x; i < vecs; i += GT_AS_PLAIN_LOADS * bd) {
            uint4 r[GT_AS_PLAIN_LOADS];
#pragma unroll
            for (uint32_t k = 0; k < GT_AS_PLAIN_LOADS; k++)
                if (i + k * bd < vecs)
                    r[k] = src[i + k * bd];
            asm volatile("" ::: "memory");
#pragma unroll
            for (uint32_t k = 0; k < GT_AS_PLAIN_LOADS; k++)
                if (i + k * bd < vecs)
                    s[i + k * bd] = r[k];
        }
        __syncthreads();
        consume(s, vecs, t * (tile / 4), false, seed, compute, bad, acc);
        __syncthreads();
    }
    finish(bad, acc, dbad, sink);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

// W bytes from global memory to shared address dst (a shared-space
// address, worked out once a kernel: converting a generic pointer each
// copy costs the loop a special register's read a tile).
template <int W>
__device__ __forceinline__ void cp_async(uint32_t dst, const void *src)
{
    if (W == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    else if (W == 8)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(dst), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(src) : "memory");
}

// Tile k of this block into stage k mod S (stages from shared address
// 'stages'), a commit group whether or not there is such a tile, so that
// group k is always tile k.
template <int W, int S>
__device__ __forceinline__ void cp_issue(uint32_t stages, const unsigned char *g, uint32_t tile,
                                         u64 k, u64 mine)
{
    if (k < mine) {
        u64 t = blockIdx.x + k * gridDim.x;
        uint32_t dst = stages + (uint32_t)(k % S) * tile;
        const unsigned char *src = g + t * tile;
        for (uint32_t i = threadIdx.x * W; i < tile; i += blockDim.x * W)
            cp_async<W>(dst + i, src + i);
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
}
#endif

template <int W, int S>
__global__ void
as_cpasync(const unsigned char *g, uint32_t tile, u64 ntiles, uint32_t seed, uint32_t compute,
           u64 *dbad, uint32_t *sink)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t stages = smem_addr(smem);
    const u64 mine = MINE(ntiles);
    u64 bad = 0;
    uint32_t acc = 0;

    for (int k = 0; k < S; k++)
        cp_issue<W, S>(stages, g, tile, (u64)k, mine);
    for (u64 k = 0; k < mine; k++) {
        // groups 0 .. k + S - 1 are issued: with S - 1 still pending, tile k is in
        asm volatile("cp.async.wait_group %0;" ::"n"(S - 1) : "memory");
        __syncthreads();
        consume((const uint4 *)(smem + (k % S) * tile), tile / 16,
                (blockIdx.x + k * gridDim.x) * (tile / 4), false, seed, compute, bad, acc);
        __syncthreads();
        cp_issue<W, S>(stages, g, tile, k + S, mine);
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
    finish(bad, acc, dbad, sink);
#else
    NOT_HERE(dbad);
#endif
}

#if AS_HOPPER_BUILD
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void mbar_init(uint64_t *b)
{
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem_addr(b)) : "memory");
}

__device__ __forceinline__ void mbar_expect(uint64_t *b, uint32_t bytes)
{
    asm volatile("{\n\t.reg .b64 st;\n\t"
                 "mbarrier.arrive.expect_tx.shared.b64 st, [%0], %1;\n\t}"
                 ::"r"(smem_addr(b)), "r"(bytes) : "memory");
}

// Until the phase of this parity has completed: true; false after 2 s of
// the global timer, so that a copy that never lands fails its sample and
// does not hang the GPU.
__device__ __forceinline__ bool mbar_wait(uint64_t *b, uint32_t parity)
{
    u64 t0 = 0, now;

    for (unsigned spin = 0;; spin++) {
        uint32_t done;
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(smem_addr(b)), "r"(parity) : "memory");
        if (done)
            return true;
        if (spin % 1024 == 0) {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            if (!t0)
                t0 = now;
            else if (now - t0 > 2000000000ull)
                return false;
        }
    }
}

// Thread 0: tile k of this block into stage k mod S, its bytes counted in
// by that stage's mbarrier.
template <int S, bool TMA>
__device__ __forceinline__ void bulk_issue(const CUtensorMap *map, unsigned char *smem,
                                           uint64_t *bar, const unsigned char *g, uint32_t tile,
                                           u64 k, u64 mine)
{
    if (k >= mine)
        return;
    u64 t = blockIdx.x + k * gridDim.x;
    int st = (int)(k % S);
    unsigned char *dst = smem + (size_t)st * tile;
    mbar_expect(&bar[st], tile);
    if (TMA) {
        int x = (int)(t % (GT_AS_ROW_WORDS / GT_AS_BOX_W) * GT_AS_BOX_W);
        int y = (int)(t / (GT_AS_ROW_WORDS / GT_AS_BOX_W) * (tile / (4 * GT_AS_BOX_W)));
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx"
                     "::bytes [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(smem_addr(dst)), "l"((uint64_t)(uintptr_t)map), "r"(x), "r"(y),
                     "r"(smem_addr(&bar[st])) : "memory");
    } else {
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], %2, [%3];"
                     ::"r"(smem_addr(dst)), "l"(g + t * tile), "r"(tile),
                     "r"(smem_addr(&bar[st])) : "memory");
    }
}
#endif

template <bool TMA, int S>
__global__ void
as_bulk(const AS_GRID_CONST CUtensorMap map, const unsigned char *g, uint32_t tile,
        u64 ntiles, uint32_t seed, uint32_t compute, u64 *dbad, uint32_t *sink)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) unsigned char raw[];
    // The stages on 128 bytes (a TMA box's destination), the mbarriers after;
    // an offset from raw, so that the compiler still knows the stages are
    // shared memory (LDS, not generic loads, where the tile is checked).
    unsigned char *smem = raw + ((128u - (smem_addr(raw) & 127u)) & 127u);
    uint64_t *bar = (uint64_t *)(smem + (size_t)S * tile);
    const u64 mine = MINE(ntiles);
    const uint32_t per_row = GT_AS_ROW_WORDS / GT_AS_BOX_W;
    u64 bad = 0;
    uint32_t acc = 0;

    if (threadIdx.x == 0) {
        for (int st = 0; st < S; st++)
            mbar_init(&bar[st]);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < S; k++)
            bulk_issue<S, TMA>(&map, smem, bar, g, tile, (u64)k, mine);
    for (u64 k = 0; k < mine; k++) {
        u64 t = blockIdx.x + k * gridDim.x;
        if (!mbar_wait(&bar[k % S], (uint32_t)((k / S) & 1))) {
            if (threadIdx.x == 0)   // the tile never came: the sample fails, the block ends
                atomicAdd(dbad, 1ull << 40);
            return;
        }
        u64 first = TMA ? (t / per_row) * (tile / (4 * GT_AS_BOX_W)) * GT_AS_ROW_WORDS +
                              (t % per_row) * GT_AS_BOX_W
                        : t * (tile / 4);
        consume((const uint4 *)(smem + (k % S) * tile), tile / 16, first, TMA, seed, compute,
                bad, acc);
        __syncthreads();        // every thread done with the stage before it is refilled
        if (threadIdx.x == 0)
            bulk_issue<S, TMA>(&map, smem, bar, g, tile, k + S, mine);
    }
    finish(bad, acc, dbad, sink);
#else
    NOT_HERE(dbad);
#endif
}
#endif

// The kernel of a shape; NULL where this build has none.
const void *kernel_of(const gt_as_shape *sh)
{
#define STAGES(K, ...)                                                                  \
    switch (sh->stages) {                                                               \
    case 1: return (const void *)K<__VA_ARGS__ 1>; case 2: return (const void *)K<__VA_ARGS__ 2>; \
    case 3: return (const void *)K<__VA_ARGS__ 3>; case 4: return (const void *)K<__VA_ARGS__ 4>; \
    case 5: return (const void *)K<__VA_ARGS__ 5>; case 6: return (const void *)K<__VA_ARGS__ 6>; \
    case 7: return (const void *)K<__VA_ARGS__ 7>; case 8: return (const void *)K<__VA_ARGS__ 8>; \
    default: return NULL;                                                               \
    }
    switch (sh->way) {
    case GT_AS_PLAIN:
        return (const void *)as_plain;
    case GT_AS_CPASYNC:
        if (sh->width == 4)
            STAGES(as_cpasync, 4,)
        if (sh->width == 8)
            STAGES(as_cpasync, 8,)
        STAGES(as_cpasync, 16,)
#if AS_HOPPER_BUILD
    case GT_AS_BULK:
        STAGES(as_bulk, false,)
    case GT_AS_TMA:
        STAGES(as_bulk, true,)
#endif
    default:
        return NULL;
    }
#undef STAGES
}

}  // namespace

extern "C" cudaError_t gt_k_as_prepare(const gt_as_shape *sh, int *fit, int *regs)
{
    const void *k = kernel_of(sh);
    cudaFuncAttributes a;
    cudaError_t rc;

    if (!k)
        return cudaErrorNotSupported;
    if ((rc = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)sh->smem)) != cudaSuccess ||
        (rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(fit, k, GT_AS_THREADS,
                                                            sh->smem)) != cudaSuccess ||
        (rc = cudaFuncGetAttributes(&a, k)) != cudaSuccess)
        return rc;
    *regs = a.numRegs;
    return cudaSuccess;
}

extern "C" cudaError_t gt_k_as_read(const gt_as_shape *sh, const void *src, const void *map,
                                    unsigned long long ntiles, uint32_t seed, uint32_t compute,
                                    unsigned long long *bad, uint32_t *sink, int blocks,
                                    cudaStream_t s)
{
    const void *k = kernel_of(sh);
    const unsigned char *g = (const unsigned char *)src;
    uint32_t tile = sh->tile;

    if (!k)
        return cudaErrorNotSupported;
    if (sh->way == GT_AS_PLAIN) {
        as_plain<<<blocks, GT_AS_THREADS, sh->smem, s>>>((const uint4 *)src, tile, ntiles, seed,
                                                         compute, bad, sink);
    } else if (sh->way == GT_AS_CPASYNC) {
        void *args[] = {&g, &tile, &ntiles, &seed, &compute, &bad, &sink};
        return cudaLaunchKernel(k, dim3(blocks), dim3(GT_AS_THREADS), args, sh->smem, s);
    } else {
#if AS_HOPPER_BUILD
        CUtensorMap m;
        memset(&m, 0, sizeof m);
        if (map)
            memcpy(&m, map, sizeof m);
        void *args[] = {&m, &g, &tile, &ntiles, &seed, &compute, &bad, &sink};
        return cudaLaunchKernel(k, dim3(blocks), dim3(GT_AS_THREADS), args, sh->smem, s);
#else
        (void)map;
        return cudaErrorNotSupported;
#endif
    }
    return cudaGetLastError();
}
