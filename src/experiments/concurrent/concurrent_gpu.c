/* The concurrent kernels experiment on the GPU (the row is
 * src/experiments/concurrent/concurrent.c, the kernel
 * kernels/spin.cu). Per iteration two runs of the same N kernels:
 * on one stream, then each on its own stream (each waiting on the start
 * event), all queued behind the timing gate and released at once; the
 * first stream waits for every kernel's end event. Each kernel's events
 * give the timeline, the run's first and last events the sample; every
 * kernel's mark is checked. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "concurrent.h"
#include "gputui/measure/timeline.h"
#include "gputui/kernels.h"
#include "gpu/gpu.h"

typedef struct ck {
    int n, blocks;
    unsigned long long ns;
    uint32_t *dmarks, *hmarks;
    gt_timing t;                        /* a piece a run; stream 0 is t.s */
    cudaStream_t s[GT_TL_MAX_STREAMS];  /* the kernels' streams, 1 to n - 1 */
    cudaEvent_t b[2][GT_TL_MAX_STREAMS], e[2][GT_TL_MAX_STREAMS];  /* a run's kernels */
    gt_timeline tl;
    bool have_tl;
} ck;

static void teardown(void *state)
{
    ck *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    gt_free_device(&z->dmarks);
    gt_free_pinned(&z->hmarks);
    for (int i = 0; i < GT_TL_MAX_STREAMS; i++) {
        for (int run = 0; run < 2; run++) {
            gt_destroy_event(&z->b[run][i]);
            gt_destroy_event(&z->e[run][i]);
        }
        if (i)
            gt_destroy_stream(&z->s[i]);
    }
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    ck *z = calloc(1, sizeof *z);
    double t0 = gt_now();
    int per_sm = 0;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->n = (int)v[GT_CK_KERNELS];
    z->ns = (unsigned long long)v[GT_CK_SPIN] * 1000ull;
    z->blocks = (int)v[GT_CK_BLOCKS];
    if (!z->blocks) {
        int dev = 0;
        if (GT_CUDA(err, cudaGetDevice(&dev)) ||
            GT_CUDA(err, cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxBlocksPerMultiprocessor,
                                                dev)))
            goto fail;
        z->blocks = gt_gpu_sms() * per_sm;
    }
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 2}, err))
        goto fail;
    z->s[0] = z->t.s;
    for (int i = 0; i < z->n; i++)
        if ((i && GT_CUDA(err, cudaStreamCreateWithFlags(&z->s[i], cudaStreamNonBlocking))) ||
            GT_CUDA(err, cudaEventCreate(&z->b[0][i])) ||
            GT_CUDA(err, cudaEventCreate(&z->e[0][i])) ||
            GT_CUDA(err, cudaEventCreate(&z->b[1][i])) ||
            GT_CUDA(err, cudaEventCreate(&z->e[1][i])))
            goto fail;
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dmarks, (size_t)z->n * 4)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hmarks, 2 * (size_t)z->n * 4)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "%d streams and %d events", z->n, 2 * z->n + 2);
    snprintf(info->note, sizeof info->note, "every kernel's mark (block 0 writes it after "
             "spinning), after each run");
    gt_setup_info_timing(info, "events: the first stream's around each run, each kernel's "
                         "around it; %d block%s of one thread a kernel%s", z->blocks,
                         z->blocks == 1 ? "" : "s", v[GT_CK_BLOCKS] ? "" :
                         " (fill: SMs x maxBlocksPerMultiProcessor)");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* Each kernel's mark, cleared. */
static int prepare(void *state, int run, cudaStream_t s, gt_err *err)
{
    ck *z = state;

    (void)run;
    return GT_CUDA(err, cudaMemsetAsync(z->dmarks, 0, (size_t)z->n * 4, s));
}

/* Run GT_TL_SERIAL: the kernels on stream 0 one after another; run
 * GT_TL_STREAMS: a stream each, forked from stream 0's start and joined
 * back. Each kernel between events of its own (the timeline). */
