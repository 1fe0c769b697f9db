/* The latency experiment's table row: one thread (or one warp) walks a
 * chain (chain.h) of a chosen size and stride, each load depending on the
 * last, through device, host-mapped, managed or peer memory. The GPU side
 * is src/experiments/latency/latency_gpu.c, which reads these parameters by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "gputui/measure/experiment.h"
#include "gputui/measure/run.h"
#include "gputui/base/port.h"
#include "gputui/base/units.h"

enum { KIND, SIZE, STRIDE, ORDER, CACHE, LANES, LOADS, CARVE, CLUSTER, WARMUP, NPARAMS };
enum { K_DEVICE, K_MAPPED, K_MANAGED, K_MANAGED_CPU, K_PEER, K_SHARED, K_DSMEM };

static const char *const kind_names[] = {"device", "mapped", "managed", "managed-cpu", "peer",
                                         "shared", "dsmem"};
static const char *const cluster_names[] = {"2", "4", "8", "16"};
static const char *const order_names[] = {"random", "linear"};
static const char *const cache_names[] = {"default", "cg", "volatile"};
static const char *const lane_names[] = {"thread", "warp"};
/* The walk's L1/shared split: the driver's default, or the share of the
 * SM's SRAM asked for shared memory (what the L1 does not get). */
static const char *const carve_names[] = {"default", "0", "25", "50", "75", "100"};

/* ld.global's variants: the kinds in global memory. */
static bool global_applies(const int64_t *v, const char **why)
{
    if (v[KIND] != K_SHARED && v[KIND] != K_DSMEM)
        return true;
    *why = "only with global memory (not kind=shared or dsmem)";
    return false;
}

static bool cluster_applies(const int64_t *v, const char **why)
{
    if (v[KIND] == K_DSMEM)
        return true;
    *why = "only with kind=dsmem";
    return false;
}

/* The split moves the L1, which holds what device and managed memory's
 * default loads bring in. */
static bool carve_applies(const int64_t *v, const char **why)
{
    if ((v[KIND] == K_DEVICE || v[KIND] == K_MANAGED) && v[CACHE] == 0)
        return true;
    *why = "only with kind=device or managed and load=default (what the L1 caches)";
    return false;
}

