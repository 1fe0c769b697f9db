/* The CUDA runtime experiment's table row: what a process pays before its
 * first CUDA call returns (the primary context is created then), what
 * cudaDeviceReset costs, and the call after it, which builds a context
 * anew; each sample is a new child process. The GPU side is
 * src/gpu/runtime.c. */
#include "gputui/experiments/exp_runtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const op_names[] = {"init"};

static const gt_param params[GT_RT_NPARAMS] = {
    [GT_RT_OP] = {"op", "measure", GT_P_ENUM, 0, 0, GT_RT_OP_INIT, 0, 0, op_names, 1, NULL,
                  "init: a new process (this binary again) times its first calls "
                  "(cudaSetDevice, cudaFree(0): the primary context), cudaDeviceReset and "
                  "the cudaFree(0) after it", NULL},
    [GT_RT_WARMUP] = {"warmup", "warm-up processes", GT_P_INT, 0, 1000, 1, 1, 0, NULL, 0, NULL,
                      "untimed processes after each change, kept out of the histograms", NULL},
};

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_RT_S_START] = "process start to main";
    names[GT_RT_S_FIRST] = "first calls (context)";
    names[GT_RT_S_RESET] = "cudaDeviceReset";
    names[GT_RT_S_AGAIN] = "cudaFree(0) after reset";
    return 4;
}

static double p50(gt_run *r, int s)
{
    return s < r->nseries && r->s[s].lat.count ? gt_dist_percentile(&r->s[s].lat, 0.5) : NAN;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double first = p50(r, GT_RT_S_FIRST), again = p50(r, GT_RT_S_AGAIN);
    double start = p50(r, GT_RT_S_START), reset = p50(r, GT_RT_S_RESET);
    char a[32], b[32], c[32], d[32];
    int n = 0;

    (void)p;
    if (n < max && isfinite(first) && isfinite(again) && isfinite(start) && isfinite(reset))
        snprintf(lines[n++], sizeof lines[0], "before the first call returns: %s to main, %s "
                 "for the context; cudaDeviceReset %s, the next call %s (p50)",
                 gt_format_seconds(start, a, sizeof a), gt_format_seconds(first, b, sizeof b),
                 gt_format_seconds(reset, c, sizeof c), gt_format_seconds(again, d, sizeof d));
    /* What the child found about cudaDeviceMapHost (the set-up note). */
    if (n < max && strstr(r->info.note, "cudaSetDeviceFlags"))
        snprintf(lines[n++], sizeof lines[0], "%.*s", (int)sizeof lines[0] - 1, r->info.note);
    return n;
}

GT_EXPERIMENT(gt_exp_runtime) = {
    .name = "runtime",
    .title = "CUDA runtime: initialization",
    .explain =
        "The CUDA runtime creates a device's primary context at the first call that needs "
        "it; a program pays for it once, before its first cudaMalloc or launch returns. "
        "Each sample here is a new process (gputui itself, started again): the time from "
        "its start to main, its first calls (cudaSetDevice and cudaFree(0)), "
        "cudaDeviceReset (which destroys the context) and the cudaFree(0) after it, which "
        "builds a new one. The child also tries cudaSetDeviceFlags(cudaDeviceMapHost) "
        "after its context exists and asks cudaHostGetDevicePointer for memory pinned "
        "without the mapped flag, and the set-up says what they answered. This process "
        "keeps its own context on the GPU meanwhile, so the driver and the device are "
        "already up: the first process on an idle GPU pays more.",
    .params = params,
    .nparams = GT_RT_NPARAMS,
    .warmup_param = GT_RT_WARMUP,
    .series = series,
    .summary = summary,
};
