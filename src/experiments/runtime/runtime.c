/* The CUDA runtime experiment's table row.
 *  op=init: what a process pays before its first CUDA call returns (the
 *    primary context is created then), what cudaDeviceReset costs, and the
 *    call after it, which builds a context anew;
 *  op=jit: what loading one module costs as cubins, and as PTX that the
 *    driver compiles (JIT) with its cache off;
 *  op=init and op=jit start a new child process a sample;
 *  op=return: when a cudaMemcpy or cudaMemset returns to the host, with a
 *    kernel queued ahead of it that keeps the GPU busy.
 * The GPU side is src/experiments/runtime/runtime_gpu.c (and runtime_gpu_probe.c, runtime_return.c). */
#include "runtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const op_names[] = {"init", "jit", "return"};
static const char *const call_names[] = {"h2d-pageable", "h2d-pinned", "d2h-pageable", "d2d",
                                         "memset"};
static const char *const call_texts[] = {
    "cudaMemcpy H2D from pageable memory", "cudaMemcpy H2D from pinned memory",
    "cudaMemcpy D2H into pageable memory", "cudaMemcpy device to device",
    "cudaMemset of device memory"};

const char *gt_rt_call_text(int call)
{
    return call >= 0 && call < GT_RT_NCALLS ? call_texts[call] : "?";
}

static bool return_op(const int64_t *v, const char **why)
{
    if (v[GT_RT_OP] == GT_RT_OP_RETURN)
        return true;
    *why = "only with op=return";
    return false;
}

static const gt_param params[GT_RT_NPARAMS] = {
    [GT_RT_OP] = {.name = "op", .label = "measure", .type = GT_P_ENUM, .max = 2,
                  .def = GT_RT_OP_INIT, .choices = op_names, .nchoices = 3,
                  .help = "init: a new process times its first calls (the primary context), "
                          "cudaDeviceReset and the call after it; jit: a new process loads one "
                          "module as cubins and as PTX (JIT, cache off); return: when a copy or "
                          "memset returns, behind a busy kernel"},
    [GT_RT_CALL] = {.name = "call", .label = "call", .type = GT_P_ENUM, .max = GT_RT_NCALLS - 1,
                    .def = GT_RT_CALL_H2D_PAGEABLE, .choices = call_names, .nchoices = GT_RT_NCALLS,
                    .help = "the call on the legacy default stream: cudaMemcpy H2D from malloc'd "
                            "or cudaMallocHost memory, D2H into malloc'd memory, device to "
                            "device, or cudaMemset",
                    .applies = return_op},
    [GT_RT_SIZE] = {.name = "size", .label = "bytes", .type = GT_P_SIZE, .min = 4096,
                    .max = 64ll << 20, .def = 64 << 10, .align = 4096, .unit = "bytes",
                    .help = "bytes the call copies or sets (the article's line: 64 KB)",
                    .applies = return_op},
    [GT_RT_AHEAD] = {.name = "ahead", .label = "busy kernel ahead", .type = GT_P_INT, .max = 100000,
                     .def = 1000, .step = 250, .unit = "us",
                     .help = "a kernel queued before the call keeps the stream busy this long; a "
                             "call that returns sooner did not wait for the GPU",
                     .applies = return_op, .zero_name = "none"},
    [GT_RT_WARMUP] = {.name = "warmup", .label = "warm-up iterations", .type = GT_P_INT,
                      .iteration = true,
                      .max = 1000, .def = 1, .step = 1,
                      .help = "untimed iterations (processes for init and jit) after each "
                              "change, kept out of the histograms"},
};

static int series(const int64_t *v, const char **names)
{
    switch (v[GT_RT_OP]) {
    case GT_RT_OP_JIT:
        names[GT_RT_S_CUBIN] = "cubin load";
        names[GT_RT_S_PTX_FIRST] = "PTX load, first (JIT)";
        names[GT_RT_S_PTX_AGAIN] = "PTX load, again (JIT)";
        return 3;
    case GT_RT_OP_RETURN:
        names[GT_RT_S_RETURNS] = "call returns";
        names[GT_RT_S_IDLE] = "stream idle";
        names[GT_RT_S_LEFT] = "work left at return";
        return 3;
    default:
        names[GT_RT_S_START] = "process start to main";
        names[GT_RT_S_FIRST] = "first calls (context)";
        names[GT_RT_S_RESET] = "cudaDeviceReset";
        names[GT_RT_S_AGAIN] = "cudaFree(0) after reset";
        return 4;
    }
}

static int summary_init(gt_run *r, gt_summary_line *lines, int max)
{
    double first = gt_run_p50(r, GT_RT_S_FIRST), again = gt_run_p50(r, GT_RT_S_AGAIN);
    double start = gt_run_p50(r, GT_RT_S_START), reset = gt_run_p50(r, GT_RT_S_RESET);
    char a[32], b[32], c[32], d[32];
    int n = 0;

    if (n < max && isfinite(first) && isfinite(again) && isfinite(start) && isfinite(reset))
        snprintf(lines[n++], sizeof lines[0], "before the first call returns: %s to main, %s "
                 "for the context; cudaDeviceReset %s, the next call %s (p50)",
                 gt_format_seconds(start, a, sizeof a), gt_format_seconds(first, b, sizeof b),
                 gt_format_seconds(reset, c, sizeof c), gt_format_seconds(again, d, sizeof d));
    /* What the child found about cudaDeviceMapHost (the set-up note). */
    if (n < max && strstr(r->info.note, "MapHost"))
        snprintf(lines[n++], sizeof lines[0], "%.*s", (int)sizeof lines[0] - 1, r->info.note);
    return n;
}

