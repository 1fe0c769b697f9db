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
    gt_gate gate;
    cudaStream_t s[GT_TL_MAX_STREAMS];
    cudaEvent_t start, end, b[GT_TL_MAX_STREAMS], e[GT_TL_MAX_STREAMS];
    gt_timeline tl;
    bool have_tl;
} ck;

static void teardown(void *state)
{
    ck *z = state;

    if (!z)
        return;
    gt_gate_free(&z->gate);
    gt_gpu_quiesce();
    gt_free_device(&z->dmarks);
    gt_free_pinned(&z->hmarks);
    gt_destroy_event(&z->start);
    gt_destroy_event(&z->end);
    for (int i = 0; i < GT_TL_MAX_STREAMS; i++) {
        gt_destroy_event(&z->b[i]);
        gt_destroy_event(&z->e[i]);
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
    for (int i = 0; i < z->n; i++)
        if (GT_CUDA(err, cudaStreamCreateWithFlags(&z->s[i], cudaStreamNonBlocking)) ||
            GT_CUDA(err, cudaEventCreate(&z->b[i])) || GT_CUDA(err, cudaEventCreate(&z->e[i])))
            goto fail;
    if (GT_CUDA(err, cudaEventCreate(&z->start)) || GT_CUDA(err, cudaEventCreate(&z->end)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dmarks, (size_t)z->n * 4)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hmarks, (size_t)z->n * 4)) ||
        gt_gate_init(&z->gate, true, true, err))
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

/* One run: the kernels on stream 0 only (serial) or on a stream each. */
static int one_run(ck *z, int run, gt_sample *out, gt_err *err)
{
    bool ok = true;
    float tot;

    if (GT_CUDA(err, cudaMemsetAsync(z->dmarks, 0, (size_t)z->n * 4, z->s[0])) ||
        GT_CUDA(err, cudaStreamSynchronize(z->s[0])) || gt_gate_hold(&z->gate, z->s[0], err) ||
        GT_CUDA(err, cudaEventRecord(z->start, z->s[0])))
        goto fail;
    for (int i = 0; i < z->n; i++) {
        cudaStream_t s = run == GT_TL_SERIAL ? z->s[0] : z->s[i];
        if ((s != z->s[0] && GT_CUDA(err, cudaStreamWaitEvent(s, z->start, 0))) ||
            GT_CUDA(err, cudaEventRecord(z->b[i], s)) ||
            GT_CUDA(err, gt_k_spin(z->ns, (uint32_t)i, z->dmarks, z->blocks, s)) ||
            GT_CUDA(err, cudaEventRecord(z->e[i], s)))
            goto fail;
    }
    for (int i = 1; run == GT_TL_STREAMS && i < z->n; i++)
        if (GT_CUDA(err, cudaStreamWaitEvent(z->s[0], z->e[i], 0)))
            goto fail;
    if (GT_CUDA(err, cudaEventRecord(z->end, z->s[0])))
        goto fail;
    gt_gate_open(&z->gate);
    if (GT_CUDA(err, cudaMemcpyAsync(z->hmarks, z->dmarks, (size_t)z->n * 4,
                                     cudaMemcpyDeviceToHost, z->s[0])) ||
        GT_CUDA(err, cudaStreamSynchronize(z->s[0])) || gt_gate_check(&z->gate, err))
        return -1;
    if (gt_event_ms(&tot, z->start, z->end, err))
        return -1;
    z->tl.total[run] = tot * 1e-3;
    for (int i = 0; i < z->n; i++) {
        float b, e;
        if (gt_event_ms(&b, z->start, z->b[i], err) || gt_event_ms(&e, z->start, z->e[i], err))
            return -1;
        ok &= z->hmarks[i] == (uint32_t)i + 1;
        if (z->tl.nops < GT_TL_MAX_OPS)
            z->tl.ops[z->tl.nops++] = (gt_tl_op){(uint8_t)run,
                                                 (uint8_t)(run == GT_TL_SERIAL ? 0 : i),
                                                 GT_TL_KERNEL, (uint16_t)i, b * 1e-3f, e * 1e-3f};
        if (run == GT_TL_SERIAL)
            z->tl.sum[GT_TL_KERNEL] += (double)(e - b) * 1e-3;
    }
    *out = (gt_sample){0, (uint8_t)(run == GT_TL_SERIAL ? GT_CK_S_ONE : GT_CK_S_EACH),
                       ok ? GT_V_FULL : GT_V_FAILED, tot * 1e-3, 0};
    return 0;
fail:
    gt_gate_open(&z->gate);
    return -1;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    ck *z = state;

    memset(&z->tl, 0, sizeof z->tl);
    z->tl.nstreams = z->n;
    z->tl.kernels_overlap = true;
    z->have_tl = false;
    if (one_run(z, GT_TL_SERIAL, &out[0], err) || one_run(z, GT_TL_STREAMS, &out[1], err))
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
