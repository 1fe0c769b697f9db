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
    unsigned long long *d_bad, *h_bad;
    gt_gate gate;
    uint32_t seed;
    uint32_t adds[2];               /* kernel launches on each layout */
    cudaStream_t s;
    cudaEvent_t e0, e1;
} pi;

static void teardown(void *state)
{
    pi *z = state;

    if (!z)
        return;
    gt_gate_free(&z->gate);
    gt_gpu_quiesce();
    for (int i = 0; i < 2; i++)
        gt_free_device(&z->dev[i].ptr);
    gt_free_device(&z->d_bad);
    gt_free_pinned(&z->h_bad);
    gt_free_pinned(&z->host);
    gt_free_pinned(&z->back);
    gt_destroy_event(&z->e0);
    gt_destroy_event(&z->e1);
    gt_destroy_stream(&z->s);
    free(z);
}

/* Host (packed) to a device layout, or back. */
static cudaError_t copy(pi *z, int layout, bool to_dev, uint8_t *host)
{
    struct cudaPitchedPtr d = z->dev[layout];

    if (z->dims == GT_PI_2D)
        return to_dev ? cudaMemcpy2DAsync(d.ptr, d.pitch, host, z->w, z->w, z->h,
                                          cudaMemcpyHostToDevice, z->s)
                      : cudaMemcpy2DAsync(host, z->w, d.ptr, d.pitch, z->w, z->h,
                                          cudaMemcpyDeviceToHost, z->s);
    struct cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    struct cudaPitchedPtr h = pitched_ptr(host, z->w, z->w, z->h);
    m.srcPtr = to_dev ? h : d;
    m.dstPtr = to_dev ? d : h;
    m.extent = extent(z->w, z->h, z->d);
    m.kind = to_dev ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    return cudaMemcpy3DAsync(&m, z->s);
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
        GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dback, z->back, 0)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->d_bad, sizeof *z->d_bad)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->h_bad, sizeof *z->h_bad)) ||
        GT_CUDA(err, cudaStreamCreateWithFlags(&z->s, cudaStreamNonBlocking)) ||
        GT_CUDA(err, cudaEventCreate(&z->e0)) ||
        GT_CUDA(err, cudaEventCreateWithFlags(&z->e1, cudaEventBlockingSync)) ||
        gt_gate_init(&z->gate, z->measure == GT_PI_KERNEL, true, err))
        goto fail;
    z->seed = (uint32_t)(gt_now() * 1e6);
    if (GT_CUDA(err, gt_k_pi_fill(z->dhost, z->bytes, z->seed, z->blocks, z->s)))
        goto fail;
    /* Both layouts start with the pattern (d2h and kernel read it). */
    for (int l = 0; l < 2; l++)
        if (GT_CUDA(err, copy(z, l, true, z->host)))
            goto fail;
    if (GT_CUDA(err, cudaStreamSynchronize(z->s)))
        goto fail;
    {
        size_t pad = z->dev[1].pitch - z->w;
        snprintf(info->note, sizeof info->note, "every byte, on the GPU, after every sample; "
                 "pitch %zu B for W = %zu B: %zu B padding a row (%.1f%%), %s in all",
                 z->dev[1].pitch, z->w, pad, 100.0 * (double)pad / (double)z->dev[1].pitch,
                 gt_format_size(pad * z->h * z->d, b, sizeof b));
    }
    gt_setup_info_timing(info, "events around each copy or kernel%s",
                         z->gate.on ? ", from when it is queued" : "");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* Bytes of a layout (device, or the packed host array) that differ from
 * the pattern plus 'add', counted on the GPU. */
static int count_bad(pi *z, const uint8_t *p, size_t pitch, uint8_t add, uint64_t *bad,
                     gt_err *err)
{
    if (gt_count_zero(z->d_bad, z->s, err) ||
        GT_CUDA(err, gt_k_pi_check(p, pitch, z->w, z->h * z->d, z->seed, add, z->d_bad,
                                   z->blocks, z->s)))
        return -1;
    return gt_count_read(z->d_bad, z->h_bad, z->s, bad, err);
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    pi *z = state;

    for (int l = 0; l < 2; l++) {
        struct cudaPitchedPtr d = z->dev[l];
        float ms = 0;
        cudaError_t rc;
        uint64_t bad;

        /* Poison what the timed operation writes (the kernel updates in place). */
        if (z->measure == GT_PI_H2D &&
            GT_CUDA(err, cudaMemset2DAsync(d.ptr, d.pitch, 0xA5, z->w, z->h * z->d, z->s)))
            return -1;
        if (z->measure == GT_PI_D2H &&
            GT_CUDA(err, cudaMemsetAsync(z->dback, 0x5A, z->bytes, z->s)))
            return -1;
        if (GT_CUDA(err, cudaStreamSynchronize(z->s)) || gt_gate_hold(&z->gate, z->s, err) ||
            GT_CUDA(err, cudaEventRecord(z->e0, z->s)))
            goto fail;
        switch (z->measure) {
        case GT_PI_H2D: rc = copy(z, l, true, z->host); break;
        case GT_PI_D2H: rc = copy(z, l, false, z->back); break;
        default: rc = gt_k_rows_add1(d.ptr, d.pitch, z->w, z->h * z->d, z->blocks, z->s); break;
        }
        if (GT_CUDA(err, rc) || GT_CUDA(err, cudaEventRecord(z->e1, z->s)))
            goto fail;
        gt_gate_open(&z->gate);
        if (GT_CUDA(err, cudaEventSynchronize(z->e1)) || gt_gate_check(&z->gate, err) ||
            gt_event_ms(&ms, z->e0, z->e1, err))
            return -1;
        if (z->measure == GT_PI_KERNEL)
            z->adds[l]++;
        if (z->measure == GT_PI_D2H ? count_bad(z, z->dback, z->w, 0, &bad, err)
                                    : count_bad(z, d.ptr, d.pitch, (uint8_t)z->adds[l], &bad, err))
            return -1;
        out[l] = (gt_sample){0, (uint8_t)l, bad ? GT_V_FAILED : GT_V_FULL, ms * 1e-3, z->bytes};
    }
    return 2;
fail:
    gt_gate_open(&z->gate);
    return -1;
}

GT_GPU_OPS(pitched) = {.setup = setup, .run = run, .teardown = teardown};
