/* The coalescing experiment on the GPU (the row is
 * src/experiments/coalesce/coalesce.c, the kernels the experiment's _kernels.cu).
 *
 * Set-up allocates the strided buffers (device memory, or mapped pinned
 * host memory), the coalesced kernel's output beside the strided one, the
 * copy's destination on the other side of the link from its source, and
 * twice the L2 to flush it; fills the input with the pattern and poisons
 * the outputs. Each sample, behind the timing gate: the L2 flushed, the
 * strided kernel between events; flushed, the same kernel at stride 1;
 * flushed, cudaMemcpyAsync of the same bytes. Each kernel adds the
 * sample's number to every word it moves, so a check of every element
 * written (and of every gap between them, which must hold the poison)
 * tells this sample's writes from the last one's. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalesce.h"
#include "coalesce_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* A buffer on the device or in mapped pinned host memory. */
typedef struct cobuf {
    void *p;        /* what kernels and copies use */
    void *host;     /* the pinned allocation, NULL on the device */
    size_t bytes;
} cobuf;

enum { IN, OUT, OUTC, CPY, NBUF };

typedef struct co {
    gt_co_shape sh;
    bool mapped, first;
    int blocks;
    cobuf b[NBUF];
    uint32_t seed, k;
    gt_timing t;
} co;

static void buf_free(cobuf *b)
{
    if (b->host)
        gt_free_pinned(&b->host);
    else
        gt_free_device(&b->p);
    b->p = b->host = NULL;
}

static void teardown(void *state)
{
    co *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    for (int i = 0; i < NBUF; i++)
        buf_free(&z->b[i]);
    free(z);
}

static int buf_alloc(cobuf *b, size_t bytes, bool host, gt_err *err)
{
    b->bytes = bytes;
    if (!host)
        return GT_CUDA_ALLOC(err, cudaMalloc(&b->p, bytes));
    if (GT_CUDA_ALLOC(err, cudaHostAlloc(&b->host, bytes, cudaHostAllocMapped)))
        return -1;
    return GT_CUDA(err, cudaHostGetDevicePointer(&b->p, b->host, 0));
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    co *z = calloc(1, sizeof *z);
    bool rd = v[GT_CO_OP] != GT_CO_WRITE, wr = v[GT_CO_OP] != GT_CO_READ;
    char a[32], b[32], c[32];
    double t0;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    gt_co_shape_of(v, &z->sh);
    z->mapped = v[GT_CO_MEMORY] == GT_CO_MAPPED;
    z->first = true;
    z->blocks = gt_gpu_sms() * 8;
    size_t w = z->sh.width, n = (size_t)z->sh.n;
    /* a read of twice the L2 before each piece, where the L2's size is known */
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = GT_CO_NSERIES,
                                                 .flush_bytes = gt_l2_flush_size(p)}, err))
        goto fail;
    t0 = gt_now();
    if (buf_alloc(&z->b[IN], z->sh.in_len * w, z->mapped && rd, err) ||
        buf_alloc(&z->b[OUT], z->sh.out_len * w, z->mapped && wr, err) ||
        buf_alloc(&z->b[OUTC], n * w, z->mapped && wr, err) ||
        buf_alloc(&z->b[CPY], n * w, z->mapped && !rd, err))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "%s: input %s, output %s, and two of %s",
                       z->mapped ? "cudaHostAlloc(Mapped) for the strided side, cudaMalloc "
                                   "the rest" : "cudaMalloc",
                       gt_format_size(z->b[IN].bytes, a, sizeof a),
                       gt_format_size(z->b[OUT].bytes, b, sizeof b),
                       gt_format_size(n * w, c, sizeof c));
    t0 = gt_now();
    z->seed = (uint32_t)(gt_now() * 1e6) | 1u;
    if (GT_CUDA(err, gt_k_fill_pattern(z->b[IN].p, z->b[IN].bytes / 4, z->seed, z->blocks,
                                       z->t.s)) ||
        GT_CUDA(err, cudaMemsetAsync(z->b[OUT].p, 0xA5, z->b[OUT].bytes, z->t.s)) ||
        GT_CUDA(err, cudaMemsetAsync(z->b[OUTC].p, 0xA5, z->b[OUTC].bytes, z->t.s)) ||
        GT_CUDA(err, cudaMemsetAsync(z->b[CPY].p, 0xA5, z->b[CPY].bytes, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "the input's pattern and the outputs' poison");
    {
        int sec = gt_co_sectors((uint32_t)v[GT_CO_STRIDE], (uint32_t)v[GT_CO_OFFSET],
                                z->sh.width);
        snprintf(info->note, sizeof info->note, "%d sectors a request (fewest %u); every element "
                 "written checked, and every gap between them untouched%s", sec, z->sh.width,
                 z->mapped ? " (host gaps: on the first sample)" : "");
    }
    gt_setup_info_timing(info, "events around each kernel and the copy, queued behind the timing "
                         "gate; before each, the L2 flushed by reading %s",
                         z->t.flush ? gt_format_size(z->t.flush_bytes, a, sizeof a) : "nothing (L2 "
                         "size unknown)");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* The strided kernel, the same at stride 1, and cudaMemcpyAsync of the
 * same bytes (GT_CO_S_STRIDED, _COALESCED and _COPY); each kernel adds z->k. */
static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    co *z = state;
    const gt_co_shape *h = &z->sh;

    switch (i) {
    case GT_CO_S_STRIDED:
        return GT_CUDA(err, gt_k_co_move(z->b[OUT].p, z->b[IN].p, h->n, h->width, h->in_stride,
                                         h->in_offset, h->out_stride, h->out_offset, z->k, s));
    case GT_CO_S_COALESCED:
        return GT_CUDA(err, gt_k_co_move(z->b[OUTC].p, z->b[IN].p, h->n, h->width, 1, 0, 1, 0,
                                         z->k, s));
    default:
        return GT_CUDA(err, cudaMemcpyAsync(z->b[CPY].p, z->b[IN].p, (size_t)h->n * h->width,
                                            cudaMemcpyDefault, s));
    }
}

/* Every element written, and (device memory, or a mapped buffer's first
 * sample) every gap between them left as poisoned. */
static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    co *z = state;
    const gt_co_shape *h = &z->sh;

    switch (i) {
    case GT_CO_S_STRIDED:
        return GT_CUDA(err, gt_k_co_check(z->b[OUT].p, h->out_len, h->width, h->n, h->in_stride,
                                          h->in_offset, h->out_stride, h->out_offset, z->k, z->seed,
                                          !z->mapped || z->first, bad, z->blocks, s));
    case GT_CO_S_COALESCED:
        return GT_CUDA(err, gt_k_co_check(z->b[OUTC].p, h->n, h->width, h->n, 1, 0, 1, 0, z->k,
                                          z->seed, 1, bad, z->blocks, s));
    default:
        return GT_CUDA(err, gt_k_co_check(z->b[CPY].p, h->n, h->width, h->n, 1, 0, 1, 0, 0,
                                          z->seed, 1, bad, z->blocks, s));
    }
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = GT_CO_NSERIES, .work = work, .check = check};
    co *z = state;
    int n;

    z->k++;
    n = gt_timed_samples(&z->t, &w, z, (uint64_t)z->sh.n * z->sh.width, out, err);
    z->first = false;
    return n;
}

GT_GPU_OPS(coalesce) = {.setup = setup, .run = run, .teardown = teardown};
