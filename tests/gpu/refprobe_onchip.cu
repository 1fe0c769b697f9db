// refprobe_onchip.cu - a cluster's shared memory and atomics, written
// apart from gputui's kernels: a chase through a block's own shared memory
// and another's in its cluster (the latency experiment's kind=shared and
// dsmem), timed with events around a long kernel; every thread of a
// cluster reading its own block's shared memory and the next block's (the
// cluster experiment); a histogram in global memory and privatized in
// shared memory (the atomics experiment).
#include "refprobe.h"
#include "refprobe_timer.cuh"

#include <cooperative_groups.h>
#include <vector>

// ---- a chase through shared memory, a block's own and another's ----

namespace {

// next[i] of a 32-bit index chain, in shared memory; block 0 of a cluster
// of two follows it in its own (remote false) or block 1's, 'hops' times.
__global__ void r_chase(const unsigned *order, int n, long long hops, bool remote, unsigned *out)
{
    extern __shared__ unsigned chain[];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        chain[i] = order[i];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    cl.sync();
    if (cl.block_rank() == 0 && threadIdx.x == 0) {
        unsigned j = 0;         // a byte offset: a hop is a load and an add
        if (remote) {           // a generic address in the cluster's window
            const volatile char *c = (const volatile char *)cl.map_shared_rank(chain, 1);
            for (long long k = 0; k < hops; k++)
                j = *(const volatile unsigned *)(c + j);
        } else {                // ld.shared
            const volatile char *c = (const volatile char *)chain;
            for (long long k = 0; k < hops; k++)
                j = *(const volatile unsigned *)(c + j);
        }
        *out = j / 4;
    }
    cl.sync();
#else
    if (threadIdx.x == 0)
        *out = ~0u;
#endif
}

}  // namespace

// dsmem KiB: one thread follows a random cycle of 128-byte steps through
// KiB of shared memory, its own block's and then another's of a cluster of
// two, 2^20 loads a kernel timed with events: "smem_own" and
// "smem_remote", ns a load.
void dsmem(int kib)
{
    int n = kib * 256, slots = n / 32;      // a slot every 32 words
    const long long hops = 1 << 20;
    if (kib < 1 || kib > 200) {
        fprintf(stderr, "refprobe: dsmem: %d KiB; allowed: 1 to 200\n", kib);
        exit(64);
    }
    // Sattolo's algorithm over the slots: one cycle through all of them.
    std::vector<unsigned> perm(slots), order(n, 0);
    for (int i = 0; i < slots; i++)
        perm[i] = i;
    srand(12345);
    for (int i = slots - 1; i > 0; i--)
        std::swap(perm[i], perm[rand() % i]);
    for (int i = 0; i < slots; i++)
        order[i * 32] = perm[i] * 32 * 4;       // the byte offset of the next slot
    unsigned want = 0;
    for (long long k = 0; k < hops; k++)
        want = order[want / 4];
    want /= 4;
    unsigned *dorder, *dout, got;
    CK(cudaMalloc(&dorder, n * 4));
    CK(cudaMalloc(&dout, 4));
    CK(cudaMemcpy(dorder, order.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(r_chase, cudaFuncAttributeMaxDynamicSharedMemorySize, n * 4));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int remote = 0; remote < 2; remote++) {
        std::vector<double> ns;
        for (int r = 0; r < 12; r++) {
            cudaLaunchConfig_t cfg = {};
            cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeClusterDimension;
            at[0].val.clusterDim.x = 2;
            at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
            cfg.gridDim = dim3(2);
            cfg.blockDim = dim3(128);
            cfg.dynamicSmemBytes = n * 4;
            cfg.attrs = at;
            cfg.numAttrs = 1;
            bool rem = remote;
            CK(cudaEventRecord(a));
            CK(cudaLaunchKernelEx(&cfg, r_chase, (const unsigned *)dorder, n, hops, rem, dout));
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            float ms;
            CK(cudaEventElapsedTime(&ms, a, b));
            CK(cudaMemcpy(&got, dout, 4, cudaMemcpyDeviceToHost));
            if (got != want) {
                fprintf(stderr, "refprobe: dsmem: the chase ended at %u, not %u\n", got, want);
                exit(1);
            }
            if (r >= 2)
                ns.push_back(ms * 1e6 / hops);
        }
        dist(remote ? "smem_remote" : "smem_own", ns);
    }
    cudaFree(dorder);
    cudaFree(dout);
}

