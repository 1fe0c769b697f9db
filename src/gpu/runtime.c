/* The CUDA runtime experiment on the GPU (the row is
 * src/core/experiments/exp_runtime.c). Each sample starts this binary
 * again (GT_RUNTIME_PROBE_ARG); the child takes the monotonic clock first
 * thing in main, makes its first calls, resets the device and calls again,
 * and prints the clock after each with what cudaDeviceMapHost came to.
 * The clock is the machine's, so the parent's spawn time and the child's
 * main time are comparable. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/cuda_backend.h"
#include "gputui/experiments/exp_runtime.h"
#include "gputui/base/units.h"
#include "gpu.h"

typedef struct rt {
    int device;
} rt;

int gt_runtime_init_probe(int device, double t_main)
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

/* One child: its five clock readings and answers into the caller's. */
static int child(rt *z, double t[5], char *flags, char *ptr, int *unified, gt_err *err)
{
    char dev[16], line[400], ok[16];
    char *argv[] = {"gputui", GT_RUNTIME_PROBE_ARG, dev, NULL};
    int status;

    snprintf(dev, sizeof dev, "%d", z->device);
    t[0] = gt_now();
    if (gt_child_line(argv, 60, line, sizeof line, &status)) {
        gt_err_set(err, GT_EXIT_FAIL, "runtime: %s", line);
        return -1;
    }
    if (sscanf(line, "%15s %lf %lf %lf %lf %63s %63s %d", ok, &t[1], &t[2], &t[3], &t[4], flags,
               ptr, unified) != 8) {
        gt_err_set(err, GT_EXIT_FAIL, "runtime: the child process answered '%.200s' (exit "
                   "status %d)", line, status);
        return -1;
    }
    return strcmp(ok, "ok") ? 1 : 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    rt *z = calloc(1, sizeof *z);
    char flags[64], ptr[64];
    double t[5];
    int unified = 0, rc;

    (void)v;
    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    cudaGetDevice(&z->device);
    if ((rc = child(z, t, flags, ptr, &unified, err)) < 0) {
        free(z);
        return -1;
    }
    gt_setup_info_time(info, t[4] - t[0], "a first child process, start to its last call");
    snprintf(info->note, sizeof info->note, "cudaSetDeviceFlags(cudaDeviceMapHost) after the "
             "context exists: %s; cudaHostGetDevicePointer on memory pinned without the mapped "
             "flag: %s (unifiedAddressing %d)", flags, ptr, unified);
    gt_setup_info_timing(info, "CLOCK_MONOTONIC in this process before the spawn and in the "
                         "child, one child process a sample");
    *state = z;
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    rt *z = state;
    char flags[64], ptr[64];
    double t[5];
    int unified, rc = child(z, t, flags, ptr, &unified, err);
    uint8_t verify = rc ? GT_V_FAILED : GT_V_FULL;

    if (rc < 0)
        return -1;
    for (int s = 0; s < 4; s++)
        out[s] = (gt_sample){0, (uint8_t)s, verify, t[s + 1] - t[s], 0};
    return 4;
}

static void teardown(void *state)
{
    free(state);
}

GT_GPU_OPS(runtime) = {.setup = setup, .run = run, .teardown = teardown};
