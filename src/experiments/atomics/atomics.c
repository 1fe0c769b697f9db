/* The atomics experiment's table row: a grid of threads makes atomic
 * operations on K addresses (each thread's operation i going to address
 * (t + i) mod K, or each thread to its own), in global memory, in shared
 * memory (per-block bins merged at the end), in mapped host memory or in
 * a peer GPU's; the operation, its type and scope, and a warp's
 * aggregation by hand; every address checked exactly against what the
 * host works out. The GPU side is src/experiments/atomics/atomics_gpu.c,
 * its kernels atomics_kernels.cu. */
#include "atomics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const where_names[] = {"global", "shared", "mapped", "peer"};
static const char *const op_names[] = {"add", "min", "max", "cas", "mul"};
static const char *const type_names[] = {"u32", "u64", "f32", "f64"};
static const char *const scope_names[] = {"block", "device", "system"};
static const char *const agg_names[] = {"compiler", "warp"};

static const gt_param params[GT_AT_NPARAMS] = {
    [GT_AT_WHERE] = {.name = "where", .label = "memory", .type = GT_P_ENUM, .max = 3,
                     .def = GT_AT_GLOBAL, .choices = where_names, .nchoices = 4,
                     .help = "global (cudaMalloc), shared (each block's own bins, merged into "
                             "global memory at its end), mapped (pinned host memory, over the "
                             "link), peer (another GPU's memory)"},
    [GT_AT_ADDRS] = {.name = "addresses", .label = "addresses (K)", .type = GT_P_INT,
                     .max = 1 << 24, .def = 1, .zero_name = "each",
                     .help = "how many addresses the operations share: 1, K (thread t's "
                             "operation i to (t + i) mod K), or each: every thread its own"},
    [GT_AT_STRIDE] = {.name = "stride", .label = "stride (words)", .type = GT_P_INT, .min = 1,
                      .max = 1024, .def = 1,
                      .help = "targets between one address and the next: 1 packs them, 32 "
                              "puts each in a 128-byte line of its own (for 4-byte targets)"},
    [GT_AT_OP] = {.name = "op", .label = "operation", .type = GT_P_ENUM, .max = GT_AT_NOPS - 1,
                  .def = GT_AT_ADD, .choices = op_names, .nchoices = GT_AT_NOPS,
                  .help = "add (atomicAdd of 1), min and max (atomicMin/Max of a value of "
                          "each operation), cas (an add of 1 by an atomicCAS loop), mul (x 3 "
                          "by an atomicCAS loop: no native atomic does it)"},
    [GT_AT_TYPE] = {.name = "type", .label = "type", .type = GT_P_ENUM, .max = 3,
                    .def = GT_AT_U32, .choices = type_names, .nchoices = 4,
                    .help = "u32, u64, f32 or f64 (min, max and mul: integers only)"},
    [GT_AT_SCOPE] = {.name = "scope", .label = "scope", .type = GT_P_ENUM, .max = 2,
                     .def = GT_AT_DEVICE, .choices = scope_names, .nchoices = 3,
                     .help = "block (_block: atomic for the block's threads), device (the "
                             "default), system (_system: for the host and other GPUs too)"},
    [GT_AT_AGG] = {.name = "aggregate", .label = "aggregation", .type = GT_P_ENUM, .max = 1,
                   .def = GT_AT_COMPILER, .choices = agg_names, .nchoices = 2,
                   .help = "compiler: each lane's atomic as written; warp: by hand, the lanes "
                           "with one address (__match_any_sync) elect a leader that adds for "
                           "all (op=add)"},
    [GT_AT_BLOCKS] = {.name = "blocks", .label = "blocks per SM", .type = GT_P_INT, .min = 1,
                      .max = 32, .def = 4,
                      .help = "blocks of 256 threads on each SM"},
    [GT_AT_OPS] = {.name = "ops", .label = "operations a thread", .type = GT_P_INT, .min = 1,
                   .max = 1 << 16, .def = 64,
                   .help = "atomic operations each thread makes a sample"},
    [GT_AT_WARMUP] = GT_PARAM_WARMUP(3),
};

