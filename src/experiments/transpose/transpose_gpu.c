/* The transpose experiment on the GPU (the row is
 * src/experiments/transpose/transpose.c, the kernels transpose_kernels.cu).
 *
 * Set-up fills the N x N input with the pattern. One output, as in
 * NVIDIA's article: each sample runs the copy, the naive, the tiled and
 * the padded transpose in turn, each into the output poisoned, behind
 * the timing gate between events, in blocks of tile x rows threads, and
 * checked word by word before the next. A naive transpose's scattered
 * writes run 1-3% faster or slower with where its output lies in device
 * memory (an H100, 2026-11-28); one output for all four puts every kernel
 * where the article's program puts it: the output allocated right after
 * the input. Where the two do not fit in the L2 together, the L2 is
 * emptied before each kernel, so each starts from the same clean cache. */
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
    uint32_t *in, *out, seed;
    gt_timing t;
} tp;

static void teardown(void *state)
{
    tp *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    gt_free_device(&z->in);
    gt_free_device(&z->out);
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    tp *z = calloc(1, sizeof *z);
    char a[32];
    double t0;

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
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->in, z->words * 4)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->out, z->words * 4)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc: the matrix and its result, %s each",
                       gt_format_size(z->words * 4, a, sizeof a));
    bool fits = gt_tp_fits_l2(v, p);
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = GT_TP_NSERIES,
                                                 .flush_bytes = fits ? 0 : gt_l2_flush_size(p)},
                       err))
        goto fail;
    if (GT_CUDA(err, gt_k_fill_pattern(z->in, z->words, z->seed, z->blocks, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        goto fail;
    snprintf(info->note, sizeof info->note, "every word of each result, poisoned before "
             "each kernel; tile conflicts: %d-way unpadded, %d-way padded",
             gt_tp_conflict(z->tile, 0), gt_tp_conflict(z->tile, 1));
    gt_setup_info_timing(info, "events around each kernel, one at a time behind the timing "
                         "gate; before each, %s; %s",
                         z->t.flush ? "the L2 emptied by a read of twice its size" :
                         fits ? "nothing: the matrix and its result fit in the L2" :
                         "nothing (L2 size unknown)",
                         gt_k_tp_compiled(z->tile, z->rows) ?
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

    (void)i;
    return GT_CUDA(err, cudaMemsetAsync(z->out, 0xA5, z->words * 4, s));
}

static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    tp *z = state;

    return GT_CUDA(err, gt_k_tp(i, z->out, z->in, z->n, z->tile, z->rows, s));
}

static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    tp *z = state;

    return GT_CUDA(err, gt_k_tp_check(z->out, z->n, i != GT_TP_S_COPY, z->seed, bad, z->blocks,
                                      s));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = GT_TP_NSERIES, .apart = true, .prepare = prepare,
                               .work = work, .check = check};
    tp *z = state;

    return gt_timed_samples(&z->t, &w, z, z->words * 4, out, err);
}

GT_GPU_OPS(transpose) = {.setup = setup, .run = run, .teardown = teardown};
