/* The stream-overlap experiment's table row. The GPU side is
 * src/experiments/streams/streams_gpu.c. */
#include "streams.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/measure/timeline.h"
#include "gputui/base/units.h"

static const char *const host_names[] = {"pinned", "pageable"};
static const char *const flag_names[] = {"default", "non-blocking"};
static const char *const alloc_names[] = {"none", "cudaMalloc", "cudaMallocHost"};

static const gt_param params[GT_STR_NPARAMS] = {
    [GT_STR_CHUNKS] = {.name = "chunks", .label = "chunks", .type = GT_P_INT, .min = 1, .max = 256,
                       .def = 16,
                       .help = "pieces the data is cut into; each goes H2D, kernel, D2H on one "
                               "stream"},
    [GT_STR_CHUNK] = {.name = "chunk-size", .label = "chunk size", .type = GT_P_SIZE,
                      .min = 64 << 10, .max = 1ll << 30, .def = 8ll << 20, .align = 4,
                      .unit = "bytes",
                      .help = "bytes per chunk; +/- step in powers of two"},
    [GT_STR_STREAMS] = {.name = "streams", .label = "streams", .type = GT_P_INT, .min = 1,
                        .max = GT_TL_MAX_STREAMS, .def = 4, .step = 1,
                        .help = "streams the chunks are dealt to, round robin (1 to 16)"},
    [GT_STR_WORK] = {.name = "work", .label = "kernel work", .type = GT_P_INT, .max = 1 << 20,
                     .help = "multiply-adds per 32-bit word; auto makes one chunk's kernel take "
                             "as long as its H2D copy",
                     .zero_name = "auto"},
    [GT_STR_HOST] = {.name = "host", .label = "host memory", .type = GT_P_ENUM, .max = 1,
                     .def = GT_STR_HOST_PINNED, .choices = host_names, .nchoices = 2,
                     .help = "pinned (cudaMallocHost) or pageable (malloc): pageable copies are "
                             "staged by the CPU and cannot overlap"},
    [GT_STR_FLAGS] = {.name = "stream-flags", .label = "stream flags", .type = GT_P_ENUM, .max = 1,
                      .def = GT_STR_FLAGS_DEFAULT, .choices = flag_names, .nchoices = 2,
                      .help = "default (cudaStreamCreate: synchronises with the legacy default "
                              "stream) or non-blocking (cudaStreamNonBlocking)"},
    [GT_STR_LEGACY] = {.name = "legacy-sync", .label = "default-stream kernel", .type = GT_P_BOOL,
                       .max = 1,
                       .help = "after each chunk, an empty kernel on the legacy default stream, "
                               "as a library call without a stream would launch"},
    [GT_STR_ALLOC] = {.name = "alloc-between", .label = "allocation between", .type = GT_P_ENUM,
                      .max = 2, .def = GT_STR_ALLOC_NONE, .choices = alloc_names, .nchoices = 3,
                      .help = "after each chunk's work is issued, a 1 MiB cudaMalloc or "
                              "cudaMallocHost (freed after the run): the Programming Guide lists "
                              "both among the calls that may synchronise implicitly"},
    [GT_STR_WARMUP] = GT_PARAM_WARMUP(2),
};

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_STR_SERIES_SERIAL] = "serial";
    names[GT_STR_SERIES_STREAMS] = "streams";
    return 2;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    uint64_t total = (uint64_t)v[GT_STR_CHUNKS] * (uint64_t)v[GT_STR_CHUNK];
    uint64_t dev = (uint64_t)v[GT_STR_STREAMS] * (uint64_t)v[GT_STR_CHUNK];
    char a[32], b[32];

    /* Input and output on the host: 2 x total. */
    if (total > (8ull << 30)) {
        snprintf(err, n, "chunks x chunk-size: %lld x %s = %s; at most 8 GiB (input and output "
                 "both live in host memory)", (long long)v[GT_STR_CHUNKS],
                 gt_format_size((uint64_t)v[GT_STR_CHUNK], a, sizeof a),
                 gt_format_size(total, b, sizeof b));
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && dev > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "streams x chunk-size: one chunk buffer per stream needs %s of device "
                 "memory; %s is free", gt_format_size(dev, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b));
        return -1;
    }
    return 0;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double ser = gt_dist_percentile(&r->s[GT_STR_SERIES_SERIAL].lat, 0.5);
    double str = gt_dist_percentile(&r->s[GT_STR_SERIES_STREAMS].lat, 0.5);
    char a[32], b[32], c[32], d[32];
    int n = 0;

    if (n < max && isfinite(ser) && isfinite(str) && str > 0)
        snprintf(lines[n++], sizeof lines[0], "speed-up %.2fx: serial %s, %lld streams %s (p50)",
                 ser / str, gt_format_seconds(ser, a, sizeof a), (long long)r->vals[GT_STR_STREAMS],
                 gt_format_seconds(str, b, sizeof b));
    if (n < max && r->tl) {
        double ideal = gt_timeline_ideal(r->tl);
        snprintf(lines[n++], sizeof lines[0], "ideal %s = max(H2D %s, kernel %s, D2H %s)",
                 gt_format_seconds(ideal, a, sizeof a),
                 gt_format_seconds(r->tl->sum[GT_TL_H2D], b, sizeof b),
                 gt_format_seconds(r->tl->sum[GT_TL_KERNEL], c, sizeof c),
                 gt_format_seconds(r->tl->sum[GT_TL_D2H], d, sizeof d));
        if (n < max && isfinite(str) && str > 0 && ideal > 0)
            snprintf(lines[n++], sizeof lines[0], "streams run at %.0f%% of the ideal bound",
                     100.0 * ideal / str);
    }
    if (n < max) {
        snprintf(a, sizeof a, "N/A");
        if (gt_dp_ok(p, GT_DP_ASYNC_ENGINES))
            snprintf(a, sizeof a, "%lld", (long long)gt_dp_get(p, GT_DP_ASYNC_ENGINES));
        snprintf(lines[n++], sizeof lines[0], "asyncEngineCount %s, concurrentKernels %s", a,
                 !gt_dp_ok(p, GT_DP_CONC_KERNELS) ? "N/A" :
                 gt_dp_get(p, GT_DP_CONC_KERNELS) ? "yes" : "no");
    }
    return n;
}

GT_EXPERIMENT(gt_exp_streams) = {
    .name = "streams",
    .title = "Copy/compute overlap on streams",
    .explain =
        "The data is cut into chunks; each chunk is copied in (H2D), run through a kernel and "
        "copied back (D2H). Serial does every chunk on one stream; streams deals the chunks "
        "round robin to several, so one chunk's copy can run beside another's kernel. The "
        "timeline shows each operation from CUDA events (a copy queued behind another "
        "stream's copy is drawn from when its stream reached it). The ideal bound is the "
        "longest of the summed H2D, kernel and D2H times. Pageable memory, or a kernel on "
        "the legacy default stream with default stream flags, serialises the work again; so "
        "may an allocation issued between the chunks (alloc-between).",
    .params = params,
    .nparams = GT_STR_NPARAMS,
    .warmup_param = GT_STR_WARMUP,
    .series = series,
    .check = check,
    .bandwidth = false,
    .summary = summary,
};
