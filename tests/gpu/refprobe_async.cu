// refprobe_async.cu - global memory into shared memory as the CUDA C++
// library offers it, written apart from gputui's kernels,
// beside gputui's PTX (async_kernels.cu):
//   plain:    each thread's 16-byte loads, up to four at a time, then
//             stored to shared memory;
//   cp.async: cuda::memcpy_async of each thread's 16 bytes through a
//             thread-scope cuda::pipeline of STAGES stages;
//   bulk:     cp_async_bulk_global_to_shared of a whole tile by thread 0,
//             a cuda::barrier a stage that thread 0 alone arrives at with
//             the tile's bytes and every thread waits on by its parity;
//   tma:      cp_async_bulk_tensor_2d_global_to_shared of a box of a tensor
//             map (rows of 1024 words, boxes 64 words wide).
// One block of 256 threads an SM; each reads every gridDim-th tile; every
// word is checked, 16 bytes a read, against i x 0x9E3779B1 ^ seed once it
// has landed. Timed by refprobe_timer.cuh from an emptied L2, as gputui's
// are where the buffer does not fit the L2 twice.
#include "refprobe.h"
#include "refprobe_timer.cuh"

#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#if __has_include(<cuda/ptx>)
#include <cuda/ptx>
#define RP_HAVE_PTX_NS 1
#endif

namespace {

typedef unsigned long long u64;
const unsigned K = 0x9E3779B1u;
const int THREADS = 256;

// This thread's wrong words of tile t, read 16 bytes at a time (word j
// at 'first' + j, or in a box of 64-word rows at first + (j / 64) x 1024 +
// j mod 64).
__device__ u64 wrong(const uint4 *s, int vecs, u64 first, bool box, unsigned seed)
{
    u64 b = 0;
    for (int v = threadIdx.x; v < vecs; v += blockDim.x) {
        uint4 q = s[v];
        unsigned got[4] = {q.x, q.y, q.z, q.w};
        int j = 4 * v;
        u64 i = box ? first + (u64)(j / 64) * 1024 + j % 64 : first + j;
        for (int e = 0; e < 4; e++)
            b += got[e] != ((unsigned)(i + e) * K ^ seed);
    }
    return b;
}

__global__ void fill(unsigned *p, size_t n, unsigned seed)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (unsigned)i * K ^ seed;
}

__global__ void r_plain(const uint4 *g, int tile, u64 ntiles, unsigned seed, u64 *bad)
{
    extern __shared__ uint4 s4[];
    int vecs = tile / 16;
    u64 b = 0;
    for (u64 t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const uint4 *src = g + t * vecs;
        int n = blockDim.x;
        // Up to four loads a thread in flight, then their stores: the empty
        // asm keeps the compiler from storing one before the next is asked
        // for (a store to shared memory it cannot tell apart from a load).
        for (int i = threadIdx.x; i < vecs; i += 4 * n) {
            uint4 v[4];
#pragma unroll
            for (int u = 0; u < 4; u++)
                if (i + u * n < vecs)
                    v[u] = src[i + u * n];
            asm volatile("" ::: "memory");
#pragma unroll
            for (int u = 0; u < 4; u++)
                if (i + u * n < vecs)
                    s4[i + u * n] = v[u];
        }
        __syncthreads();
        b += wrong(s4, vecs, t * (tile / 4), false, seed);
        __syncthreads();
    }
    if (b)
        atomicAdd(bad, b);
}

template <int S>
__global__ void r_cpasync(const unsigned char *g, int tile, u64 ntiles, unsigned seed, u64 *bad)
{
    extern __shared__ __align__(16) unsigned char sb[];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    u64 mine = ntiles > blockIdx.x ? (ntiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0, b = 0;
    auto fetch = [&](u64 k) {
        pipe.producer_acquire();
        if (k < mine) {
            u64 t = blockIdx.x + k * gridDim.x;
            for (int i = threadIdx.x * 16; i < tile; i += blockDim.x * 16)
                cuda::memcpy_async(sb + (k % S) * tile + i, g + t * tile + i,
                                   cuda::aligned_size_t<16>(16), pipe);
        }
        pipe.producer_commit();
    };
    for (int k = 0; k < S; k++)
        fetch(k);
    for (u64 k = 0; k < mine; k++) {
        cuda::pipeline_consumer_wait_prior<S - 1>(pipe);
        __syncthreads();
        b += wrong((const uint4 *)(sb + (k % S) * tile), tile / 16,
                   (blockIdx.x + k * gridDim.x) * (tile / 4), false, seed);
        __syncthreads();
        fetch(k + S);
    }
    if (b)
        atomicAdd(bad, b);
}

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// mbarrier.try_wait.parity: the library's (CUDA 12.4 on) where it has it.
// A template: the architectures without the bulk kernels never use it.
template <typename = void>
__device__ __forceinline__ bool try_wait_parity(uint64_t *bar, uint32_t parity)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#ifdef RP_HAVE_PTX_NS
    return cuda::ptx::mbarrier_try_wait_parity(bar, parity);
#else
    uint32_t done;
    asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "r"((uint32_t)__cvta_generic_to_shared(bar)), "r"(parity)
                 : "memory");
    return done;
