/* The pitched-memory experiment on the GPU: the same W x H (x D) array
 * packed (cudaMalloc, pitch W) and pitched (cudaMallocPitch or
 * cudaMalloc3D); per iteration, one timed 2D/3D copy or row-walking kernel
 * on each, behind the timing gate, checked byte by byte on the GPU: the
 * device layouts directly, the packed pinned host array through its mapped
 * address (the CPU never walks hundreds of MiB per sample). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pitched.h"
#include "pitched_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* make_cudaPitchedPtr and make_cudaExtent are C++-only helpers. */
static struct cudaPitchedPtr pitched_ptr(void *p, size_t pitch, size_t xsize, size_t ysize)
{
    struct cudaPitchedPtr r = {p, pitch, xsize, ysize};
    return r;
}

static struct cudaExtent extent(size_t w, size_t h, size_t d)
{
    struct cudaExtent e = {w, h, d};
    return e;
}

typedef struct pi {
    int dims, measure, blocks;
    size_t w, h, d, bytes;
    struct cudaPitchedPtr dev[2];   /* packed, pitched */
    uint8_t *host, *back;           /* pinned: the pattern, and what comes back */
    uint8_t *dhost, *dback;         /* their device addresses */
    uint32_t seed;
    uint32_t adds[2];               /* kernel launches on each layout */
    gt_timing t;                    /* a piece a layout, each apart */
} pi;

static void teardown(void *state)
{
    pi *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    for (int i = 0; i < 2; i++)
        gt_free_device(&z->dev[i].ptr);
    gt_free_pinned(&z->host);
    gt_free_pinned(&z->back);
    free(z);
}

