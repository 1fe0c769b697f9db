/* The stream-ordered allocator experiment on the GPU (the row is
 * src/experiments/pool/pool.c, the kernels pool_kernels.cu).
 *
 * op=alloc: each sample, N buffers by each allocator in turn: the
 * allocations (and, for the async ones, a synchronisation of their
 * stream) on the host's clock; then, untimed, one kernel writes every
 * buffer and another checks it; then the frees, timed the same way. After
 * the own pool's turn its attributes (reserved and used memory, current
 * and high) and the device's free memory are read, and with trim the pool
 * is trimmed to 0.
 * op=reuse: stream A allocates from the own pool, writes its buffers,
 * waits in a kernel and frees them; stream B then allocates as many, while
 * A still runs, after the host waited for A, or behind an event; B's
 * addresses against A's say whether it reused them, and B's kernel's
 * start against A's end whether it waited. The pool is trimmed after each
 * sample, so that only A's frees are there to reuse.
 * op=sync: while a kernel writes a buffer and waits, the host calls
 * cudaFree on another buffer, then (the next kernel) cudaFreeAsync; each
 * call on the host's clock, and a marker kernel launched on a second
 * stream when it returned shows on the timeline whether it waited.
 * Set-up runs one iteration of its own, whose findings make the note. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "pool_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

#define NEV 8

typedef struct pl {
    int op, n, order, blocks;
    size_t size, words;
    bool keep, trim;
    int follow, opportunistic, internal;
    unsigned long long spin_ns;
    uint32_t seed;
    cudaMemPool_t pool, defpool;
    bool has_pool;
    gt_timing t;                    /* its streams, NEV events, the counters */
    cudaStream_t a, b;              /* streams A and B: t.s and t.side[0] */
    void **hp, **hq;                /* A's (or the allocator's) and B's addresses, pinned */
    void **dp, **dq;                /* their device copies, for the kernels */
    int live_p, live_q, live_kind;  /* held now: count, and by whom (a series) */
    void *x, *y, *zbuf;             /* sync: freed with cudaFree, cudaFreeAsync; written */
    volatile int *flag;             /* reuse: A writes 1 after its frees (pinned, mapped) */
    int *dflag;
    gt_timeline tl;
    bool has_tl;
    /* what the last iteration found */
    int reused;
    bool waited;
    uint64_t reserved, reserved_high, used_high, free_mem, reserved_trimmed;
} pl;

/* Frees what an iteration cut short still holds. */
static void free_live(pl *z)
{
    for (int i = 0; i < z->live_p; i++) {
        if (z->live_kind == GT_PL_S_MALLOC)
            GT_CUDA_Q(cudaFree(z->hp[i]));
        else
            GT_CUDA_Q(cudaFreeAsync(z->hp[i], z->a));
    }
    for (int i = 0; i < z->live_q; i++)
        GT_CUDA_Q(cudaFreeAsync(z->hq[i], z->b));
    z->live_p = z->live_q = 0;
    if (z->x)
        GT_CUDA_Q(cudaFree(z->x));
    if (z->y)
        GT_CUDA_Q(cudaFreeAsync(z->y, z->a));
    z->x = z->y = NULL;
}

static void teardown(void *state)
{
    pl *z = state;

    if (!z)
        return;
    gt_gpu_quiesce();
    free_live(z);
    gt_gpu_quiesce();
    /* a pool left holding memory is a leak: both give it back */
    if (z->has_pool) {
        GT_CUDA_Q(cudaMemPoolTrimTo(z->pool, 0));
        GT_CUDA_Q(cudaMemPoolDestroy(z->pool));
    }
    if (z->defpool)
        GT_CUDA_Q(cudaMemPoolTrimTo(z->defpool, 0));
    gt_timing_free(&z->t);
    gt_free_device(&z->zbuf);
    gt_free_device(&z->dp);
    gt_free_device(&z->dq);
    gt_free_pinned(&z->hp);
    gt_free_pinned(&z->hq);
    gt_free_pinned(&z->flag);
    free(z);
}

/* ms from event i to event j. Events on two streams may come in either
 * order (another context's time slice can hold the first back), so the
 * figure may be negative: only the call's failure is an error. */
