/* The transpose experiment on the GPU (the row is
 * src/experiments/transpose/transpose.c, the kernels transpose_kernels.cu).
 *
 * Set-up fills the N x N input with the pattern. Each sample: the four
 * outputs poisoned, then behind the timing gate the copy, the naive, the
 * tiled and the padded transpose, each between events, in blocks of
 * tile x rows threads; then a kernel checks every word of each output. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transpose.h"
#include "transpose_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

typedef struct tp {
    int n, tile, rows, blocks;
    size_t words;
    uint32_t *in, *out[GT_TP_NSERIES], seed;
    gt_timing t;
} tp;

static void teardown(void *state)
{
    tp *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    gt_free_device(&z->in);
    for (int i = 0; i < GT_TP_NSERIES; i++)
        gt_free_device(&z->out[i]);
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    tp *z = calloc(1, sizeof *z);
    char a[32];
    double t0;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->n = (int)v[GT_TP_N];
    z->tile = (int)v[GT_TP_TILE];
    z->rows = (int)v[GT_TP_ROWS];
    z->words = (size_t)z->n * (size_t)z->n;
    z->blocks = gt_gpu_sms() * 8;
    z->seed = (uint32_t)(gt_now() * 1e6);
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = GT_TP_NSERIES}, err))
        goto fail;
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->in, z->words * 4)))
        goto fail;
    for (int i = 0; i < GT_TP_NSERIES; i++)
        if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->out[i], z->words * 4)))
            goto fail;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc: the matrix and four results, %s each",
                       gt_format_size(z->words * 4, a, sizeof a));
    if (GT_CUDA(err, gt_k_fill_pattern(z->in, z->words, z->seed, z->blocks, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        goto fail;
    snprintf(info->note, sizeof info->note, "every word of the four results, poisoned before "
             "each sample; tile conflicts: %d-way unpadded, %d-way padded",
             gt_tp_conflict(z->tile, 0), gt_tp_conflict(z->tile, 1));
    gt_setup_info_timing(info, "events around each kernel, queued behind the timing gate and "
                         "run back to back; %s", gt_k_tp_compiled(z->tile, z->rows) ?
                         "kernels compiled for this tile and block" :
                         "the tile and rows taken at run time (loops not unrolled)");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static int prepare(void *state, int i, cudaStream_t s, gt_err *err)
{
    tp *z = state;

    return GT_CUDA(err, cudaMemsetAsync(z->out[i], 0xA5, z->words * 4, s));
}

static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    tp *z = state;

    return GT_CUDA(err, gt_k_tp(i, z->out[i], z->in, z->n, z->tile, z->rows, s));
}

static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    tp *z = state;

    return GT_CUDA(err, gt_k_tp_check(z->out[i], z->n, i != GT_TP_S_COPY, z->seed, bad, z->blocks,
                                      s));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = GT_TP_NSERIES, .prepare = prepare, .work = work,
                               .check = check};
    tp *z = state;

    return gt_timed_samples(&z->t, &w, z, z->words * 4, out, err);
}

GT_GPU_OPS(transpose) = {.setup = setup, .run = run, .teardown = teardown};
