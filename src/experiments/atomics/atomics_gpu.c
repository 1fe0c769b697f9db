/* The atomics experiment on the GPU (the row is src/experiments/atomics/
 * atomics.c, the kernels atomics_kernels.cu).
 *
 * Set-up puts the targets where asked (cudaMalloc; pinned host memory
 * mapped; a peer's memory, peer access on) and works out on the host what
 * each must hold after a sample: the count of operations it receives
 * (add, cas), 3 to that power (mul), or the least or greatest value sent
 * to it (min, max, by going through every operation once). Each sample:
 * the targets set to the operation's identity, the kernel behind the
 * timing gate, then every target compared with its expected value; one
 * lost update fails the sample. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomics.h"
#include "atomics_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

typedef struct at {
    gt_at_shape sh;
    uint64_t threads;
    int blocks, self, peer;
    bool peer_enabled;
    void *targets;                  /* device address (mapped: the host's, mapped) */
    void *host;                     /* mapped: the pinned host memory */
    void *expect;                   /* K values, packed, on this GPU */
    gt_timing t;
} at;

static void teardown(void *state)
{
    at *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    if (z->sh.where == GT_AT_PEER && z->targets) {
        cudaSetDevice(z->peer);
        gt_free_device(&z->targets);
        cudaSetDevice(z->self);
    }
    if (z->peer_enabled)
        GT_CUDA_Q(cudaDeviceDisablePeerAccess(z->peer));
    if (z->sh.where == GT_AT_MAPPED)
        gt_free_pinned(&z->host);
    else
        gt_free_device(&z->targets);
    gt_free_device(&z->expect);
    free(z);
}

static uint64_t pow3(uint64_t n)
{
    uint64_t r = 1, b = 3;

    for (; n; n >>= 1, b *= b)
        if (n & 1)
            r *= b;
    return r;
}

/* What target a holds after a sample, as the type's bits, into out
 * (K values of 4 or 8 bytes). 0, or -1 out of host memory. */
