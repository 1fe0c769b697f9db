/* The async experiment on the GPU (the row is src/experiments/async/async.c,
 * the kernels async_kernels.cu).
 *
 * Set-up fills the buffer with the pattern, sets the kernel of the shape
 * asked for up for its shared memory, asks the occupancy API whether the
 * blocks asked for fit an SM (a clear error if not), and for the TMA
 * encodes the buffer as a 2D tensor map (cuTensorMapEncodeTiled: rows of
 * 1024 words, a box of 64 words by tile / 256 rows). Each sample, behind
 * the timing gate, one piece at a time: the kernel reading the whole buffer
 * into shared memory, its count of wrong words zeroed first and read after;
 * then a cudaMemcpy of the same bytes into a poisoned copy, checked word by
 * word. Where the buffer does not fit in the L2 twice, the L2 is emptied
 * before each piece. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "async.h"
#include "async_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"
#include "gpu/trace_args.h"

typedef struct as {
    gt_as_shape sh;
    uint64_t size, ntiles;
    uint32_t seed, compute;
    int blocks;
    void *src, *dst;
    unsigned long long *kbad;       /* the kernel's count of wrong words */
    uint32_t *sink;
    unsigned char map[128];         /* the TMA's tensor map (CUtensorMap) */
    gt_timing t;
} as;

static void teardown(void *state)
{
    as *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    gt_free_device(&z->src);
    gt_free_device(&z->dst);
    gt_free_device(&z->kbad);
    gt_free_device(&z->sink);
    free(z);
}

/* The buffer as a tensor map of 32-bit words, GT_AS_ROW_WORDS a row, a
 * box of GT_AS_BOX_W words by tile / (4 x GT_AS_BOX_W) rows. */
