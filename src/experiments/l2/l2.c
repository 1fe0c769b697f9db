/* The L2 persistence experiment's table row. The GPU side is
 * src/experiments/l2/l2_gpu.c. */
#include "l2.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/measure/bounds.h"
#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const op_names[] = {"window", "cost", "compete"};
static const char *const prop_names[] = {"persisting", "streaming", "normal"};
static const char *const apply_names[] = {"stream", "graph"};

static bool window_op(const int64_t *v, const char **why)
{
    if (v[GT_L2_OP] != GT_L2_OP_COST)
        return true;
    *why = "only with op=window or op=compete";
    return false;
}

static bool apply_op(const int64_t *v, const char **why)
{
    if (v[GT_L2_OP] == GT_L2_OP_WINDOW)
        return true;
    *why = "only with op=window";
    return false;
}

static const gt_param params[GT_L2_NPARAMS] = {
    [GT_L2_OP] = {.name = "op", .label = "measure", .type = GT_P_ENUM, .max = 2,
                  .def = GT_L2_OP_WINDOW, .choices = op_names, .nchoices = 3,
                  .help = "window: the kernel with the access-policy window and without; cost: a "
                          "device copy under the set-aside and with none; compete: two kernels "
                          "at once on two streams, each with its own region and window"},
    [GT_L2_SETASIDE] = {.name = "set-aside", .label = "set-aside (% of max)", .type = GT_P_INT,
                        .max = 100, .def = 100, .step = 5, .unit = "%",
                        .help = "cudaLimitPersistingL2CacheSize as a share of "
                                "persistingL2CacheMaxSize; the driver rounds what it grants"},
    [GT_L2_WINDOW] = {.name = "window", .label = "window num_bytes", .type = GT_P_SIZE,
                      .max = 4ll << 30, .align = 4, .unit = "bytes",
                      .help = "accessPolicyWindow.num_bytes from the persisting region's start; "
                              "region = all of it",
                      .applies = window_op, .zero_name = "region"},
    [GT_L2_HIT] = {.name = "hit-ratio", .label = "hitRatio (%)", .type = GT_P_INT, .max = 100,
                   .def = 100, .step = 5, .unit = "%",
                   .help = "share of the window's accesses that get hitProp; 0 to 100 in steps "
                           "of 5",
                   .applies = window_op},
    [GT_L2_HITPROP] = {.name = "hit-prop", .label = "hitProp", .type = GT_P_ENUM, .max = 2,
                       .def = GT_L2_PROP_PERSISTING, .choices = prop_names, .nchoices = 3,
                       .help = "cudaAccessPropertyPersisting, Streaming or Normal",
                       .applies = window_op},
    [GT_L2_MISSPROP] = {.name = "miss-prop", .label = "missProp", .type = GT_P_ENUM, .max = 2,
                        .def = GT_L2_PROP_STREAMING, .choices = prop_names, .nchoices = 3,
                        .help = "the property of the other accesses: streaming or normal "
                                "(persisting is refused, as the runtime does)",
                        .applies = window_op},
    [GT_L2_APPLY] = {.name = "apply", .label = "window set on", .type = GT_P_ENUM, .max = 1,
                     .def = GT_L2_APPLY_STREAM, .choices = apply_names, .nchoices = 2,
                     .help = "stream: a stream attribute; graph: the kernel node's attribute in "
                             "a CUDA graph",
                     .applies = apply_op},
    [GT_L2_REGION] = {.name = "region", .label = "persisting region", .type = GT_P_SIZE,
                      .min = 1 << 20, .max = 1ll << 30, .def = 32ll << 20, .align = 4096,
                      .unit = "bytes",
                      .help = "the data every thread re-reads (the window covers it)",
                      .applies = window_op},
    [GT_L2_STREAMING] = {.name = "streaming", .label = "streaming data", .type = GT_P_SIZE,
                         .min = 16ll << 20, .max = 16ll << 30, .def = 1ll << 30, .align = 4096,
                         .unit = "bytes",
                         .help = "data read and written once per launch (cost: the size of the "
                                 "copy)"},
    [GT_L2_WARMUP] = GT_PARAM_WARMUP(2),
};

