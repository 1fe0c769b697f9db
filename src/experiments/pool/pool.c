/* The stream-ordered allocator experiment's table row: N buffers of S
 * bytes allocated and freed by cudaMalloc, by cudaMallocAsync on the
 * device's default pool and through cudaMallocFromPoolAsync on a pool of
 * its own (its release threshold 0 or keep everything, trimmed or not);
 * memory freed on one stream and allocated on another under each reuse
 * policy; and cudaFree against cudaFreeAsync while a kernel runs. The
 * GPU side is src/experiments/pool/pool_gpu.c, its kernels pool_kernels.cu. */
#include "pool.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const op_names[] = {"alloc", "reuse", "sync"};
static const char *const threshold_names[] = {"zero", "keep"};
static const char *const order_names[] = {"running", "done", "synced", "event"};

static bool op_in(const int64_t *v, int a, int b, const char *what, const char **why)
{
    if (v[GT_PL_OP] == a || v[GT_PL_OP] == b)
        return true;
    *why = what;
    return false;
}

static bool pooled(const int64_t *v, const char **why)
{
    return op_in(v, GT_PL_ALLOC, GT_PL_REUSE, "only with op=alloc or reuse", why);
}

static bool allocating(const int64_t *v, const char **why)
{
    return op_in(v, GT_PL_ALLOC, GT_PL_ALLOC, "only with op=alloc", why);
}

static bool reusing(const int64_t *v, const char **why)
{
    return op_in(v, GT_PL_REUSE, GT_PL_REUSE, "only with op=reuse", why);
}

static bool spinning(const int64_t *v, const char **why)
{
    return op_in(v, GT_PL_REUSE, GT_PL_SYNC, "only with op=reuse or sync", why);
}

static bool counted(const int64_t *v, const char **why)
{
    return op_in(v, GT_PL_ALLOC, GT_PL_REUSE, "only with op=alloc or reuse (sync frees one "
                 "buffer)", why);
}

static const gt_param params[GT_PL_NPARAMS] = {
    [GT_PL_OP] = {.name = "op", .label = "measure", .type = GT_P_ENUM, .max = 2,
                  .def = GT_PL_ALLOC, .choices = op_names, .nchoices = 3,
                  .help = "alloc: N allocations and frees by each allocator; reuse: free on "
                          "stream A, allocate on stream B; sync: cudaFree against cudaFreeAsync "
                          "while a kernel runs"},
    [GT_PL_COUNT] = {.name = "count", .label = "buffers N", .type = GT_P_INT, .min = 1,
                     .max = 4096, .def = 64, .applies = counted,
                     .help = "buffers allocated, written, checked and freed each sample"},
    [GT_PL_SIZE] = {.name = "size", .label = "bytes each S", .type = GT_P_SIZE, .min = 4096,
                    .max = 1ll << 30, .def = 1 << 20, .align = 4096, .unit = "bytes",
                    .help = "bytes of each buffer"},
    [GT_PL_THRESHOLD] = {.name = "threshold", .label = "release threshold", .type = GT_P_ENUM,
                         .max = 1, .def = GT_PL_KEEP, .choices = threshold_names, .nchoices = 2,
                         .applies = pooled,
                         .help = "the own pool's cudaMemPoolAttrReleaseThreshold: zero (release "
                                 "at every synchronisation) or keep (hold everything)"},
    [GT_PL_TRIM] = {.name = "trim", .label = "trim after each", .type = GT_P_BOOL, .max = 1,
                    .applies = allocating,
                    .help = "cudaMemPoolTrimTo(pool, 0) after each sample: the pool gives back "
                            "what it holds"},
    [GT_PL_ORDER] = {.name = "order", .label = "B's allocation", .type = GT_P_ENUM, .max = 3,
                     .def = GT_PL_RUNNING, .choices = order_names, .nchoices = 4,
                     .applies = reusing,
                     .help = "running: while A's kernel runs; done: once A's frees are done, "
                             "seen without a CUDA call, no dependency; synced: after "
                             "cudaStreamSynchronize(A); event: behind an event after A's frees"},
    [GT_PL_FOLLOW] = {.name = "follow-events", .label = "reuse: follow events", .type = GT_P_BOOL,
                      .max = 1, .def = 1, .applies = reusing,
                      .help = "cudaMemPoolReuseFollowEventDependencies: reuse memory freed on a "
                              "stream this one waits for through an event"},
    [GT_PL_OPPORTUNISTIC] = {.name = "opportunistic", .label = "reuse: opportunistic",
                             .type = GT_P_BOOL, .max = 1, .def = 1, .applies = reusing,
                             .help = "cudaMemPoolReuseAllowOpportunistic: reuse frees already "
                                     "completed, with no dependency"},
    [GT_PL_INTERNAL] = {.name = "internal-deps", .label = "reuse: internal deps",
                        .type = GT_P_BOOL, .max = 1, .def = 1, .applies = reusing,
                        .help = "cudaMemPoolReuseAllowInternalDependencies: the driver may make "
                                "B wait for A's free to reuse its memory"},
    [GT_PL_SPIN] = {.name = "spin", .label = "A's kernel", .type = GT_P_INT, .min = 10,
                    .max = 100000, .def = 1000, .unit = "us", .applies = spinning,
                    .help = "how long the kernel runs that writes its buffer and then waits"},
    [GT_PL_WARMUP] = GT_PARAM_WARMUP(2),
};

