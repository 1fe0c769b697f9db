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

int gt_rec_config_run(const gt_rec_config *c, gt_run *r)
{
    gt_run_init(r, c->exp, c->vals, c->gen);
    r->info = c->info;
    gt_rec_config_skip_unrecorded(c, &r->info);
    for (size_t k = 0; k < c->n; k++)
        gt_run_add(r, &c->s[k]);
    return c->tl ? gt_run_set_timeline(r, c->tl) : 0;
}

const char *gt_recording_warning(const gt_recording *r, char *buf, size_t len)
{
    if (r->cut_note[0])
        snprintf(buf, len, "%s", r->cut_note);
    else if (r->dropped)
        snprintf(buf, len, "%s: the last line was cut off; %zu line%s dropped", r->path,
                 r->dropped, r->dropped == 1 ? "" : "s");
    else
        buf[0] = '\0';
    return buf;
}

bool gt_rec_config_is(const gt_rec_config *c, const gt_experiment *exp, const int64_t *vals)
{
    if (c->exp != exp)
        return false;
    for (int k = 0; k < exp->nparams; k++)
        /* Values that do not apply are not part of the configuration. */
        if (gt_param_applies(&exp->params[k], vals, NULL) && c->vals[k] != vals[k])
            return false;
    return true;
}

int gt_recording_find(const gt_recording *r, const gt_experiment *exp, const int64_t *vals)
{
    int found = -1;

    for (size_t i = 0; i < r->ncfg; i++)
        if (gt_rec_config_is(&r->cfg[i], exp, vals)) {
            found = (int)i;
            if (!r->followed)
                break;
        }
    return found;
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
