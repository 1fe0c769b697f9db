/* The managed-memory experiment's table row: cudaMallocManaged with who
 * touches it first, a prefetch, the three advices (ReadMostly,
 * PreferredLocation, AccessedBy) and three ways the GPU and the CPU use
 * it, beside a pinned cudaMemcpy of the same bytes. The GPU side is
 * src/experiments/managed/managed_gpu.c, its ping-pong kernel managed_kernels.cu. */
#include "managed.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const touch_names[] = {"host", "device"};
static const char *const pref_names[] = {"none", "device", "host"};
static const char *const access_names[] = {"once", "repeat", "pingpong"};

static const gt_param params[GT_MG_NPARAMS] = {
    [GT_MG_SIZE] = {.name = "size", .label = "managed bytes", .type = GT_P_SIZE,
                    .min = 64 << 10, .max = 1ll << 40, .def = 32 << 20, .align = 64 << 10,
                    .unit = "bytes",
                    .help = "bytes of cudaMallocManaged, allocated anew each sample (a multiple "
                            "of 64 KiB, at most half of the GPU's free memory); +/- powers of two"},
    [GT_MG_TOUCH] = {.name = "touch", .label = "first touch", .type = GT_P_ENUM, .max = 1,
                     .def = GT_MG_TOUCH_HOST, .choices = touch_names, .nchoices = 2,
                     .help = "host: the CPU writes every word first (the pages start in host "
                             "memory); device: a kernel does (they start on the GPU)"},
    [GT_MG_PREFETCH] = {.name = "prefetch", .label = "prefetch to the GPU", .type = GT_P_BOOL,
                        .max = 1,
                        .help = "cudaMemPrefetchAsync of the whole buffer to the GPU before the "
                                "kernel, timed as its own series"},
    [GT_MG_READ_MOSTLY] = {.name = "read-mostly", .label = "advise ReadMostly",
                           .type = GT_P_BOOL, .max = 1,
                           .help = "cudaMemAdviseSetReadMostly: a read makes a copy where it "
                                   "runs and leaves the other; a write drops the copies"},
    [GT_MG_PREFERRED] = {.name = "preferred", .label = "advise PreferredLocation",
                         .type = GT_P_ENUM, .max = 2, .def = GT_MG_PREF_NONE,
                         .choices = pref_names, .nchoices = 3,
                         .help = "cudaMemAdviseSetPreferredLocation: none, this GPU, or the "
                                 "host (the GPU then reads the host's pages over the link)"},
    [GT_MG_ACCESSED_BY] = {.name = "accessed-by", .label = "advise AccessedBy GPU",
                           .type = GT_P_BOOL, .max = 1,
                           .help = "cudaMemAdviseSetAccessedBy this GPU: its page tables map "
                                   "the pages wherever they are, so it reads without faults"},
    [GT_MG_ACCESS] = {.name = "access", .label = "access", .type = GT_P_ENUM, .max = 2,
                      .def = GT_MG_ACCESS_ONCE, .choices = access_names, .nchoices = 3,
                      .help = "once: the GPU reads every word once; repeat: and three times "
                              "more; pingpong: the GPU, then the CPU, checks and rewrites every "
                              "word"},
    [GT_MG_WARMUP] = GT_PARAM_WARMUP(1),
};

int gt_mg_series(const int64_t *v, int *slot)
{
    int n = 0;

    for (int k = 0; k < GT_MG_S_COUNT; k++) {
        bool has = k == GT_MG_S_PREFETCH ? v[GT_MG_PREFETCH] != 0
                 : k == GT_MG_S_AGAIN ? v[GT_MG_ACCESS] == GT_MG_ACCESS_REPEAT
                 : k == GT_MG_S_CPU ? v[GT_MG_ACCESS] == GT_MG_ACCESS_PINGPONG
                 : true;
        slot[k] = has ? n++ : -1;
    }
    return n;
}