static int series(const int64_t *v, const char **names)
{
    switch (v[GT_PL_OP]) {
    case GT_PL_REUSE:
        names[GT_PL_S_A] = "A: kernel";
        names[GT_PL_S_B] = "B: allocation to kernel done";
        return GT_PL_NREUSE;
    case GT_PL_SYNC:
        names[GT_PL_S_FREE] = "cudaFree";
        names[GT_PL_S_FREEASYNC] = "cudaFreeAsync";
        return GT_PL_NSYNC;
    default:
        names[GT_PL_S_MALLOC] = "cudaMalloc + cudaFree";
        names[GT_PL_S_DEFAULT] = "default pool (cudaMallocAsync)";
        names[GT_PL_S_OWN] = "own pool (cudaMallocFromPoolAsync)";
        return GT_PL_NALLOC;
    }
}

uint64_t gt_pl_footprint(const int64_t *v)
{
    uint64_t s = (uint64_t)v[GT_PL_SIZE], n = (uint64_t)v[GT_PL_COUNT];

    switch (v[GT_PL_OP]) {
    case GT_PL_REUSE: return 2 * n * s;     /* A's, and B's where they are not A's */
    case GT_PL_SYNC: return 3 * s;          /* the kernel's, and one for each free */
    default: return n * s;                  /* one allocator at a time */
    }
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    uint64_t need = gt_pl_footprint(v);
    char a[32], b[32], c[32];

    if (gt_dp_ok(p, GT_DP_MEM_FREE) && need > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE) / 2) {
        snprintf(err, n, "count x size: %s of device memory at once, more than half of the %s "
                 "free; allowed: a total up to %s", gt_format_size(need, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE) / 2, c, sizeof c));
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_BUILD_CUDA) && gt_dp_get(p, GT_DP_BUILD_CUDA) < 11020) {
        snprintf(err, n, "the stream-ordered allocator needs CUDA 11.2; this gputui was built "
                 "with %lld.%lld", (long long)gt_dp_get(p, GT_DP_BUILD_CUDA) / 1000,
                 (long long)gt_dp_get(p, GT_DP_BUILD_CUDA) % 1000 / 10);
        return -1;
    }
    return 0;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    int n = 0;

    (void)p;
    if (max < 1)
        return 0;
    if (v[GT_PL_OP] == GT_PL_ALLOC) {
        double m = gt_run_p50(r, GT_PL_S_MALLOC), d = gt_run_p50(r, GT_PL_S_DEFAULT);
        double o = gt_run_p50(r, GT_PL_S_OWN);
        if (!isfinite(m) || !isfinite(d) || !isfinite(o) || m <= 0)
            return 0;
        snprintf(lines[n++], sizeof lines[0], "%lld allocations and frees: cudaMalloc %.0f us, "
                 "default pool %.2fx, own pool (threshold %s) %.2fx its time",
                 (long long)v[GT_PL_COUNT], m * 1e6, d / m, threshold_names[v[GT_PL_THRESHOLD]],
                 o / m);
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "a buffer: cudaMalloc + cudaFree %.1f us, own "
                     "pool %.1f us", m * 1e6 / (double)v[GT_PL_COUNT],
                     o * 1e6 / (double)v[GT_PL_COUNT]);
    } else if (v[GT_PL_OP] == GT_PL_SYNC) {
        double f = gt_run_p50(r, GT_PL_S_FREE), fa = gt_run_p50(r, GT_PL_S_FREEASYNC);
        if (!isfinite(f) || !isfinite(fa) || fa <= 0)
            return 0;
        snprintf(lines[n++], sizeof lines[0], "while a %lld us kernel runs: cudaFree returns "
                 "after %.0f us, cudaFreeAsync after %.1f us (%.0fx)", (long long)v[GT_PL_SPIN],
                 f * 1e6, fa * 1e6, f / fa);
    } else {
        double a = gt_run_p50(r, GT_PL_S_A), b = gt_run_p50(r, GT_PL_S_B);
        if (!isfinite(a) || !isfinite(b) || a <= 0)
            return 0;
        snprintf(lines[n++], sizeof lines[0], "B done %.0f us after A's kernel started; A's "
                 "kernel took %.0f us: B %s", b * 1e6, a * 1e6,
                 b > a ? "finished after A" : "finished while A ran");
    }
    return n;
}

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)

