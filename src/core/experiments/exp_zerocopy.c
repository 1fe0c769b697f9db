/* The zero-copy experiment's table row. The GPU side is src/gpu/zerocopy.c. */
#include "gputui/experiments/exp_zerocopy.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const names[GT_ZC_NVARIANTS] = {"explicit", "mapped", "managed",
                                                   "managed+prefetch"};
static const char *const only_names[GT_ZC_NVARIANTS + 1] = {"all", "explicit", "mapped",
                                                           "managed", "managed+prefetch"};

static const char *const check_names[2] = {"gpu", "cpu"};

static const gt_param params[GT_ZC_NPARAMS] = {
    [GT_ZC_COUNT] = {"count", "elements", GT_P_INT, 1024, 1ll << 28, 1000000, 0, 0, NULL, 0,
                     NULL, "floats per array (a, b and out); +/- doubles or halves", NULL},
    [GT_ZC_BLOCKS] = {"blocks", "blocks", GT_P_INT, 0, 65535, 32, 0, 0, NULL, 0, NULL,
                      "thread blocks; auto fills the GPU (SMs x 2048 / threads)", NULL, "auto"},
    [GT_ZC_THREADS] = {"threads", "threads per block", GT_P_INT, 32, 1024, 1024, 32, 0, NULL, 0,
                       NULL, "threads per block, a multiple of 32", NULL},
    [GT_ZC_PASSES] = {"passes", "passes over the data", GT_P_INT, 1, 64, 1, 1, 0, NULL, 0, NULL,
                      "times the kernel re-reads a and b: mapped memory is not cached on the GPU",
                      NULL},
    [GT_ZC_WC] = {"write-combined", "write-combined inputs", GT_P_BOOL, 0, 1, 0, 0, 0, NULL, 0,
                  NULL, "allocate a and b with cudaHostAllocWriteCombined (explicit and mapped)",
                  NULL},
    [GT_ZC_ONLY] = {"variant", "variants run", GT_P_ENUM, 0, GT_ZC_NVARIANTS, GT_ZC_ALL, 0, 0,
                    only_names, GT_ZC_NVARIANTS + 1, NULL,
                    "all (alternating, histograms fill together) or one variant alone, "
                    "back to back", NULL},
    [GT_ZC_CHECK] = {"check", "poison and check", GT_P_ENUM, 0, 1, GT_ZC_CHECK_GPU, 0, 0,
                     check_names, 2, NULL,
                     "gpu: a kernel poisons and checks the explicit and mapped outputs, so the "
                     "CPU never touches them; cpu: the CPU does, as a program reading its result "
                     "would, and the next copy lands on lines its cache holds", NULL, NULL,
                     "cpu"},
    [GT_ZC_REPEAT] = {"repeat", "repeats per sample", GT_P_INT, 1, 100, 1, 1, 0, NULL, 0, NULL,
                      "back-to-back repeats of a variant timed as one, the sample being their "
                      "average (10: the article's method); the last is checked", NULL},
    [GT_ZC_WARMUP] = {"warmup", "warm-up iterations", GT_P_INT, 0, 1000, 2, 1, 0, NULL, 0, NULL,
                      "untimed iterations after each change, kept out of the histograms", NULL},
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
};