static int work(void *state, int run, cudaStream_t s0, gt_err *err)
{
    ck *z = state;

    for (int i = 0; i < z->n; i++) {
        cudaStream_t s = run == GT_TL_SERIAL ? s0 : z->s[i];
        if ((s != s0 && GT_CUDA(err, cudaStreamWaitEvent(s, gt_timed_start(&z->t, run), 0))) ||
            GT_CUDA(err, cudaEventRecord(z->b[run][i], s)) ||
            GT_CUDA(err, gt_k_spin(z->ns, (uint32_t)i, z->dmarks, z->blocks, s)) ||
            GT_CUDA(err, cudaEventRecord(z->e[run][i], s)))
            return -1;
    }
    for (int i = 1; run == GT_TL_STREAMS && i < z->n; i++)
        if (GT_CUDA(err, cudaStreamWaitEvent(s0, z->e[run][i], 0)))
            return -1;
    return 0;
}

/* The marks of the run, copied out for the host to compare. */
static int marks(void *state, int run, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    ck *z = state;

    (void)bad;
    return GT_CUDA(err, cudaMemcpyAsync(z->hmarks + (size_t)run * z->n, z->dmarks,
                                        (size_t)z->n * 4, cudaMemcpyDeviceToHost, s));
}

/* One run: its time, its kernels on the timeline, and whether every
 * kernel wrote its mark. */
static int one_run(ck *z, int run, double sec, gt_sample *out, gt_err *err)
{
    const uint32_t *m = z->hmarks + (size_t)run * z->n;
    bool ok = true;

    z->tl.total[run] = sec;
    for (int i = 0; i < z->n; i++) {
        float b, e;
        if (gt_event_ms(&b, gt_timed_start(&z->t, run), z->b[run][i], err) ||
            gt_event_ms(&e, gt_timed_start(&z->t, run), z->e[run][i], err))
            return -1;
        ok &= m[i] == (uint32_t)i + 1;
        if (z->tl.nops < GT_TL_MAX_OPS)
            z->tl.ops[z->tl.nops++] = (gt_tl_op){(uint8_t)run,
                                                 (uint8_t)(run == GT_TL_SERIAL ? 0 : i),
                                                 GT_TL_KERNEL, (uint16_t)i, b * 1e-3f, e * 1e-3f};
        if (run == GT_TL_SERIAL)
            z->tl.sum[GT_TL_KERNEL] += (double)(e - b) * 1e-3;
    }
    *out = (gt_sample){0, (uint8_t)(run == GT_TL_SERIAL ? GT_CK_S_ONE : GT_CK_S_EACH),
                       ok ? GT_V_FULL : GT_V_FAILED, sec, 0};
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    ck *z = state;

    memset(&z->tl, 0, sizeof z->tl);
    z->tl.nstreams = z->n;
    z->tl.kernels_overlap = true;
    z->have_tl = false;
    /* a piece a run (GT_TL_SERIAL, GT_TL_STREAMS), apart: one set of marks */
    static const gt_timed w = {.pieces = 2, .apart = true, .prepare = prepare, .work = work,
                               .check = marks};
    double sec[2];
    uint64_t unused[2];

    if (gt_timed_sample(&z->t, &w, z, sec, unused, err) ||
        one_run(z, GT_TL_SERIAL, sec[GT_TL_SERIAL], &out[0], err) ||
        one_run(z, GT_TL_STREAMS, sec[GT_TL_STREAMS], &out[1], err))
        return -1;
    z->have_tl = true;
    return 2;
}

static bool timeline(void *state, gt_timeline *tl)
{
    ck *z = state;

    if (!z->have_tl)
        return false;
    *tl = z->tl;
    return true;
}

GT_GPU_OPS(concurrent) = {.setup = setup, .run = run, .teardown = teardown,
                          .timeline = timeline};
