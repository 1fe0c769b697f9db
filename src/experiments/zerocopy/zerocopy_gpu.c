/* The zero-copy experiment on the GPU: out = a + b four ways (explicit
 * copies, mapped pinned memory, managed memory, managed with prefetch),
 * one after another in every iteration, each timed with events on one
 * stream from its first to its last GPU operation (or over 'repeat' back
 * to back), behind the timing gate, and checked element by element.
 *
 * With check=gpu the explicit and mapped outputs are poisoned and checked
 * by kernels (the check reads the host output through its mapped address),
 * so the CPU never touches them: a CPU that writes the poison and reads
 * the result leaves those lines in its caches, and the next copy into them
 * is measurably slower. check=cpu shows that. Managed outputs are always
 * checked on the CPU: pages coming back to it are part of that story. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zerocopy.h"
#include "zerocopy_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

typedef struct zc {
    size_t n, bytes;
    int blocks, threads, passes, device, only, repeat;
    int check_blocks;               /* poison and check kernels */
    bool can_map, can_prefetch, gpu_check;
    float *h_a, *h_b, *h_out;       /* explicit: pinned, not mapped */
    float *d_a, *d_b, *d_out;
    float *m_a, *m_b, *m_out;       /* mapped: host addresses ... */
    float *dm_a, *dm_b, *dm_out;    /* ... and the device's for them */
    float *u_a, *u_b, *u_out;       /* managed */
    float *dh_out;                  /* h_out's device address (check=gpu) */
    unsigned long long *d_bad, *h_bad;
    gt_gate gate;
    cudaStream_t s;
    cudaEvent_t e0, e1;
    uint32_t seed, runs;
} zc;

static void teardown(void *state)
{
    zc *z = state;

    if (!z)
        return;
    gt_gate_free(&z->gate);
    gt_gpu_quiesce();
    float **host[] = {&z->h_a, &z->h_b, &z->h_out, &z->m_a, &z->m_b, &z->m_out};
    float **dev[] = {&z->d_a, &z->d_b, &z->d_out, &z->u_a, &z->u_b, &z->u_out};
    gt_free_device(&z->d_bad);
    gt_free_pinned(&z->h_bad);
    for (size_t i = 0; i < GT_ARRAY_LEN(host); i++)
        gt_free_pinned(host[i]);
    for (size_t i = 0; i < GT_ARRAY_LEN(dev); i++)
        gt_free_device(dev[i]);
    gt_destroy_event(&z->e0);
    gt_destroy_event(&z->e1);
    gt_destroy_stream(&z->s);
    free(z);
}

