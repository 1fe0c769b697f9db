/* The peer experiment on the GPUs: copies between this GPU and the peer,
 * by the copy engines (cudaMemcpyPeerAsync) or by a copy kernel whose
 * loads or stores cross the link, one way or both at once; and the
 * latency of one dependent read of the peer's memory.
 *
 * Every runtime call acts on the calling thread's current device, so each
 * one here is preceded by on(dev). A sample's sources get a new pattern
 * first; each destination is then checked in full by a kernel on the GPU
 * that holds it. The copies are timed with events on the copying GPU's
 * stream; kernels start behind the timing gate (gate.c), one gate per
 * copying GPU, opened together. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* One GPU's own things. */
typedef struct side {
    int dev, blocks;
    gt_timing t;                        /* its stream, gate and counters; a lane's events */
    bool enabled;                       /* this run enabled its access to the other */
} side;

/* One copy: run by 'exec' from src (on src_dev) into dst (on dst_dev). */
typedef struct lane {
    int exec, src_dev, dst_dev;
    uint32_t *src, *dst;
    uint32_t seed;                      /* lane i times with exec's t.e[2i], t.e[2i + 1] */
} lane;

typedef struct pe {
    int measure, engine, op, access;
    size_t bytes, words;
    side g[2];                          /* this GPU, the peer */
    lane l[2];
    int nlanes;
    uint64_t rng;
    /* latency */
    uint32_t *chain, *dout, *hout;      /* on the peer; on this GPU; pinned */
    size_t nwords;
    int sms, target;                    /* the SM count; the block that walks next */
    uint32_t chain_start;               /* where this sample's chase starts */
} pe;

static int on(int dev, gt_err *err)
{
    return GT_CUDA(err, cudaSetDevice(dev));
}

static side *side_of(pe *z, int dev)
{
    return &z->g[dev == z->g[0].dev ? 0 : 1];
}

static void free_on(int dev, void *field)
{
    if (*(void **)field) {
        cudaSetDevice(dev);
        gt_free_device(field);
    }
}

static void teardown(void *state)
{
    pe *z = state;

    if (!z)
        return;
    for (int i = 0; i < 2; i++) {
        if (z->g[i].t.s || z->g[i].t.gate.host) {
            cudaSetDevice(z->g[i].dev);
            gt_timing_free(&z->g[i].t);
        }
    }
    for (int i = 0; i < 2; i++) {
        lane *l = &z->l[i];
        free_on(l->src_dev, &l->src);
        free_on(l->dst_dev, &l->dst);
    }
    free_on(z->g[1].dev, &z->chain);
    free_on(z->g[0].dev, &z->dout);
    gt_free_pinned(&z->hout);
    for (int i = 0; i < 2; i++) {
        side *s = &z->g[i];
        cudaSetDevice(s->dev);
        if (s->enabled)
            GT_CUDA_Q(cudaDeviceDisablePeerAccess(z->g[1 - i].dev));
    }
    cudaSetDevice(z->g[0].dev);
    cudaGetLastError();
    free(z);
}

/* Peer access from side i to the other one, as the configuration wants
 * it; the time enabling took goes into info. */
static int set_access(pe *z, int i, gt_setup_info *info, gt_err *err)
{
    side *s = &z->g[i];
    int other = z->g[1 - i].dev;
    cudaError_t rc;
    double t0;

    if (on(s->dev, err))
        return -1;
    /* Off: nothing to do, since every configuration's teardown disables
     * the access its set-up enabled. */
    if (z->access == GT_PE_ACCESS_OFF)
        return 0;
    t0 = gt_now();
    rc = GT_CUDA_Q(cudaDeviceEnablePeerAccess(other, 0));
    if (rc == cudaErrorPeerAccessAlreadyEnabled)
        return 0;
    if (GT_CUDA(err, rc))
        return -1;
    s->enabled = true;
    gt_setup_info_time(info, gt_now() - t0, "cudaDeviceEnablePeerAccess: GPU %d -> GPU %d",
                       s->dev, other);
    return 0;
}

static int make_side(pe *z, int i, int dev, bool gate, gt_err *err)
{
    side *s = &z->g[i];
    int sms = 1;

    s->dev = dev;
    if (on(dev, err))
        return -1;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
        cudaGetLastError();
    s->blocks = 4 * sms;
    return gt_timing_init(&s->t, &(gt_timing_spec){.pieces = 2, .ungated = !gate}, err);
}

