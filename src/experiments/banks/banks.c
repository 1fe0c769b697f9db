/* The shared-memory bank experiment's table row: lane l of every warp
 * reads the element of 4, 8 or 16 bytes at l * stride over and over, and
 * the same kernel at stride 1 beside it; the conflict degree comes from
 * the addresses here (gt_bk_wavefronts). The GPU side is src/experiments/banks/banks_gpu.c,
 * its kernels the experiment's _kernels.cu. */
#include "banks.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const width_names[] = {"float", "float2", "float4"};

static const gt_param params[GT_BK_NPARAMS] = {
    [GT_BK_STRIDE] = {.name = "stride", .label = "stride (elements)", .type = GT_P_INT,
                      .min = 1, .max = GT_BK_STRIDE_MAX, .def = 1, .step = 1,
                      .help = "lane l reads element l*stride; 1: no conflict, 32: every lane "
                              "in one bank, 33: a padded row, no conflict again"},
    [GT_BK_WIDTH] = {.name = "width", .label = "element", .type = GT_P_ENUM, .max = 2,
                     .def = GT_BK_FLOAT, .choices = width_names, .nchoices = 3,
                     .help = "what a lane reads: float (4 B, one bank), float2 (8 B) or "
                             "float4 (16 B)"},
    [GT_BK_READS] = {.name = "reads", .label = "reads a thread", .type = GT_P_INT, .min = 256,
                     .max = 1 << 20, .def = 4096,
                     .help = "shared-memory reads each thread makes in one kernel (a multiple "
                             "of 8)"},
    [GT_BK_WARMUP] = GT_PARAM_WARMUP(3),
};

unsigned gt_bk_width(int64_t w)
{
    return w == GT_BK_FLOAT4 ? 16u : w == GT_BK_FLOAT2 ? 8u : 4u;
}

void gt_bk_wavefronts(uint32_t stride, unsigned width, int *wavefronts, int *fewest)
{
    uint32_t q[128];
    int n = 0;

    for (uint32_t l = 0; l < 32; l++)
        for (uint32_t c = 0; c < width / 4; c++)
            q[n++] = gt_bk_addr(l, stride, width, 0) / 4 + c;
    *wavefronts = gt_bk_busiest(q, n);
    *fewest = (int)width / 4;
}

uint32_t gt_bk_expected(uint32_t lane, uint32_t stride, unsigned width, uint32_t reads,
                        uint32_t seed)
{
    uint32_t step = 0;

    for (uint32_t k = 0; k < GT_BK_STEPS; k++)
        for (uint32_t c = 0; c < width / 4; c++)
            step += gt_bk_word(gt_bk_addr(lane, stride, width, k) / 4 + c, seed);
    return step * (reads / GT_BK_STEPS);
}

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_BK_S_STRIDED] = "strided";
    names[GT_BK_S_UNIT] = "stride 1";
    return GT_BK_NSERIES;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    (void)p;
    if (v[GT_BK_READS] % GT_BK_STEPS) {
        snprintf(err, n, "reads: %lld is not a multiple of %u; allowed: multiples of %u from "
                 "256 to 1048576", (long long)v[GT_BK_READS], GT_BK_STEPS, GT_BK_STEPS);
        return -1;
    }
    return 0;
}

/* A series' median as nanoseconds a warp's request takes on one SM: each
 * SM runs GT_BK_BLOCKS_PER_SM blocks of GT_BK_THREADS threads, and every
 * warp makes 'reads' requests. */
