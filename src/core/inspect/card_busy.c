/* The other programs on the GPU, on the inspection card (card.h): a row
 * whose measurement they disturbed says busy rather than judging the
 * hardware by it, and the Software section says who they were and what
 * they were seen doing. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gputui/inspect/card.h"
#include "gputui/measure/run.h"
#include "card_rows.h"

/* The rows measured in a step of their own. figure: the row's figure is
 * the step's samples; otherwise the driver read it during the step (a
 * neighbour's load shares the power and heat, so only a pass stands). */
static const struct measured {
    const char *id;
    size_t busy;            /* offset of the step's share in gt_inspect_facts */
    bool figure;
} measured[] = {
    {.id = "pcie.h2d", .busy = offsetof(gt_inspect_facts, h2d_busy), .figure = true},
    {.id = "pcie.d2h", .busy = offsetof(gt_inspect_facts, d2h_busy), .figure = true},
    {.id = "pcie.bidir", .busy = offsetof(gt_inspect_facts, bidir_busy), .figure = true},
    {.id = "pcie.latency", .busy = offsetof(gt_inspect_facts, host_lat_busy), .figure = true},
    {.id = "mem.d2d", .busy = offsetof(gt_inspect_facts, d2d_busy), .figure = true},
    {.id = "mem.d2d_ref", .busy = offsetof(gt_inspect_facts, d2d_busy), .figure = true},
    {.id = "clk.sm", .busy = offsetof(gt_inspect_facts, d2d_sm_busy), .figure = false},
};

static double share_at(const gt_inspect_facts *f, size_t off)
{
    return *(const double *)(const void *)((const char *)f + off);
}

/* The most disturbed share of any step. */
static double most_disturbed(const gt_inspect_facts *f)
{
    double m = 0;

    for (size_t i = 0; i < sizeof measured / sizeof *measured; i++)
        if (share_at(f, measured[i].busy) > m)
            m = share_at(f, measured[i].busy);
    for (int i = 0; i < f->npeers; i++)
        if (f->peer[i].busy > m)
            m = f->peer[i].busy;
    return m;
}

static const char *who(const gt_inspect_facts *f)
{
    return f->neighbour[0] ? f->neighbour : "another program";
}

/* A figure taken from samples, share of them disturbed. */
static void judge_figure(gt_inspect_row *r, double share, const gt_inspect_facts *f)
{
    size_t n = strlen(r->reason);

    if (!(share > 0) || r->verdict == GT_IV_CANNOT)
        return;
    if (share > GT_INSPECT_BUSY_SHARE) {
        r->verdict = GT_IV_BUSY;
        snprintf(r->reason, sizeof r->reason, "busy: cannot judge: %.0f%% of its samples were "
                 "taken beside %s", 100 * share, who(f));
        return;
    }
    snprintf(r->reason + n, sizeof r->reason - n, "; from its clean samples (%.0f%%, beside "
             "%s, left out)", 100 * share, who(f));
}

/* A figure the driver read while the steps ran. */
static void judge_reading(gt_inspect_row *r, double share, const gt_inspect_facts *f)
{
    if (!(share > GT_DISTURBED_SHARE) || (r->verdict != GT_IV_WARN && r->verdict != GT_IV_FAIL))
        return;
    r->verdict = GT_IV_BUSY;
    snprintf(r->reason, sizeof r->reason, "busy: cannot judge: another program's load shared "
             "the power and heat (%s)", who(f));
}

static void others_row(gt_inspect_card *c, const gt_inspect_facts *f, int busy)
{
    gt_inspect_row *r = gt_inspect_add_row(c, gt_inspect_sec_software, "sw.others",
                                           "other programs on the GPU");

    r->value = f->others;
    r->unit = "count";
    snprintf(r->expect, sizeof r->expect, "none at work while inspecting");
    if (f->others < 0 && !busy) {
        snprintf(r->figure, sizeof r->figure, "-");
        snprintf(r->reason, sizeof r->reason, "cannot tell whether the GPU is shared");
        return;
    }
    snprintf(r->figure, sizeof r->figure, "%d%s%s", f->others < 0 ? 0 : f->others,
             f->others > 0 ? ": " : "", f->others > 0 ? f->others_text : "");
    if (busy) {
        r->verdict = GT_IV_BUSY;
        snprintf(r->reason, sizeof r->reason, "busy: %d row%s not judged: %s%s%s; run again "
                 "when the GPU is quiet, or with --wait-quiet SECONDS", busy,
                 busy == 1 ? "" : "s", who(f), f->counters[0] ? ", by " : "", f->counters);
    } else if (f->others > 0) {
        r->verdict = GT_IV_PASS;
        snprintf(r->reason, sizeof r->reason, "they held a context but were seen idle while "
                 "gputui measured%s%s", f->counters[0] ? " (" : "",
                 f->counters[0] ? f->counters : "");
        if (f->counters[0])
            strncat(r->reason, ")", sizeof r->reason - strlen(r->reason) - 1);
    } else {
        r->verdict = GT_IV_PASS;
        snprintf(r->reason, sizeof r->reason, "the GPU was this inspection's alone");
    }
}

void gt_inspect_neighbours(gt_inspect_card *c, const gt_inspect_facts *f)
{
    double most = most_disturbed(f);
    int busy = 0;

    for (int i = 0; i < c->nrows; i++) {
        gt_inspect_row *r = &c->row[i];
        for (size_t k = 0; k < sizeof measured / sizeof *measured; k++) {
            if (strcmp(r->id, measured[k].id))
                continue;
            if (measured[k].figure)
                judge_figure(r, share_at(f, measured[k].busy), f);
            else
                judge_reading(r, share_at(f, measured[k].busy), f);
        }
        if (!strcmp(r->id, "clk.reasons") && r->verdict == GT_IV_WARN)
            judge_reading(r, most, f);      /* a power cap or a thermal hold, not a fault */
        for (int k = 0; k < f->npeers && !strcmp(r->id, "peer.bw"); k++)
            if (f->peer[k].b == r->peer)
                judge_figure(r, f->peer[k].busy, f);
        busy += r->verdict == GT_IV_BUSY;
    }
    others_row(c, f, busy);
}
