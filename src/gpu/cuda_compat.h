/* cuda_compat.h - private to src/gpu, included by gpu.h: the runtime calls
 * whose form changed between the toolkits gputui builds with (CUDA 11.7 to
 * 13.x), each as one gt_cudaNAME that takes what every version can do and
 * makes the call of the toolkit at hand. The trace names each after the
 * call it makes (calls.c drops the "gt_").
 *
 * What a toolkit lacks altogether is not here: the experiment that needs
 * it refuses, naming the version (gt_dp_need_cuda, gputui/device/devprops.h). */
#ifndef GPUTUI_GPU_CUDA_COMPAT_H
#define GPUTUI_GPU_CUDA_COMPAT_H

#include <stdint.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

/* device: an ordinal, or cudaCpuDeviceId for host memory. CUDA 13 takes a
 * cudaMemLocation in cudaMemAdvise and cudaMemPrefetchAsync; 12.2 to 12.9
 * have that form as _v2 beside the ordinal one, which is all 11.x has. */
#if CUDART_VERSION >= 13000
static inline struct cudaMemLocation gt_mem_location(int device)
{
    struct cudaMemLocation l;

    l.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    l.id = device == cudaCpuDeviceId ? 0 : device;
    return l;
}
#endif

static inline cudaError_t gt_cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise advice,
                                           int device)
{
#if CUDART_VERSION >= 13000
    return cudaMemAdvise(p, n, advice, gt_mem_location(device));
#else
    return cudaMemAdvise(p, n, advice, device);
#endif
}

static inline cudaError_t gt_cudaMemPrefetchAsync(const void *p, size_t n, int device,
                                                  cudaStream_t s)
{
#if CUDART_VERSION >= 13000
    return cudaMemPrefetchAsync(p, n, gt_mem_location(device), 0, s);
#else
    return cudaMemPrefetchAsync(p, n, device, s);
#endif
}

/* An access-policy window on a kernel node of a graph: a launch attribute
 * from 11.8, a kernel-node attribute before. */
static inline cudaError_t gt_cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node,
                                                             const struct cudaAccessPolicyWindow *w)
{
#if CUDART_VERSION >= 11080
    cudaLaunchAttributeValue v;
    const enum cudaLaunchAttributeID id = cudaLaunchAttributeAccessPolicyWindow;
#else
    cudaKernelNodeAttrValue v;
    const enum cudaKernelNodeAttrID id = cudaKernelNodeAttributeAccessPolicyWindow;
#endif

    memset(&v, 0, sizeof v);
    v.accessPolicyWindow = *w;
    return cudaGraphKernelNodeSetAttribute(node, id, &v);
}

/* CUDA 12 took the error node and log buffer out of cudaGraphInstantiate. */
static inline cudaError_t gt_cudaGraphInstantiate(cudaGraphExec_t *x, cudaGraph_t g)
{
#if CUDART_VERSION >= 12000
    return cudaGraphInstantiate(x, g, 0);
#else
    return cudaGraphInstantiate(x, g, NULL, NULL, 0);
#endif
}

/* A driver function of the given ABI version (CUDA 12.0 is 12000), through
 * the runtime: cudaGetDriverEntryPointByVersion from 12.5; before it,
 * cudaGetDriverEntryPoint, which gives the version of the runtime gputui
 * was built with. NULL when the driver has no such function. */
static inline void *gt_cuda_driver_entry(const char *name, unsigned version)
{
    void *fn = NULL;
    cudaError_t rc;
#if CUDART_VERSION >= 12000
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#endif

#if CUDART_VERSION >= 12050
    rc = cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &q);
#elif CUDART_VERSION >= 12000
    (void)version;
    rc = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &q);
#else
    (void)version;
    rc = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault);
#endif
#if CUDART_VERSION >= 12000
    if (q != cudaDriverEntryPointSuccess)
        rc = cudaErrorSymbolNotFound;
#endif
    if (rc != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return fn;
}

/* A 2D tensor map of 32-bit words for the TMA into map (128 bytes, a
 * CUtensorMap): dims[0] words a row (pitch bytes apart), dims[1] rows,
 * copied as boxes of box[0] x box[1] words, no swizzle. 'fn' is the
 * driver's cuTensorMapEncodeTiled (gt_driver_fn). Tensor maps came with
 * CUDA 12.0: built with an older toolkit, CUDA_ERROR_NOT_SUPPORTED. */
static inline CUresult gt_cuTensorMapEncodeTiled(void *fn, void *map, void *base,
                                                 const uint64_t dims[2], uint64_t pitch,
                                                 const uint32_t box[2])
{
#if CUDA_VERSION >= 12000
    typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                  const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                  const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                  CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    encode_fn encode;
    cuuint64_t d[2] = {dims[0], dims[1]}, stride[1] = {pitch};
    cuuint32_t b[2] = {box[0], box[1]}, step[2] = {1, 1};
    CUtensorMap m;
    CUresult rc;

    if (!fn)
        return CUDA_ERROR_NOT_SUPPORTED;
    memcpy(&encode, &fn, sizeof encode);
    rc = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, base, d, stride, b, step,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (rc == CUDA_SUCCESS)
        memcpy(map, &m, sizeof m);
    return rc;
#else
    (void)fn, (void)map, (void)base, (void)dims, (void)pitch, (void)box;
    return CUDA_ERROR_NOT_SUPPORTED;
#endif
}

#endif