#endif
#else
    (void)bar;
    (void)parity;
    return true;
#endif
}

template <int S, bool TMA>
__global__ void r_bulk(const __grid_constant__ CUtensorMap map, const unsigned char *g, int tile,
                       u64 ntiles, unsigned seed, u64 *bad)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cde = cuda::device::experimental;
    extern __shared__ __align__(128) unsigned char raw[];
    // 128-byte aligned, as an offset from raw: still shared memory to the
    // compiler (ld.shared where the words are checked)
    unsigned char *sb = raw + ((128u - ((unsigned)__cvta_generic_to_shared(raw) & 127u)) & 127u);
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar[S];
    u64 mine = ntiles > blockIdx.x ? (ntiles - blockIdx.x + gridDim.x - 1) / gridDim.x : 0, b = 0;
    if (threadIdx.x == 0) {
        for (int st = 0; st < S; st++)
            init(&bar[st], 1);      // thread 0's arrival, with the tile's bytes
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    auto fetch = [&](u64 k) {       // thread 0 only
        if (k >= mine)
            return;
        u64 t = blockIdx.x + k * gridDim.x;
        int st = (int)(k % S);
        // The tile's bytes expected, then the copy: the order gputui's
        // kernel (and CUTLASS) issue them in. The other order, which the
        // programming guide's example shows, is as correct and took 1.3%
        // longer at 8 KiB tiles on an H200 (2026-11-28): an instruction's
        // place, not what this program checks.
        (void)cuda::device::barrier_arrive_tx(bar[st], 1, tile);
        if (TMA)
            cde::cp_async_bulk_tensor_2d_global_to_shared(sb + (size_t)st * tile, &map,
                                                           (int)(t % 16 * 64),
                                                           (int)(t / 16 * (tile / 256)), bar[st]);
        else
            cde::cp_async_bulk_global_to_shared(sb + (size_t)st * tile, g + t * tile, tile,
                                                bar[st]);
    };
    if (threadIdx.x == 0)
        for (int k = 0; k < S; k++)
            fetch(k);
    for (u64 k = 0; k < mine; k++) {
        int st = (int)(k % S);
        u64 t = blockIdx.x + k * gridDim.x;
        // Every thread waits on the phase's parity and none arrives: an
        // arrival of each of 256 threads a tile costs as much as the copy.
        uint64_t *native = cuda::device::barrier_native_handle(bar[st]);
        while (!try_wait_parity(native, (uint32_t)((k / S) & 1)))
            ;
        u64 first = TMA ? t / 16 * (tile / 256) * 1024 + t % 16 * 64 : t * (tile / 4);
        b += wrong((const uint4 *)(sb + (size_t)st * tile), tile / 16, first, TMA, seed);
        __syncthreads();
        if (threadIdx.x == 0)
            fetch(k + S);
    }
    if (b)
        atomicAdd(bad, b);
#else
    if (threadIdx.x == 0 && blockIdx.x == 0)
        atomicAdd(bad, 1ull << 40);
#endif
}

template <int S>
const void *kernel(const char *way)
{
    if (!strcmp(way, "cp.async"))
        return (const void *)r_cpasync<S>;
    if (!strcmp(way, "bulk"))
        return (const void *)r_bulk<S, false>;
    if (!strcmp(way, "tma"))
        return (const void *)r_bulk<S, true>;
    return nullptr;
}

const void *kernel_for(const char *way, int stages)
{
    switch (stages) {
    case 1: return kernel<1>(way);
    case 2: return kernel<2>(way);
    case 4: return kernel<4>(way);
    case 8: return kernel<8>(way);
    default: return nullptr;
    }
}

// The buffer as a 2D tensor map: rows of 1024 words, boxes of 64 words by
// tile / 256 rows.
void encode(CUtensorMap *m, void *base, size_t bytes, int tile)
{
    typedef CUresult (*fn_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                             const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                             const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                             CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    void *f = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                        &q));
    if (!f || q != cudaDriverEntryPointSuccess) {
        fprintf(stderr, "refprobe: async: no cuTensorMapEncodeTiled in this driver\n");
        exit(1);
    }
    cuuint64_t dims[2] = {1024, bytes / 4096}, pitch[1] = {4096};
    cuuint32_t box[2] = {64, (cuuint32_t)(tile / 256)}, step[2] = {1, 1};
    CUresult rc = ((fn_t)f)(m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, base, dims, pitch, box, step,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (rc != CUDA_SUCCESS) {
        fprintf(stderr, "refprobe: async: cuTensorMapEncodeTiled: CUresult %d\n", (int)rc);
        exit(1);
    }
}

}  // namespace

