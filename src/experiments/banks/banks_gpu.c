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
    unsigned long long *dbad, *hbad;
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
    gt_free_device(&z->dbad);
    gt_free_pinned(&z->hbad);
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
    if (gt_timing_init(&z->t, 4, err))
        goto fail;
    for (int i = 0; i < GT_BK_NSERIES; i++)
        if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->out[i], z->threads * 4)))
            goto fail;
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->expect, sizeof expect)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dbad, GT_BK_NSERIES * sizeof *z->dbad)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hbad, GT_BK_NSERIES * sizeof *z->hbad)) ||
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

static int run(void *state, gt_sample *out, gt_err *err)
{
    bk *z = state;
    const uint32_t stride[GT_BK_NSERIES] = {z->stride, 1};

    for (int i = 0; i < GT_BK_NSERIES; i++)
        if (GT_CUDA(err, cudaMemsetAsync(z->out[i], 0xA5, z->threads * 4, z->t.s)))
            return -1;
    if (GT_CUDA(err, cudaMemsetAsync(z->dbad, 0, GT_BK_NSERIES * sizeof *z->dbad, z->t.s)) ||
        gt_gate_hold(&z->t.gate, z->t.s, err))
        return -1;
    for (int i = 0; i < GT_BK_NSERIES; i++)
        if (GT_CUDA(err, cudaEventRecord(z->t.e[2 * i], z->t.s)) ||
            GT_CUDA(err, gt_k_bk_read(z->out[i], z->width, stride[i], z->reads, z->seed,
                                      z->blocks, GT_BK_THREADS, z->t.s)) ||
            GT_CUDA(err, cudaEventRecord(z->t.e[2 * i + 1], z->t.s))) {
            gt_gate_open(&z->t.gate);
            return -1;
        }
    gt_gate_open(&z->t.gate);
    for (int i = 0; i < GT_BK_NSERIES; i++)
        if (GT_CUDA(err, gt_k_bk_check(z->out[i], z->threads, z->expect + 32 * i, z->dbad + i,
                                       z->t.s)))
            return -1;
    if (GT_CUDA(err, cudaMemcpyAsync(z->hbad, z->dbad, GT_BK_NSERIES * sizeof *z->hbad,
                                     cudaMemcpyDeviceToHost, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)) || gt_gate_check(&z->t.gate, err))
        return -1;
    for (int i = 0; i < GT_BK_NSERIES; i++) {
        float ms = 0;
        if (gt_event_ms(&ms, z->t.e[2 * i], z->t.e[2 * i + 1], err))
            return -1;
        out[i] = (gt_sample){.series = (uint8_t)i, .verify = z->hbad[i] ? GT_V_FAILED : GT_V_FULL,
                             .sec = ms * 1e-3,
                             .bytes = (uint64_t)z->threads * z->reads * z->width};
    }
    return GT_BK_NSERIES;
}

GT_GPU_OPS(banks) = {.setup = setup, .run = run, .teardown = teardown};