static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double t = gt_run_p50(r, s);
    char a[32];
    int n = 0;

    (void)p;
    if (!isfinite(t) || t <= 0)
        return 0;
    gt_format_size((uint64_t)v[GT_PL_SIZE], a, sizeof a);
    switch (v[GT_PL_OP]) {
    case GT_PL_ALLOC:
        LINE("%lld buffers of %s: the allocations, then (after they are written and checked) "
             "the frees, on the host's clock: %.1f us, %.2f us a buffer", (long long)v[GT_PL_COUNT],
             a, t * 1e6, t * 1e6 / (double)v[GT_PL_COUNT]);
        if (s == GT_PL_S_MALLOC)
            LINE("cudaMalloc maps new memory every time, and cudaFree waits for the whole "
                 "device before it unmaps it");
        else if (s == GT_PL_S_DEFAULT)
            LINE("the default pool's release threshold is 0: at every synchronisation it gives "
                 "back what it holds, and the next sample maps it again");
        else
            LINE("threshold %s: %s", threshold_names[v[GT_PL_THRESHOLD]],
                 v[GT_PL_THRESHOLD] == GT_PL_KEEP && !v[GT_PL_TRIM] ?
                 "the pool keeps what was freed, so from the second sample an allocation hands "
                 "out memory already mapped" :
                 "the pool gives its memory back (at the synchronisation or the trim), so each "
                 "sample maps it again");
        LINE("the async calls' time includes a cudaStreamSynchronize after them: their "
             "work in stream order, not only the call");
        LINE("the VMM API's own way (cuMemCreate, cuMemMap ...) is measured by the vmm "
             "experiment, op=alloc");
        break;
    case GT_PL_REUSE:
        if (s == GT_PL_S_A)
            LINE("A allocates from the pool, writes its buffers, waits %lld us in the kernel, "
                 "and frees them (cudaFreeAsync on A)", (long long)v[GT_PL_SPIN]);
        else
            LINE("B allocates as many (cudaMallocFromPoolAsync on B) %s, writes them and frees "
                 "them; the set-up note says whether it got A's addresses and waited",
                 v[GT_PL_ORDER] == GT_PL_RUNNING ? "while A's kernel runs" :
                 v[GT_PL_ORDER] == GT_PL_DONE ? "once A's frees are done, which the host sees in "
                 "a flag A writes, with no CUDA call and no dependency" :
                 v[GT_PL_ORDER] == GT_PL_SYNCED ? "after cudaStreamSynchronize(A)" :
                 "behind an event recorded after A's free");
        LINE("policies: follow events %s, opportunistic %s, internal dependencies %s",
             v[GT_PL_FOLLOW] ? "on" : "off", v[GT_PL_OPPORTUNISTIC] ? "on" : "off",
             v[GT_PL_INTERNAL] ? "on" : "off");
        LINE("%.0f us from A's kernel's start (events on both streams)", t * 1e6);
        break;
    default:
        LINE("the host's call took %.1f us while a %lld us kernel ran on another buffer", t * 1e6,
             (long long)v[GT_PL_SPIN]);
        LINE(s == GT_PL_S_FREE ? "cudaFree synchronises implicitly: it waits for the device's "
             "work before it frees (seed 002 lists it among such calls)" :
             "cudaFreeAsync only queues the free in the kernel's stream and returns");
        LINE("the timeline: serial = cudaFree's case, stream 0 and 1 = cudaFreeAsync's; the "
             "second kernel is the host's next launch after the call returned");
        break;
    }
    return n;
}

/* N in powers of two; S from 4 KiB to 64 MiB. */
static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    int n = 0;

    (void)p;
    if (param == GT_PL_COUNT)
        for (int64_t c = 1; c <= 1024 && n < max; c *= 2)
            out[n++] = c;
    else if (param == GT_PL_SIZE)
        for (int64_t s = 4096; s <= (64ll << 20) && n < max; s *= 4)
            out[n++] = s;
    return n;
}

GT_EXPERIMENT(gt_exp_pool) = {
    .name = "pool",
    .title = "The stream-ordered allocator: cudaMallocAsync and memory pools",
    .explain =
        "op=alloc: N buffers of S bytes allocated, written, checked and freed each sample by "
        "cudaMalloc/cudaFree, by cudaMallocAsync/cudaFreeAsync on the device's default pool, "
        "and through cudaMallocFromPoolAsync on a pool of its own whose release threshold is 0 "
        "or keeps everything (optionally trimmed after each sample); the set-up note gives what "
        "the pool holds after a sample. op=reuse: stream A frees what it wrote, stream B "
        "allocates as much, under each reuse policy: did B get A's memory, and did it wait for "
        "A? op=sync: cudaFree against cudaFreeAsync while a kernel runs. The own pool is "
        "trimmed and destroyed at teardown.",
    .params = params,
    .nparams = GT_PL_NPARAMS,
    .warmup_param = GT_PL_WARMUP,
    .series = series,
    .check = check,
    .summary = summary,
    .sweep_values = sweep_values,
    .why = why,
};
