/* --lesson NAME --batch (lesson_batch.h). */
#include "gputui/lesson/lesson_batch.h"
#include "gputui/base/out.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gputui/report/batch.h"
#include "gputui/report/html.h"

void gt_lessons_print(FILE *f, const gt_lesson *l, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(f, "%-16s %s (%d step%s)\n%-16s %s\n", l[i].name, l[i].title, l[i].nsteps,
                l[i].nsteps == 1 ? "" : "s", "", l[i].about);
}

/* Whether step b measures what step a did: the same experiment and the
 * same configurations, in order. */
static bool same_configs(const gt_lesson_step *a, const gt_lesson_step *b)
{
    if (a->exp != b->exp || a->nconfigs != b->nconfigs)
        return false;
    for (int c = 0; c < a->nconfigs; c++)
        if (memcmp(a->vals[c], b->vals[c], sizeof a->vals[c]))
            return false;
    return true;
}

/* What a step's verdict checked, on this device: the relation and its
 * bound(s), on the scale of "ratio" and "interval" (a share of the
 * ceiling for the ceiling relations), or the text a set-up note must hold. */
static json_t *expect_json(const gt_lesson_expect *x)
{
    json_t *o = json_object();

    json_object_set_new(o, "relation", json_string(gt_relation_name(x->rel)));
    if (x->rel == GT_REL_NOTE)
        json_object_set_new(o, "note", json_string(x->note));
    else if (x->rel == GT_REL_BETWEEN)
        json_object_set_new(o, "bounds", json_pack("[ff]", x->lo, x->hi));
    else
        json_object_set_new(o, "bounds", json_pack("[f]", x->lo));
    return o;
}

/* A recording's configuration c of the step, its first 'want' samples of
 * each series, as the engine would play them: 0, or GT_EXIT_FAIL when the
 * recording does not hold it (said on standard error). */
static int recorded(const gt_recording *rec, const gt_lesson_step *st, int c, uint64_t want,
                    gt_run *run)
{
    int idx = gt_recording_find(rec, st->exp, st->vals[c]);
    char desc[512];

    memset(run, 0, sizeof *run);
    if (idx < 0 || rec->cfg[idx].n == 0) {
        const char *e = idx >= 0 ? rec->cfg[idx].error : NULL;
        fprintf(gt_stderr(), "gputui: %s: %s %s %s%s%s\n", rec->path, st->exp->name,
                gt_experiment_describe(st->exp, st->vals[c], desc, sizeof desc),
                idx < 0 ? "was not recorded" : "was recorded without samples",
                e ? "; recorded error: " : "", e ? e : "");
        return GT_EXIT_FAIL;
    }
    gt_rec_config_run_first(&rec->cfg[idx], want, run);
    return 0;
}