// ---- reads of a cluster's shared memory, a block's own and the next's ----

namespace {

const unsigned K = 0x9E3779B1u;     // gputui's pattern: word i is i x K ^ seed

// Every block fills its words with i x K ^ (seed + rank); each thread adds
// 'reads' words, thread t's read k being word ((k x 256 + t) x mult) mod
// words, of its own block or of the next in the cluster; out[t] its sum.
__global__ void r_cluster(int words, int reads, unsigned mult, bool remote, unsigned seed,
                          unsigned *out)
{
    extern __shared__ unsigned w[];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        w[i] = (unsigned)i * K ^ (seed + cl.block_rank());
    cl.sync();
    unsigned step = (unsigned)((256ull * mult) % (unsigned)words);
    unsigned at = (unsigned)((unsigned long long)threadIdx.x * mult % (unsigned)words), sum = 0;
    if (remote) {
        const volatile unsigned *src =
            cl.map_shared_rank(w, (cl.block_rank() + 1) % cl.num_blocks());
        for (int k = 0; k < reads; k++) {
            sum += src[at];
            at += step;
            if (at >= (unsigned)words)
                at -= words;
        }
    } else {
        const volatile unsigned *src = w;
        for (int k = 0; k < reads; k++) {
            sum += src[at];
            at += step;
            if (at >= (unsigned)words)
                at -= words;
        }
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum;
    cl.sync();
#else
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = 0;
#endif
}

}  // namespace

// cluster BLOCKS KiB READS: clusters of BLOCKS, as many as run at once,
// KiB of shared memory each, READS words a thread, coalesced then
// scattered (a lane every 33 words): "cluster_own_coalesced",
// "cluster_remote_coalesced", ..._scattered, ms a kernel; every sum checked.
void cluster_reads(int blocks, int kib, int reads)
{
    int words = kib * 256;
    if (blocks < 2 || blocks > 16 || kib < 4 || kib > 192 || reads < 1) {
        fprintf(stderr, "refprobe: cluster: %d blocks of %d KiB, %d reads; allowed: 2 to 16 "
                "blocks, 4 to 192 KiB\n", blocks, kib, reads);
        exit(64);
    }
    CK(cudaFuncSetAttribute(r_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize, words * 4));
    CK(cudaFuncSetAttribute(r_cluster, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = blocks;
    at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
    cfg.blockDim = dim3(256);
    cfg.dynamicSmemBytes = words * 4;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    cfg.gridDim = dim3(blocks);
    int clusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&clusters, (const void *)r_cluster, &cfg));
    if (clusters < 1) {
        fprintf(stderr, "refprobe: cluster: no cluster of %d fits\n", blocks);
        exit(1);
    }
    int threads = clusters * blocks * 256;
    unsigned *out, seed = (unsigned)time(nullptr);
    std::vector<unsigned> got(threads);
    CK(cudaMalloc(&out, (size_t)threads * 4));
    Timer timer(false);
    cfg.gridDim = dim3(clusters * blocks);
    for (int scattered = 0; scattered < 2; scattered++)
        for (int remote = 0; remote < 2; remote++) {
            unsigned mult = scattered ? 33 : 1;
            bool rem = remote;
            auto ms = timer.time([&](cudaStream_t s) {
                cfg.stream = s;
                CK(cudaLaunchKernelEx(&cfg, r_cluster, words, reads, mult, rem, seed, out));
            });
            CK(cudaMemcpy(got.data(), out, (size_t)threads * 4, cudaMemcpyDeviceToHost));
            for (int t = 0; t < threads; t++) {
                unsigned rank = (unsigned)(t / 256 % blocks), from = remote ? (rank + 1) % blocks
                                                                            : rank;
                unsigned sum = 0;
                if (t >= 256 * blocks)      // the first cluster's threads stand for the rest
                    break;
                for (long long k = 0; k < reads; k++)
                    sum += (unsigned)((k * 256 + t % 256) * mult % words) * K ^ (seed + from);
                if (got[t] != sum) {
                    fprintf(stderr, "refprobe: cluster: thread %d summed %u, not %u\n", t,
                            got[t], sum);
                    exit(1);
                }
            }
            char what[64];
            snprintf(what, sizeof what, "cluster_%s_%s", remote ? "remote" : "own",
                     scattered ? "scattered" : "coalesced");
            dist(what, ms);
        }
    cudaFree(out);
}

// ---- atomics: a histogram in global memory and one privatized ----

namespace {

// Thread t adds 1 to bin (t + i) mod k, 'ops' times, in global memory
// (the bin stepped along, as gputui's kernel does, not divided each time).
__global__ void r_hist_global(unsigned *bins, unsigned k, int ops)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, b = t % k;
    for (int i = 0; i < ops; i++) {
        atomicAdd(&bins[b], 1u);
        b = b + 1 == k ? 0 : b + 1;
    }
}

// The same into the block's own bins in shared memory, added to the
// global ones at the end.
__global__ void r_hist_shared(unsigned *bins, unsigned k, int ops)
{
    extern __shared__ unsigned mine[];
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, at = t % k;
    for (unsigned b = threadIdx.x; b < k; b += blockDim.x)
        mine[b] = 0;
    __syncthreads();
    for (int i = 0; i < ops; i++) {
        atomicAdd(&mine[at], 1u);
        at = at + 1 == k ? 0 : at + 1;
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < k; b += blockDim.x)
        atomicAdd(&bins[b], mine[b]);
}

}  // namespace

