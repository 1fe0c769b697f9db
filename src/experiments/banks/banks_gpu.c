/* The shared-memory bank experiment on the GPU (the row is
 * src/experiments/banks/banks.c, the kernels the experiment's _kernels.cu).
 *
 * Each sample, behind the timing gate: the outputs poisoned, then the
 * kernel at the stride asked for and at stride 1, each between events, on
 * GT_BK_BLOCKS_PER_SM blocks an SM; then a kernel compares every thread's
 * sum with the host's for its lane (gt_bk_expected: every warp reads the
 * same words). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banks.h"
#include "banks_kernels.h"
#include "gpu/gpu.h"

typedef struct bk {
    uint32_t stride, reads, seed;
    unsigned width;
    int blocks;
    size_t threads;
    uint32_t *out[GT_BK_NSERIES], *expect;      /* expect: 32 words a series */
    gt_timing t;
} bk;

static void teardown(void *state)
{
    bk *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    for (int i = 0; i < GT_BK_NSERIES; i++)
        gt_free_device(&z->out[i]);
    gt_free_device(&z->expect);
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    bk *z = calloc(1, sizeof *z);
    uint32_t expect[GT_BK_NSERIES * 32];
    int wf, few;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->stride = (uint32_t)v[GT_BK_STRIDE];
    z->reads = (uint32_t)v[GT_BK_READS];
    z->width = gt_bk_width(v[GT_BK_WIDTH]);
    z->blocks = gt_gpu_sms() * GT_BK_BLOCKS_PER_SM;
    z->threads = (size_t)z->blocks * GT_BK_THREADS;
    z->seed = (uint32_t)(gt_now() * 1e6);
    for (uint32_t l = 0; l < 32; l++) {
        expect[l] = gt_bk_expected(l, z->stride, z->width, z->reads, z->seed);
        expect[32 + l] = gt_bk_expected(l, 1, z->width, z->reads, z->seed);
    }
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = GT_BK_NSERIES}, err))
        goto fail;
    for (int i = 0; i < GT_BK_NSERIES; i++)
        if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->out[i], z->threads * 4)))
            goto fail;
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->expect, sizeof expect)) ||
        GT_CUDA(err, cudaMemcpy(z->expect, expect, sizeof expect, cudaMemcpyHostToDevice)))
        goto fail;
    gt_bk_wavefronts(z->stride, z->width, &wf, &few);
    snprintf(info->note, sizeof info->note, "degree %d: %d wavefronts a request (fewest %d); "
             "every thread's sum against the host's", wf / few, wf, few);
    gt_setup_info_timing(info, "events around each kernel of %d blocks x %d threads, queued "
                         "behind the timing gate", z->blocks, GT_BK_THREADS);
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* GT_BK_S_STRIDED reads at the stride, GT_BK_S_UNIT at stride 1. */
static int prepare(void *state, int i, cudaStream_t s, gt_err *err)
{
    bk *z = state;

    return GT_CUDA(err, cudaMemsetAsync(z->out[i], 0xA5, z->threads * 4, s));
}

static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    bk *z = state;

    return GT_CUDA(err, gt_k_bk_read(z->out[i], z->width, i == GT_BK_S_UNIT ? 1 : z->stride,
                                     z->reads, z->seed, z->blocks, GT_BK_THREADS, s));
}

static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    bk *z = state;

    return GT_CUDA(err, gt_k_bk_check(z->out[i], z->threads, z->expect + 32 * i, bad, s));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = GT_BK_NSERIES, .prepare = prepare, .work = work,
                               .check = check};
    bk *z = state;

    return gt_timed_samples(&z->t, &w, z, (uint64_t)z->threads * z->reads * z->width, out, err);
}

GT_GPU_OPS(banks) = {.setup = setup, .run = run, .teardown = teardown};
