/* The cluster experiment on the GPU (the row is src/experiments/cluster/
 * cluster.c, the kernels cluster_kernels.cu).
 *
 * Set-up asks the occupancy API how many clusters of this size run at
 * once (a size the GPU cannot run is refused with the sizes it can) and
 * launches that many, filling the GPU. Each sample, behind the timing
 * gate, one kernel at a time: every thread reading its own block's shared
 * memory, then the next block's of its cluster; each thread's sum is then
 * checked against the host's for the block whose memory it read (every
 * block holds a pattern of its own rank). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "cluster_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

typedef struct cl {
    int blocks, clusters, scattered;
    uint32_t words, reads, seed;
    size_t threads;
    uint32_t *out, *expect;         /* expect: GT_CL_THREADS words a rank */
    gt_timing t;
} cl;

static void teardown(void *state)
{
    cl *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    gt_free_device(&z->out);
    gt_free_device(&z->expect);
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    cl *z = calloc(1, sizeof *z);
    uint32_t *expect = NULL;
    int most = 0;
    char a[32];

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->blocks = gt_cl_blocks(v[GT_CL_CLUSTER]);
    z->words = (uint32_t)(v[GT_CL_SIZE] / 4);
    z->reads = (uint32_t)v[GT_CL_READS];
    z->scattered = v[GT_CL_ACCESS] == GT_CL_SCATTERED;
    z->seed = (uint32_t)(gt_now() * 1e6);
    gt_format_size((uint64_t)v[GT_CL_SIZE], a, sizeof a);
    if (GT_CUDA(err, gt_k_cl_fit(z->blocks, (size_t)z->words * 4, &z->clusters, &most)))
        goto fail;
    if (most < z->blocks || z->clusters < 1) {
        gt_err_set(err, GT_EXIT_USAGE, "cluster: %d blocks of %s of shared memory; this GPU "
                   "runs at most %d at once (cudaOccupancyMaxPotentialClusterSize); allowed "
                   "here: %s", z->blocks, a, most, most >= 16 ? "2 to 16" : most >= 8 ? "2, 4 "
                   "or 8" : most >= 4 ? "2 or 4" : most >= 2 ? "2" : "none: a smaller size");
        goto fail;
    }
    z->threads = (size_t)z->clusters * (size_t)z->blocks * GT_CL_THREADS;
    if (!(expect = malloc((size_t)z->blocks * GT_CL_THREADS * sizeof *expect))) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        goto fail;
    }
    for (int r = 0; r < z->blocks; r++)
        for (uint32_t t = 0; t < GT_CL_THREADS; t++)
            expect[(size_t)r * GT_CL_THREADS + t] =
                gt_cl_expected(t, z->reads, z->words, z->scattered, z->seed + (uint32_t)r);
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = GT_CL_NSERIES}, err) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->out, z->threads * 4)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->expect,
                                      (size_t)z->blocks * GT_CL_THREADS * 4)) ||
        GT_CUDA(err, cudaMemcpy(z->expect, expect, (size_t)z->blocks * GT_CL_THREADS * 4,
                                cudaMemcpyHostToDevice)))
        goto fail;
    free(expect);
    snprintf(info->note, sizeof info->note, "every thread's sum against the host's for the "
             "block whose memory it read (each block a pattern of its rank); %d clusters of %d "
             "at once (occupancy API; at most %d blocks a cluster here), %zu threads read",
             z->clusters, z->blocks, most, z->threads);
    gt_setup_info_timing(info, "events around each kernel, one at a time behind the timing "
                         "gate: %d blocks of %d threads, %s of shared memory each",
                         z->clusters * z->blocks, GT_CL_THREADS, a);
    *state = z;
    return 0;
fail:
    free(expect);
    teardown(z);
    return -1;
}

static int prepare(void *state, int i, cudaStream_t s, gt_err *err)
{
    cl *z = state;

    (void)i;
    return GT_CUDA(err, cudaMemsetAsync(z->out, 0xA5, z->threads * 4, s));
}

static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    cl *z = state;

    return GT_CUDA(err, gt_k_cl_read(z->clusters, z->blocks, z->words, z->reads, z->scattered,
                                     i == GT_CL_S_REMOTE, z->seed, z->out, s));
}

static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    cl *z = state;

    return GT_CUDA(err, gt_k_cl_check(z->out, z->threads, z->blocks, i == GT_CL_S_REMOTE,
                                      z->expect, bad, s));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = GT_CL_NSERIES, .apart = true, .prepare = prepare,
                               .work = work, .check = check};
    cl *z = state;

    return gt_timed_samples(&z->t, &w, z, (uint64_t)z->threads * z->reads * 4, out, err);
}

GT_GPU_OPS(cluster) = {.setup = setup, .run = run, .teardown = teardown};
