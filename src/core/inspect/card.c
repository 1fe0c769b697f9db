/* The inspection card's rows (card.h): each figure of the facts against
 * its threshold (data) or, where the question is yes or no (a link down,
 * a remap that failed), against a rule written here with its reason.
 * What other programs did to the figures is card_busy.c's. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/card.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "gputui/base/units.h"
#include "card_rows.h"

static const char *const S_PCIE = "PCIe", *const S_NUMA = "NUMA", *const S_MEM = "Memory",
                         *const S_CLK = "Clocks and power", *const S_PEER = "Peers",
                         *const S_SW = gt_inspect_sec_software;

void gt_inspect_facts_init(gt_inspect_facts *f)
{
    memset(f, 0, sizeof *f);
    gt_health_init(&f->before);
    gt_health_init(&f->during);
    gt_health_init(&f->after);
    f->h2d = f->d2h = f->bidir = f->pcie_ceiling = NAN;
    f->h2d_ref = f->d2h_ref = f->bidir_ref = NAN;
    f->d2d = f->d2d_peak = f->d2d_ref = NAN;
    f->h2d_first = f->d2h_first = f->bidir_first = f->d2d_first = NAN;
    f->host_lat = f->host_lat_ref = NAN;
    f->pattern_errors = -1;
    f->pattern_bytes = NAN;
    f->others = -1;
}

const char *gt_iverdict_name(gt_iverdict v)
{
    static const char *const n[] = {"pass", "warn", "fail", "cannot tell", "busy"};
    return v >= GT_IV_PASS && v <= GT_IV_BUSY ? n[v] : "?";
}

static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* "x >= 80% of B (warn), >= 60% (fail)" for ratio bounds; plain numbers
 * for "value" bounds. */