// atomics K OPS: 4 blocks of 256 an SM adding 1, OPS times each, to K bins,
// in global memory and privatized: "atomics_global_kK", "atomics_shared_kK",
// ms a kernel; every bin checked.
void atomics(unsigned k, int ops)
{
    int dev, sms;
    if (k < 1 || k > 8192 || ops < 1) {
        fprintf(stderr, "refprobe: atomics: K %u, %d ops; allowed: K 1 to 8192\n", k, ops);
        exit(64);
    }
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    unsigned blocks = (unsigned)sms * 4, threads = blocks * 256, *bins;
    std::vector<unsigned> got(k), want(k, 0);
    for (unsigned t = 0; t < threads; t++)
        for (int i = 0; i < ops; i++)
            want[(t + i) % k]++;
    CK(cudaMalloc(&bins, k * 4));
    Timer timer(false);
    for (int shared = 0; shared < 2; shared++) {
        auto ms = timer.time([&](cudaStream_t s) {
            CK(cudaMemsetAsync(bins, 0, k * 4, s));
            CK(cudaEventRecord(timer.a, s));     // again: the clearing left out, as gputui's is
            if (shared)
                r_hist_shared<<<blocks, 256, k * 4, s>>>(bins, k, ops);
            else
                r_hist_global<<<blocks, 256, 0, s>>>(bins, k, ops);
        });
        CK(cudaMemcpy(got.data(), bins, k * 4, cudaMemcpyDeviceToHost));
        for (unsigned b = 0; b < k; b++)
            if (got[b] != want[b]) {
                fprintf(stderr, "refprobe: atomics: bin %u holds %u, not %u\n", b, got[b],
                        want[b]);
                exit(1);
            }
        char what[48];
        snprintf(what, sizeof what, "atomics_%s_k%u", shared ? "shared" : "global", k);
        dist(what, ms);
    }
    cudaFree(bins);
}
