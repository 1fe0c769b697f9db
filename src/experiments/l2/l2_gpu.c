/* The L2 persistence experiment on the GPU.
 *   window: the touch kernel on a stream with the access-policy window (or
 *           as a graph whose kernel node carries it), then on a stream
 *           without it; the persisting lines are reset before each, and
 *           both arrays are checked in closed form after each launch.
 *   cost:   the same device copy with cudaLimitPersistingL2CacheSize at
 *           the set-aside and at 0, alternately, destination checked.
 *   compete: two touch kernels at once on two streams, each with its own
 *           arrays and its own window, then both without windows; all four
 *           arrays checked after each pair.
 * Teardown restores the limit gputui started with and resets the
 * persisting lines, so no other experiment runs under a set-aside. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l2.h"
#include "l2_kernels.h"
#include "gputui/measure/trace.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

typedef struct l2 {
    int op, blocks;
    size_t ns, np;                  /* words: streaming, persisting */
    size_t setaside, granted;
    uint32_t *stream, *persist, *copy_dst;
    uint32_t *stream2, *persist2;   /* compete: the second kernel's */
    uint32_t seed, pseed, launches;
    cudaStream_t s_win2, s_base2;   /* compete: the second kernel's streams */
    cudaEvent_t fork, join;
    bool graph;
    cudaStream_t s_win, s_base;
    cudaGraph_t g_win, g_base;
    cudaGraphExec_t x_win, x_base;
    cudaEvent_t e0, e1;
    unsigned long long *dbad, *hbad;
    bool limit_set;
    gt_gate gate;
} l2;

static void restore_limit(void)
{
    if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, gt_l2_initial_limit()) != cudaSuccess)
        cudaGetLastError();
    if (cudaCtxResetPersistingL2Cache() != cudaSuccess)
        cudaGetLastError();
}

static void teardown(void *state)
{
    l2 *z = state;

    if (!z)
        return;
    gt_gate_free(&z->gate);
    gt_gpu_quiesce();
    if (z->limit_set)
        restore_limit();
    if (z->x_win)
        cudaGraphExecDestroy(z->x_win);
    if (z->x_base)
        cudaGraphExecDestroy(z->x_base);
    if (z->g_win)
        cudaGraphDestroy(z->g_win);
    if (z->g_base)
        cudaGraphDestroy(z->g_base);
    gt_free_device(&z->stream);
    gt_free_device(&z->persist);
    gt_free_device(&z->copy_dst);
    gt_free_device(&z->stream2);
    gt_free_device(&z->persist2);
    gt_destroy_stream(&z->s_win2);
    gt_destroy_stream(&z->s_base2);
    gt_destroy_event(&z->fork);
    gt_destroy_event(&z->join);
    gt_free_device(&z->dbad);
    gt_free_pinned(&z->hbad);
    gt_destroy_event(&z->e0);
    gt_destroy_event(&z->e1);
    gt_destroy_stream(&z->s_win);
    gt_destroy_stream(&z->s_base);
    free(z);
}

static enum cudaAccessProperty prop_of(int64_t v)
{
    return v == GT_L2_PROP_PERSISTING ? cudaAccessPropertyPersisting
         : v == GT_L2_PROP_STREAMING ? cudaAccessPropertyStreaming : cudaAccessPropertyNormal;
}