static int encode_map(as *z, gt_err *err)
{
    uint64_t dims[2] = {GT_AS_ROW_WORDS, z->size / (4 * GT_AS_ROW_WORDS)};
    uint32_t box[2] = {GT_AS_BOX_W, z->sh.tile / (4 * GT_AS_BOX_W)};
    void *fn;

    if (!gt_cu(err))
        return -1;
    if (!(fn = gt_driver_fn("cuTensorMapEncodeTiled"))) {
        gt_err_set(err, GT_EXIT_FAIL, "way=tma: the CUDA driver does not provide "
                   "cuTensorMapEncodeTiled (CUDA 12.0)");
        return -1;
    }
    GT_TA("2D u32, %llu x %llu, box %u x %u", (unsigned long long)dims[0],
          (unsigned long long)dims[1], box[0], box[1]);
    return GT_CU(err, gt_cuTensorMapEncodeTiled(fn, z->map, z->src, dims,
                                                GT_AS_ROW_WORDS * 4, box));
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    as *z = calloc(1, sizeof *z);
    int fit = 0, regs = 0;
    bool fits_l2;
    char a[32], b[32];
    double t0;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->sh = (gt_as_shape){.way = (int)v[GT_AS_WAY], .width = (int)gt_as_width(v[GT_AS_WIDTH]),
                          .stages = gt_as_stages(v), .tile = (uint32_t)v[GT_AS_TILE],
                          .smem = gt_as_smem(v)};
    z->size = (uint64_t)v[GT_AS_SIZE];
    z->ntiles = z->size / z->sh.tile;
    z->compute = (uint32_t)v[GT_AS_COMPUTE];
    z->blocks = gt_gpu_sms() * (int)v[GT_AS_BLOCKS];
    z->seed = (uint32_t)(gt_now() * 1e6);
    if (GT_CUDA(err, gt_k_as_prepare(&z->sh, &fit, &regs)))
        goto fail;
    if (fit < v[GT_AS_BLOCKS]) {
        gt_err_set(err, GT_EXIT_USAGE, "blocks: %lld blocks an SM asked, %d fit (occupancy API: "
                   "%s of shared memory and %d registers a thread for each of %d threads); "
                   "allowed here: 1 to %d", (long long)v[GT_AS_BLOCKS], fit,
                   gt_format_size(z->sh.smem, a, sizeof a), regs, GT_AS_THREADS,
                   fit > 0 ? fit : 1);
        goto fail;
    }
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc(&z->src, z->size)) ||
        GT_CUDA_ALLOC(err, cudaMalloc(&z->dst, z->size)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->kbad, sizeof *z->kbad)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->sink, sizeof *z->sink)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc: the buffer and the copy's, %s each",
                       gt_format_size(z->size, a, sizeof a));
    fits_l2 = gt_dp_ok(p, GT_DP_L2) && 2 * z->size <= (uint64_t)gt_dp_get(p, GT_DP_L2);
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = GT_AS_NSERIES,
                                                 .flush_bytes = fits_l2 ? 0 : gt_l2_flush_size(p)},
                       err))
        goto fail;
    if (GT_CUDA(err, gt_k_fill_pattern(z->src, z->size / 4, z->seed, gt_gpu_sms() * 4, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        goto fail;
    if (z->sh.way == GT_AS_TMA) {
        t0 = gt_now();
        if (encode_map(z, err))
            goto fail;
        gt_setup_info_time(info, gt_now() - t0, "cuTensorMapEncodeTiled: rows of %u words, "
                           "a box of %u x %u", GT_AS_ROW_WORDS, GT_AS_BOX_W,
                           z->sh.tile / (4 * GT_AS_BOX_W));
    }
    snprintf(info->note, sizeof info->note, "every word of every tile where it lands, and of "
             "the copy; %d registers a thread, %s of shared memory a block, %d block%s an SM "
             "(%d would fit)", regs, gt_format_size(z->sh.smem, a, sizeof a),
             (int)v[GT_AS_BLOCKS], v[GT_AS_BLOCKS] == 1 ? "" : "s", fit);
    gt_setup_info_timing(info, "events around the kernel (%d blocks of %d threads, %llu tiles of "
                         "%s) and around the copy, one at a time behind the timing gate; "
                         "before each, %s", z->blocks, GT_AS_THREADS,
                         (unsigned long long)z->ntiles, gt_format_size(z->sh.tile, b, sizeof b),
                         z->t.flush ? "the L2 emptied by a read of twice its size"
                         : fits_l2 ? "nothing: the buffer fits in the L2 twice"
                                   : "nothing (L2 size unknown)");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static int prepare(void *state, int i, cudaStream_t s, gt_err *err)
{
    as *z = state;

    if (i == GT_AS_S_WAY)
        return GT_CUDA(err, cudaMemsetAsync(z->kbad, 0, sizeof *z->kbad, s));
    return GT_CUDA(err, cudaMemsetAsync(z->dst, 0xA5, z->size, s));
}

static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    as *z = state;

    if (i == GT_AS_S_WAY)
        return GT_CUDA(err, gt_k_as_read(&z->sh, z->src, z->map, z->ntiles, z->seed, z->compute,
                                         z->kbad, z->sink, z->blocks, s));
    return GT_CUDA(err, cudaMemcpyAsync(z->dst, z->src, z->size, cudaMemcpyDeviceToDevice, s));
}

/* The kernel's own count, or the copy's words against the pattern. */
static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    as *z = state;

    if (i == GT_AS_S_WAY)
        return GT_CUDA(err, cudaMemcpyAsync(bad, z->kbad, sizeof *bad, cudaMemcpyDeviceToDevice,
                                            s));
    return GT_CUDA(err, gt_k_verify_pattern(z->dst, z->size / 4, z->seed, bad, gt_gpu_sms() * 4,
                                            s));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = GT_AS_NSERIES, .apart = true, .prepare = prepare,
                               .work = work, .check = check};
    as *z = state;

    return gt_timed_samples(&z->t, &w, z, z->size, out, err);
}

GT_GPU_OPS(async) = {.setup = setup, .run = run, .teardown = teardown};