static int series(const int64_t *v, const char **names)
{
    int slot[GT_MG_S_COUNT];
    int n = gt_mg_series(v, slot);
    bool pp = v[GT_MG_ACCESS] == GT_MG_ACCESS_PINGPONG;

    names[slot[GT_MG_S_TOUCH]] = v[GT_MG_TOUCH] == GT_MG_TOUCH_HOST ? "first touch, CPU"
                                                                      : "first touch, GPU";
    if (slot[GT_MG_S_PREFETCH] >= 0)
        names[slot[GT_MG_S_PREFETCH]] = "prefetch to GPU";
    names[slot[GT_MG_S_READ]] = pp ? "GPU pass" : "GPU read";
    if (slot[GT_MG_S_AGAIN] >= 0)
        names[slot[GT_MG_S_AGAIN]] = "GPU read again";
    if (slot[GT_MG_S_CPU] >= 0)
        names[slot[GT_MG_S_CPU]] = "CPU pass";
    names[slot[GT_MG_S_COPY]] = "pinned memcpy H2D";
    return n;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    int slot[GT_MG_S_COUNT], n = 0;
    double bytes = (double)r->vals[GT_MG_SIZE];
    double copy, read, pre, again, cpu;

    (void)p;
    gt_mg_series(r->vals, slot);
    copy = gt_run_p50(r, slot[GT_MG_S_COPY]);
    read = gt_run_p50(r, slot[GT_MG_S_READ]);
    pre = gt_run_p50(r, slot[GT_MG_S_PREFETCH]);
    again = gt_run_p50(r, slot[GT_MG_S_AGAIN]);
    cpu = gt_run_p50(r, slot[GT_MG_S_CPU]);
    if (!isfinite(copy) || !isfinite(read) || copy <= 0)
        return 0;
    if (n < max && r->vals[GT_MG_ACCESS] != GT_MG_ACCESS_PINGPONG)
        snprintf(lines[n++], sizeof lines[0], "the GPU's first read: %.1f GB/s, %.2fx the "
                 "pinned copy's time (%.1f GB/s)%s", bytes / read / 1e9, read / copy,
                 bytes / copy / 1e9, isfinite(pre) ? "" : r->vals[GT_MG_TOUCH] ==
                 GT_MG_TOUCH_HOST ? ": pages fault over as it reads" : "");
    if (n < max && isfinite(pre))
        snprintf(lines[n++], sizeof lines[0], "prefetch %.1f GB/s (%.2fx the pinned copy's "
                 "time); prefetch + read %.2fx the read alone would take without it",
                 bytes / pre / 1e9, pre / copy, (pre + read) / read);
    if (n < max && isfinite(again))
        snprintf(lines[n++], sizeof lines[0], "each read after the first: %.2fx its time "
                 "(%.1f GB/s)", again / read, bytes / again / 1e9);
    if (n < max && isfinite(cpu))
        snprintf(lines[n++], sizeof lines[0], "ping-pong: GPU pass %.2f ms, CPU pass %.2f ms; "
                 "each moves the pages to its side", read * 1e3, cpu * 1e3);
    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "page faults and migrated bytes: not counted "
                 "(CUPTI's unified-memory counters are not read); the first touch's time stands "
                 "for them");
    return n;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    char a[32], b[32], c[32];
    int64_t fr = gt_dp_get(p, GT_DP_MEM_FREE);
    bool advice = v[GT_MG_PREFETCH] || v[GT_MG_READ_MOSTLY] || v[GT_MG_ACCESSED_BY] ||
                  v[GT_MG_PREFERRED] != GT_MG_PREF_NONE;

    if (gt_dp_ok(p, GT_DP_MEM_FREE) && v[GT_MG_SIZE] > fr / GT_MG_FREE_SHARE) {
        snprintf(err, n, "size: %s is more than half of the GPU's free memory (%s free); "
                 "managed memory beyond it would page to the host and can stall a GPU that "
                 "others share (allowed: 64 KiB to %s)",
                 gt_format_size((uint64_t)v[GT_MG_SIZE], a, sizeof a),
                 gt_format_size((uint64_t)fr, b, sizeof b),
                 gt_format_size((uint64_t)(fr / GT_MG_FREE_SHARE), c, sizeof c));
        return -1;
    }
    if (advice && gt_dp_ok(p, GT_DP_CONC_MANAGED) && !gt_dp_get(p, GT_DP_CONC_MANAGED)) {
        snprintf(err, n, "%s: this device has concurrentManagedAccess = 0, where managed "
                 "memory migrates whole at each kernel launch and prefetch and advice do not "
                 "apply (allowed here: prefetch=off, read-mostly=off, preferred=none, "
                 "accessed-by=off)",
                 v[GT_MG_PREFETCH] ? "prefetch" : v[GT_MG_READ_MOSTLY] ? "read-mostly" :
                 v[GT_MG_ACCESSED_BY] ? "accessed-by" : "preferred");
        return -1;
    }
    return 0;
}