static void fill_inputs(float *a, float *b, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = gt_zc_a(i, seed);
        b[i] = gt_zc_b(i, seed);
    }
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    zc *z = calloc(1, sizeof *z);
    unsigned wc = v[GT_ZC_WC] ? cudaHostAllocWriteCombined : 0;
    int attr = 0;
    double t0;
    char sz[32];
    size_t off = 0;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->n = (size_t)v[GT_ZC_COUNT];
    z->bytes = z->n * sizeof(float);
    z->threads = (int)v[GT_ZC_THREADS];
    z->blocks = v[GT_ZC_BLOCKS] ? (int)v[GT_ZC_BLOCKS] : gt_gpu_sms() * (2048 / z->threads);
    z->passes = (int)v[GT_ZC_PASSES];
    z->only = (int)v[GT_ZC_ONLY] - 1;       /* -1: all */
    z->repeat = (int)v[GT_ZC_REPEAT];
    z->check_blocks = gt_gpu_sms() * 4;
    z->gpu_check = v[GT_ZC_CHECK] == GT_ZC_CHECK_GPU;
    z->can_map = gt_dp_get(p, GT_DP_CAN_MAP) != 0;
    cudaGetDevice(&z->device);
    if (cudaDeviceGetAttribute(&attr, cudaDevAttrConcurrentManagedAccess, z->device) != cudaSuccess)
        cudaGetLastError();
    z->can_prefetch = attr != 0;
    if ((z->only == GT_ZC_MAPPED && !z->can_map) || (z->only == GT_ZC_PREFETCH && !z->can_prefetch)) {
        gt_err_set(err, GT_EXIT_USAGE, "variant=%s: this device has %s = 0; run variant=all "
                   "to see the others", z->only == GT_ZC_MAPPED ? "mapped" : "managed+prefetch",
                   z->only == GT_ZC_MAPPED ? "canMapHostMemory" : "concurrentManagedAccess");
        free(z);
        return -1;
    }
    gt_format_size(3 * z->bytes, sz, sizeof sz);

    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&z->h_a, z->bytes, wc)) ||
        GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&z->h_b, z->bytes, wc)) ||
        GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&z->h_out, z->bytes,
                                         z->gpu_check ? cudaHostAllocMapped : 0)))
        goto fail;
    if (z->gpu_check && GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dh_out, z->h_out, 0)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "explicit: cudaHostAlloc%s 3 x %s",
                       wc ? "(WriteCombined inputs)" : "", gt_format_size(z->bytes, sz, sizeof sz));
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->d_a, z->bytes)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->d_b, z->bytes)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->d_out, z->bytes)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "explicit: cudaMalloc 3 x %s", sz);
    if (z->can_map) {
        t0 = gt_now();
        if (GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&z->m_a, z->bytes, cudaHostAllocMapped | wc)) ||
            GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&z->m_b, z->bytes, cudaHostAllocMapped | wc)) ||
            GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&z->m_out, z->bytes, cudaHostAllocMapped)) ||
            GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dm_a, z->m_a, 0)) ||
            GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dm_b, z->m_b, 0)) ||
            GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dm_out, z->m_out, 0)))
            goto fail;
        gt_setup_info_time(info, gt_now() - t0, "mapped: cudaHostAlloc(Mapped%s) 3 x %s",
                           wc ? ", WriteCombined inputs" : "", sz);
    }
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMallocManaged((void **)&z->u_a, z->bytes, cudaMemAttachGlobal)) ||
        GT_CUDA_ALLOC(err, cudaMallocManaged((void **)&z->u_b, z->bytes, cudaMemAttachGlobal)) ||
        GT_CUDA_ALLOC(err, cudaMallocManaged((void **)&z->u_out, z->bytes, cudaMemAttachGlobal)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "managed: cudaMallocManaged 3 x %s", sz);
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->d_bad, sizeof *z->d_bad)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->h_bad, sizeof *z->h_bad)) ||
        gt_gate_init(&z->gate, true, true, err) ||
        GT_CUDA(err, cudaStreamCreateWithFlags(&z->s, cudaStreamNonBlocking)) ||
        GT_CUDA(err, cudaEventCreate(&z->e0)) ||
        GT_CUDA(err, cudaEventCreateWithFlags(&z->e1, cudaEventBlockingSync)))
        goto fail;
    z->seed = (uint32_t)(gt_now() * 1e6);
    /* Explicit and mapped inputs are written once, as a program would;
     * managed inputs are rewritten before every run (run_variant) so that
     * their pages start on the CPU each time. */
    fill_inputs(z->h_a, z->h_b, z->n, z->seed);
    if (z->can_map)
        fill_inputs(z->m_a, z->m_b, z->n, z->seed);

    off += (size_t)snprintf(info->note + off, sizeof info->note - off, "every element, %s; "
                            "%d x %d threads", z->gpu_check ? "on the GPU (managed: the CPU)"
                            : "on the CPU", z->blocks, z->threads);
    if (z->repeat > 1)
        gt_setup_info_timing(info, "events around %d back-to-back repeats of each variant, "
                             "averaged; the last one checked", z->repeat);
    else
        gt_setup_info_timing(info, "events around one iteration of each variant%s",
                             z->gate.on ? ", the mapped kernel from when it is queued" : "");
    /* Variants this device cannot run: no samples, and the reason. */
    if (z->only < 0 && !z->can_map) {
        info->skipped |= 1u << GT_ZC_MAPPED;
        snprintf(info->why_skipped, sizeof info->why_skipped, "canMapHostMemory = 0");
    }
    if (z->only < 0 && !z->can_prefetch) {
        info->skipped |= 1u << GT_ZC_PREFETCH;
        snprintf(info->why_skipped, sizeof info->why_skipped, "%sconcurrentManagedAccess = 0",
                 z->can_map ? "" : "canMapHostMemory = 0; ");
    }
    if (!z->can_map)
        off += (size_t)snprintf(info->note + off, sizeof info->note - off,
                                "; mapped NOT RUN: canMapHostMemory = 0");
    if (!z->can_prefetch)
        off += (size_t)snprintf(info->note + off, sizeof info->note - off,
                                "; prefetch NOT RUN: concurrentManagedAccess = 0");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static bool check_out(const float *out, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        if (out[i] != gt_zc_a(i, seed) + gt_zc_b(i, seed))
            return false;
    return true;
}

/* Poisons the output (NaN): explicit on the device and the host, mapped on
 * the host, by kernels (check=gpu) or the CPU; managed by the CPU. */
static int poison(zc *z, int var, float *o, gt_err *err)
{
    if (var == GT_ZC_EXPLICIT &&
        GT_CUDA(err, cudaMemsetAsync(z->d_out, 0xFF, z->bytes, z->s)))
        return -1;
    if (var == GT_ZC_MANAGED || var == GT_ZC_PREFETCH || !z->gpu_check) {
        memset(o, 0xFF, z->bytes);
        return 0;
    }
    return GT_CUDA(err, gt_k_fill_word((uint32_t *)(var == GT_ZC_EXPLICIT ? z->dh_out : z->dm_out),
                                       z->n, 0xFFFFFFFFu, z->check_blocks, z->s));
}