static int expected(const at *z, void *out)
{
    const gt_at_shape *sh = &z->sh;
    uint64_t k = sh->k, *count = NULL, *best = NULL;
    bool wide = sh->type == GT_AT_U64 || sh->type == GT_AT_F64;

    if (sh->op == GT_AT_MIN || sh->op == GT_AT_MAX) {
        if (!(best = malloc(k * sizeof *best)))
            return -1;
        for (uint64_t a = 0; a < k; a++)
            best[a] = sh->op == GT_AT_MIN ? (wide ? UINT64_MAX : UINT32_MAX) : 0;
        for (uint64_t t = 0; t < z->threads; t++)
            for (uint64_t i = 0; i < sh->ops; i++) {
                uint64_t a = gt_at_target(t, i, k, sh->own), v = gt_at_value(t, i, sh->seed);
                if (sh->op == GT_AT_MIN ? v < best[a] : v > best[a])
                    best[a] = v;
            }
    } else {
        if (!(count = malloc(k * sizeof *count)))
            return -1;
        gt_at_counts(z->threads, sh->ops, k, sh->own, count);
    }
    for (uint64_t a = 0; a < k; a++) {
        uint64_t u = best ? best[a] : sh->op == GT_AT_MUL ? pow3(count[a]) : count[a];
        if (sh->type == GT_AT_F32) {
            float f = (float)count[a];
            memcpy((char *)out + 4 * a, &f, 4);
        } else if (sh->type == GT_AT_F64) {
            double d = (double)count[a];
            memcpy((char *)out + 8 * a, &d, 8);
        } else if (wide) {
            memcpy((char *)out + 8 * a, &u, 8);
        } else {
            uint32_t w = (uint32_t)u;
            memcpy((char *)out + 4 * a, &w, 4);
        }
    }
    free(count);
    free(best);
    return 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    at *z = calloc(1, sizeof *z);
    unsigned unit = gt_at_size(v[GT_AT_TYPE]);
    size_t span;
    void *host_expect = NULL;
    char a[32];
    double t0;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->blocks = gt_gpu_sms() * (int)v[GT_AT_BLOCKS];
    z->threads = (uint64_t)z->blocks * GT_AT_THREADS;
    z->sh = (gt_at_shape){.where = (int)v[GT_AT_WHERE], .op = (int)v[GT_AT_OP],
                          .type = (int)v[GT_AT_TYPE], .scope = (int)v[GT_AT_SCOPE],
                          .agg = (int)v[GT_AT_AGG], .own = v[GT_AT_ADDRS] == 0,
                          .k = v[GT_AT_ADDRS] ? (uint64_t)v[GT_AT_ADDRS] : z->threads,
                          .stride = (uint32_t)v[GT_AT_STRIDE], .ops = (uint32_t)v[GT_AT_OPS],
                          .seed = (uint32_t)(gt_now() * 1e6)};
    span = ((size_t)(z->sh.k - 1) * z->sh.stride + 1) * unit;
    cudaGetDevice(&z->self);
    z->peer = gt_topo_pick_peer(&p->topo, p->ordinal, -1);
    gt_format_size(span, a, sizeof a);
    t0 = gt_now();
    switch (z->sh.where) {
    case GT_AT_MAPPED:
        if (GT_CUDA_ALLOC(err, cudaHostAlloc(&z->host, span, cudaHostAllocMapped)) ||
            GT_CUDA(err, cudaHostGetDevicePointer(&z->targets, z->host, 0)))
            goto fail;
        gt_setup_info_time(info, gt_now() - t0, "cudaHostAlloc(Mapped) %s of targets", a);
        break;
    case GT_AT_PEER: {
        cudaError_t rc;
        if (z->peer < 0) {
            gt_err_set(err, GT_EXIT_USAGE, "where=peer needs a second GPU");
            goto fail;
        }
        if (GT_CUDA(err, cudaSetDevice(z->peer)) ||
            GT_CUDA_ALLOC(err, cudaMalloc(&z->targets, span)) ||
            GT_CUDA(err, cudaSetDevice(z->self)))
            goto fail;
        rc = GT_CUDA_Q(cudaDeviceEnablePeerAccess(z->peer, 0));
        if (rc != cudaSuccess && rc != cudaErrorPeerAccessAlreadyEnabled && GT_CUDA(err, rc))
            goto fail;
        z->peer_enabled = rc == cudaSuccess;
        gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s of targets on GPU %d, peer "
                           "access", a, z->peer);
        break;
    }
    default:
        if (GT_CUDA_ALLOC(err, cudaMalloc(&z->targets, span)))
            goto fail;
        gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s of targets%s", a,
                           z->sh.where == GT_AT_SHARED ? " (the bins merge into them)" : "");
        break;
    }
    t0 = gt_now();
    if (!(host_expect = malloc(z->sh.k * unit)) || expected(z, host_expect)) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory (%llu expected values)",
                   (unsigned long long)z->sh.k);
        goto fail;
    }
    if (GT_CUDA_ALLOC(err, cudaMalloc(&z->expect, z->sh.k * unit)) ||
        GT_CUDA(err, cudaMemcpy(z->expect, host_expect, z->sh.k * unit,
                                cudaMemcpyHostToDevice)))
        goto fail;
    free(host_expect);
    host_expect = NULL;
    gt_setup_info_time(info, gt_now() - t0, "what each of the %llu addresses must hold, worked "
                       "out on the host", (unsigned long long)z->sh.k);
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 1}, err))
        goto fail;
    snprintf(info->note, sizeof info->note, "every address against the host's after each "
             "sample (%llu threads x %u operations); hostNativeAtomicSupported %s",
             (unsigned long long)z->threads, z->sh.ops,
             gt_dp_ok(p, GT_DP_HOST_ATOMIC) ? (gt_dp_get(p, GT_DP_HOST_ATOMIC) ? "1" : "0")
                                            : "N/A");
    gt_setup_info_timing(info, "events around the kernel (%d blocks of %d threads) behind the "
                         "timing gate; the targets reset before it", z->blocks, GT_AT_THREADS);
    *state = z;
    return 0;
fail:
    free(host_expect);
    teardown(z);
    return -1;
}

static int prepare(void *state, int i, cudaStream_t s, gt_err *err)
{
    at *z = state;

    (void)i;
    return GT_CUDA(err, gt_k_at_reset(&z->sh, z->targets, s));
}

static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    at *z = state;

    (void)i;
    return GT_CUDA(err, gt_k_at_run(&z->sh, z->targets, z->blocks, s));
}

static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    at *z = state;

    (void)i;
    return GT_CUDA(err, gt_k_at_check(&z->sh, z->targets, z->expect, bad, s));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = 1, .prepare = prepare, .work = work, .check = check};
    at *z = state;

    return gt_timed_samples(&z->t, &w, z, z->threads * z->sh.ops * gt_at_size(z->sh.type), out,
                            err);
}

GT_GPU_OPS(atomics) = {.setup = setup, .run = run, .teardown = teardown};
