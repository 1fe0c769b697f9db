/* The sharing experiment's table row: what a second process on the same
 * GPU does to this one's figures. Each sample times the same work twice:
 * with the second process idle, then while it runs kernels or copies of
 * its own (a child of gputui, started for the configuration). The GPU
 * side is src/experiments/sharing/sharing_gpu.c. */
#include "sharing.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const measure_names[] = {"latency", "copy"};
static const char *const beside_names[] = {"kernels", "copies", "stranger"};

static const gt_param params[GT_SH_NPARAMS] = {
    [GT_SH_MEASURE] = {.name = "measure", .label = "this process times", .type = GT_P_ENUM,
                       .max = 1, .def = GT_SH_LATENCY, .choices = measure_names, .nchoices = 2,
                       .help = "latency: one thread follows a 16 MiB chain, 4096 dependent "
                               "reads, events around the kernel; copy: 64 MiB pinned host to "
                               "device, events around it"},
    [GT_SH_BESIDE] = {.name = "beside", .label = "the second process runs", .type = GT_P_ENUM,
                      .max = 2, .def = GT_SH_KERNELS, .choices = beside_names, .nchoices = 3,
                      .help = "kernels: 1 ms kernels on every SM, back to back; copies: 64 MiB "
                              "pinned host-to-device copies, back to back; stranger: the same "
                              "copies all the time, from a process gputui does not count as "
                              "its own, as any neighbour: each sample is timed once, beside "
                              "it, and the series shows how many gputui marked disturbed"},
    [GT_SH_WARMUP] = GT_PARAM_WARMUP(2),
};

static int series(const int64_t *v, const char **names)
{
    if (v[GT_SH_BESIDE] == GT_SH_STRANGER) {
        names[GT_SH_S_STRANGER] = "beside a copying program";
        return 1;
    }
    names[GT_SH_S_ALONE] = "alone";
    names[GT_SH_S_BESIDE] = "beside a second process";
    return 2;
}

static bool shows_bandwidth(const int64_t *v)
{
    return v[GT_SH_MEASURE] == GT_SH_COPY;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double a = gt_run_p50(r, GT_SH_S_ALONE), b = gt_run_p50(r, GT_SH_S_BESIDE);
    char sa[32], sb[32];

    (void)p;
    if (max >= 1 && r->vals[GT_SH_BESIDE] == GT_SH_STRANGER && r->nseries > 0) {
        const gt_series *s = &r->s[GT_SH_S_STRANGER];
        uint64_t n = s->lat.count + s->failed;
        double share = gt_series_disturbed_share(s);
        if (!n)
            return 0;
        snprintf(lines[0], sizeof lines[0], "beside a program that copies: %llu of %llu samples "
                 "marked disturbed (%.0f%%): gputui %s", (unsigned long long)s->disturbed,
                 (unsigned long long)n, 100.0 * share, share > 0.5 ? "saw it" : "did not see it");
        return 1;
    }
    if (max < 1 || !isfinite(a) || !isfinite(b) || a <= 0)
        return 0;
    snprintf(lines[0], sizeof lines[0], "beside a second process running %s: %s against %s "
             "alone, %.2fx the time (p50)", beside_names[r->vals[GT_SH_BESIDE] ? 1 : 0],
             gt_format_seconds(b, sb, sizeof sb), gt_format_seconds(a, sa, sizeof sa), b / a);
    return 1;
}

GT_EXPERIMENT(gt_exp_sharing) = {
    .name = "sharing",
    .title = "A second process on the same GPU",
    .explain =
        "Several processes can use one GPU at once (a class on one server, a training job "
        "beside you). Each has its own context, and the GPU time-slices the contexts that "
        "have work: a slice of another's counts as time in this one's kernel. Copies of two "
        "processes share the PCIe link. Each sample here times the same work twice: alone, "
        "then while a second process (gputui started again as a child, outside the turns "
        "gputui processes take) runs kernels on every SM or copies to the device. measure="
        "latency follows a 16 MiB chain with one thread (ns a read); measure=copy copies "
        "64 MiB from pinned memory. The chase's end and every copied word are checked. "
        "beside=stranger keeps the second process copying all the time and does not count it "
        "as gputui's own: a neighbour that only copies shows in no SM or memory utilisation, "
        "and the samples show whether the link's counters caught it (marked disturbed).",
    .params = params,
    .nparams = GT_SH_NPARAMS,
    .warmup_param = GT_SH_WARMUP,
    .series = series,
    .bandwidth_for = shows_bandwidth,
    .summary = summary,
};
