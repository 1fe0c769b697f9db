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
    void *flush;
    size_t flush_bytes;
    unsigned *sink;
    unsigned long long *dbad, *hbad;
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
    gt_free_device(&z->flush);
    gt_free_device(&z->sink);
    gt_free_device(&z->dbad);
    gt_free_pinned(&z->hbad);
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
    char a[32], b[32];
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
    if (gt_timing_init(&z->t, 6, err))
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
                       gt_format_size(n * w, a, sizeof a));
    if (gt_dp_ok(p, GT_DP_L2) && gt_dp_get(p, GT_DP_L2) > 0) {
        z->flush_bytes = (size_t)gt_dp_get(p, GT_DP_L2) * 2;
        if (GT_CUDA_ALLOC(err, cudaMalloc(&z->flush, z->flush_bytes)) ||
            GT_CUDA(err, cudaMemsetAsync(z->flush, 0, z->flush_bytes, z->t.s)))
            goto fail;
    }
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->sink, sizeof *z->sink)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dbad, 3 * sizeof *z->dbad)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hbad, 3 * sizeof *z->hbad)))
        goto fail;
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
                         z->flush ? gt_format_size(z->flush_bytes, a, sizeof a) : "nothing (L2 "
                         "size unknown)");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static int flush(co *z, gt_err *err)
{
    return z->flush ? GT_CUDA(err, gt_k_l2_flush(z->flush, z->flush_bytes, z->sink, z->blocks,
                                                 z->t.s)) : 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    co *z = state;
    const gt_co_shape *s = &z->sh;
    size_t bytes = (size_t)s->n * s->width;
    uint32_t k = ++z->k;
    int all = !z->mapped || z->first;

    if (GT_CUDA(err, cudaMemsetAsync(z->dbad, 0, 3 * sizeof *z->dbad, z->t.s)) ||
        gt_gate_hold(&z->t.gate, z->t.s, err))
        return -1;
    if (flush(z, err) || GT_CUDA(err, cudaEventRecord(z->t.e[0], z->t.s)) ||
        GT_CUDA(err, gt_k_co_move(z->b[OUT].p, z->b[IN].p, s->n, s->width, s->in_stride,
                                  s->in_offset, s->out_stride, s->out_offset, k, z->t.s)) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[1], z->t.s)) || flush(z, err) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[2], z->t.s)) ||
        GT_CUDA(err, gt_k_co_move(z->b[OUTC].p, z->b[IN].p, s->n, s->width, 1, 0, 1, 0, k,
                                  z->t.s)) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[3], z->t.s)) || flush(z, err) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[4], z->t.s)) ||
        GT_CUDA(err, cudaMemcpyAsync(z->b[CPY].p, z->b[IN].p, bytes, cudaMemcpyDefault, z->t.s)) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[5], z->t.s))) {
        gt_gate_open(&z->t.gate);
        return -1;
    }
    gt_gate_open(&z->t.gate);
    if (GT_CUDA(err, gt_k_co_check(z->b[OUT].p, s->out_len, s->width, s->n, s->in_stride,
                                   s->in_offset, s->out_stride, s->out_offset, k, z->seed, all,
                                   z->dbad, z->blocks, z->t.s)) ||
        GT_CUDA(err, gt_k_co_check(z->b[OUTC].p, s->n, s->width, s->n, 1, 0, 1, 0, k, z->seed, 1,
                                   z->dbad + 1, z->blocks, z->t.s)) ||
        GT_CUDA(err, gt_k_co_check(z->b[CPY].p, s->n, s->width, s->n, 1, 0, 1, 0, 0, z->seed, 1,
                                   z->dbad + 2, z->blocks, z->t.s)) ||
        GT_CUDA(err, cudaMemcpyAsync(z->hbad, z->dbad, 3 * sizeof *z->hbad,
                                     cudaMemcpyDeviceToHost, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)) || gt_gate_check(&z->t.gate, err))
        return -1;
    z->first = false;
    for (int i = 0; i < GT_CO_NSERIES; i++) {
        float ms = 0;
        if (gt_event_ms(&ms, z->t.e[2 * i], z->t.e[2 * i + 1], err))
            return -1;
        out[i] = (gt_sample){.series = (uint8_t)i, .verify = z->hbad[i] ? GT_V_FAILED : GT_V_FULL,
                             .sec = ms * 1e-3, .bytes = bytes};
    }
    return GT_CO_NSERIES;
}

GT_GPU_OPS(coalesce) = {.setup = setup, .run = run, .teardown = teardown};