static int check_gpu(zc *z, const float *ko, uint32_t seed, bool *ok, gt_err *err)
{
    uint64_t bad;

    if (gt_count_zero(z->d_bad, z->s, err) ||
        GT_CUDA(err, gt_k_zc_check(ko, z->n, seed, z->d_bad, z->check_blocks, z->s)) ||
        gt_count_read(z->d_bad, z->h_bad, z->s, &bad, err))
        return -1;
    *ok = bad == 0;
    return 0;
}

/* One repeat of a variant's GPU work, enqueued on z->s. */
static int enqueue(zc *z, int var, const float *a, const float *b, float *ka, float *kb,
                   float *ko, gt_err *err)
{
    if (var == GT_ZC_EXPLICIT &&
        (GT_CUDA(err, cudaMemcpyAsync(z->d_a, a, z->bytes, cudaMemcpyHostToDevice, z->s)) ||
         GT_CUDA(err, cudaMemcpyAsync(z->d_b, b, z->bytes, cudaMemcpyHostToDevice, z->s))))
        return -1;
    if (var == GT_ZC_PREFETCH &&
        (GT_CUDA(err, gt_cudaMemPrefetchAsync(z->u_a, z->bytes, z->device, z->s)) ||
         GT_CUDA(err, gt_cudaMemPrefetchAsync(z->u_b, z->bytes, z->device, z->s)) ||
         GT_CUDA(err, gt_cudaMemPrefetchAsync(z->u_out, z->bytes, z->device, z->s))))
        return -1;
    if (GT_CUDA(err, gt_k_add_passes(ko, ka, kb, z->n, z->passes, z->blocks, z->threads, z->s)))
        return -1;
    if (var == GT_ZC_EXPLICIT &&
        GT_CUDA(err, cudaMemcpyAsync(z->h_out, z->d_out, z->bytes, cudaMemcpyDeviceToHost, z->s)))
        return -1;
    return 0;
}

/* One variant: a poisoned output (and, managed, fresh inputs), then the
 * timed GPU work behind the gate, then the check of every element. */
static int run_variant(zc *z, int var, gt_sample *out, gt_err *err)
{
    float *a, *b, *o, *ka, *kb, *ko;
    float ms = 0;
    bool ok = false;

    switch (var) {
    case GT_ZC_EXPLICIT:
        a = z->h_a, b = z->h_b, o = z->h_out, ka = z->d_a, kb = z->d_b, ko = z->d_out;
        break;
    case GT_ZC_MAPPED:
        a = z->m_a, b = z->m_b, o = z->m_out, ka = z->dm_a, kb = z->dm_b, ko = z->dm_out;
        break;
    default:
        a = ka = z->u_a, b = kb = z->u_b, o = ko = z->u_out;
        break;
    }
    bool managed = var == GT_ZC_MANAGED || var == GT_ZC_PREFETCH;
    uint32_t seed = z->seed;
    if (managed) {
        seed = z->seed + ++z->runs;
        fill_inputs(a, b, z->n, seed);      /* managed pages come back to the CPU here */
    }
    /* The gate holds the mapped kernel only: in front of explicit copies
     * it adds a hand-off from the spin kernel to the copy engine, and
     * cudaMemPrefetchAsync may wait for the stream inside the call. */
    if (poison(z, var, o, err) || GT_CUDA(err, cudaStreamSynchronize(z->s)) ||
        (var == GT_ZC_MAPPED && gt_gate_hold(&z->gate, z->s, err)) ||
        GT_CUDA(err, cudaEventRecord(z->e0, z->s)))
        goto fail;
    for (int r = 0; r < z->repeat; r++)
        if (enqueue(z, var, a, b, ka, kb, ko, err))
            goto fail;
    if (GT_CUDA(err, cudaEventRecord(z->e1, z->s)))
        goto fail;
    gt_gate_open(&z->gate);
    if (GT_CUDA(err, cudaEventSynchronize(z->e1)) || gt_gate_check(&z->gate, err) ||
        gt_event_ms(&ms, z->e0, z->e1, err))
        return -1;
    if (managed || !z->gpu_check)
        ok = check_out(o, z->n, seed);
    else if (check_gpu(z, var == GT_ZC_EXPLICIT ? z->dh_out : z->dm_out, seed, &ok, err))
        return -1;
    out->series = (uint8_t)var;
    out->sec = (double)ms * 1e-3 / z->repeat;
    out->bytes = 3 * (uint64_t)z->bytes;     /* a and b in, out back: once each */
    out->verify = ok ? GT_V_FULL : GT_V_FAILED;
    return 0;
fail:
    gt_gate_open(&z->gate);
    return -1;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    zc *z = state;
    int k = 0;

    for (int var = 0; var < GT_ZC_NVARIANTS; var++) {
        if ((var == GT_ZC_MAPPED && !z->can_map) || (var == GT_ZC_PREFETCH && !z->can_prefetch) ||
            (z->only >= 0 && var != z->only))
            continue;
        if (run_variant(z, var, &out[k], err))
            return -1;
        if (z->only >= 0)
            out[k].series = 0;
        k++;
    }
    return k;
}

GT_GPU_OPS(zerocopy) = {.setup = setup, .run = run, .teardown = teardown};
