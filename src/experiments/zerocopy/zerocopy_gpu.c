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
    gt_timing t;                    /* one piece: a variant at a time */
    uint32_t seed, runs;
    int var;                        /* the variant being timed ... */
    uint32_t var_seed;              /* ... and the seed of its inputs */
} zc;

static void teardown(void *state)
{
    zc *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    float **host[] = {&z->h_a, &z->h_b, &z->h_out, &z->m_a, &z->m_b, &z->m_out};
    float **dev[] = {&z->d_a, &z->d_b, &z->d_out, &z->u_a, &z->u_b, &z->u_out};
    for (size_t i = 0; i < GT_ARRAY_LEN(host); i++)
        gt_free_pinned(host[i]);
    for (size_t i = 0; i < GT_ARRAY_LEN(dev); i++)
        gt_free_device(dev[i]);
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
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 1, .sleep = true}, err))
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
                             z->t.gate.on ? ", the mapped kernel from when it is queued" : "");
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

/* The buffers variant var reads and writes: the host's (a, b, o) and the
 * kernel's (ka, kb, ko). */
typedef struct zc_bufs {
    float *a, *b, *o, *ka, *kb, *ko;
} zc_bufs;

static zc_bufs bufs_of(const zc *z, int var)
{
    switch (var) {
    case GT_ZC_EXPLICIT:
        return (zc_bufs){z->h_a, z->h_b, z->h_out, z->d_a, z->d_b, z->d_out};
    case GT_ZC_MAPPED:
        return (zc_bufs){z->m_a, z->m_b, z->m_out, z->dm_a, z->dm_b, z->dm_out};
    default:
        return (zc_bufs){z->u_a, z->u_b, z->u_out, z->u_a, z->u_b, z->u_out};
    }
}

static bool is_managed(int var)
{
    return var == GT_ZC_MANAGED || var == GT_ZC_PREFETCH;
}

/* Poisons the output (NaN): explicit on the device and the host, mapped on
 * the host, by kernels (check=gpu) or the CPU; managed by the CPU. */
static int poison(void *state, int i, cudaStream_t s, gt_err *err)
{
    zc *z = state;
    int var = z->var;

    (void)i;
    if (var == GT_ZC_EXPLICIT && GT_CUDA(err, cudaMemsetAsync(z->d_out, 0xFF, z->bytes, s)))
        return -1;
    if (is_managed(var) || !z->gpu_check) {
        memset(bufs_of(z, var).o, 0xFF, z->bytes);
        return 0;
    }
    return GT_CUDA(err, gt_k_fill_word((uint32_t *)(var == GT_ZC_EXPLICIT ? z->dh_out
                                                                          : z->dm_out),
                                       z->n, 0xFFFFFFFFu, z->check_blocks, s));
}

/* 'repeat' times the variant's GPU work: its copies or prefetches in, the
 * kernel, its copy out. */
static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    zc *z = state;
    int var = z->var;
    zc_bufs f = bufs_of(z, var);

    (void)i;
    for (int r = 0; r < z->repeat; r++)
        if ((var == GT_ZC_EXPLICIT &&
             (GT_CUDA(err, cudaMemcpyAsync(z->d_a, f.a, z->bytes, cudaMemcpyHostToDevice, s)) ||
              GT_CUDA(err, cudaMemcpyAsync(z->d_b, f.b, z->bytes, cudaMemcpyHostToDevice, s)))) ||
            (var == GT_ZC_PREFETCH &&
             (GT_CUDA(err, gt_cudaMemPrefetchAsync(z->u_a, z->bytes, z->device, s)) ||
              GT_CUDA(err, gt_cudaMemPrefetchAsync(z->u_b, z->bytes, z->device, s)) ||
              GT_CUDA(err, gt_cudaMemPrefetchAsync(z->u_out, z->bytes, z->device, s)))) ||
            GT_CUDA(err, gt_k_add_passes(f.ko, f.ka, f.kb, z->n, z->passes, z->blocks,
                                         z->threads, s)) ||
            (var == GT_ZC_EXPLICIT &&
             GT_CUDA(err, cudaMemcpyAsync(z->h_out, z->d_out, z->bytes, cudaMemcpyDeviceToHost,
                                          s))))
            return -1;
    return 0;
}

/* check=gpu: every element of the explicit or mapped output, on the GPU
 * through its mapped address. */
static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    zc *z = state;

    (void)i;
    return GT_CUDA(err, gt_k_zc_check(z->var == GT_ZC_EXPLICIT ? z->dh_out : z->dm_out, z->n,
                                      z->var_seed, bad, z->check_blocks, s));
}

/* One variant: a poisoned output (and, managed, fresh inputs), then the
 * timed GPU work, then the check of every element. The gate holds the
 * mapped kernel only: in front of explicit copies it adds a hand-off from
 * the spin kernel to the copy engine, and cudaMemPrefetchAsync may wait
 * for the stream inside the call. */
static int run_variant(zc *z, int var, gt_sample *out, gt_err *err)
{
    bool managed = is_managed(var), gpu_check = z->gpu_check && !managed;
    gt_timed w = {.pieces = 1, .ungated = var != GT_ZC_MAPPED, .prepare = poison, .work = work,
                  .check = gpu_check ? check : NULL};
    zc_bufs f = bufs_of(z, var);
    double sec;
    uint64_t bad;

    z->var = var;
    z->var_seed = z->seed;
    if (managed) {
        z->var_seed = z->seed + ++z->runs;
        fill_inputs(f.a, f.b, z->n, z->var_seed);   /* managed pages come back to the CPU here */
    }
    if (gt_timed_sample(&z->t, &w, z, &sec, &bad, err))
        return -1;
    if (!gpu_check)
        bad = !check_out(f.o, z->n, z->var_seed);
    out->series = (uint8_t)var;
    out->sec = sec / z->repeat;
    out->bytes = 3 * (uint64_t)z->bytes;     /* a and b in, out back: once each */
    out->verify = bad ? GT_V_FAILED : GT_V_FULL;
    return 0;
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
