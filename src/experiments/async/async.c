/* The async experiment's table row: global memory read into shared
 * memory tile by tile, four ways (plain loads through registers, cp.async
 * through a pipeline of stages, bulk copies, a TMA copy of a 2D tile), each
 * tile checked word by word where it lands, beside a cudaMemcpy of the same
 * bytes. The GPU side is src/experiments/async/async_gpu.c, its kernels
 * async_kernels.cu. */
#include "async.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const way_names[] = {"plain", "cp.async", "bulk", "tma"};
static const char *const width_names[] = {"4", "8", "16"};

static bool staged(const int64_t *v, const char **why)
{
    if (v[GT_AS_WAY] != GT_AS_PLAIN)
        return true;
    *why = "only with way=cp.async, bulk or tma (plain loads wait for each tile)";
    return false;
}

static bool cp_async(const int64_t *v, const char **why)
{
    if (v[GT_AS_WAY] == GT_AS_CPASYNC)
        return true;
    *why = "only with way=cp.async";
    return false;
}

static const gt_param params[GT_AS_NPARAMS] = {
    [GT_AS_WAY] = {.name = "way", .label = "way in", .type = GT_P_ENUM, .max = GT_AS_NWAYS - 1,
                   .def = GT_AS_PLAIN, .choices = way_names, .nchoices = GT_AS_NWAYS,
                   .help = "plain: loads into registers, then stores; cp.async: each thread "
                           "copies without registers (sm_80); bulk: one thread copies the whole "
                           "tile (cp.async.bulk, sm_90); tma: the Tensor Memory Accelerator "
                           "copies a 2D tile of a tensor map (sm_90)"},
    [GT_AS_TILE] = {.name = "tile", .label = "tile", .type = GT_P_SIZE, .min = 1024,
                    .max = 64 << 10, .def = 16 << 10, .align = 1024, .unit = "bytes",
                    .help = "bytes a block brings in at a time (a stage); tma: a box of 64 words "
                            "by tile / 256 rows"},
    [GT_AS_STAGES] = {.name = "stages", .label = "stages", .type = GT_P_INT, .min = 1, .max = 8,
                      .def = 2, .step = 1,
                      .help = "tiles a block has on their way at once; 1: each tile waited for "
                              "before the next is asked",
                      .applies = staged},
    [GT_AS_WIDTH] = {.name = "width", .label = "bytes a cp.async", .type = GT_P_ENUM, .max = 2,
                     .def = 2, .choices = width_names, .nchoices = 3,
                     .help = "what one cp.async moves: 4 or 8 bytes (cp.async.ca, through the "
                             "L1) or 16 (cp.async.cg, past it)",
                     .applies = cp_async},
    [GT_AS_BLOCKS] = {.name = "blocks", .label = "blocks per SM", .type = GT_P_INT, .min = 1,
                      .max = GT_AS_MAX_BLOCKS, .def = 1, .step = 1,
                      .help = "blocks of 256 threads on each SM at once (the occupancy), 1 to 4; "
                              "each has its own stages"},
    [GT_AS_COMPUTE] = {.name = "compute", .label = "compute per word", .type = GT_P_INT,
                       .max = 4096, .def = 0,
                       .help = "dependent multiply-adds on each word once it is in shared "
                               "memory: the work that later stages can hide the copies behind"},
    [GT_AS_SIZE] = {.name = "size", .label = "bytes read", .type = GT_P_SIZE, .min = 1 << 20,
                    .max = 16ll << 30, .def = 256ll << 20, .align = 1 << 20, .unit = "bytes",
                    .help = "the buffer read into shared memory once a sample, a multiple of 16 "
                            "tiles; the cudaMemcpy copies as much"},
    [GT_AS_WARMUP] = GT_PARAM_WARMUP(3),
};

const char *gt_as_way_name(int64_t way)
{
    return way >= 0 && way < GT_AS_NWAYS ? way_names[way] : "?";
}

unsigned gt_as_width(int64_t w)
{
    return w == 0 ? 4u : w == 1 ? 8u : 16u;
}

int gt_as_stages(const int64_t *v)
{
    return v[GT_AS_WAY] == GT_AS_PLAIN ? 1 : (int)v[GT_AS_STAGES];
}