uint64_t gt_at_threads(const int64_t *v, int sms)
{
    return (uint64_t)v[GT_AT_BLOCKS] * (uint64_t)(sms > 0 ? sms : 1) * GT_AT_THREADS;
}

uint64_t gt_at_addresses(const int64_t *v, int sms)
{
    return v[GT_AT_ADDRS] ? (uint64_t)v[GT_AT_ADDRS] : gt_at_threads(v, sms);
}

unsigned gt_at_size(int64_t type)
{
    return type == GT_AT_U64 || type == GT_AT_F64 ? 8u : 4u;
}

int gt_at_conflict(const int64_t *v)
{
    int64_t k = v[GT_AT_ADDRS];

    return !k || k >= 32 ? 1 : (int)((32 + k - 1) / k);
}

void gt_at_counts(uint64_t threads, uint64_t ops, uint64_t k, int own, uint64_t *count)
{
    /* Each thread adds ops / K to every address and 1 more to the ops mod K
     * addresses from t mod K on (wrapping): a difference array. */
    uint64_t base = ops / k, part = ops % k;

    memset(count, 0, k * sizeof *count);
    if (own) {
        for (uint64_t t = 0; t < threads && t < k; t++)
            count[t] = ops;
        return;
    }
    for (uint64_t t = 0; t < threads; t++) {
        uint64_t from = t % k, to = from + part;        /* [from, to) */
        if (!part)
            continue;
        count[from]++;
        if (to < k) {
            count[to]--;
        } else {
            count[0]++;
            if (to - k < k)
                count[to - k]--;
        }
    }
    for (uint64_t a = 1; a < k; a++)
        count[a] += count[a - 1];
    for (uint64_t a = 0; a < k; a++)
        count[a] += base * threads;
}

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[0] = "atomics";
    return 1;
}

/* The threads that share one address (1: each its own), and whether the
 * targets lie across a link, where each operation is a round trip. */
static uint64_t sharing(const int64_t *v, uint64_t threads, uint64_t k)
{
    return v[GT_AT_ADDRS] ? (threads + k - 1) / k : 1;
}

static bool over_link(const int64_t *v)
{
    return v[GT_AT_WHERE] == GT_AT_MAPPED || v[GT_AT_WHERE] == GT_AT_PEER;
}

static int log2_of(uint64_t x)
{
    int b = 0;

    while (x >>= 1)
        b++;
    return b;
}

/* A CAS loop's tries grow as the square of the threads on an address
 * (GT_AT_MAX_TRIES): refused, with the addresses or the operations a
 * thread that keep a sample short, where the bound is passed. */
static int contended_loop(const int64_t *v, uint64_t threads, uint64_t k, char *err, size_t n)
{
    uint64_t most = over_link(v) ? GT_AT_MAX_TRIES_LINK : GT_AT_MAX_TRIES;
    uint64_t ops = (uint64_t)v[GT_AT_OPS], c = sharing(v, threads, k), q = most / ops, side;

    if ((v[GT_AT_OP] != GT_AT_CAS && v[GT_AT_OP] != GT_AT_MUL) ||
        v[GT_AT_WHERE] == GT_AT_SHARED || c * c <= q)
        return 0;
    side = (uint64_t)sqrt((double)q);           /* the most threads an address may have */
    while (side * side > q)
        side--;
    snprintf(err, n, "op=%s on %llu address%s: %llu threads retry on each, and each success "
             "costs a try of about every other, some 2^%d tries a sample%s; allowed: at most "
             "2^%d, so that a sample stays short: addresses of at least %llu%s",
             op_names[v[GT_AT_OP]], (unsigned long long)k, k == 1 ? "" : "es",
             (unsigned long long)c, log2_of(c * c * ops),
             over_link(v) ? ", each a round trip over the link" : "", log2_of(most),
             (unsigned long long)((threads + side - 1) / side),
             most / (c * c) >= 1 ? ", or fewer operations a thread" : ", or fewer blocks");
    return -1;
}