// Each way of WAYS at one tile, timed and checked: "async_WAY_TILEk".
static void async_tile(unsigned char *g, size_t bytes, int tile_kib, int stages,
                       const char *ways, unsigned seed, u64 *bad, int sms, Timer &timer)
{
    int tile = tile_kib << 10;
    u64 ntiles = bytes / tile, got;
    CUtensorMap map;
    memset(&map, 0, sizeof map);
    char list[256];
    snprintf(list, sizeof list, "%s", ways);
    for (char *way = strtok(list, ","); way; way = strtok(nullptr, ",")) {
        bool plain = !strcmp(way, "plain");
        const void *k = plain ? (const void *)r_plain : kernel_for(way, stages);
        if (!k) {
            fprintf(stderr, "refprobe: async: '%s'; allowed: plain, cp.async, bulk, tma\n", way);
            exit(64);
        }
        int smem = plain ? tile : stages * tile + (strcmp(way, "cp.async") ? 128 : 0);
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        if (!strcmp(way, "tma"))
            encode(&map, g, bytes, tile);
        CK(cudaMemset(bad, 0, sizeof *bad));
        auto ms = timer.time([&](cudaStream_t s) {
            const unsigned char *gc = g;
            void *args_plain[] = {&gc, &tile, &ntiles, &seed, &bad};
            void *args_bulk[] = {&map, &gc, &tile, &ntiles, &seed, &bad};
            CK(cudaLaunchKernel(k, dim3(sms), dim3(THREADS),
                                plain || !strcmp(way, "cp.async") ? args_plain : args_bulk, smem,
                                s));
        });
        CK(cudaMemcpy(&got, bad, sizeof got, cudaMemcpyDeviceToHost));
        if (got) {
            fprintf(stderr, "refprobe: async: %s, %d KiB: %llu wrong words\n", way, tile_kib, got);
            exit(1);
        }
        char what[48];
        snprintf(what, sizeof what, "async_%s_%dk", way, tile_kib);
        dist(what, ms);
    }
}

// async STAGES TILE_KIB[,TILE_KIB...] WAYS [MiB]: each way (plain,
// cp.async, bulk, tma) at each tile read into shared memory, one block an
// SM: "async_WAY_TILEk", ms a read.
void async_copies(int stages, const char *tiles, const char *ways, size_t mib)
{
    int dev, sms;
    size_t bytes = mib << 20;
    int tile_kib[8], ntile = 0;
    char tlist[64];
    snprintf(tlist, sizeof tlist, "%s", tiles);
    for (char *t = strtok(tlist, ","); t; t = strtok(nullptr, ",")) {
        if (ntile == 8) {
            fprintf(stderr, "refprobe: async: more than 8 tiles in '%s'\n", tiles);
            exit(64);
        }
        tile_kib[ntile++] = atoi(t);
    }
    if (stages != 1 && stages != 2 && stages != 4 && stages != 8) {
        fprintf(stderr, "refprobe: async: %d stages; allowed: 1, 2, 4 or 8\n", stages);
        exit(64);
    }
    if (!ntile) {
        fprintf(stderr, "refprobe: async: no tile in '%s'; allowed: 1 to 64 KiB, comma-separated\n",
                tiles);
        exit(64);
    }
    for (int j = 0; j < ntile; j++)
        if (tile_kib[j] < 1 || tile_kib[j] > 64 || bytes % (16 * ((size_t)tile_kib[j] << 10))) {
            fprintf(stderr, "refprobe: async: a tile of %d KiB; allowed: 1 to 64, 16 of them "
                    "dividing %zu MiB\n", tile_kib[j], mib);
            exit(64);
        }
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    unsigned char *g;
    u64 *bad;
    unsigned seed = (unsigned)time(nullptr);
    CK(cudaMalloc(&g, bytes));
    CK(cudaMalloc(&bad, sizeof *bad));
    fill<<<sms * 4, 256>>>((unsigned *)g, bytes / 4, seed);
    CK(cudaDeviceSynchronize());
    Timer timer(true);
    for (int j = 0; j < ntile; j++)
        async_tile(g, bytes, tile_kib[j], stages, ways, seed, bad, sms, timer);
    cudaFree(bad);
    cudaFree(g);
}
