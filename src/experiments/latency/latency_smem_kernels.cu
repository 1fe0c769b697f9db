// The latency experiment's walks through shared memory (kind=shared and
// kind=dsmem; latency_gpu.c declares the launchers): every block of the
// grid lays the chain out in its own shared memory, slot k at byte
// k x stride holding the byte offset of the slot after it; then block 0's
// walkers follow it, each load's offset being what the load before
// returned, timed inside the kernel by the global timer (ns) and clock64
// (SM cycles) after 'warm' untimed loads.
//   own:    one block walks its own shared memory (ld.shared);
//   remote: a cluster of N blocks (Hopper); block 0 walks block 1's shared
//           memory through the cluster's distributed shared memory (the
//           address cooperative_groups' map_shared_rank gives), and every
//           block waits at the cluster's barrier until the walk is done,
//           so the memory it reads stays there.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace cg = cooperative_groups;

namespace {

typedef unsigned long long u64;

// The global timer and the SM clock once p has arrived (the asm takes p:
// it waits for the load before it, and the next load waits for it).
__device__ __forceinline__ u64 timer_after(uint32_t p)
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : "r"(p));
    return t;
}

__device__ __forceinline__ u64 clock_after(uint32_t p)
{
    u64 t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) : "r"(p));
    return t;
}

__device__ __forceinline__ void lay_out(char *sm, const uint32_t *next, uint32_t slots,
                                        uint32_t stride)
{
    for (uint32_t k = threadIdx.x; k < slots; k += blockDim.x)
        *(uint32_t *)(sm + (size_t)k * stride) = (next ? next[k] : (k + 1) % slots) * stride;
}

// Walker threadIdx.x from its start slot through the chain at base.
__device__ __forceinline__ void walk(const char *base, uint32_t stride, const uint32_t *starts,
                                     u64 warm, u64 loads, u64 *out, uint32_t *ends)
{
    uint32_t p = starts[threadIdx.x] * stride;
    for (u64 i = 0; i < warm; i++)
        p = *(const volatile uint32_t *)(base + p);
    __syncwarp();
    u64 t0 = timer_after(p), c0 = clock_after(p);
    for (u64 i = 0; i < loads; i++)
        p = *(const volatile uint32_t *)(base + p);
    u64 c1 = clock_after(p), t1 = timer_after(p);
    ends[threadIdx.x] = p / stride;
    if (threadIdx.x == 0) {
        out[0] = t1 - t0;
        out[1] = c1 - c0;
    }
}

__global__ void smem_own(const uint32_t *next, uint32_t slots, uint32_t stride,
                         const uint32_t *starts, int lanes, u64 warm, u64 loads, u64 *out,
                         uint32_t *ends)
{
    extern __shared__ __align__(16) char sm[];
    lay_out(sm, next, slots, stride);
    __syncthreads();
    if ((int)threadIdx.x < lanes)
        walk(sm, stride, starts, warm, loads, out, ends);
}

__global__ void smem_remote(const uint32_t *next, uint32_t slots, uint32_t stride,
                            const uint32_t *starts, int lanes, u64 warm, u64 loads, u64 *out,
                            uint32_t *ends)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) char sm[];
    cg::cluster_group cluster = cg::this_cluster();
    lay_out(sm, next, slots, stride);
    cluster.sync();
    if (cluster.block_rank() == 0 && (int)threadIdx.x < lanes)
        walk((const char *)cluster.map_shared_rank((void *)sm, 1), stride, starts, warm, loads,
             out, ends);
    cluster.sync();
#else
    if (blockIdx.x == 0 && threadIdx.x == 0)
        out[0] = out[1] = 0;        // no clusters here: a walk of no time, which the host refuses
#endif
}

const int THREADS = 256;

}  // namespace

// cluster 0: block 0 walks its own shared memory; 2 to 16: a cluster of
// that many blocks, block 0 walking block 1's. smem: slots x stride bytes.
extern "C" cudaError_t gt_k_smem_walk(int cluster, const uint32_t *next, uint32_t slots,
                                      uint32_t stride, const uint32_t *starts, int lanes,
                                      unsigned long long warm, unsigned long long loads,
                                      unsigned long long *out, uint32_t *ends, cudaStream_t s)
{
    size_t smem = (size_t)slots * stride;

    if (!cluster) {
        cudaError_t rc = cudaFuncSetAttribute(smem_own, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              (int)smem);
        if (rc != cudaSuccess)
            return rc;
        smem_own<<<1, THREADS, smem, s>>>(next, slots, stride, starts, lanes, warm, loads, out,
                                          ends);
        return cudaGetLastError();
    }
#if CUDART_VERSION >= 11080
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cudaError_t rc;

    if ((rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)smem)) != cudaSuccess ||
        (rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeNonPortableClusterSizeAllowed,
                                   cluster > 8)) != cudaSuccess)
        return rc;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)cluster;
    at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)cluster);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, smem_remote, next, slots, stride, starts, lanes, warm, loads,
                              out, ends);
#else
    (void)next, (void)slots, (void)stride, (void)starts, (void)lanes, (void)warm, (void)loads;
    (void)out, (void)ends, (void)s;
    return cudaErrorNotSupported;
#endif
}

// The largest cluster of blocks of smem bytes this GPU can run at once
// (cudaOccupancyMaxPotentialClusterSize, non-portable sizes allowed).
extern "C" cudaError_t gt_k_smem_max_cluster(size_t smem, int *most)
{
#if CUDART_VERSION >= 11080
    cudaLaunchConfig_t cfg = {};
    cudaError_t rc;

    if ((rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)smem)) != cudaSuccess ||
        (rc = cudaFuncSetAttribute(smem_remote, cudaFuncAttributeNonPortableClusterSizeAllowed,
                                   1)) != cudaSuccess)
        return rc;
    cfg.gridDim = dim3(16);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    return cudaOccupancyMaxPotentialClusterSize(most, (const void *)smem_remote, &cfg);
#else
    (void)smem;
    *most = 0;
    return cudaErrorNotSupported;
#endif
}