uint32_t gt_as_smem(const int64_t *v)
{
    return (uint32_t)gt_as_stages(v) * (uint32_t)v[GT_AS_TILE] +
           (v[GT_AS_WAY] >= GT_AS_BULK ? GT_AS_SMEM_EXTRA : 0);
}

/* Plain loads of a tile: the threads that load and the 16-byte loads each
 * has in flight at once (all of a tile under 16 KiB). */
static void plain_loads(const int64_t *v, int64_t *threads, int64_t *loads)
{
    int64_t vecs = v[GT_AS_TILE] / 16, per = (vecs + GT_AS_THREADS - 1) / GT_AS_THREADS;

    *threads = vecs < GT_AS_THREADS ? vecs : GT_AS_THREADS;
    *loads = per < GT_AS_PLAIN_LOADS ? per : GT_AS_PLAIN_LOADS;
}

uint64_t gt_as_in_flight(const int64_t *v)
{
    int64_t threads, loads;
    uint64_t per_block = (uint64_t)v[GT_AS_STAGES] * (uint64_t)v[GT_AS_TILE];

    if (v[GT_AS_WAY] == GT_AS_PLAIN) {
        plain_loads(v, &threads, &loads);
        per_block = (uint64_t)(threads * loads * 16);
    }
    return per_block * (uint64_t)v[GT_AS_BLOCKS];
}

int gt_as_needs_cc(int way)
{
    return way == GT_AS_CPASYNC ? 80 : way >= GT_AS_BULK ? 90 : 0;
}

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_AS_S_WAY] = "into shared memory";
    names[GT_AS_S_D2D] = "cudaMemcpy D2D";
    return GT_AS_NSERIES;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    int way = (int)v[GT_AS_WAY], need = gt_as_needs_cc(way);
    uint64_t tile = (uint64_t)v[GT_AS_TILE], size = (uint64_t)v[GT_AS_SIZE];
    uint32_t smem = gt_as_smem(v);
    char a[32], b[32], c[32];

    if (need && gt_dp_ok(p, GT_DP_CC) && gt_dp_get(p, GT_DP_CC) < need) {
        snprintf(err, n, "way=%s needs compute capability %d.0 or newer (%s); this device is "
                 "%lld.%lld; allowed here: %s", way_names[way], need / 10,
                 need == 80 ? "cp.async came with Ampere" : "bulk copies and the TMA came with "
                 "Hopper", (long long)gt_dp_get(p, GT_DP_CC) / 10,
                 (long long)gt_dp_get(p, GT_DP_CC) % 10,
                 gt_dp_get(p, GT_DP_CC) >= 80 ? "plain, cp.async" : "plain");
        return -1;
    }
    if (way >= GT_AS_BULK &&
        gt_dp_need_cuda(p, 12000, way == GT_AS_TMA ? "way=tma" : "way=bulk",
                        way == GT_AS_TMA ? "cuTensorMapEncodeTiled, cp.async.bulk.tensor"
                                         : "cp.async.bulk", err, n))
        return -1;
    if (tile % 1024) {
        snprintf(err, n, "tile: %s; allowed: a multiple of 1 KiB from 1 KiB to 64 KiB",
                 gt_format_size(tile, a, sizeof a));
        return -1;
    }
    if (size % (16 * tile)) {
        snprintf(err, n, "size: %s is not a multiple of 16 tiles (%s); allowed: multiples of %s",
                 gt_format_size(size, a, sizeof a), gt_format_size(16 * tile, b, sizeof b),
                 gt_format_size(16 * tile, c, sizeof c));
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_SMEM_BLOCK) && smem > (uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK)) {
        uint64_t most = ((uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK) - (smem - gt_as_stages(v) *
                        tile)) / tile;
        snprintf(err, n, "stages: %d stages of %s ask %s of shared memory a block; this device "
                 "gives a block at most %s; allowed here: %s", gt_as_stages(v),
                 gt_format_size(tile, a, sizeof a), gt_format_size(smem, b, sizeof b),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK), c, sizeof c),
                 most ? "fewer stages" : "a smaller tile");
        if (most)
            snprintf(err + strlen(err), n - strlen(err), ", at most %llu of %s",
                     (unsigned long long)most, gt_format_size(tile, a, sizeof a));
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_SMEM_SM) &&
        (uint64_t)v[GT_AS_BLOCKS] * (smem + GT_AS_SMEM_RESERVED) >
            (uint64_t)gt_dp_get(p, GT_DP_SMEM_SM)) {
        uint64_t fit = (uint64_t)gt_dp_get(p, GT_DP_SMEM_SM) / (smem + GT_AS_SMEM_RESERVED);
        snprintf(err, n, "blocks: %lld blocks of %s of shared memory (and 1 KiB the driver "
                 "keeps each) do not fit the SM's %s; allowed here: %s", (long long)v[GT_AS_BLOCKS],
                 gt_format_size(smem, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_SMEM_SM), b, sizeof b),
                 fit ? (snprintf(c, sizeof c, "1 to %llu", (unsigned long long)fit), c)
                     : "none: fewer stages or a smaller tile");
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && 2 * size > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "size: %s read and as much copied need %s; the device has %s free",
                 gt_format_size(size, a, sizeof a), gt_format_size(2 * size, b, sizeof b),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), c, sizeof c));
        return -1;
    }
    return 0;
}