static void expect_text(const gt_threshold *t, const char *basis, char *buf, size_t len)
{
    bool ratio = strcmp(t->of, "value") != 0;
    double k = ratio ? 100.0 : 1.0;
    const char *pct = ratio ? "%" : "";
    size_t n = 0;

    buf[0] = '\0';
    if (!isnan(t->warn_below))
        n += (size_t)snprintf(buf + n, len - n, ">= %g%s", t->warn_below * k, pct);
    else if (!isnan(t->fail_below))
        n += (size_t)snprintf(buf + n, len - n, ">= %g%s", t->fail_below * k, pct);
    if (!isnan(t->warn_above) && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s<= %g%s", n ? ", " : "", t->warn_above * k, pct);
    else if (!isnan(t->fail_above) && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s<= %g%s", n ? ", " : "", t->fail_above * k, pct);
    if (ratio && basis && n < len)
        snprintf(buf + n, len - n, " of %s", basis);
}

/* The verdict of value against threshold t (over basis, unless t is of
 * "value"); th names the file when there is no t. */
static void judge_by(gt_inspect_row *r, const gt_threshold *t, const gt_thresholds *th,
                     double value, double basis, const char *basis_text)
{
    double x;

    if (!t) {
        say(r->reason, sizeof r->reason, "no threshold \"%s\" in %s", r->id,
            th && th->path[0] ? th->path : "the thresholds");
        return;
    }
    expect_text(t, basis_text, r->expect, sizeof r->expect);
    if (isnan(value))
        return;             /* the caller said why */
    if (strcmp(t->of, "value") && !(basis > 0)) {
        say(r->reason, sizeof r->reason, "no %s to compare with", t->of);
        return;
    }
    x = strcmp(t->of, "value") ? value / basis : value;
    if ((!isnan(t->fail_below) && x < t->fail_below) || (!isnan(t->fail_above) && x > t->fail_above))
        r->verdict = GT_IV_FAIL;
    else if ((!isnan(t->warn_below) && x < t->warn_below) ||
             (!isnan(t->warn_above) && x > t->warn_above))
        r->verdict = GT_IV_WARN;
    else
        r->verdict = GT_IV_PASS;
    if (strcmp(t->of, "value"))
        say(r->reason, sizeof r->reason, "%.1f%% of %s%s%s", 100.0 * x, t->of,
            r->verdict != GT_IV_PASS ? ": " : "", r->verdict != GT_IV_PASS ? t->reason : "");
    else
        say(r->reason, sizeof r->reason, "%s", r->verdict != GT_IV_PASS ? t->reason : "within bounds");
}

static void judge(gt_inspect_row *r, const gt_thresholds *th, double value, double basis,
                  const char *basis_text)
{
    judge_by(r, gt_threshold_get(th, r->id), th, value, basis, basis_text);
}

/* A switch of the board's (1 on, 0 off, -1 unknown): pass when it is
 * 'want', warn when it is not, cannot tell when unknown; the reason is
 * the one for its state. */
const char *gt_iverdict_word(gt_iverdict v)
{
    static const char *const n[] = {"pass", "WARN", "FAIL", "cannot tell", "BUSY"};
    return v >= GT_IV_PASS && v <= GT_IV_BUSY ? n[v] : "?";
}

static gt_inspect_row *switch_row(gt_inspect_card *c, const char *section, const char *id,
                                  const char *name, int v, int want, const char *why_want,
                                  const char *why_not, const char *why_unknown)
{
    gt_inspect_row *r = gt_inspect_add_row(c, section, id, name);

    r->value = v;
    say(r->figure, sizeof r->figure, "%s", v == 1 ? "on" : v == 0 ? "off" : "-");
    say(r->expect, sizeof r->expect, "%s", want ? "on" : "off");
    r->verdict = v < 0 ? GT_IV_CANNOT : v == want ? GT_IV_PASS : GT_IV_WARN;
    say(r->reason, sizeof r->reason, "%s", v < 0 ? why_unknown : v == want ? why_want : why_not);
    return r;
}

static void bw_text(char *buf, size_t len, double bps)
{
    if (isnan(bps))
        say(buf, len, "-");
    else
        say(buf, len, "%.2f GB/s", bps / 1e9);
}

/* The reason of the memory rows on a board without ECC (most GeForce
 * cards): not a fault, nothing to count. */
static const char *const NO_ECC = "this board has no ECC (NVML: not supported), as most GeForce "
                                  "cards: its memory errors are neither corrected nor counted";

static const char *health_why(const gt_health *h)
{
    return h->nvml ? "the driver does not say on this GPU" : h->note[0] ? h->note : "no NVML";
}

/* A copy measured twice says what its first look read. */
static void first_look(gt_inspect_row *r, double first)
{
    char b[32];
    size_t n = strlen(r->reason);

    if (!isnan(first))
        say(r->reason + n, sizeof r->reason - n, "%sthe first look read %s, so it was measured "
            "again", n ? "; " : "", (bw_text(b, sizeof b, first), b));
}

static void pcie_rows(gt_inspect_card *c, const gt_inspect_facts *f, const gt_thresholds *th)
{
    const gt_health *h = f->during_known ? &f->during : &f->after;
    gt_inspect_row *r = gt_inspect_add_row(c, S_PCIE, "pcie.link", "link under load");
    char ceil[64], b[32];

    if (h->pcie_gen > 0 && h->pcie_width > 0 && h->pcie_gen_max > 0 && h->pcie_width_max > 0) {
        say(r->figure, sizeof r->figure, "Gen%d x%d of Gen%d x%d", h->pcie_gen, h->pcie_width,
            h->pcie_gen_max, h->pcie_width_max);
        r->value = (double)h->pcie_gen / h->pcie_gen_max * ((double)h->pcie_width / h->pcie_width_max);
        r->unit = "ratio";
        judge(r, th, r->value, 1.0, "the card's maximum");
        if (!f->during_known) {
            r->verdict = r->verdict == GT_IV_PASS ? GT_IV_PASS : GT_IV_CANNOT;
            say(r->reason, sizeof r->reason, "read while idle: an idle link clocks down, so "
                "below its maximum it says nothing");
        } else if (r->verdict != GT_IV_PASS) {
            say(r->reason, sizeof r->reason, "downtrained: the link runs at Gen%d x%d under "
                "load; reseat the card or check the slot and BIOS", h->pcie_gen, h->pcie_width);
        }
    } else {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "%s", !strcmp(f->host_link, "integrated")
            ? "an integrated GPU has no PCIe link" : !strcmp(f->host_link, "c2c")
            ? "the GPU reaches the host over NVLink-C2C" : health_why(h));
    }

    say(ceil, sizeof ceil, "%s %.1f GB/s", f->pcie_label[0] ? f->pcie_label : "PCIe",
        f->pcie_ceiling / 1e9);
    struct { const char *id, *name; double v, ref, basis, first; } bw[] = {
        {.id = "pcie.h2d", .name = "pinned H2D 64 MiB", .v = f->h2d, .ref = f->h2d_ref,
         .basis = f->pcie_ceiling, .first = f->h2d_first},
        {.id = "pcie.d2h", .name = "pinned D2H 64 MiB", .v = f->d2h, .ref = f->d2h_ref,
         .basis = f->pcie_ceiling, .first = f->d2h_first},
        {.id = "pcie.bidir", .name = "H2D + D2H at once", .v = f->bidir, .ref = f->bidir_ref,
         .basis = 2 * f->pcie_ceiling, .first = f->bidir_first},
    };
    for (size_t i = 0; i < sizeof bw / sizeof *bw; i++) {
        const gt_threshold *t = gt_threshold_for_link(th, bw[i].id, f->host_link);
        r = gt_inspect_add_row(c, S_PCIE, bw[i].id, bw[i].name);
        bw_text(r->figure, sizeof r->figure, bw[i].v);
        r->value = bw[i].v;
        r->unit = "bytes_per_second";
        if (!strcmp(f->host_link, "integrated")) {
            say(r->reason, sizeof r->reason, "no link to judge: an integrated GPU's copies move "
                "within the host's own memory");
            continue;
        }
        if (!t && !strcmp(f->host_link, "c2c")) {
            say(r->reason, sizeof r->reason, "not judged: no measured figure of a healthy "
                "NVLink-C2C to set a bound from (%s)", ceil);
            continue;
        }
        judge_by(r, t, th, bw[i].v, bw[i].basis, i == 2 ? "twice the ceiling" : ceil);
        if (isnan(bw[i].v))
            say(r->reason, sizeof r->reason, "not measured");
        else if (!isnan(bw[i].ref) && r->verdict == GT_IV_PASS)
            say(r->reason + strlen(r->reason), sizeof r->reason - strlen(r->reason),
                "; %s recorded %s", f->ref_name, (bw_text(b, sizeof b, bw[i].ref), b));
        first_look(r, bw[i].first);
    }

    r = gt_inspect_add_row(c, S_PCIE, "pcie.replays", "replays during the test");
    if (f->before.pcie_replays >= 0 && f->after.pcie_replays >= 0) {
        r->value = (double)(f->after.pcie_replays - f->before.pcie_replays);
        say(r->figure, sizeof r->figure, "%.0f (%lld in all)", r->value,
            (long long)f->after.pcie_replays);
        r->unit = "count";
        judge(r, th, r->value, 1, NULL);
    } else {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "%s", health_why(&f->after));
    }

    r = gt_inspect_add_row(c, S_PCIE, "pcie.latency", "host memory, one load");
    r->value = f->host_lat;
    r->unit = "seconds";
    if (isnan(f->host_lat))
        say(r->figure, sizeof r->figure, "-");
    else
        say(r->figure, sizeof r->figure, "%.0f ns", f->host_lat * 1e9);
    judge(r, th, f->host_lat, f->host_lat_ref, f->ref_name[0] ? f->ref_name : "the reference");
    if (isnan(f->host_lat))
        say(r->reason, sizeof r->reason, "not measured");
    else if (isnan(f->host_lat_ref))
        say(r->reason, sizeof r->reason, "no bundled recording of this model to compare with");
}