static const gt_param params[NPARAMS] = {
    [KIND] = {.name = "kind", .label = "memory", .type = GT_P_ENUM, .max = 6, .def = K_DEVICE,
              .choices = kind_names, .nchoices = 7,
              .help = "device (cudaMalloc), mapped (pinned host memory, over PCIe), managed "
                      "(first touched on the GPU), managed-cpu (the CPU touches the walk's slots "
                      "before each sample), peer (another GPU's memory), shared (the block's "
                      "own shared memory), dsmem (another block's in its cluster, Hopper)"},
    [SIZE] = {.name = "size", .label = "working set", .type = GT_P_SIZE, .min = 4096,
              .max = 1ll << 40, .def = 256ll << 20, .align = 4, .unit = "bytes",
              .help = "the chain's buffer, up to the free memory (past 4 GiB with a large "
                      "stride: the TLBs' reach); w sweeps it from 4 KiB to 1 GiB (the staircase)"},
    [STRIDE] = {.name = "stride", .label = "stride", .type = GT_P_SIZE, .min = 8, .max = 1ll << 30,
                .def = 128, .align = 4, .unit = "bytes",
                .help = "bytes from one slot to the next, a multiple of 8 (each slot holds the "
                        "next one's 8-byte address; 128: one cache line each)"},
    [ORDER] = {.name = "order", .label = "order", .type = GT_P_ENUM, .max = 1,
               .choices = order_names, .nchoices = 2,
               .help = "random: one random cycle through every slot, which no prefetcher "
                       "predicts; linear: slot after slot"},
    [CACHE] = {.name = "cache", .label = "load", .type = GT_P_ENUM, .max = 2,
               .choices = cache_names, .nchoices = 3, .applies = global_applies,
               .help = "default: ld.global (cached in L1); cg: ld.global.cg (L2 only); volatile: "
                       "ld.volatile"},
    [LANES] = {.name = "threads", .label = "walkers", .type = GT_P_ENUM, .max = 1,
               .choices = lane_names, .nchoices = 2,
               .help = "thread: one walker; warp: 32 walkers on one chain, evenly apart"},
    [LOADS] = {.name = "loads", .label = "loads per sample", .type = GT_P_INT, .min = 256,
               .max = 1 << 20, .def = 4096,
               .help = "dependent loads a walker makes per sample; the sample is their mean"},
    [CARVE] = {.name = "carveout", .label = "shared memory carveout", .type = GT_P_ENUM,
               .max = 5, .choices = carve_names, .nchoices = 6,
               .help = "% of the SM's L1/shared SRAM the walk asks for shared memory "
                       "(cudaFuncAttributePreferredSharedMemoryCarveout; the L1 gets the rest, "
                       "the driver rounds to a split it has); default: no preference",
               .applies = carve_applies},
    [CLUSTER] = {.name = "cluster", .label = "cluster blocks", .type = GT_P_ENUM, .max = 3,
                 .choices = cluster_names, .nchoices = 4,
                 .help = "blocks in the cluster whose block 0 walks block 1's shared memory; "
                         "past 8, a size the GPU may not allow",
                 .applies = cluster_applies},
    [WARMUP] = {.name = "warmup", .label = "warm-up walks", .type = GT_P_INT, .max = 1000, .def = 2,
                .iteration = true,
                .step = 1,
                .help = "untimed walks after each change, on top of the set-up's first walk, "
                        "which passes over the whole chain (up to 2^20 loads a walker)"},
};

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[0] = "load";
    return 1;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    uint64_t size = (uint64_t)v[SIZE], stride = (uint64_t)v[STRIDE], slots = size / stride;
    char a[32], b[32];

    if (stride % 8) {
        snprintf(err, n, "stride: %s; allowed: a multiple of 8 bytes (each slot holds the "
                 "next one's 8-byte address)", gt_format_size(stride, a, sizeof a));
        return -1;
    }
    if (size % stride) {
        snprintf(err, n, "size: %s is not a multiple of the stride (%s)",
                 gt_format_size(size, a, sizeof a), gt_format_size(stride, b, sizeof b));
        return -1;
    }
    if (slots < (v[LANES] ? 64u : 2u)) {
        snprintf(err, n, "stride: %s leaves %llu slots in %s; allowed: at most %s (%s)",
                 gt_format_size(stride, a, sizeof a), (unsigned long long)slots,
                 gt_format_size(size, b, sizeof b),
                 v[LANES] ? "size / 64, two slots for each of 32 walkers" : "half the size",
                 v[LANES] ? "threads=warp" : "a chain needs two slots");
        return -1;
    }
    if (slots > UINT32_MAX) {
        snprintf(err, n, "stride: %s leaves %llu slots in %s; allowed: at most 2^32 slots "
                 "(use a larger stride)", gt_format_size(stride, a, sizeof a),
                 (unsigned long long)slots, gt_format_size(size, b, sizeof b));
        return -1;
    }
    if (v[ORDER] == 0 && slots > GT_CHAIN_MAX_RANDOM_SLOTS) {
        snprintf(err, n, "order=random keeps the chain's order on the host: at most %u slots; "
                 "%s / %s is %llu (use a larger stride, or order=linear)",
                 GT_CHAIN_MAX_RANDOM_SLOTS, gt_format_size(size, a, sizeof a),
                 gt_format_size(stride, b, sizeof b), (unsigned long long)slots);
        return -1;
    }
    if (v[CARVE] != 0 && carve_applies(v, &(const char *){NULL}) && gt_dp_ok(p, GT_DP_CC) &&
        gt_dp_get(p, GT_DP_CC) < 70) {
        snprintf(err, n, "carveout: the L1 and shared memory share one SRAM, split by the "
                 "carveout, from Volta (7.0) on; this device is %lld.%lld; allowed here: default",
                 (long long)gt_dp_get(p, GT_DP_CC) / 10, (long long)gt_dp_get(p, GT_DP_CC) % 10);
        return -1;
    }
    if ((v[KIND] == K_SHARED || v[KIND] == K_DSMEM) && gt_dp_ok(p, GT_DP_SMEM_BLOCK) &&
        size > (uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK)) {
        snprintf(err, n, "size: %s is more than the shared memory a block may have here (%s); "
                 "allowed with kind=%s: up to %s", gt_format_size(size, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK), b, sizeof b),
                 kind_names[v[KIND]], b);
        return -1;
    }
    if (v[KIND] == K_DSMEM) {
        if (gt_dp_ok(p, GT_DP_CC) && gt_dp_get(p, GT_DP_CC) < 90) {
            snprintf(err, n, "kind=dsmem: clusters of blocks and their distributed shared memory "
                     "came with Hopper (9.0); this device is %lld.%lld; allowed here: device, "
                     "mapped, managed, managed-cpu, peer (with two GPUs) or shared",
                     (long long)gt_dp_get(p, GT_DP_CC) / 10, (long long)gt_dp_get(p, GT_DP_CC) % 10);
            return -1;
        }
        if (gt_dp_need_cuda(p, 11080, "kind=dsmem", "cudaLaunchKernelEx with a cluster", err, n))
            return -1;
    }
    if (v[KIND] == K_MAPPED && gt_dp_ok(p, GT_DP_CAN_MAP) && !gt_dp_get(p, GT_DP_CAN_MAP)) {
        snprintf(err, n, "kind=mapped: this device cannot map host memory (canMapHostMemory = 0)");
        return -1;
    }
    if (v[KIND] == K_PEER) {
        int peer = gt_topo_pick_peer(&p->topo, p->ordinal, -1);
        if (p->topo.count < 2 || peer < 0) {
            snprintf(err, n, "kind=peer needs two GPUs; this machine has %s",
                     gt_topo_count_words(&p->topo));
            return -1;
        }
        if (p->ordinal >= 0 && p->ordinal < p->topo.n && peer < p->topo.n &&
            p->topo.link[p->ordinal][peer].access == 0) {
            snprintf(err, n, "kind=peer: GPU %d cannot access GPU %d's memory "
                     "(cudaDeviceCanAccessPeer = 0)", p->ordinal, peer);
            return -1;
        }
    }
    if ((v[KIND] == K_MAPPED || v[KIND] == K_MANAGED_CPU) && gt_port_mem_available() > 0 &&
        size > gt_port_mem_available()) {
        snprintf(err, n, "size: %s is more than the host's available memory (%s)",
                 gt_format_size(size, a, sizeof a),
                 gt_format_size(gt_port_mem_available(), b, sizeof b));
        return -1;
    }
    if ((v[KIND] == K_DEVICE || v[KIND] == K_MANAGED) && gt_dp_ok(p, GT_DP_MEM_FREE) &&
        size > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "size: %s is more than the free device memory (%s)",
                 gt_format_size(size, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b));
        return -1;
    }
    return 0;
}