/* The way in only reads device memory, the copy reads and writes it; a
 * buffer the L2 holds (the copy's writes may stay there) is bounded by
 * nothing known. */
static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    if (gt_ceiling_in_l2(p, (uint64_t)v[GT_AS_SIZE], "buffer", factor, label, n))
        return 0;
    return s == GT_AS_S_D2D ? gt_ceiling_hbm(p, factor, label, n)
                            : gt_ceiling_hbm_read(p, factor, label, n);
}

/* Bytes a second of a series' p50. */
static double rate(gt_run *r, int s)
{
    double t = gt_run_p50(r, s);

    return isfinite(t) && t > 0 ? (double)r->vals[GT_AS_SIZE] / t : NAN;
}

static const char *mechanism(int way)
{
    switch (way) {
    case GT_AS_PLAIN:
        return "plain loads: each thread loads 16 bytes into registers, up to four at a time, "
               "then stores them to shared memory; the block waits for the tile before its next";
    case GT_AS_CPASYNC:
        return "cp.async: each thread asks for its words and goes on; they land in shared "
               "memory without passing through its registers, a commit group a stage";
    case GT_AS_BULK:
        return "bulk copy: one thread asks for the whole tile (cp.async.bulk) and an mbarrier "
               "counts its bytes in; the other threads only wait for it";
    default:
        return "TMA: one thread gives the Tensor Memory Accelerator a tensor map and the "
               "tile's coordinates; it fetches the 2D box, row by row, and an mbarrier counts "
               "its bytes in";
    }
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double in = rate(r, GT_AS_S_WAY), cp = rate(r, GT_AS_S_D2D);
    uint64_t fly = gt_as_in_flight(v);
    char a[32], b[64], c[32];
    int n = 0;

    (void)p;
    if (n < max && isfinite(in))        /* its share of the memory's peak: the ceiling's line */
        snprintf(lines[n++], sizeof lines[0], "%s: %.0f GB/s into shared memory (p50)",
                 way_names[v[GT_AS_WAY]], in / 1e9);
    if (n < max && isfinite(in) && isfinite(cp))
        snprintf(lines[n++], sizeof lines[0], "cudaMemcpy of the same bytes: %.0f GB/s, counted "
                 "once (it reads and writes each: the memory moves twice that); the way in "
                 "reads %.2fx its rate", cp / 1e9, in / cp);
    if (v[GT_AS_WAY] == GT_AS_PLAIN) {
        int64_t threads, loads;
        plain_loads(v, &threads, &loads);
        snprintf(b, sizeof b, "%lld threads x %lld load%s of 16 B in registers",
                 (long long)threads, (long long)loads, loads == 1 ? "" : "s");
    } else {
        snprintf(b, sizeof b, "%lld stages of %s", (long long)v[GT_AS_STAGES],
                 gt_format_size((uint64_t)v[GT_AS_TILE], c, sizeof c));
    }
    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "in flight an SM: up to %s (%lld block%s x %s)",
                 gt_format_size(fly, a, sizeof a), (long long)v[GT_AS_BLOCKS],
                 v[GT_AS_BLOCKS] == 1 ? "" : "s", b);
    return n;
}

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)