static int ms_between(pl *z, int i, int j, float *ms, gt_err *err)
{
    return gt_event_ms(ms, z->t.e[i], z->t.e[j], err);
}

/* A time for the timeline, which starts at A's first event. */
static float drawn(float ms)
{
    return ms > 0 ? ms : 0;
}

static int set_attr(pl *z, enum cudaMemPoolAttr attr, int on, gt_err *err)
{
    return GT_CUDA(err, cudaMemPoolSetAttribute(z->pool, attr, &on));
}

/* Writes and checks the n buffers of the device list d (its host copy h)
 * on s, adding to *bad. */
static int write_check(pl *z, void **h, void **d, int n, uint32_t seed,
                       unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    return GT_CUDA(err, cudaMemcpyAsync(d, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice, s)) ||
           GT_CUDA(err, gt_k_pool_fill((void *const *)d, n, z->words, seed, z->blocks, s)) ||
           GT_CUDA(err, gt_k_pool_check((void *const *)d, n, z->words, seed, bad, z->blocks, s));
}

static int allocate(pl *z, int kind, gt_err *err)
{
    z->live_kind = kind;
    for (int i = 0; i < z->n; i++) {
        void **p = &z->hp[i];
        if (kind == GT_PL_S_MALLOC ? GT_CUDA_ALLOC(err, cudaMalloc(p, z->size)) :
            kind == GT_PL_S_DEFAULT ? GT_CUDA_ALLOC(err, cudaMallocAsync(p, z->size, z->a)) :
            GT_CUDA_ALLOC(err, cudaMallocFromPoolAsync(p, z->size, z->pool, z->a)))
            return -1;
        z->live_p++;
    }
    return kind == GT_PL_S_MALLOC ? 0 : GT_CUDA(err, cudaStreamSynchronize(z->a));
}

static int release(pl *z, int kind, gt_err *err)
{
    while (z->live_p > 0) {
        void *p = z->hp[z->live_p - 1];
        if (kind == GT_PL_S_MALLOC ? GT_CUDA(err, cudaFree(p)) :
            GT_CUDA(err, cudaFreeAsync(p, z->a)))
            return -1;
        z->live_p--;
    }
    return kind == GT_PL_S_MALLOC ? 0 : GT_CUDA(err, cudaStreamSynchronize(z->a));
}