static void numa_rows(gt_inspect_card *c, const gt_inspect_facts *f)
{
    const gt_health *h = &f->before;
    gt_inspect_row *r = gt_inspect_add_row(c, S_NUMA, "numa.place", "GPU's node, this process");

    r->value = h->numa_node;
    r->unit = "";
    if (h->numa_node >= 0)
        say(r->figure, sizeof r->figure, "node %d", h->numa_node);
    else
        say(r->figure, sizeof r->figure, "no node");
    if (h->affinity[0])
        say(r->figure + strlen(r->figure), sizeof r->figure - strlen(r->figure), ", CPUs %s",
            h->affinity);
    say(r->expect, sizeof r->expect, "this process on the GPU's CPUs");
    if (h->near_cpus == 1) {
        r->verdict = GT_IV_PASS;
        say(r->reason, sizeof r->reason, "the process runs on CPUs next to the GPU");
    } else if (h->near_cpus == 0) {
        r->verdict = GT_IV_WARN;
        say(r->reason, sizeof r->reason, "the process may run on CPUs away from the GPU: its "
            "pinned memory may sit on the far node (numactl --cpunodebind)");
    } else {
        say(r->reason, sizeof r->reason, "the GPU's CPU affinity is unknown here");
    }
}

static void count_text(char *buf, size_t len, int64_t v)
{
    if (v < 0)
        say(buf, len, "-");
    else
        say(buf, len, "%lld", (long long)v);
}