/* The SM clock the first walk measured (clock64 cycles over globaltimer
 * ns), from the set-up note src/experiments/latency/latency_gpu.c writes: "... SM cycles a
 * load (1.98 GHz)"; 0 when absent. */
static double sm_ghz(const char *note)
{
    const char *at = strstr(note, "SM cycles a load (");
    double g = at ? strtod(at + strlen("SM cycles a load ("), NULL) : 0;

    return isfinite(g) && g > 0 && g < 10 ? g : 0;
}

/* Where a working set of this size sits, from the properties (the L1's
 * size is not among them: only the L2's is named). */
static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    uint64_t size = (uint64_t)v[SIZE], l2 = (uint64_t)gt_dp_get(p, GT_DP_L2);
    double t = gt_run_p50(r, 0);
    char a[32], b[32];
    int n = 0;

    if (n < max && isfinite(t)) {
        double ghz = sm_ghz(r->info.note);
        if (ghz > 0)
            snprintf(lines[n++], sizeof lines[0], "one dependent load: %.1f ns = %.0f SM cycles "
                     "(p50; SM clock %.2f GHz)", t * 1e9, t * 1e9 * ghz, ghz);
        else
            snprintf(lines[n++], sizeof lines[0], "one dependent load: %.1f ns (p50)", t * 1e9);
    }
    if (n < max && v[KIND] == K_DEVICE) {
        if (!gt_dp_ok(p, GT_DP_L2))
            snprintf(lines[n++], sizeof lines[0], "L2 size N/A");
        else if (size <= 128 * 1024 && v[CACHE] == 0)
            snprintf(lines[n++], sizeof lines[0], "%s: small enough for one SM's L1 (up to 256 "
                     "KiB on Hopper, shared with shared memory)", gt_format_size(size, a, sizeof a));
        else if (size <= l2 / 2)
            snprintf(lines[n++], sizeof lines[0], "%s fits in the L2 (%s)%s",
                     gt_format_size(size, a, sizeof a), gt_format_size(l2, b, sizeof b),
                     v[CACHE] == 1 ? ", which cg loads read without the L1" : "");
        else if (size <= l2)
            snprintf(lines[n++], sizeof lines[0], "%s: in the L2 (%s), past half of it, "
                     "where a split L2 (A100, Hopper) answers slower",
                     gt_format_size(size, a, sizeof a), gt_format_size(l2, b, sizeof b));
        else
            snprintf(lines[n++], sizeof lines[0], "%s is %.1fx the L2 (%s): most loads go to "
                     "device memory", gt_format_size(size, a, sizeof a),
                     (double)size / (double)(l2 ? l2 : 1), gt_format_size(l2, b, sizeof b));
    } else if (n < max) {
        static const char *const where[] = {"", "over PCIe from pinned host memory",
                                            "from managed memory resident on the GPU",
                                            ("from managed memory the CPU touched: page faults "
                                             "move it back"), "over the link from the peer GPU",
                                            "from the block's own shared memory",
                                            ("from another block's shared memory, over the "
                                             "cluster's SM-to-SM network (DSMEM)")};
        snprintf(lines[n++], sizeof lines[0], "each load %s", where[v[KIND]]);
    }
    if (n < max && v[ORDER] == 0)
        snprintf(lines[n++], sizeof lines[0], "random order: no prefetcher predicts the next "
                 "slot; linear order lets it");
    return n;
}