static int make_lane(pe *z, lane *l, int exec, int other, gt_setup_info *info, gt_err *err)
{
    char sz[32];
    double t0;

    l->exec = exec;
    l->src_dev = z->op == GT_PE_READ ? other : exec;
    l->dst_dev = z->op == GT_PE_READ ? exec : other;
    gt_format_size(z->bytes, sz, sizeof sz);
    t0 = gt_now();
    if (on(l->src_dev, err) || GT_CUDA_ALLOC(err, cudaMalloc((void **)&l->src, z->bytes)) ||
        on(l->dst_dev, err) || GT_CUDA_ALLOC(err, cudaMalloc((void **)&l->dst, z->bytes)))
        return -1;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s on GPU %d and on GPU %d", sz,
                       l->src_dev, l->dst_dev);
    return 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    pe *z = calloc(1, sizeof *z);
    int self = 0, peer = gt_peer_device(v, p);
    char a[32];
    bool kernel;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    if (GT_CUDA(err, cudaGetDevice(&self)))
        goto fail;
    z->g[0].dev = self;
    z->g[1].dev = peer;
    if (peer < 0 || peer == self) {
        gt_err_set(err, GT_EXIT_USAGE, "experiment peer needs a second GPU");
        goto fail;
    }
    z->measure = (int)v[GT_PE_MEASURE];
    z->engine = (int)v[GT_PE_ENGINE];
    z->op = (int)v[GT_PE_OP];
    z->access = (int)v[GT_PE_ACCESS];
    z->bytes = (size_t)v[GT_PE_SIZE];
    z->words = z->bytes / 4;
    z->rng = (uint64_t)(gt_now() * 1e9) ^ (uintptr_t)z;
    kernel = z->measure == GT_PE_LATENCY || z->engine == GT_PE_SM;
    if (make_side(z, 0, self, kernel, err) ||
        make_side(z, 1, peer, kernel && v[GT_PE_DIR] == GT_PE_BOTH, err) ||
        set_access(z, 0, info, err) || set_access(z, 1, info, err))
        goto fail;

    if (z->measure == GT_PE_LATENCY) {
        z->nwords = (size_t)v[GT_PE_REGION] / 4;
        if (on(peer, err) ||
            GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->chain, z->nwords * 4)) ||
            GT_CUDA(err, gt_k_chain_init(z->chain, z->nwords, GT_PE_STRIDE_BYTES / 4,
                                         z->g[1].blocks, z->g[1].t.s)) ||
            GT_CUDA(err, cudaStreamSynchronize(z->g[1].t.s)) || on(self, err) ||
            GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dout, sizeof *z->dout)) ||
            GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hout, sizeof *z->hout)))
            goto fail;
        z->sms = z->g[0].blocks / 4;
        snprintf(info->note, sizeof info->note, "each sample's end of the chain is checked: "
                 "%d reads from a random line must end %d lines on", GT_PE_HOPS, GT_PE_HOPS);
        gt_setup_info_timing(info, "events around %d dependent reads by one thread on GPU %d "
                             "(in the next of %d blocks each sample), behind the timing gate",
                             GT_PE_HOPS, self, z->sms);
        if (on(self, err))
            goto fail;
        *state = z;
        return 0;
    }

    z->nlanes = v[GT_PE_DIR] == GT_PE_BOTH ? 2 : 1;
    if (make_lane(z, &z->l[0], self, peer, info, err) ||
        (z->nlanes == 2 && make_lane(z, &z->l[1], peer, self, info, err)))
        goto fail;
    snprintf(info->note, sizeof info->note, "every copy checked in full by a kernel on the GPU "
             "that receives it; the sources get a new pattern each sample (%s a copy)",
             gt_format_size(z->bytes, a, sizeof a));
    gt_setup_info_timing(info, "events on the copying GPU's stream%s%s",
                         z->engine == GT_PE_SM ? ", the kernel behind the timing gate" : "",
                         z->nlanes == 2 ? "; both copies enqueued before either starts" : "");
    if (on(self, err))
        goto fail;
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static int verify(pe *z, const lane *l, uint8_t *out, gt_err *err)
{
    side *d = side_of(z, l->dst_dev);
    uint64_t bad;

    if (on(l->dst_dev, err) || gt_count_zero(d->t.dbad, d->t.s, err) ||
        GT_CUDA(err, gt_k_verify_pattern(l->dst, z->words, l->seed, d->t.dbad, d->blocks,
                                         d->t.s)) ||
        gt_count_read(d->t.dbad, d->t.hbad, d->t.s, &bad, err))
        return -1;
    *out = bad ? GT_V_FAILED : GT_V_FULL;
    return 0;
}