static int pool_attr(pl *z, enum cudaMemPoolAttr attr, uint64_t *out, gt_err *err)
{
    cuuint64_t v = 0;
    if (GT_CUDA(err, cudaMemPoolGetAttribute(z->pool, attr, &v)))
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int run_alloc(pl *z, gt_sample *out, gt_err *err)
{
    size_t fr = 0, total = 0;

    if (GT_CUDA(err, cudaMemsetAsync(z->t.dbad, 0, 3 * sizeof *z->t.dbad, z->a)))
        return -1;
    for (int k = 0; k < GT_PL_NALLOC; k++) {
        double t0 = gt_now(), t1, t2, t3;
        if (allocate(z, k, err))
            return -1;
        t1 = gt_now();
        if (write_check(z, z->hp, z->dp, z->n, z->seed + (uint32_t)k, z->t.dbad + k, z->a, err) ||
            GT_CUDA(err, cudaStreamSynchronize(z->a)))
            return -1;
        t2 = gt_now();
        if (release(z, k, err))
            return -1;
        t3 = gt_now();
        out[k] = (gt_sample){.series = (uint8_t)k, .sec = (t1 - t0) + (t3 - t2),
                             .bytes = (uint64_t)z->n * z->size};
    }
    if (pool_attr(z, cudaMemPoolAttrReservedMemCurrent, &z->reserved, err) ||
        pool_attr(z, cudaMemPoolAttrReservedMemHigh, &z->reserved_high, err) ||
        pool_attr(z, cudaMemPoolAttrUsedMemHigh, &z->used_high, err) ||
        GT_CUDA(err, cudaMemGetInfo(&fr, &total)))
        return -1;
    z->free_mem = fr;
    z->reserved_trimmed = z->reserved;
    if (z->trim && (GT_CUDA(err, cudaMemPoolTrimTo(z->pool, 0)) ||
                    pool_attr(z, cudaMemPoolAttrReservedMemCurrent, &z->reserved_trimmed, err)))
        return -1;
    if (GT_CUDA(err, cudaMemcpy(z->t.hbad, z->t.dbad, 3 * sizeof *z->t.hbad,
                                cudaMemcpyDeviceToHost)))
        return -1;
    for (int k = 0; k < GT_PL_NALLOC; k++)
        out[k].verify = z->t.hbad[k] ? GT_V_FAILED : GT_V_FULL;
    return GT_PL_NALLOC;
}

/* One kernel op of the timeline, [from, to] in ms since its run's start. */
static void tl_op(pl *z, int run, int stream, float from, float to)
{
    if (z->tl.nops < GT_TL_MAX_OPS)
        z->tl.ops[z->tl.nops++] = (gt_tl_op){(uint8_t)run, (uint8_t)stream, GT_TL_KERNEL, 0,
                                              from * 1e-3f, to * 1e-3f};
}

/* Waits, on the host's clock and with no CUDA call, for the flag A
 * writes after its frees: they are done on the GPU, and the driver has
 * not been told. */
static int done_seen(pl *z, gt_err *err)
{
    double t0 = gt_now();

    while (!z->flag[0])
        if (gt_now() - t0 > 10.0) {
            gt_err_set(err, GT_EXIT_FAIL, "order=done: stream A's flag did not come in 10 s");
            return -1;
        }
    return 0;
}

static int run_reuse(pl *z, gt_sample *out, gt_err *err)
{
    float a_end, b_start, b_end;

    if (GT_CUDA(err, cudaMemsetAsync(z->t.dbad, 0, 2 * sizeof *z->t.dbad, z->a)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->a)) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[0], z->a)))
        return -1;
    for (int i = 0; i < z->n; i++) {
        if (GT_CUDA_ALLOC(err, cudaMallocFromPoolAsync(&z->hp[i], z->size, z->pool, z->a)))
            return -1;
        z->live_p++;
    }
    z->live_kind = GT_PL_S_OWN;
    if (GT_CUDA(err, cudaMemcpyAsync(z->dp, z->hp, (size_t)z->n * sizeof *z->hp,
                                     cudaMemcpyHostToDevice, z->a)) ||
        GT_CUDA(err, gt_k_pool_fill((void *const *)z->dp, z->n, z->words, z->seed, z->blocks,
                                    z->a)) ||
        GT_CUDA(err, gt_k_pool_wait(z->spin_ns, z->a)) ||
        GT_CUDA(err, gt_k_pool_check((void *const *)z->dp, z->n, z->words, z->seed, z->t.dbad,
                                     z->blocks, z->a)) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[1], z->a)))
        return -1;
    while (z->live_p > 0)
        if (GT_CUDA(err, cudaFreeAsync(z->hp[--z->live_p], z->a)))
            return -1;
    z->flag[0] = 0;
    if (GT_CUDA(err, cudaEventRecord(z->t.e[2], z->a)) ||
        GT_CUDA(err, gt_k_pool_signal(z->dflag, 1, z->a)) ||
        (z->order == GT_PL_DONE && done_seen(z, err)) ||
        (z->order == GT_PL_SYNCED && GT_CUDA(err, cudaStreamSynchronize(z->a))) ||
        (z->order == GT_PL_EVENT && GT_CUDA(err, cudaStreamWaitEvent(z->b, z->t.e[2], 0))))
        return -1;
    for (int i = 0; i < z->n; i++) {
        if (GT_CUDA_ALLOC(err, cudaMallocFromPoolAsync(&z->hq[i], z->size, z->pool, z->b)))
            return -1;
        z->live_q++;
    }
    z->reused = 0;
    for (int i = 0; i < z->n; i++)
        for (int j = 0; j < z->n; j++)
            if (z->hq[i] == z->hp[j]) {
                z->reused++;
                break;
            }
    if (GT_CUDA(err, cudaEventRecord(z->t.e[3], z->b)) ||
        write_check(z, z->hq, z->dq, z->n, z->seed + 7u, z->t.dbad + 1, z->b, err) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[4], z->b)))
        return -1;
    while (z->live_q > 0)
        if (GT_CUDA(err, cudaFreeAsync(z->hq[--z->live_q], z->b)))
            return -1;
    if (GT_CUDA(err, cudaStreamSynchronize(z->b)) || GT_CUDA(err, cudaStreamSynchronize(z->a)) ||
        GT_CUDA(err, cudaMemPoolTrimTo(z->pool, 0)) ||
        GT_CUDA(err, cudaMemcpy(z->t.hbad, z->t.dbad, 2 * sizeof *z->t.hbad,
                                cudaMemcpyDeviceToHost)))
        return -1;
    if (ms_between(z, 0, 1, &a_end, err) || ms_between(z, 0, 3, &b_start, err) ||
        ms_between(z, 0, 4, &b_end, err))
        return -1;
    /* B's work began after A's kernel ended (to the events' resolution) */
    z->waited = b_start >= a_end - 0.002f;
    z->tl = (gt_timeline){.nstreams = 2, .kernels_overlap = true};
    tl_op(z, GT_TL_STREAMS, 0, 0, a_end);
    tl_op(z, GT_TL_STREAMS, 1, drawn(b_start), drawn(b_end));
    z->tl.total[GT_TL_STREAMS] = (b_end > a_end ? b_end : a_end) * 1e-3;
    z->tl.sum[GT_TL_KERNEL] = a_end * 1e-3;
    z->has_tl = true;
    out[GT_PL_S_A] = (gt_sample){.series = GT_PL_S_A, .sec = a_end * 1e-3,
                                 .verify = z->t.hbad[0] ? GT_V_FAILED : GT_V_FULL,
                                 .bytes = (uint64_t)z->n * z->size};
    out[GT_PL_S_B] = (gt_sample){.series = GT_PL_S_B, .sec = b_end * 1e-3,
                                 .verify = z->t.hbad[1] ? GT_V_FAILED : GT_V_FULL,
                                 .bytes = (uint64_t)z->n * z->size};
    return GT_PL_NREUSE;
}

