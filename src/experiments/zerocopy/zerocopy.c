/* The zero-copy experiment's table row. The GPU side is src/experiments/zerocopy/zerocopy_gpu.c. */
#include "zerocopy.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/bounds.h"
#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const names[GT_ZC_NVARIANTS] = {"explicit", "mapped", "managed",
                                                   "managed+prefetch"};
static const char *const only_names[GT_ZC_NVARIANTS + 1] = {"all", "explicit", "mapped",
                                                           "managed", "managed+prefetch"};

static const char *const check_names[2] = {"gpu", "cpu"};

static const gt_param params[GT_ZC_NPARAMS] = {
    [GT_ZC_COUNT] = {.name = "count", .label = "elements", .type = GT_P_INT, .min = 1024,
                     .max = 1ll << 28, .def = 1000000,
                     .help = "floats per array (a, b and out); +/- doubles or halves"},
    [GT_ZC_BLOCKS] = {.name = "blocks", .label = "blocks", .type = GT_P_INT, .max = 65535,
                      .def = 32, .help = "thread blocks; auto fills the GPU (SMs x 2048 / threads)",
                      .zero_name = "auto"},
    [GT_ZC_THREADS] = {.name = "threads", .label = "threads per block", .type = GT_P_INT, .min = 32,
                       .max = 1024, .def = 1024, .step = 32,
                       .help = "threads per block, a multiple of 32"},
    [GT_ZC_PASSES] = {.name = "passes", .label = "passes over the data", .type = GT_P_INT, .min = 1,
                      .max = 64, .def = 1, .step = 1,
                      .help = "times the kernel re-reads a and b: mapped memory is not cached on "
                              "the GPU"},
    [GT_ZC_WC] = {.name = "write-combined", .label = "write-combined inputs", .type = GT_P_BOOL,
                  .max = 1,
                  .help = "allocate a and b with cudaHostAllocWriteCombined (explicit and mapped)"},
    [GT_ZC_ONLY] = {.name = "variant", .label = "variants run", .type = GT_P_ENUM,
                    .max = GT_ZC_NVARIANTS, .def = GT_ZC_ALL, .choices = only_names,
                    .nchoices = GT_ZC_NVARIANTS + 1,
                    .help = "all (alternating, histograms fill together) or one variant alone, "
                            "back to back"},
    [GT_ZC_CHECK] = {.name = "check", .label = "poison and check", .type = GT_P_ENUM, .max = 1,
                     .def = GT_ZC_CHECK_GPU, .choices = check_names, .nchoices = 2,
                     .help = "gpu: a kernel poisons and checks the explicit and mapped outputs, "
                             "so the CPU never touches them; cpu: the CPU does, as a program "
                             "reading its result would, and the next copy lands on lines its "
                             "cache holds",
                     .before = "cpu"},
    [GT_ZC_REPEAT] = {.name = "repeat", .label = "repeats per sample", .type = GT_P_INT, .min = 1,
                      .max = 100, .def = 1, .step = 1,
                      .help = "back-to-back repeats of a variant timed as one, the sample being "
                              "their average (10: the article's method); the last is checked"},
    [GT_ZC_WARMUP] = GT_PARAM_WARMUP(2),
};