/* One address over the link, its operations one round trip after another
 * (GT_AT_MAX_LINK_OPS): refused past the bound, with what keeps it. */
static int hot_over_link(const int64_t *v, uint64_t threads, uint64_t k, char *err, size_t n)
{
    uint64_t c = sharing(v, threads, k), ops = (uint64_t)v[GT_AT_OPS];
    uint64_t each = c * ops / (v[GT_AT_AGG] == GT_AT_WARP && c >= 32 ? 32 : 1);
    uint64_t most = each ? ops * GT_AT_MAX_LINK_OPS / each : 0;  /* operations a thread that fit */
    char fewer[64] = "fewer blocks";

    if (!over_link(v) || each <= GT_AT_MAX_LINK_OPS)
        return 0;
    if (most)
        snprintf(fewer, sizeof fewer, "at most %llu operations a thread", (unsigned long long)most);
    snprintf(err, n, "where=%s: %llu operations on each of %llu address%s, each a round trip "
             "over the link after the one before; allowed: at most 2^%d (%llu) an address, so "
             "that a sample stays short: %s, or more addresses", where_names[v[GT_AT_WHERE]],
             (unsigned long long)each, (unsigned long long)k, k == 1 ? "" : "es",
             log2_of(GT_AT_MAX_LINK_OPS), (unsigned long long)GT_AT_MAX_LINK_OPS, fewer);
    return -1;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    int sms = gt_dp_ok(p, GT_DP_SMS) ? (int)gt_dp_get(p, GT_DP_SMS) : 132;
    uint64_t threads = gt_at_threads(v, sms), k = gt_at_addresses(v, sms);
    uint64_t total = threads * (uint64_t)v[GT_AT_OPS], unit = gt_at_size(v[GT_AT_TYPE]);
    uint64_t span = ((k - 1) * (uint64_t)v[GT_AT_STRIDE] + 1) * unit;
    bool is_float = v[GT_AT_TYPE] == GT_AT_F32 || v[GT_AT_TYPE] == GT_AT_F64;
    char a[32], b[32];

    if (total > GT_AT_MAX_OPS) {
        snprintf(err, n, "ops: %llu threads x %lld operations is %llu a sample; allowed: at most "
                 "2^26 (%llu), so that a sample stays short and the host can check it: at most "
                 "%llu operations a thread here", (unsigned long long)threads,
                 (long long)v[GT_AT_OPS], (unsigned long long)total,
                 (unsigned long long)GT_AT_MAX_OPS,
                 (unsigned long long)(GT_AT_MAX_OPS / threads));
        return -1;
    }
    if (is_float && (v[GT_AT_OP] == GT_AT_MIN || v[GT_AT_OP] == GT_AT_MAX ||
                     v[GT_AT_OP] == GT_AT_MUL)) {
        snprintf(err, n, "op=%s works on integers (a float's result would depend on the order "
                 "of arrival); allowed with type=%s: add, cas", op_names[v[GT_AT_OP]],
                 type_names[v[GT_AT_TYPE]]);
        return -1;
    }
    if (v[GT_AT_AGG] == GT_AT_WARP && v[GT_AT_OP] != GT_AT_ADD) {
        snprintf(err, n, "aggregate=warp: the leader adds for its lanes, which only op=add "
                 "allows; allowed with op=%s: compiler", op_names[v[GT_AT_OP]]);
        return -1;
    }
    if (v[GT_AT_TYPE] == GT_AT_F32 && total / k >= GT_AT_F32_EXACT) {
        snprintf(err, n, "type=f32: an address would count to about %llu, past 2^24, where "
                 "adding 1 to a float no longer changes it; allowed: fewer operations or more "
                 "addresses", (unsigned long long)(total / k));
        return -1;
    }
    if (contended_loop(v, threads, k, err, n))
        return -1;
    if (gt_dp_ok(p, GT_DP_CC) && gt_dp_get(p, GT_DP_CC) < 60 &&
        (v[GT_AT_TYPE] == GT_AT_F64 || v[GT_AT_SCOPE] != GT_AT_DEVICE)) {
        snprintf(err, n, "%s needs compute capability 6.0; this device is %lld.%lld; allowed "
                 "here: type u32, u64 or f32 at device scope", v[GT_AT_TYPE] == GT_AT_F64 ?
                 "an f64 atomicAdd" : "an atomic of block or system scope",
                 (long long)gt_dp_get(p, GT_DP_CC) / 10, (long long)gt_dp_get(p, GT_DP_CC) % 10);
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_CC) && gt_dp_get(p, GT_DP_CC) < 70 && v[GT_AT_AGG] == GT_AT_WARP) {
        snprintf(err, n, "aggregate=warp needs __match_any_sync, compute capability 7.0; this "
                 "device is %lld.%lld; allowed here: compiler",
                 (long long)gt_dp_get(p, GT_DP_CC) / 10, (long long)gt_dp_get(p, GT_DP_CC) % 10);
        return -1;
    }
    if (v[GT_AT_WHERE] == GT_AT_SHARED) {
        uint64_t room = gt_dp_ok(p, GT_DP_SMEM_BLOCK) ? (uint64_t)gt_dp_get(p, GT_DP_SMEM_BLOCK)
                                                      : 48u << 10;
        if (!v[GT_AT_ADDRS] || span > room) {
            snprintf(err, n, "where=shared: %s of bins (%s addresses %lld targets apart) in a "
                     "block's shared memory, which holds %s; allowed: a K whose span fits",
                     v[GT_AT_ADDRS] ? gt_format_size(span, a, sizeof a) : "one bin a thread",
                     v[GT_AT_ADDRS] ? "K" : "each thread's own", (long long)v[GT_AT_STRIDE],
                     gt_format_size(room, b, sizeof b));
            return -1;
        }
    } else if (span > GT_AT_MAX_SPAN) {
        snprintf(err, n, "addresses: %llu addresses %lld targets apart span %s; allowed: at "
                 "most 1 GiB (fewer addresses or a smaller stride)", (unsigned long long)k,
                 (long long)v[GT_AT_STRIDE], gt_format_size(span, a, sizeof a));
        return -1;
    }
    if (v[GT_AT_WHERE] == GT_AT_MAPPED && gt_dp_ok(p, GT_DP_CAN_MAP) &&
        !gt_dp_get(p, GT_DP_CAN_MAP)) {
        snprintf(err, n, "where=mapped: this device cannot map host memory (canMapHostMemory = "
                 "0); allowed here: global, shared, peer");
        return -1;
    }
    if (v[GT_AT_WHERE] == GT_AT_PEER) {
        int peer = gt_topo_pick_peer(&p->topo, p->ordinal, -1);
        if (p->topo.count < 2 || peer < 0) {
            snprintf(err, n, "where=peer needs two GPUs; this machine has %s; allowed here: "
                     "global, shared, mapped", gt_topo_count_words(&p->topo));
            return -1;
        }
    }
    return hot_over_link(v, threads, k, err, n);
}