static int summary_jit(gt_run *r, gt_summary_line *lines, int max)
{
    double cubin = gt_run_p50(r, GT_RT_S_CUBIN), first = gt_run_p50(r, GT_RT_S_PTX_FIRST);
    double again = gt_run_p50(r, GT_RT_S_PTX_AGAIN);
    char a[32], b[32], c[32];

    if (max < 1 || !isfinite(cubin) || !isfinite(first) || !isfinite(again) || cubin <= 0)
        return 0;
    snprintf(lines[0], sizeof lines[0], "the PTX module takes %.0fx the cubin's load (%s "
             "against %s, p50); the first PTX load %s, with the JIT compiler's own start",
             again / cubin, gt_format_seconds(again, a, sizeof a),
             gt_format_seconds(cubin, b, sizeof b), gt_format_seconds(first, c, sizeof c));
    return 1;
}

static int summary_return(gt_run *r, gt_summary_line *lines, int max)
{
    double ret = gt_run_p50(r, GT_RT_S_RETURNS), idle = gt_run_p50(r, GT_RT_S_IDLE);
    double left = gt_run_p50(r, GT_RT_S_LEFT);
    const int64_t *v = r->vals;
    char a[32], b[32], c[32], sz[32];
    int n = 0;

    if (max < 2 || !isfinite(ret) || !isfinite(idle) || !isfinite(left) || idle <= 0)
        return 0;
    gt_format_size((uint64_t)v[GT_RT_SIZE], sz, sizeof sz);
    snprintf(lines[n++], sizeof lines[0], "%s, %s: returns after %s; the stream is idle %s "
             "later (p50)", gt_rt_call_text((int)v[GT_RT_CALL]), sz,
             gt_format_seconds(ret, a, sizeof a), gt_format_seconds(left, b, sizeof b));
    if (v[GT_RT_AHEAD] > 0)
        snprintf(lines[n++], sizeof lines[0], "%s the %s kernel ahead ended (idle after %s)",
                 ret < 0.5 * (double)v[GT_RT_AHEAD] * 1e-6
                     ? "it returned before" : "it waited until",
                 gt_format_seconds((double)v[GT_RT_AHEAD] * 1e-6, c, sizeof c),
                 gt_format_seconds(idle, a, sizeof a));
    return n;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    (void)p;
    switch (r->vals[GT_RT_OP]) {
    case GT_RT_OP_JIT:
        return summary_jit(r, lines, max);
    case GT_RT_OP_RETURN:
        return summary_return(r, lines, max);
    default:
        return summary_init(r, lines, max);
    }
}

/* op=jit counts the module's kernels with cuModuleGetFunctionCount, which
 * came with CUDA 12.4: a gputui built with an older toolkit, or a driver
 * older than that, cannot load the module the way it times. */
static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    if (v[GT_RT_OP] == GT_RT_OP_JIT)
        return gt_dp_need_cuda(p, 12040, "op=jit", "cuModuleGetFunctionCount", err, n);
    return 0;
}

GT_EXPERIMENT(gt_exp_runtime) = {
    .name = "runtime",
    .title = "CUDA runtime: the first call, JIT, and when a call returns",
    .explain =
        "op=init: the CUDA runtime creates a device's primary context at the first call that "
        "needs it; a program pays for it once, before its first cudaMalloc or launch returns. "
        "Each sample is a new process (gputui itself, started again): the time from its start "
        "to main, its first calls (cudaSetDevice and cudaFree(0)), cudaDeviceReset (which "
        "destroys the context) and the cudaFree(0) after it, which builds a new one. The child "
        "also tries cudaSetDeviceFlags(cudaDeviceMapHost) after its context exists and asks "
        "cudaHostGetDevicePointer for memory pinned without the mapped flag; the set-up says "
        "what they answered. op=jit: a new process loads kernels/memory.cu's module with "
        "cuModuleLoadData, first as cubins for every built architecture, then twice as PTX "
        "only, which the driver compiles for this GPU (CUDA_CACHE_DISABLE=1, so the second is "
        "compiled again; CUDA_MODULE_LOADING=EAGER). op=return: a kernel that spins for "
        "'ahead' us is queued on the legacy default stream, then the call; the host clock "
        "gives when the call returned and when cudaStreamQuery, polled from then on, first "
        "found the stream idle: the work left at the return. A call that returns long "
        "before the kernel ahead ends did not wait for the GPU; one that leaves work behind "
        "returned before its copy was done (a call that left none shows one query's cost). "
        "This process keeps its own context on the GPU meanwhile, so the driver and the "
        "device are already up: the first process on an idle GPU pays more.",
    .params = params,
    .nparams = GT_RT_NPARAMS,
    .warmup_param = GT_RT_WARMUP,
    .series = series,
    .check = check,
    .summary = summary,
};