/* 'y': the median against the levels it could come from. */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    uint64_t size = (uint64_t)v[SIZE], stride = (uint64_t)v[STRIDE], l2 = 0;
    double t = gt_run_p50(r, s);
    double ghz = sm_ghz(r->info.note);
    int lanes = v[LANES] ? 32 : 1, n = 0;
    char a[32], b[32];

    if (gt_dp_ok(p, GT_DP_L2))
        l2 = (uint64_t)gt_dp_get(p, GT_DP_L2);
    if (n < max && isfinite(t)) {
        if (ghz > 0)
            snprintf(lines[n++], sizeof lines[0], "one load: %.1f ns (p50) = %.0f SM cycles at "
                     "the %.2f GHz the first walk measured", t * 1e9, t * 1e9 * ghz, ghz);
        else
            snprintf(lines[n++], sizeof lines[0], "one load: %.1f ns (p50); SM clock N/A", t * 1e9);
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "%d load%s in flight: %d x 4 B every %.1f ns is "
                     "%.3f GB/s; latency bounds it, not bandwidth", lanes, lanes > 1 ? "s" : "",
                     lanes, t * 1e9, lanes * 4.0 / t / 1e9);
    }
    if (n < max && stride < 128)
        snprintf(lines[n++], sizeof lines[0], "stride %llu B: %llu slots share a 128-byte line, so "
                 "at most 1 load in %llu can miss", (unsigned long long)stride,
                 (unsigned long long)(128 / stride), (unsigned long long)(128 / stride));
    switch (v[KIND]) {
    case K_DEVICE:
    case K_MANAGED:
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "L1: up to 256 KiB an SM on Hopper, shared with "
                     "shared memory (not among the properties); %s %s", gt_format_size(size, a, sizeof a),
                     v[CACHE] ? "is not cached there: cg and volatile loads skip the L1"
                              : size <= (128u << 10) ? "fits" : "does not fit");
        if (n < max && v[CARVE] && v[CACHE] == 0)
            snprintf(lines[n++], sizeof lines[0], "carveout: %s%% of the SM's L1/shared SRAM "
                     "asked for shared memory, so the L1 keeps the rest (the set-up line gives "
                     "what the walk's attribute reads back)", carve_names[v[CARVE]]);
        if (n < max && l2)
            snprintf(lines[n++], sizeof lines[0], "L2: %s (properties); %s", gt_format_size(l2, b, sizeof b),
                     size <= l2 / 2 ? "the working set fits in half of it"
                     : size <= l2 ? "the working set fits, past half: a split L2's far half is slower"
                                  : "the working set does not fit: most loads go to device memory");
        else if (n < max)
            snprintf(lines[n++], sizeof lines[0], "L2: N/A");
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "order %s: %s", v[ORDER] ? "linear" : "random",
                     v[ORDER] ? "the next slot is predictable; a prefetcher may fetch it early"
                              : "one random cycle: no prefetcher predicts the next slot");
        if (n < max && v[KIND] == K_MANAGED)
            snprintf(lines[n++], sizeof lines[0], "managed memory written by a kernel: resident "
                     "here, read as device memory");
        break;
    case K_MAPPED:
        if (n < max && gt_dp_ok(p, GT_DP_PCIE_GEN) && gt_dp_ok(p, GT_DP_PCIE_WIDTH))
            snprintf(lines[n++], sizeof lines[0], "each load goes over PCIe (Gen%lld x%lld) to host "
                     "memory and back: a read request, then its completion",
                     (long long)gt_dp_get(p, GT_DP_PCIE_GEN), (long long)gt_dp_get(p, GT_DP_PCIE_WIDTH));
        else if (n < max)
            snprintf(lines[n++], sizeof lines[0], "each load goes over PCIe (link N/A) to host "
                     "memory and back: a read request, then its completion");
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "NVIDIA's nvbandwidth measures the same as "
                     "host_device_latency_sm (2 MiB, 128 B stride)");
        break;
    case K_MANAGED_CPU:
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "the CPU read the walk's slots before the sample: "
                     "the first load of each page faults and the page moves back to the GPU");
        break;
    case K_SHARED:
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "shared memory: on the SM, beside the L1 in the "
                     "same SRAM; no cache, no TLB: every load takes the same time");
        break;
    case K_DSMEM:
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "block 0 of a cluster of %s reads block 1's "
                     "shared memory, on another SM of the same GPC: each load crosses the "
                     "SM-to-SM network, a level between an SM's own shared memory and the L2",
                     cluster_names[v[CLUSTER]]);
        break;
    default:
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "each load crosses the link to the peer's memory "
                     "and back (the device panel names the link)");
        break;
    }
    return n;
}