static double ops_per_s(gt_run *r, const gt_devprops *p)
{
    int sms = gt_dp_ok(p, GT_DP_SMS) ? (int)gt_dp_get(p, GT_DP_SMS) : 0;
    double t = gt_run_p50(r, 0);

    return sms && isfinite(t) && t > 0
               ? (double)gt_at_threads(r->vals, sms) * (double)r->vals[GT_AT_OPS] / t : NAN;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double rate = ops_per_s(r, p);
    int c = gt_at_conflict(v), n = 0;

    if (n < max && isfinite(rate))
        snprintf(lines[n++], sizeof lines[0], "%.2f G atomic %s of %s a second (p50), %s "
                 "memory, %s scope", rate / 1e9, op_names[v[GT_AT_OP]], type_names[v[GT_AT_TYPE]],
                 where_names[v[GT_AT_WHERE]], scope_names[v[GT_AT_SCOPE]]);
    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "the addresses put up to %d lane%s of a warp on "
                 "one address at once%s", c, c == 1 ? "" : "s",
                 v[GT_AT_AGG] == GT_AT_WARP ? "; aggregated by hand: one atomic an address a "
                 "warp" : "");
    return n;
}

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)

static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double rate = ops_per_s(r, p);
    int c = gt_at_conflict(v), n = 0;

    (void)s;
    if (!isfinite(rate))
        return 0;
    LINE("%.2f G atomics a second (p50); every address checked exactly after the sample",
         rate / 1e9);
    if (v[GT_AT_ADDRS] == 1)
        LINE("one address: every lane of every warp on it; the compiler may add a warp's "
             "lanes first and send one atomic (whether it did here shows in the measurement "
             "alone, against K = 32)");
    else
        LINE("%d lane%s of a warp at once on an address: those the memory must serialize", c,
             c == 1 ? "" : "s");
    switch (v[GT_AT_WHERE]) {
    case GT_AT_SHARED:
        LINE("shared memory: each block's bins on its SM, atomics done there; one merge into "
             "global memory a bin a block at the end");
        break;
    case GT_AT_MAPPED:
        LINE("mapped host memory: each atomic crosses the link to the host and back; "
             "hostNativeAtomicSupported %s says whether the CPU sees them as atomic",
             gt_dp_ok(p, GT_DP_HOST_ATOMIC) ? (gt_dp_get(p, GT_DP_HOST_ATOMIC) ? "1 here"
                                                                             : "0 here")
                                            : "(N/A)");
        break;
    case GT_AT_PEER:
        LINE("a peer's memory: each atomic crosses the link to the other GPU and back");
        break;
    default:
        LINE("global memory: the L2 performs each atomic near the memory; the SM waits for none "
             "of them (no return value used)");
        break;
    }
    if (v[GT_AT_OP] == GT_AT_CAS || v[GT_AT_OP] == GT_AT_MUL)
        LINE("a CAS loop: read, compute, atomicCAS, again while another lane got there first: "
             "the more lanes on an address, the more tries");
    return n;
}