static int series(const int64_t *v, const char **names)
{
    if (v[GT_L2_OP] == GT_L2_OP_WINDOW) {
        names[GT_L2_S_WINDOW] = "with window";
        names[GT_L2_S_BASELINE] = "no window";
    } else if (v[GT_L2_OP] == GT_L2_OP_COMPETE) {
        names[GT_L2_S_WINDOW] = "both windows";
        names[GT_L2_S_BASELINE] = "no windows";
    } else {
        names[GT_L2_S_WINDOW] = "D2D under set-aside";
        names[GT_L2_S_BASELINE] = "D2D, limit 0";
    }
    return 2;
}

uint64_t gt_l2_setaside(const int64_t *v, const gt_devprops *p)
{
    return (uint64_t)gt_dp_get(p, GT_DP_PERSIST_MAX) * (uint64_t)v[GT_L2_SETASIDE] / 100;
}

uint64_t gt_l2_window(const int64_t *v, const gt_devprops *p)
{
    uint64_t w = v[GT_L2_WINDOW] ? (uint64_t)v[GT_L2_WINDOW] : (uint64_t)v[GT_L2_REGION];
    uint64_t max = (uint64_t)gt_dp_get(p, GT_DP_WINDOW_MAX);

    return max && w > max ? max : w;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    char a[32], b[32];
    uint64_t need;

    if (gt_dp_ok(p, GT_DP_CC) && gt_dp_get(p, GT_DP_CC) < 80) {
        snprintf(err, n, "experiment l2: L2 persistence needs compute capability 8.0 or "
                 "newer; this device is %lld.%lld", (long long)gt_dp_get(p, GT_DP_CC) / 10,
                 (long long)gt_dp_get(p, GT_DP_CC) % 10);
        return -1;
    }
    /* cudaAccessPolicyWindow: "missProp ... Must be either NORMAL or
     * STREAMING"; the runtime answers persisting with cudaErrorInvalidValue. */
    if (v[GT_L2_MISSPROP] == GT_L2_PROP_PERSISTING && gt_param_applies(&params[GT_L2_MISSPROP], v, NULL)) {
        snprintf(err, n, "miss-prop: persisting is not allowed: the runtime takes only streaming "
                 "or normal for the accesses outside hitRatio (cudaAccessPolicyWindow.missProp)");
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_PERSIST_MAX) && !gt_dp_get(p, GT_DP_PERSIST_MAX)) {
        snprintf(err, n, "experiment l2: this device reports persistingL2CacheMaxSize = 0 "
                 "(no persisting L2 lines can be set aside)");
        return -1;
    }
    if (v[GT_L2_OP] != GT_L2_OP_COST && v[GT_L2_WINDOW] > v[GT_L2_REGION]) {
        snprintf(err, n, "window: %s is larger than the persisting region (%s); allowed: "
                 "region or up to its size", gt_format_size((uint64_t)v[GT_L2_WINDOW], a, sizeof a),
                 gt_format_size((uint64_t)v[GT_L2_REGION], b, sizeof b));
        return -1;
    }
    /* An explicit window above the maximum is refused; "region" is capped
     * to it (gt_l2_window). */
    if (v[GT_L2_OP] != GT_L2_OP_COST && gt_dp_ok(p, GT_DP_WINDOW_MAX) &&
        v[GT_L2_WINDOW] > gt_dp_get(p, GT_DP_WINDOW_MAX)) {
        snprintf(err, n, "window: %s is above accessPolicyMaxWindowSize (%s)",
                 gt_format_size((uint64_t)v[GT_L2_WINDOW], a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_WINDOW_MAX), b, sizeof b));
        return -1;
    }
    need = (uint64_t)v[GT_L2_STREAMING] * 2 + (uint64_t)v[GT_L2_REGION] *
           (v[GT_L2_OP] == GT_L2_OP_COMPETE ? 2 : 1);
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && need > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "streaming: needs %s of device memory; %s is free",
                 gt_format_size(need, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b));
        return -1;
    }
    return 0;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double w = gt_dist_percentile(&r->s[GT_L2_S_WINDOW].lat, 0.5);
    double b = gt_dist_percentile(&r->s[GT_L2_S_BASELINE].lat, 0.5);
    char x[32], y[32], z[32];
    int n = 0;

    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "L2 %s, persisting max %s, window max %s",
                 gt_dp_ok(p, GT_DP_L2) ? gt_format_size((uint64_t)gt_dp_get(p, GT_DP_L2), x, sizeof x) : "N/A",
                 gt_dp_ok(p, GT_DP_PERSIST_MAX) ? gt_format_size((uint64_t)gt_dp_get(p, GT_DP_PERSIST_MAX), y, sizeof y) : "N/A",
                 gt_dp_ok(p, GT_DP_WINDOW_MAX) ? gt_format_size((uint64_t)gt_dp_get(p, GT_DP_WINDOW_MAX), z, sizeof z) : "N/A");
    if (n < max && isfinite(w) && isfinite(b) && w > 0) {
        if (r->vals[GT_L2_OP] == GT_L2_OP_WINDOW)
            snprintf(lines[n++], sizeof lines[0], "speed-up with the window %.2fx: %s vs %s "
                     "without (p50)", b / w, gt_format_seconds(w, x, sizeof x),
                     gt_format_seconds(b, y, sizeof y));
        else if (r->vals[GT_L2_OP] == GT_L2_OP_COMPETE)
            snprintf(lines[n++], sizeof lines[0], "two windows at hitRatio %.2f each, %s of "
                     "regions: %.2fx the speed of none (%s vs %s, p50)",
                     (double)r->vals[GT_L2_HIT] / 100,
                     gt_format_size(2 * (uint64_t)r->vals[GT_L2_REGION], z, sizeof z), b / w,
                     gt_format_seconds(w, x, sizeof x), gt_format_seconds(b, y, sizeof y));
        else
            snprintf(lines[n++], sizeof lines[0], "set-aside cost: the copy takes %.2fx as long "
                     "under the set-aside (%s vs %s, p50)", w / b, gt_format_seconds(w, x, sizeof x),
                     gt_format_seconds(b, y, sizeof y));
    }
    return n;
}