/* An ECC count since boot, judged, beside the board's lifetime count. */
static gt_inspect_row *ecc_row(gt_inspect_card *c, const gt_thresholds *th, const gt_health *h,
                               const char *id, const char *name, int64_t vol, int64_t agg)
{
    gt_inspect_row *r = gt_inspect_add_row(c, S_MEM, id, name);
    char a[24], b[24];

    count_text(a, sizeof a, vol);
    count_text(b, sizeof b, agg);
    say(r->figure, sizeof r->figure, "%s (%s in its life)", a, b);
    r->value = (double)vol;
    r->unit = "count";
    if (vol >= 0)
        judge(r, th, (double)vol, 1, NULL);
    else
        say(r->reason, sizeof r->reason, "%s", h->ecc_on == 0 ? "ECC is off"
            : h->ecc_on == GT_ECC_NONE ? NO_ECC : health_why(h));
    return r;
}

static void memory_rows(gt_inspect_card *c, const gt_inspect_facts *f, const gt_thresholds *th)
{
    const gt_health *h = &f->after;
    gt_inspect_row *r;
    char a[24], b[24], peak[48];

    r = gt_inspect_add_row(c, S_MEM, "mem.d2d", "device to device 256 MiB");
    bw_text(r->figure, sizeof r->figure, f->d2d);
    r->value = f->d2d;
    r->unit = "bytes_per_second";
    say(peak, sizeof peak, "%.0f GB/s, half the memory's peak", f->d2d_peak / 1e9);
    judge(r, th, f->d2d, f->d2d_peak, peak);
    if (isnan(f->d2d))
        say(r->reason, sizeof r->reason, "not measured");
    first_look(r, f->d2d_first);

    r = gt_inspect_add_row(c, S_MEM, "mem.d2d_ref", "... against the same model");
    bw_text(r->figure, sizeof r->figure, f->d2d);
    r->value = isnan(f->d2d_ref) ? NAN : f->d2d / f->d2d_ref;
    r->unit = "ratio";
    judge(r, th, f->d2d, f->d2d_ref, f->ref_name[0] ? f->ref_name : "the reference");
    if (isnan(f->d2d))
        say(r->reason, sizeof r->reason, "not measured");
    else if (isnan(f->d2d_ref))
        say(r->reason, sizeof r->reason, "no bundled recording of this model to compare with");

    r = switch_row(c, S_MEM, "mem.ecc", "ECC", h->ecc_on, 1, "errors are corrected and counted",
                   "memory errors go unnoticed; nvidia-smi -e 1 and a reset turn it on",
                   h->ecc_on == GT_ECC_NONE ? NO_ECC : health_why(h));
    if (h->ecc_on == GT_ECC_NONE) {
        say(r->figure, sizeof r->figure, "none on this board");
        r->value = NAN;
    }

    r = ecc_row(c, th, h, "mem.ecc_unc", "ECC uncorrected, since boot", h->ecc_vol_unc,
                h->ecc_agg_unc);
    if (r->verdict == GT_IV_PASS && h->ecc_agg_unc > 0) {
        r->verdict = GT_IV_WARN;
        say(r->reason, sizeof r->reason, "none since boot, but %lld in the board's life",
            (long long)h->ecc_agg_unc);
    }
    ecc_row(c, th, h, "mem.ecc_corr", "ECC corrected, since boot", h->ecc_vol_corr,
            h->ecc_agg_corr);

    r = gt_inspect_add_row(c, S_MEM, "mem.retired", "retired pages");
    count_text(a, sizeof a, h->retired_sbe);
    count_text(b, sizeof b, h->retired_dbe);
    say(r->figure, sizeof r->figure, "%s single-bit, %s double-bit%s", a, b,
        h->retired_pending == 1 ? ", one pending" : "");
    r->unit = "count";
    if (h->retired_sbe >= 0 && h->retired_dbe >= 0) {
        r->value = (double)(h->retired_sbe + h->retired_dbe);
        judge(r, th, r->value, 1, NULL);
    } else {
        say(r->reason, sizeof r->reason, "%s (GPUs since Ampere remap rows instead)",
            health_why(h));
    }
    if (h->retired_pending == 1) {
        r->verdict = GT_IV_FAIL;
        say(r->reason, sizeof r->reason, "a page retirement waits for a GPU reset");
    }

    r = gt_inspect_add_row(c, S_MEM, "mem.remap", "remapped rows");
    count_text(a, sizeof a, h->remap_corr);
    count_text(b, sizeof b, h->remap_unc);
    say(r->figure, sizeof r->figure, "%s correctable, %s uncorrectable", a, b);
    r->unit = "count";
    say(r->expect, sizeof r->expect, "no failure, none pending");
    if (h->remap_failed < 0 && h->remap_pending < 0) {
        say(r->reason, sizeof r->reason, "%s", health_why(h));
    } else {
        r->value = (double)((h->remap_corr > 0 ? h->remap_corr : 0) +
                            (h->remap_unc > 0 ? h->remap_unc : 0));
        if (h->remap_failed == 1) {
            r->verdict = GT_IV_FAIL;
            say(r->reason, sizeof r->reason, "a row remap failed: the memory has run out of "
                "spare rows (the board needs service)");
        } else if (h->remap_pending == 1) {
            r->verdict = GT_IV_WARN;
            say(r->reason, sizeof r->reason, "a remap waits for a GPU reset");
        } else {
            judge(r, th, (double)(h->remap_unc > 0 ? h->remap_unc : 0), 1, NULL);
            say(r->expect, sizeof r->expect, "no failure, none pending");
        }
    }

    r = gt_inspect_add_row(c, S_MEM, "mem.pattern", "pattern write and check");
    r->unit = "count";
    if (f->pattern_errors < 0) {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "not run");
    } else {
        r->value = (double)f->pattern_errors;
        say(r->figure, sizeof r->figure, "%lld of %d copies of %s bad", (long long)f->pattern_errors,
            f->pattern_copies, gt_format_size((uint64_t)f->pattern_bytes, a, sizeof a));
        judge(r, th, r->value, 1, NULL);
        if (r->verdict == GT_IV_PASS)
            say(r->reason, sizeof r->reason, "every word of every copy read back as written");
    }
}