/* K: 1, 2, 4, ... 32, 64, 1024, 65536 and each; blocks 1 to 32. */
static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    static const int64_t ks[] = {1, 2, 4, 8, 16, 32, 64, 1024, 65536, 0};
    int n = 0;

    (void)p;
    if (param == GT_AT_ADDRS)
        for (size_t i = 0; i < sizeof ks / sizeof ks[0] && n < max; i++)
            out[n++] = ks[i];
    else if (param == GT_AT_BLOCKS)
        for (int64_t b = 1; b <= 32 && n < max; b *= 2)
            out[n++] = b;
    else if (param == GT_AT_WHERE || param == GT_AT_SCOPE || param == GT_AT_OP ||
             param == GT_AT_TYPE)
        for (int64_t k = 0; k <= params[param].max && n < max; k++)
            out[n++] = k;
    return n;
}

GT_EXPERIMENT(gt_exp_atomics) = {
    .name = "atomics",
    .title = "Atomics: contention, privatization, aggregation and scope",
    .explain =
        "A grid of threads makes atomic operations on K addresses: one, a few, or each thread "
        "its own. Lanes of a warp on one address wait for each other, unless the compiler (or "
        "the code, by hand) adds them first; privatized into each block's shared memory, the "
        "atomics stay on the SM and only the merge goes out; on mapped host memory or a "
        "peer's, each crosses the link. Every address is checked exactly after each sample: "
        "an atomic that lost an update fails it.",
    .params = params,
    .nparams = GT_AT_NPARAMS,
    .warmup_param = GT_AT_WARMUP,
    .series = series,
    .check = check,
    .bandwidth = false,
    .summary = summary,
    .sweep_values = sweep_values,
    .why = why,
};