static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    double c = gt_ceiling_hbm(p, factor, label, n);

    (void)s;
    return v[GT_L2_OP] == GT_L2_OP_COST ? c : 0;
}

static bool bandwidth_for(const int64_t *v)
{
    return v[GT_L2_OP] == GT_L2_OP_COST;
}

/* Sweeps of the region mark the set-aside. */
static double sweep_mark(const int64_t *v, int param, const gt_devprops *p, char *label,
                         size_t n)
{
    char a[32];
    uint64_t s = gt_l2_setaside(v, p);

    if (param != GT_L2_REGION || !s)
        return NAN;
    snprintf(label, n, "set-aside asked: %s", gt_format_size(s, a, sizeof a));
    return (double)s;
}

/* hitRatio 0 to 1 by 0.05; the region from 5 MiB to twice the L2. */
static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    int n = 0;

    if (param == GT_L2_HIT) {
        for (int h = 0; h <= 100 && n < max; h += 5)
            out[n++] = h;
    } else if (param == GT_L2_REGION) {
        int64_t top = gt_dp_ok(p, GT_DP_L2) ? 2 * gt_dp_get(p, GT_DP_L2) : 128ll << 20;
        int64_t step = (top - (5ll << 20)) / 15;
        step = (step + (1 << 20) - 1) / (1 << 20) * (1 << 20);     /* whole MiB */
        for (int64_t r = 5ll << 20; r <= top && n < max; r += step)
            out[n++] = r;
    }
    return n;
}

/* The set-aside the driver granted, from the set-up figure's label. */
static uint64_t granted(const gt_run *r)
{
    for (int i = 0; i < r->info.ntimes; i++) {
        const char *g = strstr(r->info.times[i].label, "granted ");
        uint64_t v;
        char e[8];
        if (g && !gt_parse_size(g + 8, &v, e, sizeof e))
            return v;
    }
    return 0;
}