static int series(const int64_t *v, const char **out)
{
    if (v[GT_ZC_ONLY] != GT_ZC_ALL) {
        out[0] = names[v[GT_ZC_ONLY] - 1];
        return 1;
    }
    for (int i = 0; i < GT_ZC_NVARIANTS; i++)
        out[i] = names[i];
    return GT_ZC_NVARIANTS;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    uint64_t set = 3ull * (uint64_t)v[GT_ZC_COUNT] * sizeof(float);
    char a[32], b[32];

    if (v[GT_ZC_ONLY] == GT_ZC_MAPPED + 1 && gt_dp_ok(p, GT_DP_CAN_MAP) &&
        !gt_dp_get(p, GT_DP_CAN_MAP)) {
        snprintf(err, n, "variant: mapped needs a device that can map host memory; this one "
                 "has canMapHostMemory = 0 (allowed here: all, explicit, managed, "
                 "managed+prefetch)");
        return -1;
    }
    if (v[GT_ZC_THREADS] % 32) {
        snprintf(err, n, "threads: %lld is not a multiple of 32", (long long)v[GT_ZC_THREADS]);
        return -1;
    }
    /* The explicit variant's device arrays plus the managed arrays, which
     * may all end up on the device: never more than is free. */
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && 2 * set > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "count: %lld elements need %s of device memory (explicit and managed "
                 "arrays); %s is free", (long long)v[GT_ZC_COUNT], gt_format_size(2 * set, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b));
        return -1;
    }
    return 0;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double base = gt_dist_percentile(&r->s[GT_ZC_EXPLICIT].lat, 0.5);
    char a[32], b[32];
    int n = 0;

    for (int i = 1; r->vals[GT_ZC_ONLY] == GT_ZC_ALL && i < r->nseries && n < max; i++) {
        double m = gt_dist_percentile(&r->s[i].lat, 0.5);
        if (isfinite(m) && isfinite(base) && base > 0)
            snprintf(lines[n++], sizeof lines[0], "%s / explicit: %.2fx  (p50 %s vs %s)",
                     r->s[i].name, m / base, gt_format_seconds(m, a, sizeof a),
                     gt_format_seconds(base, b, sizeof b));
    }
    if (n < max && gt_dp_get(p, GT_DP_INTEGRATED))
        snprintf(lines[n++], sizeof lines[0],
                 "integrated GPU: mapped memory is the same physical memory as device memory");
    return n;
}

static void why_zerocopy(gt_lines *o, gt_run *r, int s, const gt_devprops *p)
{
    const int64_t *v = r->vals;
    uint64_t n = (uint64_t)v[GT_ZC_COUNT], passes = (uint64_t)v[GT_ZC_PASSES];
    uint64_t bytes = n * 4 * (2 * passes + 1);
    char a[32], b[32], c[32], what[64];
    gt_link_kind kind;
    double link = gt_host_link(p, &kind, what, sizeof what), t = gt_run_p50(r, s);

    gt_say(o, "the kernel reads a and b (%llu floats each) %llu time%s and writes out once",
        (unsigned long long)n, (unsigned long long)passes, passes == 1 ? "" : "s");
    if (s == GT_ZC_MAPPED)
        gt_say(o, "mapped: every read goes to host memory (not cached on the GPU): %s per iteration",
            gt_format_size(bytes, a, sizeof a));
    else
        gt_say(o, "%s: a and b are copied to the device once (%s), then the kernel reads device memory",
            r->s[s].name, gt_format_size(n * 4 * 3, a, sizeof a));
    if (link > 0) {
        double need = (double)(s == GT_ZC_MAPPED ? bytes : n * 12) / link;
        gt_say(o, "at the link's %.1f GB/s (%s%s, not measured here) that alone takes %s",
            link / 1e9, what, kind == GT_LINK_PCIE ? " after encoding" : "",
            gt_format_seconds(need, b, sizeof b));
        if (isfinite(t) && t > 0)
            gt_say(o, "measured p50 %s: the transfer is %.0f%% of it", gt_format_seconds(t, c, sizeof c),
                100.0 * need / t);
    } else if (kind == GT_LINK_NONE) {
        gt_say(o, "no link to cross: %s, so mapped memory saves the copies and costs no "
            "transfer", what);
    } else {
        gt_say(o, "time over the link: N/A (PCIe generation/width unknown)");
    }
}

static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    gt_lines o = {lines, 0, max};

    why_zerocopy(&o, r, s, p);
    return o.n;
}

GT_EXPERIMENT(gt_exp_zerocopy) = {
    .name = "zerocopy",
    .title = "Zero-copy vs explicit copies",
    .explain =
        "out[i] = a[i] + b[i] four ways, one after another in every iteration: explicit "
        "(pinned buffers, copy a and b in, run, copy out back), mapped (the kernel reads and "
        "writes pinned host memory over PCIe: no copies), managed (cudaMallocManaged: pages "
        "migrate on the GPU's page faults) and managed with cudaMemPrefetchAsync first. "
        "Each is timed on the GPU from its first to its last operation and checked on the "
        "GPU (check=cpu: by the CPU, which slows the next copy); the CPU writes the "
        "managed inputs before each run, so their pages start on the host. Raise passes: "
        "mapped data is re-read over PCIe every time.",
    .params = params,
    .nparams = GT_ZC_NPARAMS,
    .warmup_param = GT_ZC_WARMUP,
    .series = series,
    .check = check,
    .bandwidth = false,
    .summary = summary,
    .why = why,
};
