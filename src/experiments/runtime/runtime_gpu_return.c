/* The runtime experiment's op=return (the row is
 * src/experiments/runtime/runtime.c): when a cudaMemcpy or cudaMemset
 * returns to the host. Per sample, outside the timed part, the source gets
 * a new pattern and the destination a poison; then a one-thread kernel
 * that spins for 'ahead' us is queued on the legacy default stream, the
 * host clock is read, the call is made on that stream, the clock is read
 * when it returns and again when cudaStreamQuery, called in a loop from
 * then on, first finds the stream idle: the work the call left queued at
 * its return (one query's cost, under a microsecond, when it left none).
 * The destination is then read back and compared word by word. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"
#include "runtime_gpu.h"

#define POISON 0xDEADBEEFu

typedef struct rr {
    int call;
    size_t bytes, words;
    unsigned long long ahead_ns;
    uint32_t seed;
    uint32_t *host;         /* the host side: malloc'd, or cudaMallocHost for h2d-pinned */
    uint32_t *check;        /* malloc'd: a device destination read back */
    uint32_t *dsrc, *ddst;  /* device memory */
    uint32_t *marks;        /* the spin kernel's mark */
    bool pinned;
} rr;

void gt_rt_return_teardown(void *state)
{
    rr *z = state;

    if (!z)
        return;
    gt_gpu_quiesce();
    gt_free_device(&z->dsrc);
    gt_free_device(&z->ddst);
    gt_free_device(&z->marks);
    if (z->pinned)
        gt_free_pinned(&z->host);
    else
        free(z->host);
    free(z->check);
    free(z);
}

int gt_rt_return_setup(void **state, const int64_t *v, gt_setup_info *info, gt_err *err)
{
    rr *z = calloc(1, sizeof *z);
    double t0 = gt_now();
    char sz[32];

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->call = (int)v[GT_RT_CALL];
    z->bytes = (size_t)v[GT_RT_SIZE];
    z->words = z->bytes / 4;
    z->ahead_ns = (unsigned long long)v[GT_RT_AHEAD] * 1000ull;
    z->seed = (uint32_t)(gt_now() * 1e6) | 1;
    z->pinned = z->call == GT_RT_CALL_H2D_PINNED;
    if (z->pinned) {
        if (GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->host, z->bytes)))
            goto fail;
    } else if (!(z->host = malloc(z->bytes))) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        goto fail;
    }
    if (!(z->check = malloc(z->bytes))) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        goto fail;
    }
    /* Every page of the host buffers touched before the first sample. */
    memset(z->host, 0, z->bytes);
    memset(z->check, 0, z->bytes);
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dsrc, z->bytes)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->ddst, z->bytes)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->marks, sizeof *z->marks)))
        goto fail;
    gt_format_size(z->bytes, sz, sizeof sz);
    gt_setup_info_time(info, gt_now() - t0, "%s %s, cudaMalloc 2 x %s",
                       z->pinned ? "cudaMallocHost" : "malloc", sz, sz);
    snprintf(info->note, sizeof info->note, "every word of the destination, read back after "
             "the stream is idle (a new pattern each sample, the destination poisoned)");
    gt_setup_info_timing(info, "host clock: before the call, at its return, and at the first "
                         "cudaStreamQuery after it that finds the stream idle");
    *state = z;
    return 0;
fail:
    gt_rt_return_teardown(z);
    return -1;
}

/* The new pattern in the source, the poison in the destination. */
static int prepare(rr *z, uint32_t seed, gt_err *err)
{
    int blocks = gt_gpu_sms();

    switch (z->call) {
    case GT_RT_CALL_H2D_PAGEABLE:
    case GT_RT_CALL_H2D_PINNED:
        for (size_t i = 0; i < z->words; i++)
            z->host[i] = gt_pattern_word(i, seed);
        if (GT_CUDA(err, gt_k_fill_word(z->ddst, z->words, POISON, blocks, 0)))
            return -1;
        break;
    case GT_RT_CALL_D2H_PAGEABLE:
    case GT_RT_CALL_D2D:
        if (z->call == GT_RT_CALL_D2H_PAGEABLE)
            memset(z->host, 0, z->bytes);
        if (GT_CUDA(err, gt_k_fill_pattern(z->dsrc, z->words, seed, blocks, 0)) ||
            GT_CUDA(err, gt_k_fill_word(z->ddst, z->words, POISON, blocks, 0)))
            return -1;
        break;
    default:
        if (GT_CUDA(err, gt_k_fill_word(z->ddst, z->words, POISON, blocks, 0)))
            return -1;
    }
    return GT_CUDA(err, cudaStreamSynchronize(0));
}

static cudaError_t call(rr *z, uint8_t byte)
{
    switch (z->call) {
    case GT_RT_CALL_H2D_PAGEABLE:
    case GT_RT_CALL_H2D_PINNED:
        return cudaMemcpy(z->ddst, z->host, z->bytes, cudaMemcpyHostToDevice);
    case GT_RT_CALL_D2H_PAGEABLE:
        return cudaMemcpy(z->host, z->dsrc, z->bytes, cudaMemcpyDeviceToHost);
    case GT_RT_CALL_D2D:
        return cudaMemcpy(z->ddst, z->dsrc, z->bytes, cudaMemcpyDeviceToDevice);
    default:
        return cudaMemset(z->ddst, byte, z->bytes);
    }
}

/* Words of the destination that are wrong. */
static size_t wrong(rr *z, uint32_t seed, uint8_t byte, gt_err *err)
{
    const uint32_t *got = z->host;
    uint32_t fill = byte * 0x01010101u;
    size_t bad = 0;

    if (z->call != GT_RT_CALL_D2H_PAGEABLE) {
        if (GT_CUDA(err, cudaMemcpy(z->check, z->ddst, z->bytes, cudaMemcpyDeviceToHost)))
            return (size_t)-1;
        got = z->check;
    }
    for (size_t i = 0; i < z->words; i++)
        bad += got[i] != (z->call == GT_RT_CALL_MEMSET ? fill : gt_pattern_word(i, seed));
    return bad;
}

int gt_rt_return_run(void *state, gt_sample *out, gt_err *err)
{
    rr *z = state;
    uint32_t seed = ++z->seed;
    uint8_t byte = (uint8_t)(seed % 255 + 1);
    double t[3];
    size_t bad = 0;
    cudaError_t q;

    if (prepare(z, seed, err))
        return -1;
    if (z->ahead_ns && GT_CUDA(err, gt_k_spin(z->ahead_ns, 0, z->marks, 1, 0)))
        return -1;
    t[0] = gt_now();
    if (GT_CUDA(err, call(z, byte)))
        return -1;
    t[1] = gt_now();
    while ((q = cudaStreamQuery(0)) == cudaErrorNotReady)
        ;
    t[2] = gt_now();
    if (GT_CUDA(err, q) || (bad = wrong(z, seed, byte, err)) == (size_t)-1)
        return -1;
    out[GT_RT_S_RETURNS] = (gt_sample){0, GT_RT_S_RETURNS, 0, t[1] - t[0], z->bytes};
    out[GT_RT_S_IDLE] = (gt_sample){0, GT_RT_S_IDLE, 0, t[2] - t[0], z->bytes};
    out[GT_RT_S_LEFT] = (gt_sample){0, GT_RT_S_LEFT, 0, t[2] - t[1], z->bytes};
    for (int s = 0; s < 3; s++)
        out[s].verify = bad ? GT_V_FAILED : GT_V_FULL;
    return 3;
}