/* A kernel writes the kept buffer and waits on a; meanwhile the host
 * frees 'which' (cudaFree or cudaFreeAsync) and, when the call returns,
 * launches a marker kernel on b. Events ev[e..e+3]: the kernel's start and
 * end, the marker's start and end. */
static int free_beside(pl *z, int which, int e, double *sec, gt_err *err)
{
    double t0;
    int bad;

    if (GT_CUDA(err, cudaEventRecord(z->t.e[e], z->a)) ||
        GT_CUDA(err, gt_k_pool_fill((void *const *)z->dp, 1, z->words, z->seed + (uint32_t)which,
                                    z->blocks, z->a)) ||
        GT_CUDA(err, gt_k_pool_wait(z->spin_ns, z->a)) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[e + 1], z->a)))
        return -1;
    t0 = gt_now();
    bad = which == GT_PL_S_FREE ? GT_CUDA(err, cudaFree(z->x))
                                : GT_CUDA(err, cudaFreeAsync(z->y, z->a));
    *sec = gt_now() - t0;
    *(which == GT_PL_S_FREE ? &z->x : &z->y) = NULL;
    if (bad || GT_CUDA(err, cudaEventRecord(z->t.e[e + 2], z->b)) ||
        GT_CUDA(err, gt_k_pool_wait(1000, z->b)) ||
        GT_CUDA(err, cudaEventRecord(z->t.e[e + 3], z->b)) ||
        GT_CUDA(err, gt_k_pool_check((void *const *)z->dp, 1, z->words,
                                     z->seed + (uint32_t)which, z->t.dbad + which, z->blocks,
                                     z->a)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->a)) || GT_CUDA(err, cudaStreamSynchronize(z->b)))
        return -1;
    return 0;
}