/* Host (packed) to a device layout, or back. */
static cudaError_t copy(pi *z, int layout, bool to_dev, uint8_t *host, cudaStream_t s)
{
    struct cudaPitchedPtr d = z->dev[layout];

    if (z->dims == GT_PI_2D)
        return to_dev ? cudaMemcpy2DAsync(d.ptr, d.pitch, host, z->w, z->w, z->h,
                                          cudaMemcpyHostToDevice, s)
                      : cudaMemcpy2DAsync(host, z->w, d.ptr, d.pitch, z->w, z->h,
                                          cudaMemcpyDeviceToHost, s);
    struct cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    struct cudaPitchedPtr h = pitched_ptr(host, z->w, z->w, z->h);
    m.srcPtr = to_dev ? h : d;
    m.dstPtr = to_dev ? d : h;
    m.extent = extent(z->w, z->h, z->d);
    m.kind = to_dev ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    return cudaMemcpy3DAsync(&m, s);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    pi *z = calloc(1, sizeof *z);
    char a[32], b[32];
    double t0;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->dims = (int)v[GT_PI_DIMS];
    z->measure = (int)v[GT_PI_MEASURE];
    z->w = (size_t)v[GT_PI_WIDTH];
    z->h = (size_t)v[GT_PI_HEIGHT];
    z->d = z->dims == GT_PI_3D ? (size_t)v[GT_PI_DEPTH] : 1;
    z->bytes = z->w * z->h * z->d;
    z->blocks = gt_gpu_sms() * 8;
    /* the gate for the kernel alone: in front of a copy-engine copy it
     * adds the spin kernel's hand-off, so copies start from an idle stream */
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 2, .ungated = z->measure != GT_PI_KERNEL,
                                                .sleep = true}, err))
        goto fail;
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc(&z->dev[0].ptr, z->bytes)))
        goto fail;
    z->dev[0].pitch = z->dev[0].xsize = z->w;
    z->dev[0].ysize = z->h;
    gt_setup_info_time(info, gt_now() - t0, "packed: cudaMalloc %s", gt_format_size(z->bytes, a, sizeof a));
    t0 = gt_now();
    if (z->dims == GT_PI_2D) {
        size_t pitch = 0;
        if (GT_CUDA_ALLOC(err, cudaMallocPitch(&z->dev[1].ptr, &pitch, z->w, z->h)))
            goto fail;
        z->dev[1] = pitched_ptr(z->dev[1].ptr, pitch, z->w, z->h);
    } else if (GT_CUDA_ALLOC(err, cudaMalloc3D(&z->dev[1], extent(z->w, z->h, z->d)))) {
        goto fail;
    }
    gt_setup_info_time(info, gt_now() - t0, "pitched: %s, pitch %zu B",
                       z->dims == GT_PI_2D ? "cudaMallocPitch" : "cudaMalloc3D", z->dev[1].pitch);
    if (GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->host, z->bytes)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->back, z->bytes)) ||
        GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dhost, z->host, 0)) ||
        GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dback, z->back, 0)))
        goto fail;
    z->seed = (uint32_t)(gt_now() * 1e6);
    if (GT_CUDA(err, gt_k_pi_fill(z->dhost, z->bytes, z->seed, z->blocks, z->t.s)))
        goto fail;
    /* Both layouts start with the pattern (d2h and kernel read it). */
    for (int l = 0; l < 2; l++)
        if (GT_CUDA(err, copy(z, l, true, z->host, z->t.s)))
            goto fail;
    if (GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        goto fail;
    {
        size_t pad = z->dev[1].pitch - z->w;
        snprintf(info->note, sizeof info->note, "every byte, on the GPU, after every sample; "
                 "pitch %zu B for W = %zu B: %zu B padding a row (%.1f%%), %s in all",
                 z->dev[1].pitch, z->w, pad, 100.0 * (double)pad / (double)z->dev[1].pitch,
                 gt_format_size(pad * z->h * z->d, b, sizeof b));
    }
    gt_setup_info_timing(info, "events around each copy or kernel%s",
                         z->t.gate.on ? ", from when it is queued" : "");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* Piece l: the copy or the kernel on layout l (packed, pitched). */
static int work(void *state, int l, cudaStream_t s, gt_err *err)
{
    pi *z = state;
    struct cudaPitchedPtr d = z->dev[l];

    switch (z->measure) {
    case GT_PI_H2D: return GT_CUDA(err, copy(z, l, true, z->host, s));
    case GT_PI_D2H: return GT_CUDA(err, copy(z, l, false, z->back, s));
    default:
        z->adds[l]++;
        return GT_CUDA(err, gt_k_rows_add1(d.ptr, d.pitch, z->w, z->h * z->d, z->blocks, s));
    }
}

/* The bytes that differ from the pattern (plus the kernel's adds): of
 * the layout, or of the packed host array d2h wrote, through its mapped
 * address. */
static int check(void *state, int l, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    pi *z = state;
    struct cudaPitchedPtr d = z->dev[l];

    if (z->measure == GT_PI_D2H)
        return GT_CUDA(err, gt_k_pi_check(z->dback, z->w, z->w, z->h * z->d, z->seed, 0, bad,
                                          z->blocks, s));
    return GT_CUDA(err, gt_k_pi_check(d.ptr, d.pitch, z->w, z->h * z->d, z->seed,
                                      (uint8_t)z->adds[l], bad, z->blocks, s));
}

/* What piece l writes, poisoned (the kernel updates in place). */
static int prepare(void *state, int l, cudaStream_t s, gt_err *err)
{
    pi *z = state;
    struct cudaPitchedPtr d = z->dev[l];

    switch (z->measure) {
    case GT_PI_H2D:
        return GT_CUDA(err, cudaMemset2DAsync(d.ptr, d.pitch, 0xA5, z->w, z->h * z->d, s));
    case GT_PI_D2H: return GT_CUDA(err, cudaMemsetAsync(z->dback, 0x5A, z->bytes, s));
    default: return 0;
    }
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = 2, .apart = true, .prepare = prepare, .work = work,
                               .check = check};
    pi *z = state;

    return gt_timed_samples(&z->t, &w, z, z->bytes, out, err);
}

GT_GPU_OPS(pitched) = {.setup = setup, .run = run, .teardown = teardown};