static void why_l2(gt_lines *o, const gt_run *r, const gt_devprops *p)
{
    const int64_t *v = r->vals;
    uint64_t g = granted(r), win = gt_l2_window(v, p), l2 = (uint64_t)gt_dp_get(p, GT_DP_L2);
    int k = v[GT_L2_OP] == GT_L2_OP_COMPETE ? 2 : 1;
    double hit = (double)v[GT_L2_HIT] / 100, want = (double)win * hit * k;
    char a[32], b[32], c[32], d[32];

    gt_say(o, "set-aside asked %s (%lld%% of persistingL2CacheMaxSize %s), granted %s",
        gt_format_size(gt_l2_setaside(v, p), a, sizeof a), (long long)v[GT_L2_SETASIDE],
        gt_dp_ok(p, GT_DP_PERSIST_MAX) ? gt_format_size((uint64_t)gt_dp_get(p, GT_DP_PERSIST_MAX), b, sizeof b) : "N/A",
        g ? gt_format_size(g, c, sizeof c) : "N/A");
    if (v[GT_L2_OP] == GT_L2_OP_COST) {
        gt_say(o, "op=cost: no window; the copy streams %s through an L2 of %s with the set-aside "
            "reserved", gt_format_size((uint64_t)v[GT_L2_STREAMING], a, sizeof a),
            l2 ? gt_format_size(l2, b, sizeof b) : "N/A");
        return;
    }
    gt_say(o, "%swindow %s x hitRatio %.2f = %s of persisting accesses%s",
        k == 2 ? "two kernels: 2 x " : "", gt_format_size(win, a, sizeof a), hit,
        gt_format_size((uint64_t)want, b, sizeof b), k == 2 ? " in all" : "");
    gt_say(o, "region %s%s; window covers %s of it", gt_format_size((uint64_t)v[GT_L2_REGION], c, sizeof c),
        k == 2 ? " per kernel" : "",
        v[GT_L2_REGION] ? (snprintf(d, sizeof d, "%.0f%%", 100.0 * (double)win / (double)v[GT_L2_REGION]), d) : "N/A");
    if (g)
        gt_say(o, "the persisting lines %s: %s wanted, %s set aside (%.2fx)",
            want <= (double)g ? "fit" : "do NOT fit, they evict each other", b,
            gt_format_size(g, a, sizeof a), want / (double)g);
    else
        gt_say(o, "whether the persisting lines fit: N/A (granted set-aside unknown)");
    if (l2 && g)
        gt_say(o, "left of L2 for the %s of streaming data: %s of %s",
            gt_format_size((uint64_t)v[GT_L2_STREAMING] * (uint64_t)k, a, sizeof a),
            gt_format_size(l2 > g ? l2 - g : 0, b, sizeof b), gt_format_size(l2, c, sizeof c));
}

/* 'y': the window against the set-aside and the L2; the cost of the
 * set-aside, a copy's median against device memory (measure/bounds.h). */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    gt_lines o = {lines, 0, max};

    why_l2(&o, r, p);
    if (r->vals[GT_L2_OP] == GT_L2_OP_COST)
        gt_bound_hbm(&o, r, s, p, true);
    return o.n;
}

GT_EXPERIMENT(gt_exp_l2) = {
    .name = "l2",
    .title = "L2 persistence (set-aside, access-policy window)",
    .explain =
        "Every thread updates one word of a small persisting region and one word of a large "
        "streaming array (the Programming Guide's pattern). The set-aside "
        "(cudaLimitPersistingL2CacheSize) reserves L2 lines for persisting accesses; the "
        "access-policy window marks the region's accesses persisting (hitRatio of them). "
        "Runs alternate with the window and without it (after cudaCtxResetPersistingL2Cache), "
        "so both histograms fill. op=cost shows what a set-aside alone costs a device copy. "
        "op=compete runs two such kernels at once on two streams, each with its own region "
        "and window: at hitRatio 1.0 each, two regions larger than the set-aside evict each "
        "other's persisting lines; the Guide suggests 0.5 each. "
        "Leaving restores the limit gputui started with and resets the persisting lines.",
    .params = params,
    .nparams = GT_L2_NPARAMS,
    .warmup_param = GT_L2_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = false,
    .bandwidth_for = bandwidth_for,
    .summary = summary,
    .sweep_mark = sweep_mark,
    .sweep_values = sweep_values,
    .why = why,
};
