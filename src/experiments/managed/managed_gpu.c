/* The managed-memory experiment on the GPU (the row is
 * src/experiments/managed/managed.c, the ping-pong kernel
 * managed_kernels.cu).
 *
 * Each sample is a buffer's whole life: cudaMallocManaged, the advice,
 * the first touch (the CPU's loop on the host clock, or a kernel between
 * events), the prefetch to the GPU (events), the GPU's read of every word
 * against the pattern (behind the timing gate, between events; repeat:
 * three more; pingpong: a kernel that checks and rewrites every word, then
 * the CPU's loop that does the same), and cudaFree. Then a pinned
 * cudaMemcpy of the same bytes into device memory, behind the gate, and a
 * check of what it copied: the link's speed in the same run. A word the
 * GPU or the CPU finds wrong fails the whole sample. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "managed.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* managed_kernels.cu */
cudaError_t gt_k_mg_bump(uint32_t *p, size_t n, uint32_t seed, uint32_t k,
                         unsigned long long *res, int blocks, cudaStream_t s);

#define AGAIN 3         /* access=repeat: reads after the first */

typedef struct mg {
    int touch, pref, access, device, blocks;
    bool prefetch, read_mostly, accessed_by;
    size_t bytes, words;
    uint32_t seed, pin_seed;
    int slot[GT_MG_S_COUNT], nseries;
    uint32_t *m;                        /* this sample's managed buffer */
    uint32_t *pin, *dst;                /* the reference copy: pinned source, device copy */
    gt_timing t;                        /* e[0..5]: touch, prefetch, read; e[6..7]: again */
} mg;

static void teardown(void *state)
{
    mg *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    gt_free_device(&z->m);
    gt_free_device(&z->dst);
    gt_free_pinned(&z->pin);
    free(z);
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    mg *z = calloc(1, sizeof *z);
    size_t fr = 0, tot = 0;
    int managed = 0;
    char sz[32], fz[32];
    double t0;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->bytes = (size_t)v[GT_MG_SIZE];
    z->words = z->bytes / 4;
    z->touch = (int)v[GT_MG_TOUCH];
    z->prefetch = v[GT_MG_PREFETCH] != 0;
    z->read_mostly = v[GT_MG_READ_MOSTLY] != 0;
    z->pref = (int)v[GT_MG_PREFERRED];
    z->accessed_by = v[GT_MG_ACCESSED_BY] != 0;
    z->access = (int)v[GT_MG_ACCESS];
    z->blocks = gt_gpu_sms() * 4;
    z->nseries = gt_mg_series(v, z->slot);
    z->seed = z->pin_seed = (uint32_t)(gt_now() * 1e6) | 1;
    if (GT_CUDA(err, cudaGetDevice(&z->device)) ||
        GT_CUDA(err, cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, z->device)))
        goto fail;
    if (!managed) {
        gt_err_set(err, GT_EXIT_USAGE, "managed: this device cannot allocate managed memory "
                   "(cudaDevAttrManagedMemory = 0)");
        goto fail;
    }
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 4}, err))
        goto fail;
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->pin, z->bytes)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dst, z->bytes)))
        goto fail;
    for (size_t i = 0; i < z->words; i++)
        z->pin[i] = gt_pattern_word(i, z->pin_seed);
    gt_format_size(z->bytes, sz, sizeof sz);
    gt_setup_info_time(info, gt_now() - t0, "the reference: cudaMallocHost + cudaMalloc %s, "
                       "pattern written", sz);
    /* The row's bound was judged on free memory before these; again now. */
    if (GT_CUDA(err, cudaMemGetInfo(&fr, &tot)))
        goto fail;
    if (z->bytes > fr) {
        gt_err_set(err, GT_EXIT_USAGE, "size: %s of managed memory does not fit beside the "
                   "reference buffers (%s free now); allowed: up to half of the free memory "
                   "before them", sz, gt_format_size(fr, fz, sizeof fz));
        goto fail;
    }
    snprintf(info->note, sizeof info->note, "every word: the GPU's reads against the pattern%s, "
             "and the pinned copy's destination, every sample",
             z->access == GT_MG_ACCESS_PINGPONG ? ", the CPU's pass too" : "");
    gt_setup_info_timing(info, "a sample is a buffer's life: cudaMallocManaged, advice, first "
                         "touch (CPU: host clock; GPU: events), prefetch (events), reads behind "
                         "the timing gate (events), cudaFree");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static double since(cudaEvent_t a, cudaEvent_t b, gt_err *err, int *rc)
{
    float ms = 0;

    if (*rc == 0 && gt_event_ms(&ms, a, b, err))
        *rc = -1;
    return ms * 1e-3;
}

static int advise(mg *z, gt_err *err)
{
    if (z->read_mostly && GT_CUDA(err, gt_cudaMemAdvise(z->m, z->bytes,
                                                        cudaMemAdviseSetReadMostly, z->device)))
        return -1;
    if (z->pref != GT_MG_PREF_NONE &&
        GT_CUDA(err, gt_cudaMemAdvise(z->m, z->bytes, cudaMemAdviseSetPreferredLocation,
                                      z->pref == GT_MG_PREF_HOST ? cudaCpuDeviceId : z->device)))
        return -1;
    if (z->accessed_by && GT_CUDA(err, gt_cudaMemAdvise(z->m, z->bytes,
                                                        cudaMemAdviseSetAccessedBy, z->device)))
        return -1;
    return 0;
}

/* One gated, timed kernel over the buffer between e[a] and e[a + 1]:
 * the pattern's check, or (bump) the ping-pong's check and rewrite. */