static double ns_per_request(gt_run *r, int s)
{
    double t = gt_run_p50(r, s);
    double requests = (double)GT_BK_BLOCKS_PER_SM * (GT_BK_THREADS / 32) *
                      (double)r->vals[GT_BK_READS];

    return isfinite(t) && t > 0 ? t / requests * 1e9 : NAN;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double st = gt_run_p50(r, GT_BK_S_STRIDED), un = gt_run_p50(r, GT_BK_S_UNIT);
    int wf, few, n = 0;

    (void)p;
    if (max < 1 || !isfinite(st) || !isfinite(un) || un <= 0)
        return 0;
    gt_bk_wavefronts((uint32_t)v[GT_BK_STRIDE], gt_bk_width(v[GT_BK_WIDTH]), &wf, &few);
    snprintf(lines[n++], sizeof lines[0], "stride %lld: conflict degree %d (the addresses give "
             "%d wavefront%s a request, the fewest %d): %.2fx the time of stride 1",
             (long long)v[GT_BK_STRIDE], wf / few, wf, wf == 1 ? "" : "s", few, st / un);
    double a = ns_per_request(r, GT_BK_S_STRIDED), b = ns_per_request(r, GT_BK_S_UNIT);
    if (n < max && isfinite(a) && isfinite(b))
        snprintf(lines[n++], sizeof lines[0], "a warp's request: %.2f ns on an SM strided, "
                 "%.2f ns at stride 1", a, b);
    return n;
}

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)

static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    uint32_t stride = s == GT_BK_S_STRIDED ? (uint32_t)v[GT_BK_STRIDE] : 1;
    unsigned w = gt_bk_width(v[GT_BK_WIDTH]);
    double t = gt_run_p50(r, s), ns = ns_per_request(r, s);
    int wf, few, n = 0;

    (void)p;
    if (!isfinite(t) || t <= 0)
        return 0;
    gt_bk_wavefronts(stride, w, &wf, &few);
    LINE("one kernel in %.3f ms (p50)", t * 1e3);
    if (isfinite(ns))
        LINE("%.2f ns a warp's request on one SM (%d blocks of %d threads an SM, %lld "
             "requests a warp)", ns, GT_BK_BLOCKS_PER_SM, GT_BK_THREADS,
             (long long)v[GT_BK_READS]);
    LINE("shared memory: 32 banks of 4 bytes; word q lies in bank q mod 32; a bank delivers "
         "one word a cycle, and one word read by several lanes is broadcast");
    LINE("lane l reads %u B at byte l x %u x %u: lane 0 bank 0, lane 1 bank %u, lane 2 bank %u",
         w, stride, w, (stride * w / 4) % 32, (2 * stride * w / 4) % 32);
    LINE("the busiest bank must deliver %d distinct word%s: %d wavefront%s, against %d for a "
         "%u-byte request: degree %d%s", wf, wf == 1 ? "" : "s", wf, wf == 1 ? "" : "s", few, w,
         wf / few, w == 4 ? " (gcd(stride, 32) for 4-byte words)" : "");
    if (stride % 32 == 1 && stride > 1)
        LINE("stride %u = 32 + 1: each lane one bank further, as a row padded by one word", stride);
    return n;
}

/* stride 1 to 33, then 64. */
static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    int n = 0;

    (void)p;
    if (param != GT_BK_STRIDE)
        return 0;
    for (int s = 1; s <= 33 && n < max; s++)
        out[n++] = s;
    if (n < max)
        out[n++] = 64;
    return n;
}

GT_EXPERIMENT(gt_exp_banks) = {
    .name = "banks",
    .title = "Shared-memory banks: conflicts and padding",
    .explain =
        "Every block fills 32 KiB of shared memory; then lane l of every warp reads the element "
        "of 4, 8 or 16 bytes at l * stride, stepping a row of the 32 banks at a time, 'reads' "
        "times, and adds what it read. Lanes whose words share a bank wait for each other: "
        "the conflict degree (gcd(stride, 32) for 4-byte words) multiplies the time. Stride "
        "33, a row padded by one word, is free again. The same kernel at stride 1 runs beside "
        "it, and every thread's sum is checked against the host's.",
    .params = params,
    .nparams = GT_BK_NPARAMS,
    .warmup_param = GT_BK_WARMUP,
    .series = series,
    .check = check,
    .bandwidth = true,
    .summary = summary,
    .sweep_values = sweep_values,
    .why = why,
};
