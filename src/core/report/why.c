/* The decomposition of a headline figure: see why.h. */
#include "gputui/report/why.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gputui/experiments/exp_l2.h"
#include "gputui/experiments/exp_pitched.h"
#include "gputui/experiments/exp_transfer.h"
#include "gputui/experiments/exp_vmm.h"
#include "gputui/experiments/exp_zerocopy.h"
#include "gputui/base/units.h"

typedef struct out {
    gt_summary_line *l;
    int n, max;
} out;

static void say(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(out *o, const char *fmt, ...)
{
    va_list ap;

    if (o->n >= o->max)
        return;
    va_start(ap, fmt);
    vsnprintf(o->l[o->n++], sizeof o->l[0], fmt, ap);
    va_end(ap);
}

static double median_bw(gt_run *r, int s)
{
    return r->s[s].bw.count ? gt_dist_percentile(&r->s[s].bw, 0.5) : NAN;
}

static double median_lat(gt_run *r, int s)
{
    return r->s[s].lat.count ? gt_dist_percentile(&r->s[s].lat, 0.5) : NAN;
}

static void share(char *buf, size_t n, double v, double of)
{
    if (isfinite(v) && of > 0)
        snprintf(buf, n, "%.0f%%", 100.0 * v / of);
    else
        snprintf(buf, n, "N/A");
}

/* Raw signalling, after the line encoding, after packet overhead. */
static void why_pcie(out *o, gt_run *r, int s, const gt_devprops *p, bool h2d)
{
    double m = median_bw(r, s), raw, enc, pkt = 0;
    int gen = (int)gt_dp_get(p, GT_DP_PCIE_GEN_MAX), w = (int)gt_dp_get(p, GT_DP_PCIE_WIDTH_MAX);
    static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
    char a[16], b[16], c[16], what[64];
    gt_link_kind kind;
    double link = gt_host_link(p, &kind, what, sizeof what);

    if (kind == GT_LINK_NONE) {
        say(o, "%s: the copy reads and writes that one memory", what);
        say(o, "measured p50 %.1f GB/s; no link to set it against (the memory's peak: %s)",
            m / 1e9, gt_dp_format(p, GT_DP_MEM_PEAK, a, sizeof a));
        return;
    }
    if (kind == GT_LINK_C2C) {
        share(a, sizeof a, m, link);
        say(o, "NVLink-C2C to the CPU: %.1f GB/s per direction (NVML's link speed; no PCIe "
            "encoding or packets to take off)", link / 1e9);
        say(o, "measured p50 %.1f GB/s = %s of it", m / 1e9, a);
        return;
    }
    if (!gt_dp_ok(p, GT_DP_PCIE_GEN_MAX) || !gt_dp_ok(p, GT_DP_PCIE_WIDTH_MAX) || gen < 1 ||
        gen > 6) {
        say(o, "PCIe link: N/A (generation and width are read through NVML: %s)",
            p->nvml_note[0] ? p->nvml_note : "not reported");
        say(o, "measured p50 %.1f GB/s; no ceiling to set it against", m / 1e9);
        return;
    }
    raw = gts[gen] * 1e9 / 8 * w;
    enc = gt_pcie_bw(gen, w);
    say(o, "PCIe Gen%d x%d: %g GT/s x %d lanes = %.1f GB/s per direction, raw", gen, w,
        gts[gen], w, raw / 1e9);
    say(o, "line encoding %s: %.1f GB/s", gen >= 6 ? "FLIT 242/256" : gen >= 3 ? "128b/130b" : "8b/10b",
        enc / 1e9);
    if (gt_dp_ok(p, GT_DP_PCIE_MPS)) {
        int mps = (int)gt_dp_get(p, GT_DP_PCIE_MPS);
        pkt = enc * mps / (mps + GT_PCIE_TLP_OVERHEAD);
        say(o, "packets of %d B payload + %d B header/CRC/framing: %.1f GB/s%s", mps,
            GT_PCIE_TLP_OVERHEAD, pkt / 1e9,
            h2d ? " (H2D arrives as read completions, which may be smaller)" : "");
    } else {
        say(o, "packet overhead: N/A (Max_Payload_Size unreadable here: PCI config space "
            "needs root)");
    }
    share(a, sizeof a, m, raw);
    share(b, sizeof b, m, enc);
    share(c, sizeof c, m, pkt);
    say(o, "measured p50 %.1f GB/s = %s of raw, %s after encoding, %s after packets",
        m / 1e9, a, b, c);
}

static void why_hbm(out *o, gt_run *r, int s, const gt_devprops *p, bool copy)
{
    double m = median_bw(r, s), peak = (double)gt_dp_get(p, GT_DP_MEM_PEAK);
    char a[16], b[16];

    if (!gt_dp_ok(p, GT_DP_MEM_PEAK)) {
        say(o, "device memory peak: N/A (memory clock or bus width not reported)");
        return;
    }
    say(o, "memory clock %.0f MHz x %lld-bit bus x 2 (DDR) = %.0f GB/s peak",
        (double)gt_dp_get(p, GT_DP_MEM_CLOCK) / 1e3, (long long)gt_dp_get(p, GT_DP_BUS_WIDTH),
        peak / 1e9);
    if (copy) {
        share(a, sizeof a, 2 * m, peak);
        say(o, "a copy reads and writes each byte: p50 %.0f GB/s bytes once = %.0f GB/s of "
            "traffic", m / 1e9, 2 * m / 1e9);
        say(o, "that traffic is %s of the peak (nvbandwidth counts bytes once, as here)", a);
    } else {
        share(b, sizeof b, m, peak);
        say(o, "measured p50 %.0f GB/s = %s of the peak", m / 1e9, b);
    }
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

static void why_l2(out *o, const gt_run *r, const gt_devprops *p)
{
    const int64_t *v = r->vals;
    uint64_t g = granted(r), win = gt_l2_window(v, p), l2 = (uint64_t)gt_dp_get(p, GT_DP_L2);
    int k = v[GT_L2_OP] == GT_L2_OP_COMPETE ? 2 : 1;
    double hit = (double)v[GT_L2_HIT] / 100, want = (double)win * hit * k;
    char a[32], b[32], c[32], d[32];

    say(o, "set-aside asked %s (%lld%% of persistingL2CacheMaxSize %s), granted %s",
        gt_format_size(gt_l2_setaside(v, p), a, sizeof a), (long long)v[GT_L2_SETASIDE],
        gt_dp_ok(p, GT_DP_PERSIST_MAX) ? gt_format_size((uint64_t)gt_dp_get(p, GT_DP_PERSIST_MAX), b, sizeof b) : "N/A",
        g ? gt_format_size(g, c, sizeof c) : "N/A");
    if (v[GT_L2_OP] == GT_L2_OP_COST) {
        say(o, "op=cost: no window; the copy streams %s through an L2 of %s with the set-aside "
            "reserved", gt_format_size((uint64_t)v[GT_L2_STREAMING], a, sizeof a),
            l2 ? gt_format_size(l2, b, sizeof b) : "N/A");
        return;
    }
    say(o, "%swindow %s x hitRatio %.2f = %s of persisting accesses%s",
        k == 2 ? "two kernels: 2 x " : "", gt_format_size(win, a, sizeof a), hit,
        gt_format_size((uint64_t)want, b, sizeof b), k == 2 ? " in all" : "");
    say(o, "region %s%s; window covers %s of it", gt_format_size((uint64_t)v[GT_L2_REGION], c, sizeof c),
        k == 2 ? " per kernel" : "",
        v[GT_L2_REGION] ? (snprintf(d, sizeof d, "%.0f%%", 100.0 * (double)win / (double)v[GT_L2_REGION]), d) : "N/A");
    if (g)
        say(o, "the persisting lines %s: %s wanted, %s set aside (%.2fx)",
            want <= (double)g ? "fit" : "do NOT fit, they evict each other", b,
            gt_format_size(g, a, sizeof a), want / (double)g);
    else
        say(o, "whether the persisting lines fit: N/A (granted set-aside unknown)");
    if (l2 && g)
        say(o, "left of L2 for the %s of streaming data: %s of %s",
            gt_format_size((uint64_t)v[GT_L2_STREAMING] * (uint64_t)k, a, sizeof a),
            gt_format_size(l2 > g ? l2 - g : 0, b, sizeof b), gt_format_size(l2, c, sizeof c));
}

static void why_zerocopy(out *o, gt_run *r, int s, const gt_devprops *p)
{
    const int64_t *v = r->vals;
    uint64_t n = (uint64_t)v[GT_ZC_COUNT], passes = (uint64_t)v[GT_ZC_PASSES];
    uint64_t bytes = n * 4 * (2 * passes + 1);
    char a[32], b[32], c[32], what[64];
    gt_link_kind kind;
    double link = gt_host_link(p, &kind, what, sizeof what), t = median_lat(r, s);

    say(o, "the kernel reads a and b (%llu floats each) %llu time%s and writes out once",
        (unsigned long long)n, (unsigned long long)passes, passes == 1 ? "" : "s");
    if (s == GT_ZC_MAPPED)
        say(o, "mapped: every read goes to host memory (not cached on the GPU): %s per iteration",
            gt_format_size(bytes, a, sizeof a));
    else
        say(o, "%s: a and b are copied to the device once (%s), then the kernel reads device memory",
            r->s[s].name, gt_format_size(n * 4 * 3, a, sizeof a));
    if (link > 0) {
        double need = (double)(s == GT_ZC_MAPPED ? bytes : n * 12) / link;
        say(o, "at the link's %.1f GB/s (%s%s, not measured here) that alone takes %s",
            link / 1e9, what, kind == GT_LINK_PCIE ? " after encoding" : "",
            gt_format_seconds(need, b, sizeof b));
        if (isfinite(t) && t > 0)
            say(o, "measured p50 %s: the transfer is %.0f%% of it", gt_format_seconds(t, c, sizeof c),
                100.0 * need / t);
    } else if (kind == GT_LINK_NONE) {
        say(o, "no link to cross: %s, so mapped memory saves the copies and costs no "
            "transfer", what);
    } else {
        say(o, "time over the link: N/A (PCIe generation/width unknown)");
    }
}

static void why_vmm(out *o, const gt_run *r, const gt_devprops *p)
{
    uint64_t g = gt_vmm_granularity(r->vals, p);
    bool grow = r->vals[GT_VMM_OP] == GT_VMM_OP_GROW;
    uint64_t size = (uint64_t)r->vals[grow ? GT_VMM_STEP : GT_VMM_SIZE], rs;
    char a[32], b[32], c[32];

    if (!g) {
        say(o, "VMM granularity: N/A (the device did not report it)");
        return;
    }
    rs = gt_vmm_round(size, g);
    say(o, "granularity %s (%s)", gt_format_size(g, a, sizeof a),
        r->vals[GT_VMM_GRAN] == GT_VMM_GRAN_MIN ? "minimum" : "recommended");
    say(o, "%s %s rounds up to %s: %s wasted (%.1f%%)", grow ? "each step of" : "asked",
        gt_format_size(size, a, sizeof a), gt_format_size(rs, b, sizeof b),
        gt_format_size(rs - size, c, sizeof c), 100.0 * (double)(rs - size) / (double)rs);
    say(o, "cudaMalloc rounds too, but inside its own pool: the waste is not yours to see");
}

int gt_why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    out o = {lines, 0, max};
    const char *e = r->exp ? r->exp->name : "";
    const int64_t *v = r->vals;

    if (s < 0 || s >= r->nseries)
        return 0;
    say(&o, "why %s: %s", r->s[s].name, "the headline against its ceiling, step by step");
    if (!strcmp(e, "transfer")) {
        if (v[GT_TR_DIR] == GT_DIR_D2D)
            why_hbm(&o, r, s, p, true);
        else
            why_pcie(&o, r, s, p, !strcmp(r->s[s].name, "H2D"));
    } else if (!strcmp(e, "vmm") && v[GT_VMM_OP] == GT_VMM_OP_BANDWIDTH) {
        if (v[GT_VMM_DIR] == GT_VMM_D2D)
            why_hbm(&o, r, s, p, true);
        else
            why_pcie(&o, r, s, p, v[GT_VMM_DIR] == GT_VMM_H2D);
    } else if (!strcmp(e, "vmm")) {
        why_vmm(&o, r, p);
    } else if (!strcmp(e, "pitched") && v[GT_PI_MEASURE] != GT_PI_KERNEL) {
        why_pcie(&o, r, s, p, v[GT_PI_MEASURE] == GT_PI_H2D);
    } else if (!strcmp(e, "l2")) {
        why_l2(&o, r, p);
        if (v[GT_L2_OP] == GT_L2_OP_COST)
            why_hbm(&o, r, s, p, true);
    } else if (!strcmp(e, "zerocopy")) {
        why_zerocopy(&o, r, s, p);
    } else if (r->exp && r->exp->why) {
        o.n += r->exp->why(r, s, p, o.l + o.n, o.max - o.n);
    } else {
        say(&o, "N/A: no physical ceiling decomposes this figure (its summary lines compare "
            "the series)");
    }
    return o.n;
}