static void clock_rows(gt_inspect_card *c, const gt_inspect_facts *f, const gt_thresholds *th)
{
    const gt_health *h = f->during_known ? &f->during : &f->after;
    gt_inspect_row *r = gt_inspect_add_row(c, S_CLK, "clk.sm", "SM clock under load");
    char max[32];
    uint64_t bad = GT_THR_HW_SLOWDOWN | GT_THR_HW_THERMAL | GT_THR_POWER_BRAKE;
    uint64_t soft = GT_THR_SW_THERMAL | GT_THR_SW_POWER;

    r->unit = "hertz";
    if (h->sm_clock > 0 && h->sm_clock_max > 0) {
        r->value = h->sm_clock * 1e6;
        say(r->figure, sizeof r->figure, "%d MHz", h->sm_clock);
        say(max, sizeof max, "%d MHz", h->sm_clock_max);
        judge(r, th, h->sm_clock, h->sm_clock_max, max);
        if (!f->during_known) {
            r->verdict = GT_IV_CANNOT;
            say(r->reason, sizeof r->reason, "read while idle");
        }
    } else {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "%s", health_why(h));
    }

    r = gt_inspect_add_row(c, S_CLK, "clk.reasons", "what held the clocks back");
    say(r->expect, sizeof r->expect, "no slowdown");
    if (!h->reasons_known) {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "%s", health_why(h));
    } else {
        static const struct { uint64_t bit; const char *name; } names[] = {
            {.bit = GT_THR_HW_SLOWDOWN, .name = "HW slowdown"},
            {.bit = GT_THR_HW_THERMAL, .name = "HW thermal"},
            {.bit = GT_THR_POWER_BRAKE, .name = "power brake"},
            {.bit = GT_THR_SW_THERMAL, .name = "SW thermal"},
            {.bit = GT_THR_SW_POWER, .name = "power cap"},
            {.bit = GT_THR_APP_CLOCKS, .name = "application clocks"},
            {.bit = GT_THR_SYNC_BOOST, .name = "sync boost"},
            {.bit = GT_THR_IDLE, .name = "idle"},
        };
        size_t n = 0;
        r->value = (double)h->reasons;
        r->unit = "";
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            if (h->reasons & names[i].bit)
                n += (size_t)snprintf(r->figure + n, sizeof r->figure - n, "%s%s", n ? ", " : "",
                                      names[i].name);
        if (!n)
            say(r->figure, sizeof r->figure, "none");
        r->verdict = h->reasons & bad ? GT_IV_FAIL : h->reasons & soft ? GT_IV_WARN : GT_IV_PASS;
        say(r->reason, sizeof r->reason, "%s", r->verdict == GT_IV_FAIL ? "the hardware cut the "
            "clocks (overheating, a power supply or a board fault): check cooling and power"
            : r->verdict == GT_IV_WARN ? "the driver held the clocks to stay within power or "
            "temperature" : f->during_known ? "nothing held them back under load" : "read while idle");
    }

    r = gt_inspect_add_row(c, S_CLK, "pwr.temp", "temperature");
    r->unit = "celsius";
    if (h->temp >= 0) {
        r->value = h->temp;
        say(r->figure, sizeof r->figure, "%d C%s", h->temp, "");
        if (h->temp_slowdown > 0) {
            say(r->figure, sizeof r->figure, "%d C (slowdown at %d C)", h->temp, h->temp_slowdown);
            judge(r, th, (double)(h->temp_slowdown - h->temp), 1, NULL);
            say(r->expect + strlen(r->expect), sizeof r->expect - strlen(r->expect),
                " C below the slowdown");
        } else {
            say(r->reason, sizeof r->reason, "the slowdown temperature is unknown");
        }
    } else {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "%s", health_why(h));
    }

    r = gt_inspect_add_row(c, S_CLK, "pwr.limit", "power limit");
    r->unit = "watts";
    r->value = h->power_limit;
    if (!isnan(h->power_limit)) {
        say(r->figure, sizeof r->figure, "%.0f W (drawing %.0f W)", h->power_limit, h->power);
        say(max, sizeof max, "the default %.0f W", h->power_default_limit);
        judge(r, th, h->power_limit, h->power_default_limit, max);
    } else {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "%s", health_why(h));
    }
}

