/* A headline set against its physical bounds, step by step: see bounds.h. */
#include "gputui/measure/bounds.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "gputui/base/units.h"

void gt_say(gt_lines *o, const char *fmt, ...)
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

static void share(char *buf, size_t n, double v, double of)
{
    if (isfinite(v) && of > 0)
        snprintf(buf, n, "%.0f%%", 100.0 * v / of);
    else
        snprintf(buf, n, "N/A");
}

/* Raw signalling, after the line encoding, after packet overhead. */
void gt_bound_pcie(gt_lines *o, gt_run *r, int s, const gt_devprops *p, bool h2d)
{
    double m = median_bw(r, s), raw, enc, pkt = 0;
    int gen = (int)gt_dp_get(p, GT_DP_PCIE_GEN_MAX), w = (int)gt_dp_get(p, GT_DP_PCIE_WIDTH_MAX);
    static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
    char a[16], b[16], c[16], what[64];
    gt_link_kind kind;
    double link = gt_host_link(p, &kind, what, sizeof what);

    if (kind == GT_LINK_NONE) {
        gt_say(o, "%s: the copy reads and writes that one memory", what);
        gt_say(o, "measured p50 %.1f GB/s; no link to set it against (the memory's peak: %s)",
            m / 1e9, gt_dp_format(p, GT_DP_MEM_PEAK, a, sizeof a));
        return;
    }
    if (kind == GT_LINK_C2C) {
        share(a, sizeof a, m, link);
        gt_say(o, "NVLink-C2C to the CPU: %.1f GB/s per direction (NVML's link speed; no PCIe "
            "encoding or packets to take off)", link / 1e9);
        gt_say(o, "measured p50 %.1f GB/s = %s of it", m / 1e9, a);
        return;
    }
    if (!gt_dp_ok(p, GT_DP_PCIE_GEN_MAX) || !gt_dp_ok(p, GT_DP_PCIE_WIDTH_MAX) || gen < 1 ||
        gen > 6) {
        gt_say(o, "PCIe link: N/A (generation and width are read through NVML: %s)",
            p->nvml_note[0] ? p->nvml_note : "not reported");
        gt_say(o, "measured p50 %.1f GB/s; no ceiling to set it against", m / 1e9);
        return;
    }
    raw = gts[gen] * 1e9 / 8 * w;
    enc = gt_pcie_bw(gen, w);
    gt_say(o, "PCIe Gen%d x%d: %g GT/s x %d lanes = %.1f GB/s per direction, raw", gen, w,
        gts[gen], w, raw / 1e9);
    gt_say(o, "line encoding %s: %.1f GB/s", gen >= 6 ? "FLIT 242/256" : gen >= 3 ? "128b/130b" : "8b/10b",
        enc / 1e9);
    if (gt_dp_ok(p, GT_DP_PCIE_MPS)) {
        int mps = (int)gt_dp_get(p, GT_DP_PCIE_MPS);
        pkt = enc * mps / (mps + GT_PCIE_TLP_OVERHEAD);
        gt_say(o, "packets of %d B payload + %d B header/CRC/framing: %.1f GB/s%s", mps,
            GT_PCIE_TLP_OVERHEAD, pkt / 1e9,
            h2d ? " (H2D arrives as read completions, which may be smaller)" : "");
    } else {
        gt_say(o, "packet overhead: N/A (Max_Payload_Size unreadable here: PCI config space "
            "needs root)");
    }
    share(a, sizeof a, m, raw);
    share(b, sizeof b, m, enc);
    share(c, sizeof c, m, pkt);
    gt_say(o, "measured p50 %.1f GB/s = %s of raw, %s after encoding, %s after packets",
        m / 1e9, a, b, c);
}

void gt_bound_hbm(gt_lines *o, gt_run *r, int s, const gt_devprops *p, bool copy)
{
    double m = median_bw(r, s), peak = (double)gt_dp_get(p, GT_DP_MEM_PEAK);
    char a[16], b[16];

    if (!gt_dp_ok(p, GT_DP_MEM_PEAK)) {
        gt_say(o, "device memory peak: N/A (memory clock or bus width not reported)");
        return;
    }
    gt_say(o, "memory clock %.0f MHz x %lld-bit bus x 2 (DDR) = %.0f GB/s peak",
        (double)gt_dp_get(p, GT_DP_MEM_CLOCK) / 1e3, (long long)gt_dp_get(p, GT_DP_BUS_WIDTH),
        peak / 1e9);
    if (copy) {
        share(a, sizeof a, 2 * m, peak);
        gt_say(o, "a copy reads and writes each byte: p50 %.0f GB/s bytes once = %.0f GB/s of "
            "traffic", m / 1e9, 2 * m / 1e9);
        gt_say(o, "that traffic is %s of the peak (nvbandwidth counts bytes once, as here)", a);
    } else {
        share(b, sizeof b, m, peak);
        gt_say(o, "measured p50 %.0f GB/s = %s of the peak", m / 1e9, b);
    }
    if ((copy ? 2 : 1) * m > peak && peak > 0)
        gt_say(o, "above the peak: more than device memory can move, so not all of it came "
            "from DRAM: from the L2 (data that fits in it), or compressed (compressible "
            "memory holding data it can compress)");
}