static int run_sync(pl *z, gt_sample *out, gt_err *err)
{
    double sec[GT_PL_NSYNC];
    float t[NEV];

    z->hp[0] = z->zbuf;
    if (GT_CUDA_ALLOC(err, cudaMalloc(&z->x, z->size)) ||
        GT_CUDA_ALLOC(err, cudaMallocAsync(&z->y, z->size, z->a)) ||
        GT_CUDA(err, cudaMemsetAsync(z->t.dbad, 0, 2 * sizeof *z->t.dbad, z->a)) ||
        GT_CUDA(err, cudaMemcpyAsync(z->dp, z->hp, sizeof *z->hp, cudaMemcpyHostToDevice, z->a)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->a)) ||
        free_beside(z, GT_PL_S_FREE, 0, &sec[0], err) ||
        free_beside(z, GT_PL_S_FREEASYNC, 4, &sec[1], err) ||
        GT_CUDA(err, cudaMemcpy(z->t.hbad, z->t.dbad, 2 * sizeof *z->t.hbad,
                                cudaMemcpyDeviceToHost)))
        return -1;
    for (int i = 1; i < NEV; i++)
        if (i != 4 && ms_between(z, i < 4 ? 0 : 4, i, &t[i], err))
            return -1;
    t[0] = t[4] = 0;
    z->tl = (gt_timeline){.nstreams = 2, .kernels_overlap = true};
    tl_op(z, GT_TL_SERIAL, 0, 0, t[1]);
    tl_op(z, GT_TL_SERIAL, 0, drawn(t[2]), drawn(t[3]));
    tl_op(z, GT_TL_STREAMS, 0, 0, t[5]);
    tl_op(z, GT_TL_STREAMS, 1, drawn(t[6]), drawn(t[7]));
    z->tl.total[GT_TL_SERIAL] = (t[3] > t[1] ? t[3] : t[1]) * 1e-3;
    z->tl.total[GT_TL_STREAMS] = (t[7] > t[5] ? t[7] : t[5]) * 1e-3;
    z->tl.sum[GT_TL_KERNEL] = t[1] * 1e-3;
    z->has_tl = true;
    z->waited = t[2] >= t[1] - 0.002f;
    for (int k = 0; k < GT_PL_NSYNC; k++)
        out[k] = (gt_sample){.series = (uint8_t)k, .sec = sec[k], .bytes = z->size,
                             .verify = z->t.hbad[k] ? GT_V_FAILED : GT_V_FULL};
    return GT_PL_NSYNC;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    pl *z = state;

    switch (z->op) {
    case GT_PL_REUSE: return run_reuse(z, out, err);
    case GT_PL_SYNC: return run_sync(z, out, err);
    default: return run_alloc(z, out, err);
    }
}