/* The staircase: 4 KiB to 1 GiB, powers of two and the sizes halfway
 * between (x1.5); a stride, powers of two from 4 B to 4 MiB. */
static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    int n = 0;

    (void)p;
    if (param == SIZE) {
        for (int64_t s = 4096; s <= (1ll << 30) && n < max; s *= 2) {
            out[n++] = s;
            if (s < (1ll << 30) && n < max)
                out[n++] = s + s / 2;
        }
    } else if (param == STRIDE) {
        for (int64_t s = 4; s <= (4ll << 20) && n < max; s *= 2)
            out[n++] = s;
    }
    return n;
}

static double sweep_mark(const int64_t *v, int param, const gt_devprops *p, char *label,
                         size_t n)
{
    char a[32];

    (void)v;
    if (param != SIZE || !gt_dp_ok(p, GT_DP_L2))
        return NAN;
    snprintf(label, n, "L2 %s", gt_format_size((uint64_t)gt_dp_get(p, GT_DP_L2), a, sizeof a));
    return (double)gt_dp_get(p, GT_DP_L2);
}

GT_EXPERIMENT(gt_exp_latency) = {
    .name = "latency",
    .title = "Load latency: the memory hierarchy",
    .explain =
        "One thread walks a chain through a buffer, each load's address coming from the load "
        "before, so nothing hides the latency: the time per load is the sample. A working set "
        "that fits in the L1 gives the L1's latency, one that fits in the L2 the L2's, a larger "
        "one device memory's; random order defeats the prefetchers and, past the TLBs' reach, "
        "adds the page walks. Mapped host memory answers over PCIe, managed memory from "
        "wherever its pages are, a peer GPU's over the link. w on the working set draws the "
        "staircase. Every walk's end is checked against the host's walk of the same chain.",
    .params = params,
    .nparams = NPARAMS,
    .warmup_param = WARMUP,
    .series = series,
    .check = check,
    .bandwidth = false,
    .summary = summary,
    .sweep_mark = sweep_mark,
    .sweep_values = sweep_values,
    .why = why,
};
