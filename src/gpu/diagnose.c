/* Why gputui cannot measure on this machine, said so that a person can act
 * on it: the GPU by name (from NVML, which answers without CUDA), the CUDA
 * the driver runs and the one this gputui was built with, and what to do.
 *
 * A driver older than the runtime gputui links answers every call with
 * cudaErrorInsufficientDriver, as a machine without a driver does;
 * cudaDriverGetVersion still tells them apart. A GPU the build has no
 * code for fails its first kernel: open_device asks before any experiment
 * runs (gt_k_image_check). */
#include <stdio.h>
#include <string.h>

#include "gputui/kernels.h"
#include "gpu.h"

#ifndef GT_GPU_ARCH
#define GT_GPU_ARCH "?"
#endif

/* The oldest driver of each CUDA major version (the CUDA toolkit release
 * notes: minor version compatibility, Linux). */
static const char *oldest_driver(int cuda)
{
    return cuda >= 13000 ? "580" : cuda >= 12000 ? "525.60.13" : "450.80.02";
}

void gt_diagnose_no_device(gt_err *err)
{
    char gpus[256], driver[32], was[sizeof err->msg];
    int drv = 0, build = CUDART_VERSION, n;
    cudaError_t rc = cudaGetDeviceCount(&n);    /* the runtime keeps its first answer */

    snprintf(was, sizeof was, "%s", err->msg);
    cudaDriverGetVersion(&drv);
    gt_nvml_gpus(gpus, sizeof gpus, driver, sizeof driver);
    if (rc == cudaErrorInsufficientDriver && drv > 0 && drv < build) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: driver %s runs CUDA %d.%d, older than the CUDA %d.%d "
                   "this gputui was built with; rebuild gputui with a toolkit the driver runs "
                   "(make clean && make CUDA_HOME=/usr/local/cuda-%d.%d) or update the driver "
                   "(CUDA %d.x needs %s or newer)",
                   gpus[0] ? gpus : "the GPU", driver[0] ? driver : "(version unknown)",
                   drv / 1000, drv % 1000 / 10, build / 1000, build % 1000 / 10, drv / 1000,
                   drv % 1000 / 10, build / 1000, oldest_driver(build));
        return;
    }
    gt_err_set(err, GT_EXIT_FAIL, "no usable CUDA device: %s; CUDA runtime %d.%d, driver %s%s%s",
               was, build / 1000, build % 1000 / 10,
               drv ? "found" : "not found (libcuda.so.1)", gpus[0] ? "; NVML sees " : "", gpus);
}

void gt_diagnose_no_image(cudaError_t rc, const gt_devprops *p, gt_err *err)
{
    int cc = (int)gt_dp_get(p, GT_DP_CC), drv = (int)gt_dp_get(p, GT_DP_DRIVER_CUDA);
    const char *last = strrchr(" " GT_GPU_ARCH, ' ') + 1;

    if (rc == cudaErrorUnsupportedPtxVersion || rc == cudaErrorInvalidPtx) {
        gt_err_set(err, GT_EXIT_FAIL, "%s (sm_%d): this gputui has no sm_%d code, and the "
                   "driver (CUDA %d.%d) cannot compile its PTX (compute_%s, from CUDA %d.%d) "
                   "(%s); rebuild with make clean && make GPU_ARCH=%d, or update the driver",
                   p->name, cc, cc, drv / 1000, drv % 1000 / 10, last, CUDART_VERSION / 1000,
                   CUDART_VERSION % 1000 / 10, cudaGetErrorName(rc), cc);
        return;
    }
    gt_err_set(err, GT_EXIT_FAIL, "%s (sm_%d): this gputui has no code it can run (%s): it was "
               "built for sm %s and PTX for compute_%s; rebuild with make clean && make "
               "GPU_ARCH=%d, or leave GPU_ARCH out to build every architecture the toolkit has",
               p->name, cc, cudaGetErrorName(rc), GT_GPU_ARCH, last, cc);
}