/* Whether the pages are in GPU memory when the kernel first reads them:
 * prefetched there, or written there first and not preferred on the host
 * (which keeps them in host memory, the GPU writing them over the link). */
static bool on_gpu(const int64_t *v)
{
    return v[GT_MG_PREFETCH] ||
           (v[GT_MG_TOUCH] == GT_MG_TOUCH_DEVICE && v[GT_MG_PREFERRED] != GT_MG_PREF_HOST);
}

/* Pages in GPU memory: bounded by it, unless the buffer fits in the L2,
 * where the kernel that wrote them left them (then by nothing known). */
static double hbm(const int64_t *v, const gt_devprops *p, double *factor, char *label, size_t n,
                  bool write)
{
    if (gt_ceiling_in_l2(p, (uint64_t)v[GT_MG_SIZE], "buffer", factor, label, n))
        return 0;
    return write ? gt_ceiling_hbm(p, factor, label, n) : gt_ceiling_hbm_read(p, factor, label, n);
}

/* The link bounds a migration, the prefetch and the pinned copy; a read of
 * pages already in GPU memory is bounded by that memory; a loop of the
 * CPU's, and a prefetch of pages already there, by nothing known. */
static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    int slot[GT_MG_S_COUNT];
    bool pp = v[GT_MG_ACCESS] == GT_MG_ACCESS_PINGPONG;

    *factor = 1.0;
    gt_mg_series(v, slot);
    if (s == slot[GT_MG_S_READ])
        return on_gpu(v) ? hbm(v, p, factor, label, n, pp) : gt_ceiling_host(p, factor, label, n);
    /* Read-mostly pages are copied to the GPU by the first read, even
     * where the host is preferred. */
    if (s == slot[GT_MG_S_AGAIN])
        return v[GT_MG_PREFERRED] == GT_MG_PREF_HOST && !v[GT_MG_PREFETCH] &&
               !v[GT_MG_READ_MOSTLY] ?
            gt_ceiling_host(p, factor, label, n) : hbm(v, p, factor, label, n, false);
    if (s == slot[GT_MG_S_COPY] ||
        (s == slot[GT_MG_S_PREFETCH] && v[GT_MG_TOUCH] == GT_MG_TOUCH_HOST))
        return gt_ceiling_host(p, factor, label, n);
    snprintf(label, n, s == slot[GT_MG_S_PREFETCH] ? "none known: the pages are on the GPU "
             "already" : "none known: page faults, not a link, set the pace");
    return 0;
}

/* 'y': what a series' median says, against the pinned copy of the same
 * bytes in the same samples and the link. */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    int slot[GT_MG_S_COUNT], n = 0;
    double bytes = (double)v[GT_MG_SIZE], t, copy, link = 0;
    char a[32];

    gt_mg_series(v, slot);
    t = gt_run_p50(r, s);
    copy = gt_run_p50(r, slot[GT_MG_S_COPY]);
    link = gt_host_link(p, NULL, a, sizeof a);
    if (!isfinite(t) || t <= 0)
        return 0;
    gt_format_size((uint64_t)v[GT_MG_SIZE], a, sizeof a);
