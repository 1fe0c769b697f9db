/* The runtime experiment's child process (the parent side is runtime.c):
 * gputui --internal runtime OP DEVICE (GT_CHILD_ARG). The child prints one line and
 * exits; the clock is the machine's monotonic one, so the parent's spawn
 * time and the child's readings are comparable.
 *  init: the clock first thing in main, then after the first calls (the
 *    primary context), cudaDeviceReset and the call after it, with what
 *    cudaDeviceMapHost came to once the context existed;
 *  jit: with the JIT cache off and eager loading, cuModuleLoadData of
 *    kernels/memory.cu as cubins, then twice as PTX, each timed, with each
 *    module's function count. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/cuda_backend.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"
#include "runtime_gpu.h"

/* build/jit/images.c (bin2c): the module as cubins only, and as PTX. */
extern const unsigned char gt_jit_cubin[];
extern const unsigned char gt_jit_ptx[];

static int init_probe(int device, double t_main)
{
    double t1, t2, t3;
    cudaError_t first, reset, again, flags, ptr;
    void *host = NULL, *dev = NULL;
    int unified = 0;

    first = cudaSetDevice(device);
    if (first == cudaSuccess)
        first = cudaFree(0);
    t1 = gt_now();
    reset = cudaDeviceReset();
    t2 = gt_now();
    again = cudaFree(0);
    t3 = gt_now();
    /* The flag once the context exists, and a pointer for memory pinned
     * without cudaHostAllocMapped. */
    flags = cudaSetDeviceFlags(cudaDeviceMapHost);
    cudaGetLastError();
    ptr = cudaHostAlloc(&host, 4096, cudaHostAllocDefault);
    if (ptr == cudaSuccess)
        ptr = cudaHostGetDevicePointer(&dev, host, 0);
    cudaGetLastError();
    cudaDeviceGetAttribute(&unified, cudaDevAttrUnifiedAddressing, device);
    if (host)
        cudaFreeHost(host);
    printf("%s %.9f %.9f %.9f %.9f %s %s %d\n",
           first || reset || again ? "failed" : "ok", t_main, t1, t2, t3,
           cudaGetErrorName(flags), cudaGetErrorName(ptr), unified);
    fflush(stdout);
    return first || reset || again ? 1 : 0;
}

typedef CUresult (*load_fn)(CUmodule *, const void *);
typedef CUresult (*unload_fn)(CUmodule);
typedef CUresult (*count_fn)(unsigned *, CUmodule);
typedef CUresult (*name_fn)(CUresult, const char **);

static int jit_probe(int device)
{
    const void *image[3] = {gt_jit_cubin, gt_jit_ptx, gt_jit_ptx};
    double t[3];
    unsigned count[3] = {0, 0, 0};
    load_fn load;
    unload_fn unload;
    count_fn fcount;
    name_fn ename;
    CUresult rc = CUDA_SUCCESS;
    const char *what = "CUresult";
    int i;

    /* Read by the driver when it starts, which is below. */
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(0) != cudaSuccess) {
        printf("failed no CUDA context on device %d\n", device);
        return 1;
    }
    load = (load_fn)gt_cuda_driver_entry("cuModuleLoadData", 12000);
    unload = (unload_fn)gt_cuda_driver_entry("cuModuleUnload", 12000);
    fcount = (count_fn)gt_cuda_driver_entry("cuModuleGetFunctionCount", 12040);
    ename = (name_fn)gt_cuda_driver_entry("cuGetErrorName", 12000);
    if (!load || !unload || !fcount || !ename) {
        printf("failed the driver lacks cuModuleLoadData, cuModuleUnload or "
               "cuModuleGetFunctionCount (CUDA 12.4)\n");
        return 1;
    }
    for (i = 0; i < 3; i++) {
        CUmodule m;
        double t0 = gt_now();
        if ((rc = load(&m, image[i])) != CUDA_SUCCESS)
            break;
        t[i] = gt_now() - t0;
        fcount(&count[i], m);
        unload(m);
    }
    if (rc != CUDA_SUCCESS) {
        ename(rc, &what);
        printf("failed cuModuleLoadData of the %s image: %s\n", i ? "PTX" : "cubin", what);
        return 1;
    }
    printf("ok %.9f %.9f %.9f %u %u %u\n", t[0], t[1], t[2], count[0],
           count[1], count[2]);
    fflush(stdout);
    return 0;
}

int gt_runtime_child(int argc, char **argv, double t_main)
{
    const char *op = argc == 2 ? argv[0] : "";
    if (!strcmp(op, "init"))
        return init_probe(atoi(argv[1]), t_main);
    if (!strcmp(op, "jit"))
        return jit_probe(atoi(argv[1]));
    printf("failed the runtime child takes OP DEVICE (OP: init or jit)\n");
    return 1;
}