static int timed_pass(mg *z, int a, bool bump, uint32_t k, gt_err *err)
{
    if (gt_gate_hold(&z->t.gate, z->t.s, err) || GT_CUDA(err, cudaEventRecord(z->t.e[a], z->t.s)))
        goto fail;
    if (bump ? GT_CUDA(err, gt_k_mg_bump(z->m, z->words, z->seed, k, z->t.dbad, z->blocks, z->t.s))
             : GT_CUDA(err, gt_k_verify_pattern(z->m, z->words, z->seed, z->t.dbad, z->blocks,
                                                z->t.s)))
        goto fail;
    if (GT_CUDA(err, cudaEventRecord(z->t.e[a + 1], z->t.s)))
        goto fail;
    gt_gate_open(&z->t.gate);
    return 0;
fail:
    gt_gate_open(&z->t.gate);
    return -1;
}

/* The reference copy: pinned H2D of the buffer's bytes, every word
 * checked. */
static int copy(void *state, int i, cudaStream_t s, gt_err *err)
{
    mg *z = state;

    (void)i;
    return GT_CUDA(err, cudaMemcpyAsync(z->dst, z->pin, z->bytes, cudaMemcpyHostToDevice, s));
}

static int copied(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    mg *z = state;

    (void)i;
    return GT_CUDA(err, gt_k_verify_pattern(z->dst, z->words, z->pin_seed, bad, z->blocks, s));
}

static const gt_timed reference = {.pieces = 1, .work = copy, .check = copied};

static void put(mg *z, gt_sample *out, int k, double sec)
{
    out[z->slot[k]] = (gt_sample){.series = (uint8_t)z->slot[k], .sec = sec, .bytes = z->bytes};
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    mg *z = state;
    uint64_t bad = 0, n;
    double t0, t1, cpu = 0, again = 0;
    int rc = 0;

    z->seed = z->seed * 1664525u + 1013904223u;
    if (GT_CUDA_ALLOC(err, cudaMallocManaged((void **)&z->m, z->bytes, cudaMemAttachGlobal)) ||
        advise(z, err) || gt_count_zero(z->t.dbad, z->t.s, err))
        goto fail;
    /* First touch. */
    if (z->touch == GT_MG_TOUCH_HOST) {
        t0 = gt_now();
        for (size_t i = 0; i < z->words; i++)
            z->m[i] = gt_pattern_word(i, z->seed);
        put(z, out, GT_MG_S_TOUCH, gt_now() - t0);
    } else if (GT_CUDA(err, cudaEventRecord(z->t.e[0], z->t.s)) ||
               GT_CUDA(err, gt_k_fill_pattern(z->m, z->words, z->seed, z->blocks, z->t.s)) ||
               GT_CUDA(err, cudaEventRecord(z->t.e[1], z->t.s))) {
        goto fail;
    }
    if (z->prefetch &&
        (GT_CUDA(err, cudaEventRecord(z->t.e[2], z->t.s)) ||
         GT_CUDA(err, gt_cudaMemPrefetchAsync(z->m, z->bytes, z->device, z->t.s)) ||
         GT_CUDA(err, cudaEventRecord(z->t.e[3], z->t.s))))
        goto fail;
    /* The GPU's read (pingpong: its pass), then three more (repeat). */
    if (timed_pass(z, 4, z->access == GT_MG_ACCESS_PINGPONG, 0, err))
        goto fail;
    for (int r = 0; z->access == GT_MG_ACCESS_REPEAT && r < AGAIN; r++)
        if (timed_pass(z, 6, false, 0, err) || GT_CUDA(err, cudaStreamSynchronize(z->t.s)) ||
            (again += since(z->t.e[6], z->t.e[7], err, &rc), rc))
            goto fail;
    if (gt_count_read(z->t.dbad, z->t.hbad, z->t.s, &n, err) || gt_gate_check(&z->t.gate, err))
        goto fail;
    bad += n;
    if (z->touch == GT_MG_TOUCH_DEVICE)
        put(z, out, GT_MG_S_TOUCH, since(z->t.e[0], z->t.e[1], err, &rc));
    if (z->prefetch)
        put(z, out, GT_MG_S_PREFETCH, since(z->t.e[2], z->t.e[3], err, &rc));
    put(z, out, GT_MG_S_READ, since(z->t.e[4], z->t.e[5], err, &rc));
    if (z->access == GT_MG_ACCESS_REPEAT)
        put(z, out, GT_MG_S_AGAIN, again / AGAIN);
    if (rc)
        goto fail;
    /* The CPU's pass: every word pattern + 1, now + 2. */
    if (z->access == GT_MG_ACCESS_PINGPONG) {
        t0 = gt_now();
        for (size_t i = 0; i < z->words; i++) {
            uint32_t w = z->m[i];
            bad += w != gt_pattern_word(i, z->seed) + 1;
            z->m[i] = w + 1;
        }
        cpu = gt_now() - t0;
        put(z, out, GT_MG_S_CPU, cpu);
    }
    if (GT_CUDA(err, cudaFree(z->m)))
        goto fail;
    z->m = NULL;
    /* The reference: pinned H2D of the same bytes, checked. */
    if (gt_timed_sample(&z->t, &reference, z, &t1, &n, err))
        goto fail;
    bad += n;
    put(z, out, GT_MG_S_COPY, t1);
    for (int s = 0; s < z->nseries; s++)
        out[s].verify = bad ? GT_V_FAILED : GT_V_FULL;
    return z->nseries;
fail:
    gt_gpu_quiesce();
    gt_free_device(&z->m);
    return -1;
}

GT_GPU_OPS(managed) = {.setup = setup, .run = run, .teardown = teardown};