int gt_lesson_batch(const gt_cli *cli, gt_engine *eng, const gt_lesson *l,
                    const gt_recording *rec)
{
    gt_run last[GT_LESSON_CONFIGS];     /* the step before's samples, while they may serve */
    bool have_last = false;
    gt_devprops props;
    json_t *root = NULL, *steps = NULL;
    int rc = GT_EXIT_OK;
    char desc[512];

    gt_engine_props(eng, &props);
    bool html = cli->format == GT_FMT_HTML;
    int html_runs = 0;

    if (html) {
        char sub[700];
        snprintf(sub, sizeof sub, "lesson %s, %s %s", l->name, rec ? "replaying" : "live on",
                 rec ? rec->path : props.name);
        gt_html_begin(gt_stdout(), &props, l->title, sub);
        gt_html_text(gt_stdout(), "p", NULL, l->about);
    } else if (cli->format == GT_FMT_JSON) {
        root = json_object();
        steps = json_array();
        json_object_set_new(root, "lesson", json_string(l->name));
        json_object_set_new(root, "title", json_string(l->title));
        json_object_set_new(root, "device", json_string(props.name));
        json_object_set_new(root, "replayed_from", rec ? json_string(rec->path) : json_null());
    } else {
        fprintf(gt_stdout(), "lesson %s: %s\n%s %s%s\n", l->name, l->title, rec ? "replaying" : "live on",
               props.name, rec ? "" : "");
        if (rec)
            fprintf(gt_stdout(), "(recorded in %s)\n", rec->path);
    }
    for (int i = 0; i < l->nsteps; i++) {
        gt_lesson_step here;
        const gt_lesson_step *st = &here;
        gt_run runs[GT_LESSON_CONFIGS];
        gt_run *have[GT_LESSON_CONFIGS] = {NULL, NULL};
        uint64_t need;
        gt_verdict v = {.kind = GT_VERDICT_CANNOT};
        char unmet[400];
        int r = 0, c = 0, round = 0, rounds = 0;
        uint64_t used = 0;

        gt_engine_props(eng, &props);
        gt_lesson_step_for(&l->step[i], &props, &here);     /* this kind of device's claim */
        need = gt_lesson_need(st, rec);
        /* A step that measures what the step before did starts from its
         * samples (live: a recording's are read again anyway). */
        bool reused = have_last && !rec && same_configs(&l->step[i - 1], st);

        memset(runs, 0, sizeof runs);
        for (int k = 0; reused && k < st->nconfigs; k++) {
            uint64_t n = gt_run_count(&last[k]);
            runs[k] = last[k];
            memset(&last[k], 0, sizeof last[k]);
            have[k] = &runs[k];
            used = k == 0 || n < used ? n : used;      /* the fewest of any configuration */
        }
        for (int k = 0; have_last && k < GT_LESSON_CONFIGS; k++)
            gt_run_free(&last[k]);
        have_last = false;
        if (cli->format == GT_FMT_TEXT)
            fprintf(gt_stdout(), "\nstep %d/%d: %s\n", i + 1, l->nsteps, st->title);
        /* A device the claim is not about gets its verdict unmeasured. */
        int peers = st->claim.expect.peers;
        bool runnable = (!peers || gt_dp_get(&props, GT_DP_PEERS) >= peers) &&
                        !gt_lesson_unmet(st, &props, unmet, sizeof unmet);
        for (c = 0; runnable && c < st->nconfigs; c++) {
            char msg[400];
            gt_experiment_describe(st->exp, st->vals[c], desc, sizeof desc);
            if (cli->format == GT_FMT_TEXT)
                fprintf(gt_stdout(), "  config %d: %s %s\n", c + 1, st->exp->name, desc);
            if (gt_experiment_check(st->exp, st->vals[c], &props, msg, sizeof msg)) {
                snprintf(v.text, sizeof v.text, "cannot tell here: config %d: %s", c + 1, msg);
                runnable = false;
            }
        }
        /* A first look, then rounds of 'need' samples, the configurations
         * in turn, until the interval clears the threshold (lesson.h); a
         * recording's samples once. */
        uint64_t target[GT_LESSON_ROUNDS + 1];
        int nstages = 0;
        if (!rec && GT_LESSON_FIRST < need)
            target[nstages++] = GT_LESSON_FIRST;
        for (int k = 1; k <= (rec ? 1 : GT_LESSON_ROUNDS); k++)
            target[nstages++] = need * (uint64_t)k;
        bool decided = false;
        round = 0;
        if (reused && runnable) {   /* judged on them first; measured on as usual */
            while (round < nstages - 1 && target[round] <= used)
                round++;
            gt_engine_props(eng, &props);
            gt_lesson_verdict(st, have, &props, used, false, &v);
            decided = !v.more;
            rounds = 1;
        }
        for (; runnable && !decided && round < nstages; round++) {
            uint64_t want = target[round] > used ? target[round] - used : 1;
            for (c = 0; c < st->nconfigs; c++) {
                gt_run more;
                bool merge = round || reused;
                fflush(gt_stdout());
                r = rec ? recorded(rec, st, c, want, merge ? &more : &runs[c])
                        : gt_batch_measure(cli, eng, st->exp, st->vals[c], (int64_t)want,
                                           merge ? &more : &runs[c], NULL);
                if (merge) {
                    if (!r)
                        gt_run_merge(&runs[c], &more);
                    gt_run_free(&more);
                }
                if (r) {
                    snprintf(v.text, sizeof v.text, "cannot tell here: config %d did not run "
                             "(see above)", c + 1);
                    break;
                }
                have[c] = &runs[c];
                if (gt_run_failed(&runs[c]))
                    rc = GT_EXIT_VERIFY;
            }
            if (r)
                break;
            rounds++;
            used = target[round];
            gt_engine_props(eng, &props);
            gt_lesson_verdict(st, have, &props, target[round], round + 1 == nstages, &v);
            if (!v.more)
                break;
            if (cli->format == GT_FMT_TEXT)
                fprintf(gt_stdout(), "  %s\n", v.text);
        }
        if (r > 128) {
            rc = r;
            for (int k = 0; k < GT_LESSON_CONFIGS; k++)
                gt_run_free(&runs[k]);
            break;
        }
        if (!runnable && !v.text[0])
            gt_lesson_verdict(st, have, &props, need, true, &v);   /* says why */
        if (v.kind == GT_VERDICT_WAIT || (v.kind == GT_VERDICT_CANNOT && r))
            rc = rc ? rc : GT_EXIT_FAIL;
        if (root) {
            json_t *o = json_object();
            json_object_set_new(o, "step", json_integer(i + 1));
            json_object_set_new(o, "title", json_string(st->title));
            json_object_set_new(o, "verdict", json_string(gt_verdict_name(v.kind)));
            json_object_set_new(o, "text", json_string(v.text));
            json_object_set_new(o, "samples", json_integer((json_int_t)used));
            json_object_set_new(o, "rounds", json_integer(rounds));
            json_object_set_new(o, "ratio", isfinite(v.ratio) ? json_real(v.ratio) : json_null());
            json_object_set_new(o, "interval", isfinite(v.lo) ?
                                json_pack("[ff]", v.lo, v.hi) : json_null());
            json_object_set_new(o, "expect", expect_json(&st->claim.expect));
            json_array_append_new(steps, o);
        } else if (html) {
            static const char *const cls[] = {
                [GT_VERDICT_WAIT] = "close", [GT_VERDICT_YES] = "yes", [GT_VERDICT_NO] = "no",
                [GT_VERDICT_CANNOT] = "cannot", [GT_VERDICT_CLOSE] = "close"};
            char h[300], vc[40];
            snprintf(h, sizeof h, "step %d/%d: %s", i + 1, l->nsteps, st->title);
            fprintf(gt_stdout(), "<section class=\"step\" data-step=\"%d\">\n", i + 1);
            gt_html_text(gt_stdout(), "h2", NULL, h);
            for (int k = 0; k < st->claim.nsay; k++)
                gt_html_text(gt_stdout(), "p", NULL, st->claim.say[k]);
            snprintf(vc, sizeof vc, "verdict %s", cls[v.kind]);
            gt_html_text(gt_stdout(), "p", vc, v.text);
            for (int k = 0; k < st->nconfigs; k++)
                if (have[k] && gt_run_count(have[k]))
                    gt_html_run(gt_stdout(), &props, have[k], html_runs++, NULL);
            fprintf(gt_stdout(), "</section>\n");
        } else {
            fprintf(gt_stdout(), "  verdict: %s\n", v.text);
        }
        /* The next step measures the same: it starts from these. */
        have_last = runnable && !r && !rec && i + 1 < l->nsteps &&
                    same_configs(st, &l->step[i + 1]);
        for (int k = 0; k < GT_LESSON_CONFIGS; k++) {
            if (have_last)
                last[k] = runs[k];
            else
                gt_run_free(&runs[k]);
        }
    }
    for (int k = 0; have_last && k < GT_LESSON_CONFIGS; k++)
        gt_run_free(&last[k]);
    if (html && gt_html_end(gt_stdout()))
        rc = rc ? rc : GT_EXIT_FAIL;
    if (root) {
        json_object_set_new(root, "steps", steps);
        if (json_dumpf(root, gt_stdout(), JSON_INDENT(2) | JSON_PRESERVE_ORDER))
            rc = rc ? rc : GT_EXIT_FAIL;
        fputc('\n', gt_stdout());
        json_decref(root);
    }
    return rc;
}