static void peer_rows(gt_inspect_card *c, const gt_inspect_facts *f, const gt_thresholds *th)
{
    const gt_health *h = &f->after;
    gt_inspect_row *r = gt_inspect_add_row(c, S_PEER, "peer.nvlink", "NVLinks up");
    char name[48], ceil[48];

    r->unit = "count";
    say(r->expect, sizeof r->expect, "every link up");
    if (h->nvlinks < 0) {
        say(r->figure, sizeof r->figure, "-");
        say(r->reason, sizeof r->reason, "%s", health_why(h));
    } else if (!h->nvlinks) {
        say(r->figure, sizeof r->figure, "none on this board");
        r->value = 0;
        r->verdict = GT_IV_PASS;
        say(r->reason, sizeof r->reason, "peers, if any, talk over PCIe");
    } else {
        r->value = h->nvlinks_up;
        say(r->figure, sizeof r->figure, "%d of %d", h->nvlinks_up, h->nvlinks);
        r->verdict = h->nvlinks_up == h->nvlinks ? GT_IV_PASS : GT_IV_FAIL;
        say(r->reason, sizeof r->reason, "%s", r->verdict == GT_IV_PASS ? "all up"
            : "a link is down: peer copies lose its share of the bandwidth");
    }
    for (int i = 0; i < f->npeers && c->nrows < GT_INSPECT_ROWS - 8; i++) {
        const gt_peer_fact *p = &f->peer[i];
        say(name, sizeof name, "GPU %d to GPU %d", p->a, p->b);
        r = gt_inspect_add_row(c, S_PEER, "peer.bw", name);
        r->peer = p->b;
        bw_text(r->figure, sizeof r->figure, p->bw);
        r->value = p->bw;
        r->unit = "bytes_per_second";
        say(ceil, sizeof ceil, "%s %.0f GB/s", p->link[0] ? p->link : "the link", p->ceiling / 1e9);
        judge(r, th, p->bw, p->ceiling, ceil);
        if (isnan(p->bw))
            say(r->reason, sizeof r->reason, "not measured%s%s", p->note[0] ? ": " : "",
                p->note);
    }
}

