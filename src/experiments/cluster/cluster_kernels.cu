// The cluster experiment's kernels (cluster_kernels.h): clusters of blocks
// (Hopper) whose threads read shared memory, their own block's or the next
// block's of the cluster through the distributed shared memory, and the
// check of their sums. Code for an architecture without clusters is left
// out at compile time; there the kernel writes sums that fail the check,
// and the host never launches it (cluster.c refuses first).
#include <cooperative_groups.h>

#include "cluster.h"
#include "cluster_kernels.h"

namespace cg = cooperative_groups;

namespace {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// This thread's 'reads' words of 'from', stepped along (gt_cl_step).
__device__ __forceinline__ uint32_t sum_of(const volatile uint32_t *from, uint32_t words,
                                           uint32_t reads, int scattered)
{
    const uint32_t step = gt_cl_step(words, scattered);
    uint32_t sum = 0, q = gt_cl_index(threadIdx.x, 0, words, scattered);

    for (uint32_t k = 0; k < reads; k++) {
        sum += from[q];
        q += step;
        q -= q >= words ? words : 0;
    }
    return sum;
}
#endif

__global__ void __launch_bounds__(GT_CL_THREADS)
cl_read(uint32_t words, uint32_t reads, int scattered, int remote, uint32_t seed, uint32_t *out)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ uint32_t sm[];
    cg::cluster_group cluster = cg::this_cluster();
    for (uint32_t q = threadIdx.x; q < words; q += blockDim.x)
        sm[q] = gt_cl_word(q, seed + cluster.block_rank());
    cluster.sync();
    // Two loops, so that the block's own is read with ld.shared and the
    // next block's through the generic address of the cluster's window.
    out[t] = remote ? sum_of(cluster.map_shared_rank(sm, (cluster.block_rank() + 1) %
                                                         cluster.num_blocks()),
                             words, reads, scattered)
                    : sum_of(sm, words, reads, scattered);
    cluster.sync();         // the memory another block reads stays until it is done
#else
    (void)words, (void)reads, (void)scattered, (void)remote, (void)seed;
    out[t] = 0xFA11FA11u;
#endif
}

__global__ void cl_check(const uint32_t *out, size_t n, int blocks, int shift,
                         const uint32_t *expect, unsigned long long *bad)
{
    unsigned long long b = 0;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < n;
         t += (size_t)gridDim.x * blockDim.x) {
        size_t rank = t / GT_CL_THREADS % (size_t)blocks;
        b += out[t] != expect[(rank + (size_t)shift) % (size_t)blocks * GT_CL_THREADS +
                              t % GT_CL_THREADS];
    }
    if (b)
        atomicAdd(bad, b);
}

}  // namespace

extern "C" cudaError_t gt_k_cl_fit(int blocks, size_t smem, int *active, int *most)
{
#if CUDART_VERSION >= 11080
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cudaError_t rc;

    if ((rc = cudaFuncSetAttribute(cl_read, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)smem)) != cudaSuccess ||
        (rc = cudaFuncSetAttribute(cl_read, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)) !=
            cudaSuccess)
        return rc;
    cfg.gridDim = dim3((unsigned)blocks);
    cfg.blockDim = dim3(GT_CL_THREADS);
    cfg.dynamicSmemBytes = smem;
    if ((rc = cudaOccupancyMaxPotentialClusterSize(most, (const void *)cl_read, &cfg)) !=
        cudaSuccess)
        return rc;
    if (*most < blocks) {
        *active = 0;
        return cudaSuccess;
    }
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)blocks;
    at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaOccupancyMaxActiveClusters(active, (const void *)cl_read, &cfg);
#else
    (void)blocks, (void)smem;
    *active = *most = 0;
    return cudaErrorNotSupported;
#endif
}

extern "C" cudaError_t gt_k_cl_read(int clusters, int blocks, uint32_t words, uint32_t reads,
                                    int scattered, int remote, uint32_t seed, uint32_t *out,
                                    cudaStream_t s)
{
#if CUDART_VERSION >= 11080
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];

    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)blocks;
    at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)(clusters * blocks));
    cfg.blockDim = dim3(GT_CL_THREADS);
    cfg.dynamicSmemBytes = (size_t)words * 4;
    cfg.stream = s;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, cl_read, words, reads, scattered, remote, seed, out);
#else
    (void)clusters, (void)blocks, (void)words, (void)reads, (void)scattered, (void)remote;
    (void)seed, (void)out, (void)s;
    return cudaErrorNotSupported;
#endif
}

extern "C" cudaError_t gt_k_cl_check(const uint32_t *out, size_t n, int blocks, int remote,
                                     const uint32_t *expect, unsigned long long *bad,
                                     cudaStream_t s)
{
    cl_check<<<256, 256, 0, s>>>(out, n, blocks, remote ? 1 : 0, expect, bad);
    return cudaGetLastError();
}
