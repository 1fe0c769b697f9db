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
    cudaEvent_t fork, join;         /* compete: the second kernel's stream joins */
    bool graph;
    cudaGraph_t g_win, g_base;
    cudaGraphExec_t x_win, x_base;
    bool limit_set;
    gt_timing t;                    /* t.s: no window; t.side: the streams below */
} l2;

/* The streams with a window (the first kernel's, the second's) and the
 * second kernel's without one. */
enum { S_WIN, S_WIN2, S_BASE2 };

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
    gt_timing_free(&z->t);
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
    gt_destroy_event(&z->fork);
    gt_destroy_event(&z->join);
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

    if (GT_CUDA(err, cudaStreamBeginCapture(z->t.s, cudaStreamCaptureModeThreadLocal)))
        return -1;
    if (GT_CUDA(err, gt_k_l2_touch(z->stream, z->ns, z->persist, z->np, z->blocks, z->t.s))) {
        cudaGraph_t junk;
        if (cudaStreamEndCapture(z->t.s, &junk) == cudaSuccess && junk)
            cudaGraphDestroy(junk);
        return -1;
    }
    if (GT_CUDA(err, cudaStreamEndCapture(z->t.s, g)) ||
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
          GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->persist2, z->np * 4)))))
        goto fail;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %s%s", gt_format_size(z->ns * 4, a, sizeof a),
                       z->op == GT_L2_OP_WINDOW ? " + the persisting region"
                       : z->op == GT_L2_OP_COMPETE ? " + a region, twice" : " x 2");
    if (gt_timing_init(&z->t, &(gt_timing_spec){
                           .pieces = 2, .streams = z->op == GT_L2_OP_COMPETE ? 3 : 1,
                           .ungated = z->op == GT_L2_OP_COST, .sleep = true},
                       err))
        goto fail;
    if (z->op == GT_L2_OP_COMPETE &&
        (GT_CUDA(err, cudaEventCreateWithFlags(&z->fork, cudaEventDisableTiming)) ||
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
    if (GT_CUDA(err, gt_k_fill_pattern(z->stream, z->ns, z->seed, z->blocks, z->t.s)) ||
        (z->persist && GT_CUDA(err, gt_k_fill_pattern(z->persist, z->np, z->pseed, z->blocks,
                                                      z->t.s))) ||
        (z->stream2 && GT_CUDA(err, gt_k_fill_pattern(z->stream2, z->ns, ~z->seed, z->blocks,
                                                      z->t.s))) ||
        (z->persist2 && GT_CUDA(err, gt_k_fill_pattern(z->persist2, z->np, ~z->pseed, z->blocks,
                                                       z->t.s))) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
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
            if (GT_CUDA(err, cudaStreamSetAttribute(z->t.side[S_WIN], cudaStreamAttributeAccessPolicyWindow,
                                                    &attr)))
                goto fail;
            attr.accessPolicyWindow.base_ptr = z->persist2;
            if (z->op == GT_L2_OP_COMPETE)
                gt_trace_args("accessPolicyWindow %s, hitRatio %.2f, kernel 2",
                              gt_format_size(w.num_bytes, a, sizeof a), w.hitRatio);
            if (z->op == GT_L2_OP_COMPETE &&
                GT_CUDA(err, cudaStreamSetAttribute(z->t.side[S_WIN2], cudaStreamAttributeAccessPolicyWindow,
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

/* Piece GT_L2_S_WINDOW runs with the window (its streams', or its graph
 * node's), the other without. */
static cudaStream_t stream_of(void *state, int i)
{
    l2 *z = state;

    return i == GT_L2_S_WINDOW && !z->graph ? z->t.side[S_WIN] : z->t.s;
}

/* window, compete: no persisting lines before each piece; cost: the limit
 * of the piece, and the destination poisoned. */
static int prepare(void *state, int i, cudaStream_t s, gt_err *err)
{
    l2 *z = state;

    if (z->op != GT_L2_OP_COST)
        return GT_CUDA(err, cudaCtxResetPersistingL2Cache());
    return GT_CUDA(err, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                                           i == GT_L2_S_WINDOW ? z->setaside : 0)) ||
           GT_CUDA(err, gt_k_fill_word(z->copy_dst, z->ns, 0xA5A5A5A5u, z->blocks, s));
}

/* window: the touch kernel (or its graph); compete: two at once, the
 * second on its own stream, forked from and joined to the first's; cost:
 * the device copy. */
static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    l2 *z = state;
    bool with = i == GT_L2_S_WINDOW;
    cudaStream_t s2 = z->t.side[with ? S_WIN2 : S_BASE2];

    if (z->op == GT_L2_OP_COST)
        return GT_CUDA(err, cudaMemcpyAsync(z->copy_dst, z->stream, z->ns * 4,
                                            cudaMemcpyDeviceToDevice, s));
    if (z->op == GT_L2_OP_WINDOW && z->graph) {
        if (GT_CUDA(err, cudaGraphLaunch(with ? z->x_win : z->x_base, s)))
            return -1;
    } else if (z->op == GT_L2_OP_WINDOW) {
        if (GT_CUDA(err, gt_k_l2_touch(z->stream, z->ns, z->persist, z->np, z->blocks, s)))
            return -1;
    } else if (GT_CUDA(err, cudaEventRecord(z->fork, s)) ||
               GT_CUDA(err, cudaStreamWaitEvent(s2, z->fork, 0)) ||
               GT_CUDA(err, gt_k_l2_touch(z->stream, z->ns, z->persist, z->np, z->blocks, s)) ||
               GT_CUDA(err, gt_k_l2_touch(z->stream2, z->ns, z->persist2, z->np, z->blocks, s2)) ||
               GT_CUDA(err, cudaEventRecord(z->join, s2)) ||
               GT_CUDA(err, cudaStreamWaitEvent(s, z->join, 0))) {
        return -1;
    }
    z->launches++;
    return 0;
}

/* Every word of both arrays (compete: all four) in closed form after the
 * launches so far, or the copy's destination. */
static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    l2 *z = state;

    (void)i;
    if (z->op == GT_L2_OP_COST)
        return GT_CUDA(err, gt_k_verify_pattern(z->copy_dst, z->ns, z->seed, bad, z->blocks, s));
    return GT_CUDA(err, gt_k_l2_check(z->stream, z->ns, z->persist, z->np, z->seed, z->pseed,
                                      z->launches, bad, z->blocks, s)) ||
           (z->op == GT_L2_OP_COMPETE &&
            GT_CUDA(err, gt_k_l2_check(z->stream2, z->ns, z->persist2, z->np, ~z->seed,
                                       ~z->pseed, z->launches, bad, z->blocks, s)));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = 2, .apart = true, .prepare = prepare, .work = work,
                               .check = check, .stream = stream_of};
    l2 *z = state;
    int n = gt_timed_samples(&z->t, &w, z, z->ns * 4 * (z->op == GT_L2_OP_COMPETE ? 2 : 1), out,
                             err);

    if (n > 0 && z->op == GT_L2_OP_COST &&
        GT_CUDA(err, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0)))
        return -1;
    return n;
}

GT_GPU_OPS(l2) = {.setup = setup, .run = run, .teardown = teardown};