static void software_rows(gt_inspect_card *c, const gt_inspect_facts *f)
{
    const gt_health *h = &f->before;
    gt_inspect_row *r = gt_inspect_add_row(c, S_SW, "sw.versions", "driver, CUDA");

    say(r->figure, sizeof r->figure, "%s, CUDA %d.%d (runtime %d.%d)", h->driver[0] ? h->driver : "-",
        f->cuda_driver / 1000, f->cuda_driver % 1000 / 10, f->cuda_runtime / 1000,
        f->cuda_runtime % 1000 / 10);
    say(r->expect, sizeof r->expect, "a driver as new as the runtime");
    r->value = f->cuda_driver;
    if (f->cuda_driver > 0 && f->cuda_runtime > 0) {
        r->verdict = f->cuda_driver >= f->cuda_runtime ? GT_IV_PASS : GT_IV_FAIL;
        say(r->reason, sizeof r->reason, "%s", r->verdict == GT_IV_PASS ? "the driver runs this "
            "runtime" : "the driver is older than the runtime: CUDA programs built with it fail");
    } else {
        say(r->reason, sizeof r->reason, "the versions are unknown");
    }

    switch_row(c, S_SW, "sw.persistence", "persistence mode", h->persistence, 1,
               "the driver stays loaded", "the driver may unload between programs, so each "
               "first call pays for loading it (nvidia-smi -pm 1, or nvidia-persistenced)",
               health_why(h));
    r = switch_row(c, S_SW, "sw.mig", "MIG", h->mig, 0, "the whole GPU", "the figures are one "
                   "instance's, not the whole GPU's", "not a MIG-capable GPU, or unknown");
    if (h->mig < 0 && h->nvml)
        r->verdict = GT_IV_PASS;       /* NVML answers, the GPU has no MIG */

    r = gt_inspect_add_row(c, S_SW, "sw.compute_mode", "compute mode");
    r->value = h->compute_mode;
    say(r->figure, sizeof r->figure, "%s", h->compute_mode == 0 ? "default"
        : h->compute_mode == 2 ? "prohibited" : h->compute_mode == 3 ? "exclusive process"
        : h->compute_mode == 1 ? "exclusive thread" : "-");
    say(r->expect, sizeof r->expect, "not prohibited");
    r->verdict = h->compute_mode < 0 ? GT_IV_CANNOT : h->compute_mode == 2 ? GT_IV_FAIL : GT_IV_PASS;
    say(r->reason, sizeof r->reason, "%s", h->compute_mode == 2 ? "no program may use this GPU"
        : h->compute_mode == 3 ? "one process at a time" : h->compute_mode == 0
        ? "any number of processes" : health_why(h));
}

void gt_inspect_build(gt_inspect_card *c, const gt_inspect_facts *f, const gt_thresholds *th)
{
    c->nrows = 0;
    pcie_rows(c, f, th);
    numa_rows(c, f);
    memory_rows(c, f, th);
    clock_rows(c, f, th);
    peer_rows(c, f, th);
    software_rows(c, f);
    gt_inspect_neighbours(c, f);
}