/* The kernel captured into a graph, with the window on its node or not. */
static int make_graph(l2 *z, const struct cudaAccessPolicyWindow *w, cudaGraph_t *g,
                      cudaGraphExec_t *x, gt_err *err)
{
    cudaGraphNode_t node;
    size_t n = 1;

    if (GT_CUDA(err, cudaStreamBeginCapture(z->s_base, cudaStreamCaptureModeThreadLocal)))
        return -1;
    if (GT_CUDA(err, gt_k_l2_touch(z->stream, z->ns, z->persist, z->np, z->blocks, z->s_base))) {
        cudaGraph_t junk;
        if (cudaStreamEndCapture(z->s_base, &junk) == cudaSuccess && junk)
            cudaGraphDestroy(junk);
        return -1;
    }
    if (GT_CUDA(err, cudaStreamEndCapture(z->s_base, g)) ||
        GT_CUDA(err, cudaGraphGetNodes(*g, &node, &n)))
        return -1;
    if (w && GT_CUDA(err, gt_cudaGraphKernelNodeSetAttribute(node, w)))
        return -1;
    return GT_CUDA(err, gt_cudaGraphInstantiate(x, *g));
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    l2 *z = calloc(1, sizeof *z);
    char a[32], b[32];
    size_t got = 0;
    double t0;

    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->op = (int)v[GT_L2_OP];
    z->ns = (size_t)v[GT_L2_STREAMING] / 4;
    z->np = (size_t)v[GT_L2_REGION] / 4;
    z->graph = z->op == GT_L2_OP_WINDOW && v[GT_L2_APPLY] == GT_L2_APPLY_GRAPH;
    z->blocks = gt_gpu_sms() * 8;
    z->setaside = gt_l2_setaside(v, p);

    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->stream, z->ns * 4)) ||
        (z->op != GT_L2_OP_COST && GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->persist, z->np * 4))) ||
        (z->op == GT_L2_OP_COST && GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->copy_dst, z->ns * 4))) ||
        (z->op == GT_L2_OP_COMPETE &&
         (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->stream2, z->ns * 4)) ||
          GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->persist2, z->np * 4)))) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dbad, sizeof *z->dbad)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hbad, sizeof *z->hbad)))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s%s", gt_format_size(z->ns * 4, a, sizeof a),
                       z->op == GT_L2_OP_WINDOW ? " + the persisting region"
                       : z->op == GT_L2_OP_COMPETE ? " + a region, twice" : " x 2");
    if (GT_CUDA(err, cudaStreamCreateWithFlags(&z->s_win, cudaStreamNonBlocking)) ||
        GT_CUDA(err, cudaStreamCreateWithFlags(&z->s_base, cudaStreamNonBlocking)) ||
        GT_CUDA(err, cudaEventCreate(&z->e0)) ||
        GT_CUDA(err, cudaEventCreateWithFlags(&z->e1, cudaEventBlockingSync)) ||
        gt_gate_init(&z->gate, z->op != GT_L2_OP_COST, true, err))
        goto fail;
    if (z->op == GT_L2_OP_COMPETE &&
        (GT_CUDA(err, cudaStreamCreateWithFlags(&z->s_win2, cudaStreamNonBlocking)) ||
         GT_CUDA(err, cudaStreamCreateWithFlags(&z->s_base2, cudaStreamNonBlocking)) ||
         GT_CUDA(err, cudaEventCreateWithFlags(&z->fork, cudaEventDisableTiming)) ||
         GT_CUDA(err, cudaEventCreateWithFlags(&z->join, cudaEventDisableTiming))))
        goto fail;

    /* The set-aside, and what the driver granted. */
    t0 = gt_now();
    z->limit_set = true;
    if (GT_CUDA(err, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, z->setaside)) ||
        GT_CUDA(err, cudaDeviceGetLimit(&got, cudaLimitPersistingL2CacheSize)))
        goto fail;
    z->granted = got;
    gt_setup_info_time(info, gt_now() - t0, "set-aside: asked %s, granted %s",
                       gt_format_size(z->setaside, a, sizeof a), gt_format_size(got, b, sizeof b));
    if (z->op == GT_L2_OP_COST && (GT_CUDA(err, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                                                                    0))))
        goto fail;

    z->seed = (uint32_t)(gt_now() * 1e6);
    z->pseed = z->seed * 2654435761u + 1;
    if (GT_CUDA(err, gt_k_fill_pattern(z->stream, z->ns, z->seed, z->blocks, z->s_base)) ||
        (z->persist && GT_CUDA(err, gt_k_fill_pattern(z->persist, z->np, z->pseed, z->blocks,
                                                      z->s_base))) ||
        (z->stream2 && GT_CUDA(err, gt_k_fill_pattern(z->stream2, z->ns, ~z->seed, z->blocks,
                                                      z->s_base))) ||
        (z->persist2 && GT_CUDA(err, gt_k_fill_pattern(z->persist2, z->np, ~z->pseed, z->blocks,
                                                       z->s_base))) ||
        GT_CUDA(err, cudaStreamSynchronize(z->s_base)))
        goto fail;

    if (z->op != GT_L2_OP_COST) {
        struct cudaAccessPolicyWindow w;
        memset(&w, 0, sizeof w);
        w.base_ptr = z->persist;
        w.num_bytes = gt_l2_window(v, p);
        w.hitRatio = (float)v[GT_L2_HIT] / 100.0f;
        w.hitProp = prop_of(v[GT_L2_HITPROP]);
        w.missProp = prop_of(v[GT_L2_MISSPROP]);
        if (z->graph) {
            if (make_graph(z, &w, &z->g_win, &z->x_win, err) ||
                make_graph(z, NULL, &z->g_base, &z->x_base, err))
                goto fail;
        } else {
            cudaStreamAttrValue attr;
            memset(&attr, 0, sizeof attr);
            attr.accessPolicyWindow = w;
            gt_trace_args("accessPolicyWindow %s, hitRatio %.2f%s",
                          gt_format_size(w.num_bytes, a, sizeof a), w.hitRatio,
                          z->op == GT_L2_OP_COMPETE ? ", kernel 1" : "");
            if (GT_CUDA(err, cudaStreamSetAttribute(z->s_win, cudaStreamAttributeAccessPolicyWindow,
                                                    &attr)))
                goto fail;
            attr.accessPolicyWindow.base_ptr = z->persist2;
            if (z->op == GT_L2_OP_COMPETE)
                gt_trace_args("accessPolicyWindow %s, hitRatio %.2f, kernel 2",
                              gt_format_size(w.num_bytes, a, sizeof a), w.hitRatio);
            if (z->op == GT_L2_OP_COMPETE &&
                GT_CUDA(err, cudaStreamSetAttribute(z->s_win2, cudaStreamAttributeAccessPolicyWindow,
                                                    &attr)))
                goto fail;
        }
        snprintf(info->note, sizeof info->note, "every word of %s arrays, on the GPU, "
                 "after every launch; %s %s at hitRatio %.2f on the %s",
                 z->op == GT_L2_OP_COMPETE ? "all four" : "both",
                 z->op == GT_L2_OP_COMPETE ? "two windows of" : "window",
                 gt_format_size(w.num_bytes, a, sizeof a), w.hitRatio,
                 z->graph ? "graph's kernel node" : z->op == GT_L2_OP_COMPETE ? "streams" : "stream");
    } else {
        snprintf(info->note, sizeof info->note, "every word of the copy, on the GPU, after "
                 "every copy");
    }
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static int check_stream(l2 *z, bool *ok, gt_err *err)
{
    bool second = z->op == GT_L2_OP_COMPETE;

    *z->hbad = 0;
    if (GT_CUDA(err, cudaMemcpyAsync(z->dbad, z->hbad, sizeof *z->hbad, cudaMemcpyHostToDevice,
                                     z->s_base)) ||
        (z->op != GT_L2_OP_COST
             ? GT_CUDA(err, gt_k_l2_check(z->stream, z->ns, z->persist, z->np, z->seed, z->pseed,
                                          z->launches, z->dbad, z->blocks, z->s_base))
             : GT_CUDA(err, gt_k_verify_pattern(z->copy_dst, z->ns, z->seed, z->dbad, z->blocks,
                                                z->s_base))) ||
        (second && GT_CUDA(err, gt_k_l2_check(z->stream2, z->ns, z->persist2, z->np, ~z->seed,
                                              ~z->pseed, z->launches, z->dbad, z->blocks,
                                              z->s_base))) ||
        GT_CUDA(err, cudaMemcpyAsync(z->hbad, z->dbad, sizeof *z->hbad, cudaMemcpyDeviceToHost,
                                     z->s_base)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->s_base)))
        return -1;
    *ok = *z->hbad == 0;
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    l2 *z = state;

    for (int i = 0; i < 2; i++) {
        bool with = i == GT_L2_S_WINDOW, ok;
        cudaStream_t s = with && !z->graph ? z->s_win : z->s_base;
        float ms = 0;
        cudaError_t rc;

        if (z->op == GT_L2_OP_COMPETE) {
            cudaStream_t s2 = with ? z->s_win2 : z->s_base2;
            /* Both kernels start together from no persisting lines. */
            if (GT_CUDA(err, cudaCtxResetPersistingL2Cache()) ||
                gt_gate_hold(&z->gate, s, err) ||
                GT_CUDA(err, cudaEventRecord(z->e0, s)) ||
                GT_CUDA(err, cudaEventRecord(z->fork, s)) ||
                GT_CUDA(err, cudaStreamWaitEvent(s2, z->fork, 0)) ||
                GT_CUDA(err, gt_k_l2_touch(z->stream, z->ns, z->persist, z->np, z->blocks, s)) ||
                GT_CUDA(err, gt_k_l2_touch(z->stream2, z->ns, z->persist2, z->np, z->blocks, s2)) ||
                GT_CUDA(err, cudaEventRecord(z->join, s2)) ||
                GT_CUDA(err, cudaStreamWaitEvent(s, z->join, 0)))
                goto fail;
            z->launches++;
        } else if (z->op == GT_L2_OP_WINDOW) {
            /* Each run starts with no persisting lines. */
            if (GT_CUDA(err, cudaCtxResetPersistingL2Cache()) ||
                gt_gate_hold(&z->gate, s, err) ||
                GT_CUDA(err, cudaEventRecord(z->e0, s)))
                goto fail;
            rc = z->graph ? cudaGraphLaunch(with ? z->x_win : z->x_base, s)
                          : gt_k_l2_touch(z->stream, z->ns, z->persist, z->np, z->blocks, s);
            if (GT_CUDA(err, rc))
                goto fail;
            z->launches++;
        } else {
            if (GT_CUDA(err, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                                                with ? z->setaside : 0)) ||
                GT_CUDA(err, gt_k_fill_word(z->copy_dst, z->ns, 0xA5A5A5A5u, z->blocks, s)) ||
                gt_gate_hold(&z->gate, s, err) ||
                GT_CUDA(err, cudaEventRecord(z->e0, s)) ||
                GT_CUDA(err, cudaMemcpyAsync(z->copy_dst, z->stream, z->ns * 4,
                                             cudaMemcpyDeviceToDevice, s)))
                goto fail;
        }
        if (GT_CUDA(err, cudaEventRecord(z->e1, s)))
            goto fail;
        gt_gate_open(&z->gate);
        if (GT_CUDA(err, cudaEventSynchronize(z->e1)) || gt_gate_check(&z->gate, err) ||
            gt_event_ms(&ms, z->e0, z->e1, err) || check_stream(z, &ok, err))
            return -1;
        out[i] = (gt_sample){0, (uint8_t)i, ok ? GT_V_FULL : GT_V_FAILED, ms * 1e-3,
                             z->ns * 4 * (z->op == GT_L2_OP_COMPETE ? 2 : 1)};
    }
    if (z->op == GT_L2_OP_COST &&
        GT_CUDA(err, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0)))
        return -1;
    return 2;
fail:
    gt_gate_open(&z->gate);
    return -1;
}

GT_GPU_OPS(l2) = {.setup = setup, .run = run, .teardown = teardown};