/* The lanes at once, each on the GPU that runs it (both directions: one
 * on each GPU, each behind its own gate, opened together): the harness's
 * pieces are of one GPU, so the lanes use each side's parts of it. */
static int run_copies(pe *z, gt_sample *out, gt_err *err)
{
    uint32_t seed = (uint32_t)gt_xorshift64(&z->rng);
    float ms;

    for (int i = 0; i < z->nlanes; i++) {
        lane *l = &z->l[i];
        side *s = side_of(z, l->src_dev);
        l->seed = seed ^ (uint32_t)(i * 0x5bd1e995u);
        if (on(l->src_dev, err) ||
            GT_CUDA(err, gt_k_fill_pattern(l->src, z->words, l->seed, s->blocks, s->t.s)))
            return -1;
    }
    for (int i = 0; i < 2; i++)
        if (GT_CUDA(err, cudaStreamSynchronize(z->g[i].t.s)))
            return -1;
    for (int i = 0; i < z->nlanes; i++) {
        lane *l = &z->l[i];
        gt_timing *t = &side_of(z, l->exec)->t;
        if (on(l->exec, err) || gt_gate_hold(&t->gate, t->s, err) ||
            GT_CUDA(err, cudaEventRecord(t->e[2 * i], t->s)))
            goto fail;
        if (z->engine == GT_PE_CE) {
            if (GT_CUDA(err, cudaMemcpyPeerAsync(l->dst, l->dst_dev, l->src, l->src_dev,
                                                 z->bytes, t->s)))
                goto fail;
        } else if (GT_CUDA(err, gt_k_copy(l->dst, l->src, z->bytes, side_of(z, l->exec)->blocks,
                                          t->s))) {
            goto fail;
        }
        if (GT_CUDA(err, cudaEventRecord(t->e[2 * i + 1], t->s)))
            goto fail;
    }
    for (int i = 0; i < 2; i++)
        gt_gate_open(&z->g[i].t.gate);
    for (int i = 0; i < z->nlanes; i++) {
        lane *l = &z->l[i];
        gt_timing *t = &side_of(z, l->exec)->t;
        if (GT_CUDA(err, cudaEventSynchronize(t->e[2 * i + 1])) ||
            gt_gate_check(&t->gate, err) || gt_event_ms(&ms, t->e[2 * i], t->e[2 * i + 1], err))
            return -1;
        out[i] = (gt_sample){0, (uint8_t)i, GT_V_FULL, ms / 1e3, z->bytes};
    }
    for (int i = 0; i < z->nlanes; i++)
        if (verify(z, &z->l[i], &out[i].verify, err))
            return -1;
    return on(z->g[0].dev, err) ? -1 : z->nlanes;
fail:
    for (int i = 0; i < 2; i++)
        gt_gate_open(&z->g[i].t.gate);
    return -1;
}

/* The chase from this GPU through the peer's memory: one piece on this
 * GPU's timing, its end index checked on the host. */
static int chase(void *state, int i, cudaStream_t s, gt_err *err)
{
    pe *z = state;

    (void)i;
    return GT_CUDA(err, gt_k_chase(z->chain, z->chain_start, GT_PE_HOPS, z->dout, z->sms,
                                   z->target, s));
}

static int run_latency(pe *z, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = 1, .work = chase};
    side *s = &z->g[0];
    size_t lines = z->nwords / (GT_PE_STRIDE_BYTES / 4);
    uint64_t expect;
    double sec;
    uint64_t unused;

    z->chain_start = (uint32_t)((gt_xorshift64(&z->rng) % lines) * (GT_PE_STRIDE_BYTES / 4));
    expect = ((uint64_t)z->chain_start + (uint64_t)GT_PE_HOPS * (GT_PE_STRIDE_BYTES / 4)) %
             z->nwords;
    if (on(s->dev, err) || gt_timed_sample(&s->t, &w, z, &sec, &unused, err) ||
        GT_CUDA(err, cudaMemcpyAsync(z->hout, z->dout, sizeof *z->hout, cudaMemcpyDeviceToHost,
                                     s->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(s->t.s)))
        return -1;
    out[0] = (gt_sample){0, 0, *z->hout == expect ? GT_V_FULL : GT_V_FAILED, sec / GT_PE_HOPS, 4};
    z->target = (z->target + 1) % z->sms;
    return 1;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    pe *z = state;

    return z->measure == GT_PE_LATENCY ? run_latency(z, out, err) : run_copies(z, out, err);
}

GT_GPU_OPS(peer) = {.setup = setup, .run = run, .teardown = teardown};