static void note(pl *z, gt_setup_info *info)
{
    char a[32], b[32], c[32], d[32];

    switch (z->op) {
    case GT_PL_REUSE: {
        static const char *const after[] = {
            [GT_PL_DONE] = "B came after A: the host saw A's frees done",
            [GT_PL_SYNCED] = "B came after A: the host synchronised A",
            [GT_PL_EVENT] = "B waited for A's event",
        };
        snprintf(info->note, sizeof info->note, "B's %d allocation%s: %s at A's freed "
                 "addresses; %s; every buffer written and checked", z->n,
                 z->n == 1 ? "" : "s", z->reused == z->n ? "all" : z->reused == 0 ? "none" :
                 "some", z->order != GT_PL_RUNNING ? after[z->order] :
                 z->waited ? "B waited for A's kernel" : "B did not wait for A's kernel");
        break;
    }
    case GT_PL_SYNC:
        snprintf(info->note, sizeof info->note, "the kernel's buffer written and checked; "
                 "after cudaFree the next launch %s the kernel", z->waited ?
                 "waited for" : "did not wait for");
        break;
    default:
        snprintf(info->note, sizeof info->note, "own pool after a sample: reserved %s (high "
                 "%s), used high %s; %s%s free on the device; every buffer checked",
                 gt_format_size(z->reserved, a, sizeof a),
                 gt_format_size(z->reserved_high, b, sizeof b),
                 gt_format_size(z->used_high, c, sizeof c),
                 z->trim ? "trimmed to 0: " : "",
                 gt_format_size(z->free_mem, d, sizeof d));
        break;
    }
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    pl *z = calloc(1, sizeof *z);
    int dev = 0, pools = 0;
    gt_sample probe[GT_MAX_SERIES];

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->op = (int)v[GT_PL_OP];
    z->n = z->op == GT_PL_SYNC ? 1 : (int)v[GT_PL_COUNT];
    z->size = (size_t)v[GT_PL_SIZE];
    z->words = z->size / 4;
    z->keep = v[GT_PL_THRESHOLD] == GT_PL_KEEP;
    z->trim = v[GT_PL_TRIM] != 0;
    z->order = (int)v[GT_PL_ORDER];
    z->follow = (int)v[GT_PL_FOLLOW];
    z->opportunistic = (int)v[GT_PL_OPPORTUNISTIC];
    z->internal = (int)v[GT_PL_INTERNAL];
    z->spin_ns = (unsigned long long)v[GT_PL_SPIN] * 1000ull;
    z->blocks = gt_gpu_sms() * 4;
    z->seed = (uint32_t)(gt_now() * 1e6);
    if (GT_CUDA(err, cudaGetDevice(&dev)) ||
        GT_CUDA(err, cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev)))
        goto fail;
    if (!pools) {
        gt_err_set(err, GT_EXIT_USAGE, "this GPU has no memory pools "
                   "(cudaDevAttrMemoryPoolsSupported = 0), so no stream-ordered allocator; "
                   "allowed here: the vmm experiment (cudaMalloc and the VMM API)");
        goto fail;
    }
    /* The allocators' calls are timed on the host's clock and wait for
     * the GPU: the harness gives the streams, the events of the timeline
     * and the mismatch counters, without the gate. */
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = NEV / 2, .streams = 1,
                                                .ungated = true}, err) ||
        GT_CUDA(err, cudaDeviceGetDefaultMemPool(&z->defpool, dev)))
        goto fail;
    z->a = z->t.s;
    z->b = z->t.side[0];
    if (z->op != GT_PL_SYNC) {
        struct cudaMemPoolProps props;
        cuuint64_t threshold = z->keep ? UINT64_MAX : 0;
        memset(&props, 0, sizeof props);
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = dev;
        if (GT_CUDA_ALLOC(err, cudaMemPoolCreate(&z->pool, &props)))
            goto fail;
        z->has_pool = true;
        if (GT_CUDA(err, cudaMemPoolSetAttribute(z->pool, cudaMemPoolAttrReleaseThreshold,
                                                 &threshold)))
            goto fail;
        if (z->op == GT_PL_REUSE &&
            (set_attr(z, cudaMemPoolReuseFollowEventDependencies, z->follow, err) ||
             set_attr(z, cudaMemPoolReuseAllowOpportunistic, z->opportunistic, err) ||
             set_attr(z, cudaMemPoolReuseAllowInternalDependencies, z->internal, err)))
            goto fail;
    }
    if (GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hp, (size_t)z->n * sizeof *z->hp)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hq, (size_t)z->n * sizeof *z->hq)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dp, (size_t)z->n * sizeof *z->dp)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dq, (size_t)z->n * sizeof *z->dq)) ||
        GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&z->flag, sizeof *z->flag,
                                         cudaHostAllocMapped)) ||
        GT_CUDA(err, cudaHostGetDevicePointer((void **)&z->dflag, (void *)z->flag, 0)) ||
        (z->op == GT_PL_SYNC && GT_CUDA_ALLOC(err, cudaMalloc(&z->zbuf, z->size))))
        goto fail;
    /* one iteration of its own: what it finds is the note */
    if (run(z, probe, err) < 0)
        goto fail;
    note(z, info);
    gt_setup_info_timing(info, "%s", z->op == GT_PL_ALLOC ?
                         "the host's clock around the allocations and the frees (the async "
                         "ones with their stream synchronised)" : z->op == GT_PL_REUSE ?
                         "events on both streams, from A's first kernel" :
                         "the host's clock around each free call");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

static bool timeline(void *state, gt_timeline *tl)
{
    pl *z = state;

    if (!z->has_tl)
        return false;
    *tl = z->tl;
    return true;
}

GT_GPU_OPS(pool) = {.setup = setup, .run = run, .teardown = teardown, .timeline = timeline};
