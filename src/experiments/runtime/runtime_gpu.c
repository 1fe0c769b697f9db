/* The CUDA runtime experiment on the GPU (the row is
 * src/experiments/runtime/runtime.c). op=init and op=jit start this
 * binary again each sample (runtime_gpu_probe.c is the child's side) and read
 * its one line; op=return runs here (runtime_gpu_return.c). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/cuda_backend.h"
#include "runtime.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"
#include "runtime_gpu.h"

typedef struct rt {
    int op, device;
    void *ret;      /* op=return's state */
} rt;

typedef struct answer {
    double t[5];            /* init: spawn, main, first calls, reset, again; jit: 3 loads */
    char flags[64], ptr[64];
    int unified;
    unsigned count[3];
} answer;

/* One child: 0, 1 when it reported a failed call (the samples are marked),
 * -1 with err set when it gave no answer. */
static int child(rt *z, answer *a, gt_err *err)
{
    char dev[16], line[400], ok[16];
    char *argv[] = {"gputui", GT_CHILD_ARG, "runtime", z->op == GT_RT_OP_JIT ? "jit" : "init", dev,
                    NULL};
    int status, n;

    snprintf(dev, sizeof dev, "%d", z->device);
    a->t[0] = gt_now();
    if (gt_child_line(argv, 60, line, sizeof line, &status)) {
        gt_err_set(err, GT_EXIT_FAIL, "runtime: %s", line);
        return -1;
    }
    if (z->op == GT_RT_OP_JIT) {
        n = sscanf(line, "%15s %lf %lf %lf %u %u %u", ok, &a->t[0], &a->t[1], &a->t[2],
                   &a->count[0], &a->count[1], &a->count[2]);
        if (n == 7)
            return strcmp(ok, "ok") || !a->count[0] || a->count[1] != a->count[0] ||
                   a->count[2] != a->count[0];
    } else {
        n = sscanf(line, "%15s %lf %lf %lf %lf %63s %63s %d", ok, &a->t[1], &a->t[2], &a->t[3],
                   &a->t[4], a->flags, a->ptr, &a->unified);
        if (n == 8)
            return strcmp(ok, "ok") ? 1 : 0;
    }
    gt_err_set(err, GT_EXIT_FAIL, "runtime op=%s: the child process answered '%.200s' (exit "
               "status %d)", argv[2], line, status);
    return -1;
}

static void teardown(void *state)
{
    rt *z = state;

    if (!z)
        return;
    gt_rt_return_teardown(z->ret);
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    rt *z = calloc(1, sizeof *z);
    answer a;
    int rc;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->op = (int)v[GT_RT_OP];
    cudaGetDevice(&z->device);
    if (z->op == GT_RT_OP_RETURN) {
        if (gt_rt_return_setup(&z->ret, v, info, err)) {
            teardown(z);
            return -1;
        }
        *state = z;
        return 0;
    }
    if ((rc = child(z, &a, err)) < 0) {
        free(z);
        return -1;
    }
    if (z->op == GT_RT_OP_JIT) {
        gt_setup_info_time(info, a.t[0] + a.t[1] + a.t[2], "a first child process's three "
                           "module loads");
        snprintf(info->note, sizeof info->note, "each load's function count (%u) the same, "
                 "and every load CUDA_SUCCESS", a.count[0]);
        gt_setup_info_timing(info, "CLOCK_MONOTONIC in the child around each cuModuleLoadData, "
                             "one child process a sample");
    } else {
        gt_setup_info_time(info, a.t[4] - a.t[0], "a first child process, start to its last "
                           "call");
        snprintf(info->note, sizeof info->note, "SetDeviceFlags(MapHost) after the first call: "
                 "%s; HostGetDevicePointer, pinned without the mapped flag: %s; "
                 "unifiedAddressing %d", a.flags, a.ptr, a.unified);
        gt_setup_info_timing(info, "CLOCK_MONOTONIC in this process before the spawn and in "
                             "the child, one child process a sample");
    }
    *state = z;
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    rt *z = state;
    answer a;
    int rc, n = z->op == GT_RT_OP_JIT ? 3 : 4;
    uint8_t verify;

    if (z->op == GT_RT_OP_RETURN)
        return gt_rt_return_run(z->ret, out, err);
    if ((rc = child(z, &a, err)) < 0)
        return -1;
    verify = rc ? GT_V_FAILED : GT_V_FULL;
    for (int s = 0; s < n; s++)
        out[s] = (gt_sample){0, (uint8_t)s, verify,
                             z->op == GT_RT_OP_JIT ? a.t[s] : a.t[s + 1] - a.t[s], 0};
    return n;
}

GT_GPU_OPS(runtime) = {.setup = setup, .run = run, .teardown = teardown,
                        .child = gt_runtime_child};