static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double bw = rate(r, s);
    int64_t sms = gt_dp_get(p, GT_DP_SMS);
    uint64_t fly = gt_as_in_flight(v);
    const char *regs = strstr(r->info.note, " registers a thread");
    char a[32];
    int n = 0;

    if (!isfinite(bw))
        return 0;
    if (s == GT_AS_S_D2D) {
        LINE("cudaMemcpy device to device of %s: %.0f GB/s (p50), each byte counted once",
             gt_format_size((uint64_t)v[GT_AS_SIZE], a, sizeof a), bw / 1e9);
        LINE("the copy reads and writes every byte, so the memory moves twice what is counted; "
             "the way in only reads, and its bytes stop in shared memory");
        return n;
    }
    LINE("%s into shared memory: %.0f GB/s (p50)", way_names[v[GT_AS_WAY]], bw / 1e9);
    LINE("%s", mechanism((int)v[GT_AS_WAY]));
    if (regs) {
        const char *at = regs;
        while (at > r->info.note && at[-1] >= '0' && at[-1] <= '9')
            at--;
        LINE("the kernel holds %.*s registers a thread (cudaFuncGetAttributes)",
             (int)(regs - at), at);
    }
    if (sms > 0) {
        double per_sm = bw / (double)sms;
        LINE("an SM takes in %.1f GB/s; with %s on its way at once, each byte's round trip can "
             "be at most %.2f us (Little's law: in flight = rate x latency)", per_sm / 1e9,
             gt_format_size(fly, a, sizeof a), (double)fly / per_sm * 1e6);
    }
    if (v[GT_AS_WAY] != GT_AS_PLAIN && v[GT_AS_STAGES] == 1)
        LINE("one stage: the block waits for each tile before it asks for the next, as plain "
             "loads do; more stages keep tiles coming while it works on one");
    if (v[GT_AS_COMPUTE])
        LINE("%lld dependent multiply-adds a word once it has landed: work the copies of later "
             "stages can hide behind", (long long)v[GT_AS_COMPUTE]);
    return n;
}

/* way: the four; stages 1 to 8; compute 0, 16, 64, 256, 1024; tile 1 to
 * 64 KiB; blocks 1 to 4. */
static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    int n = 0;

    (void)p;
    switch (param) {
    case GT_AS_WAY:
        for (int w = 0; w < GT_AS_NWAYS && n < max; w++)
            out[n++] = w;
        break;
    case GT_AS_STAGES:
    case GT_AS_BLOCKS:
        for (int k = 1; k <= (param == GT_AS_BLOCKS ? GT_AS_MAX_BLOCKS : 8) && n < max; k++)
            out[n++] = k;
        break;
    case GT_AS_COMPUTE:
        for (int64_t c = 0; c <= 1024 && n < max; c = c ? c * 4 : 16)
            out[n++] = c;
        break;
    case GT_AS_TILE:
        for (int64_t t = 1024; t <= (64 << 10) && n < max; t *= 2)
            out[n++] = t;
        break;
    default:
        break;
    }
    return n;
}

GT_EXPERIMENT(gt_exp_async) = {
    .name = "async",
    .title = "Global to shared memory: loads, cp.async, bulk copies, the TMA",
    .explain =
        "Every block reads its share of a buffer into shared memory a tile at a time and checks "
        "each word where it lands, then works on it ('compute'). Plain loads pass each word "
        "through a thread's registers and the block waits for every tile; cp.async (Ampere) "
        "copies without registers, through a pipeline of stages; a bulk copy (Hopper) is one "
        "thread's request for a whole tile; the TMA copies a 2D box of a tensor map. With "
        "one block an SM, what keeps the memory busy is the bytes in flight: the async ways "
        "have a whole stage each on its way. A cudaMemcpy of the same bytes runs beside.",
    .params = params,
    .nparams = GT_AS_NPARAMS,
    .warmup_param = GT_AS_WARMUP,
    .series = series,
    .ceiling = ceiling,
    .check = check,
    .bandwidth = true,
    .summary = summary,
    .sweep_values = sweep_values,
    .why = why,
};
