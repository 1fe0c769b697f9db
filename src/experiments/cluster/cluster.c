/* The cluster experiment's table row: clusters of 2 to 16 blocks fill the
 * GPU; every thread reads words of shared memory, its own block's, then
 * the next block's of its cluster through the distributed shared memory
 * (Hopper), coalesced or scattered, and adds them; each sum is checked
 * against the host's. The latency of one such load is the latency
 * experiment's kind=dsmem. The GPU side is src/experiments/cluster/
 * cluster_gpu.c, its kernels cluster_kernels.cu. */
#include "cluster.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const cluster_names[] = {"2", "4", "8", "16"};
static const char *const access_names[] = {"coalesced", "scattered"};

static const gt_param params[GT_CL_NPARAMS] = {
    [GT_CL_CLUSTER] = {.name = "cluster", .label = "cluster blocks", .type = GT_P_ENUM, .max = 3,
                       .choices = cluster_names, .nchoices = 4,
                       .help = "blocks in a cluster, on as many SMs of one GPC; past 8, a size "
                               "the GPU may not allow (cudaOccupancyMaxPotentialClusterSize)"},
    [GT_CL_ACCESS] = {.name = "access", .label = "access", .type = GT_P_ENUM, .max = 1,
                      .choices = access_names, .nchoices = 2,
                      .help = "coalesced: a warp reads 32 neighbouring words; scattered: each "
                              "lane a word 33 words past the last (another line, another bank)"},
    [GT_CL_SIZE] = {.name = "size", .label = "shared memory a block", .type = GT_P_SIZE,
                    .min = 4096, .max = 192 << 10, .def = 32 << 10, .align = 4096,
                    .unit = "bytes",
                    .help = "what each block fills and the others read, up to what a block may "
                            "have"},
    [GT_CL_READS] = {.name = "reads", .label = "reads a thread", .type = GT_P_INT, .min = 256,
                     .max = 1 << 20, .def = 4096,
                     .help = "4-byte words each thread reads and adds, in each series"},
    [GT_CL_WARMUP] = GT_PARAM_WARMUP(3),
};

int gt_cl_blocks(int64_t choice)
{
    return 2 << (int)choice;
}

/* Thread t's reads come round every words / gcd(step, words) reads (step:
 * the words between its read k and k + 1): the sum of one round times the
 * rounds, and what is left, without a loop over a million reads. */
uint32_t gt_cl_expected(uint32_t t, uint32_t reads, uint32_t words, int scattered, uint32_t seed)
{
    uint64_t step = (uint64_t)GT_CL_THREADS * (scattered ? GT_CL_SCATTER : 1), a = step,
             b = words, period;
    uint32_t round = 0, rest = 0;

    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    period = words / a;
    for (uint32_t k = 0; k < period; k++) {
        uint32_t w = gt_cl_word(gt_cl_index(t, k, words, scattered), seed);
        round += w;
        if (k < reads % period)
            rest += w;
    }
    return round * (uint32_t)(reads / period) + rest;
}

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_CL_S_OWN] = "own shared memory";
    names[GT_CL_S_REMOTE] = "another block's (DSMEM)";
    return GT_CL_NSERIES;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    uint64_t size = (uint64_t)v[GT_CL_SIZE];
    char a[32], b[32];

    if (gt_dp_ok(p, GT_DP_CC) && gt_dp_get(p, GT_DP_CC) < 90) {
        snprintf(err, n, "experiment cluster: clusters of blocks and their distributed shared "
                 "memory came with Hopper (9.0); this device is %lld.%lld",
                 (long long)gt_dp_get(p, GT_DP_CC) / 10, (long long)gt_dp_get(p, GT_DP_CC) % 10);
        return -1;
    }
    if (gt_dp_need_cuda(p, 11080, "experiment cluster", "cudaLaunchKernelEx with a cluster",
                        err, n))
        return -1;
    if (gt_dp_ok(p, GT_DP_SMEM_BLOCK) && size > (uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK)) {
        snprintf(err, n, "size: %s is more than the shared memory a block may have here (%s); "
                 "allowed: 4 KiB up to it", gt_format_size(size, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK), b, sizeof b));
        return -1;
    }
    return 0;
}

