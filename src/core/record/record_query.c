/* What a loaded recording holds (record.h): a configuration found by its
 * values, the place a replay starts on, the nearest one after a change,
 * a configuration as a run, the series it lacks, and what a reader should
 * be told about a file that loaded with losses. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/measure/run.h"
#include "gputui/experiments/registry.h"
#include "rec_index.h"

void gt_rec_config_skip_unrecorded(const gt_rec_config *c, gt_setup_info *info)
{
    const char *names[GT_MAX_SERIES];
    uint32_t seen = 0, missing;
    int ns = c->exp->series(c->vals, names);

    if (c->n == 0)
        return;
    for (size_t i = 0; i < c->n; i++)
        seen |= 1u << c->s[i].series;
    missing = (ns >= 32 ? ~0u : (1u << ns) - 1) & ~seen & ~info->skipped;
    if (!missing)
        return;
    if (!info->skipped)
        snprintf(info->why_skipped, sizeof info->why_skipped,
                 "the recording has none (made before gputui measured it)");
    info->skipped |= missing;
}

int gt_rec_config_run_first(const gt_rec_config *c, uint64_t first, gt_run *r)
{
    uint64_t taken[GT_MAX_SERIES] = {0};

    gt_run_init(r, c->exp, c->vals, c->gen);
    r->info = *c->info;
    r->unkept = c->unkept;
    gt_rec_config_skip_unrecorded(c, &r->info);
    for (size_t k = 0; k < c->n; k++)
        if (taken[c->s[k].series]++ < first)
            gt_run_add(r, &c->s[k]);
    return c->tl ? gt_run_set_timeline(r, c->tl) : 0;
}

int gt_rec_config_run(const gt_rec_config *c, gt_run *r)
{
    return gt_rec_config_run_first(c, UINT64_MAX, r);
}

const char *gt_recording_warning(const gt_recording *r, char *buf, size_t len)
{
    size_t off = 0;

#define SAY(...) (off += (size_t)snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__))
    buf[0] = '\0';
    if (r->cut_note[0])
        SAY("%s", r->cut_note);
    else if (r->dropped)
        SAY("%s: the last line was cut off; %zu line%s dropped", r->path, r->dropped,
            r->dropped == 1 ? "" : "s");
    if (r->minor > GT_REC_MINOR)
        SAY("%s%s: recording format %d.%d is newer than this gputui's %d.%d: what it adds is "
            "ignored", off ? "; " : "", r->path, r->major, r->minor, GT_REC_MAJOR, GT_REC_MINOR);
    if (r->samples_unkept)
        SAY("%s%s: %llu of its %llu samples were not kept (a reader keeps %u of a series of a "
            "configuration, %zu MiB of samples in all); the figures are those of the %llu kept",
            off ? "; " : "", r->path, (unsigned long long)r->samples_unkept,
            (unsigned long long)r->samples_read, r->limits.per_series, r->limits.samples >> 20,
            (unsigned long long)(r->samples_read - r->samples_unkept));
    if (r->extras_unkept)
        SAY("%s%s: %zu timelines, call traces or inspections were not kept (past %zu MiB of "
            "them)", off ? "; " : "", r->path, r->extras_unkept, r->limits.extras >> 20);
#undef SAY
    return buf;
}

int gt_recording_find(const gt_recording *r, const gt_experiment *exp, const int64_t *vals)
{
    return rec_index_find(r, exp, vals, r->followed);
}

bool gt_recording_unread(const gt_recording *r, const gt_experiment *exp, const int64_t *vals)
{
    return r && r->loading && gt_recording_find(r, exp, vals) < 0;
}

int gt_recording_place(const gt_recording *r, const gt_experiment *exp, const int64_t *vals)
{
    int idx = gt_recording_find(r, exp, vals);

    for (size_t i = 0; idx < 0 && i < r->ncfg; i++)
        if (r->cfg[i].exp == exp)
            idx = (int)i;
    return idx;
}

int gt_recording_match(const gt_recording *r, const gt_experiment *exp, const int64_t *vals,
                       int changed, char *have, size_t havelen)
{
    int best = -1, best_score = -1;
    size_t off = 0;
    char v[48];

    for (size_t i = 0; i < r->ncfg; i++) {
        const gt_rec_config *c = &r->cfg[i];
        int score = 0;
        if (c->exp != exp || c->vals[changed] != vals[changed])
            continue;
        for (int k = 0; k < exp->nparams; k++)
            score += c->vals[k] == vals[k];
        if (score > best_score) {
            best = (int)i;
            best_score = score;
        }
    }
    if (best >= 0 || !have)
        return best;
    /* None: the recorded values of that parameter, once each, in order;
     * a long list as its count and range. */
    {
        int64_t vals_seen[64];
        int nv = 0;
        char lo[48];
        for (size_t i = 0; i < r->ncfg && nv < 64; i++) {
            bool seen = false;
            if (r->cfg[i].exp != exp)
                continue;
            for (int j = 0; j < nv; j++)
                seen |= vals_seen[j] == r->cfg[i].vals[changed];
            if (!seen)
                vals_seen[nv++] = r->cfg[i].vals[changed];
        }
        for (int i = 1; i < nv; i++)        /* insertion sort: few values */
            for (int j = i; j > 0 && vals_seen[j - 1] > vals_seen[j]; j--) {
                int64_t t = vals_seen[j];
                vals_seen[j] = vals_seen[j - 1];
                vals_seen[j - 1] = t;
            }
        have[0] = '\0';
        if (nv > 8) {
            snprintf(have, havelen, "%d values from %s to %s", nv,
                     gt_param_format(&exp->params[changed], vals_seen[0], lo, sizeof lo),
                     gt_param_format(&exp->params[changed], vals_seen[nv - 1], v, sizeof v));
            return -1;
        }
        for (int i = 0; i < nv && off < havelen; i++)
            off += (size_t)snprintf(have + off, havelen - off, "%s%s", off ? ", " : "",
                                    gt_param_format(&exp->params[changed], vals_seen[i], v,
                                                    sizeof v));
    }
    return -1;
}