#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)
    LINE("%s in %.3f ms (p50): %.1f GB/s", a, t * 1e3, bytes / t / 1e9);
    if (isfinite(copy) && s != slot[GT_MG_S_COPY])
        LINE("the pinned copy of the same bytes, in the same samples: %.3f ms, %.1f GB/s; this is "
             "%.2fx its time", copy * 1e3, bytes / copy / 1e9, t / copy);
    if (s == slot[GT_MG_S_TOUCH]) {
        LINE("%s writes every word of pages that exist nowhere yet: each page is made on the "
             "first write that finds it missing",
             v[GT_MG_TOUCH] == GT_MG_TOUCH_HOST ? "the CPU" : "a kernel");
        if (v[GT_MG_READ_MOSTLY])
            LINE("read-mostly pages: a write must first drop the copies the advice allows");
    } else if (s == slot[GT_MG_S_PREFETCH]) {
        LINE(v[GT_MG_TOUCH] == GT_MG_TOUCH_HOST || v[GT_MG_PREFERRED] == GT_MG_PREF_HOST ?
             "cudaMemPrefetchAsync moves the pages to the GPU in bulk, as a copy does, with no "
             "fault for the kernel to wait on" :
             "the pages are on the GPU already: the prefetch only checks them");
    } else if (s == slot[GT_MG_S_READ] && v[GT_MG_ACCESS] != GT_MG_ACCESS_PINGPONG) {
        if (v[GT_MG_PREFETCH])
            LINE("prefetched: the kernel finds every page in GPU memory");
        else if (v[GT_MG_PREFERRED] == GT_MG_PREF_HOST && !v[GT_MG_READ_MOSTLY])
            LINE("the host is preferred: the pages stay there and the kernel reads them over the "
                 "link%s", v[GT_MG_ACCESSED_BY] ? ", mapped in advance (AccessedBy)" :
                 ", mapped at its first fault");
        else if (v[GT_MG_TOUCH] == GT_MG_TOUCH_HOST)
            LINE("the pages are in host memory: each one the kernel touches faults and moves %s",
                 v[GT_MG_READ_MOSTLY] ? "a copy to the GPU (read-mostly)" : "to the GPU");
        else
            LINE("a kernel wrote them: the pages are in GPU memory already");
        if (link > 0)
            LINE("the link: %.1f GB/s a direction; this read moves its bytes at %.0f%% of it",
                 link / 1e9, 100 * bytes / t / link);
    } else if (s == slot[GT_MG_S_AGAIN]) {
        LINE(v[GT_MG_PREFERRED] == GT_MG_PREF_HOST && !v[GT_MG_PREFETCH] && !v[GT_MG_READ_MOSTLY] ?
             "the pages stay in host memory: every read crosses the link again, as mapped "
             "(zero-copy) memory does" :
             "the first read left the pages (or their copies) in GPU memory: these reads are local");
    } else if (s == slot[GT_MG_S_READ] || s == slot[GT_MG_S_CPU]) {
        LINE("ping-pong: each side's pass finds the pages on the other side and moves them on "
             "its faults, then checks and rewrites every word");
    } else if (s == slot[GT_MG_S_COPY] && link > 0) {
        LINE("the link: %.1f GB/s a direction; the copy gets %.0f%% of it", link / 1e9,
             100 * bytes / t / link);
    }
    LINE("page faults and migrated bytes are not counted (CUPTI is not read)");
#undef LINE
    return n;
}

GT_EXPERIMENT(gt_exp_managed) = {
    .name = "managed",
    .title = "Managed memory: first touch, prefetch and advice",
    .explain =
        "cudaMallocManaged gives one pointer the CPU and the GPU both use; the driver moves "
        "its pages to whichever side touches them (demand paging), unless told otherwise. "
        "Each sample allocates the buffer anew, applies the advice (cudaMemAdvise "
        "ReadMostly, PreferredLocation, AccessedBy), has the CPU or a kernel write it "
        "first, prefetches it to the GPU if asked (cudaMemPrefetchAsync), then a kernel "
        "reads and checks every word (access=repeat: three times more; pingpong: the GPU "
        "and then the CPU each check and rewrite every word), and frees it. Beside it, a "
        "pinned cudaMemcpy of the same bytes gives the link's speed in the same run. The "
        "kernels and the prefetch are timed with events, the CPU's loops on the host "
        "clock. Page faults and migrated bytes are not counted: the first touch's time and "
        "the read's against the copy's stand for them. Managed memory is never asked for "
        "beyond half of the GPU's free memory.",
    .params = params,
    .nparams = GT_MG_NPARAMS,
    .warmup_param = GT_MG_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = true,
    .summary = summary,
    .why = why,
};