/* A series' p50 in bytes a second (the samples carry the bytes read). */
static double rate(gt_run *r, int s)
{
    gt_dist *d = s < r->nseries ? gt_series_judged(&r->s[s], true) : NULL;

    return d && d->count ? gt_dist_percentile(d, 0.5) : NAN;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double own = rate(r, GT_CL_S_OWN), far = rate(r, GT_CL_S_REMOTE);
    int64_t sms = gt_dp_get(p, GT_DP_SMS);
    int n = 0;

    if (n < max && isfinite(own) && isfinite(far))
        snprintf(lines[n++], sizeof lines[0], "another block's shared memory: %.0f GB/s, %.2fx "
                 "the block's own (%.0f GB/s), %s", far / 1e9, far / own, own / 1e9,
                 access_names[r->vals[GT_CL_ACCESS]]);
    if (n < max && isfinite(far) && sms > 0)
        snprintf(lines[n++], sizeof lines[0], "an SM reads %.1f GB/s from another SM's shared "
                 "memory and %.1f GB/s from its own", far / 1e9 / (double)sms,
                 own / 1e9 / (double)sms);
    return n;
}

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)

static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double bw = rate(r, s);
    char a[32];
    int n = 0;

    (void)p;
    if (!isfinite(bw))
        return 0;
    LINE("%s: %.0f GB/s (p50), every thread's sum checked", s == GT_CL_S_OWN ?
         "the block's own shared memory" : "the next block's of its cluster", bw / 1e9);
    if (s == GT_CL_S_OWN)
        LINE("shared memory: 32 banks of 4 bytes on the SM; %s", v[GT_CL_ACCESS]
             ? "a lane every 33 words: 32 banks, one word each, still one pass"
             : "32 neighbouring words a warp: one pass of the 32 banks");
    else
        LINE("distributed shared memory: block 1's %s, on another SM of the same GPC; every "
             "request crosses the SM-to-SM network, which moves whole lines: %s",
             gt_format_size((uint64_t)v[GT_CL_SIZE], a, sizeof a),
             v[GT_CL_ACCESS] ? "a scattered warp asks for 32 lines to use 4 bytes of each"
                             : "a coalesced warp uses every byte of the line it asks for");
    LINE("a cluster of %d blocks is scheduled at once, on as many SMs of one GPC; the blocks "
         "wait at the cluster's barrier so that the memory read stays there",
         gt_cl_blocks(v[GT_CL_CLUSTER]));
    return n;
}

static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    int n = 0;

    (void)p;
    if (param == GT_CL_CLUSTER || param == GT_CL_ACCESS)
        for (int k = 0; k < (param == GT_CL_CLUSTER ? 4 : 2) && n < max; k++)
            out[n++] = k;
    else if (param == GT_CL_SIZE)
        for (int64_t s = 4096; s <= (192 << 10) && n < max; s *= 2)
            out[n++] = s;
    return n;
}

GT_EXPERIMENT(gt_exp_cluster) = {
    .name = "cluster",
    .title = "A cluster's distributed shared memory: another block's, read",
    .explain =
        "Hopper groups blocks into clusters that run at once on the SMs of one GPC; a block can "
        "read and write the shared memory of every other block of its cluster. Every block "
        "fills its shared memory; every thread then reads words of its own block's, then of the "
        "next block's of its cluster, coalesced or scattered, and adds them. Each sum is "
        "checked against the host's. The latency of one load is the latency experiment's "
        "kind=dsmem.",
    .params = params,
    .nparams = GT_CL_NPARAMS,
    .warmup_param = GT_CL_WARMUP,
    .series = series,
    .check = check,
    .bandwidth = true,
    .summary = summary,
    .sweep_values = sweep_values,
    .why = why,
};
