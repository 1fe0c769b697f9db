/* recplan_lessons.c - what recplan reads from the lessons (recplan.c has
 * the usage): the configurations a viewer opens on, in the order it needs
 * them (recplan openings), and those the lessons' steps set (recplan
 * lessons), a step's two configurations one parameter apart as one batch
 * line. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/measure/experiment.h"
#include "gputui/lesson/lesson.h"
#include "gputui/record/record.h"
#include "gputui/experiments/registry.h"
#include "recplan.h"

/* The one parameter two configurations of an experiment differ in, or -1. */
static int one_apart(const gt_experiment *e, const int64_t *a, const int64_t *b)
{
    int at = -1;

    for (int k = 0; k < e->nparams; k++)
        if (a[k] != b[k]) {
            if (at >= 0)
                return -1;
            at = k;
        }
    return at;
}

/* Like print_args, with parameter p swept over a's value, then b's: a
 * lesson step's two configurations measured in one process, as the lesson
 * measures them live (a process's state moves a driver call's cost by a
 * third: recorded in two, the step would compare two processes). */
static void print_pair(const gt_experiment *e, const int64_t *a, const int64_t *b, int p)
{
    int64_t def[GT_MAX_PARAMS];
    char v[64], w[64];

    gt_experiment_defaults(e, def);
    printf("-e %s", e->name);
    for (int k = 0; k < e->nparams; k++) {
        if (k == p)
            printf(" --%s=%s,%s", e->params[k].name,
                   gt_param_format(&e->params[k], a[k], v, sizeof v),
                   gt_param_format(&e->params[k], b[k], w, sizeof w));
        else if (a[k] != def[k] && gt_param_applies(&e->params[k], a, NULL))
            printf(" --%s=%s", e->params[k].name, gt_param_format(&e->params[k], a[k], v,
                                                                   sizeof v));
    }
    printf("\n");
}

/* Prints configuration idx's number once (idx -1: none). */
static void take(const gt_recording *rec, bool *taken, int idx, int *out)
{
    if (idx < 0 || taken[idx])
        return;
    taken[idx] = true;
    printf("%s%u", (*out)++ ? "," : "", rec->cfg[idx].gen);
}

/* recplan openings REC DIR */
int recplan_openings(int argc, char **argv)
{
    static gt_lesson l[GT_LESSON_MAX];
    gt_recording rec;
    gt_err err;
    bool *taken;
    int n, out = 0;

    (void)argc;
    gt_err_clear(&err);
    if (gt_recording_load(&rec, argv[0], &err)) {
        fprintf(stderr, "recplan: %s\n", err.msg);
        return 2;
    }
    if ((n = gt_lessons_load_dir(argv[1], l, GT_LESSON_MAX, &err)) < 0 ||
        !(taken = calloc(rec.ncfg ? rec.ncfg : 1, sizeof *taken))) {
        fprintf(stderr, "recplan: %s\n", n < 0 ? err.msg : "out of memory");
        gt_recording_free(&rec);
        return 2;
    }
    for (int e = 0; e < gt_nexperiments; e++) {
        int64_t def[GT_MAX_PARAMS];
        gt_experiment_defaults(gt_experiments[e], def);
        take(&rec, taken, gt_recording_place(&rec, gt_experiments[e], def), &out);
    }
    for (int pass = 0; pass < 2; pass++)        /* first steps, then the others */
        for (int i = 0; i < n; i++)
            for (int st = pass; st < (pass ? l[i].nsteps : 1); st++)
                for (int c = 0; c < l[i].step[st].nconfigs; c++)
                    take(&rec, taken, gt_recording_find(&rec, l[i].step[st].exp,
                                                        l[i].step[st].vals[c]), &out);
    printf("\n");
    free(taken);
    gt_recording_free(&rec);
    return 0;
}

/* recplan lessons DIR [--missing-from REC] [--check] */
int recplan_lessons(int argc, char **argv)
{
    static gt_lesson l[GT_LESSON_MAX];
    static struct { const gt_experiment *exp; int64_t vals[GT_MAX_PARAMS]; }
        seen[GT_LESSON_MAX * GT_LESSON_STEPS * GT_LESSON_CONFIGS];
    int nseen = 0;
    gt_recording rec;
    gt_err err;
    bool have = false, check_only = false;
    int n, missing = 0, rc = 0;

    gt_err_clear(&err);
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--check")) {
            check_only = true;
        } else if (!strcmp(argv[a], "--missing-from") && a + 1 < argc) {
            if (gt_recording_load(&rec, argv[++a], &err)) {
                fprintf(stderr, "recplan: %s\n", err.msg);
                return 2;
            }
            have = true;
        }
    }
    if ((n = gt_lessons_load_dir(argv[0], l, GT_LESSON_MAX, &err)) < 0) {
        fprintf(stderr, "recplan: %s\n", err.msg);
        rc = 2;
        goto out;
    }
    for (int i = 0; i < n; i++)
        for (int s = 0; s < l[i].nsteps; s++) {
            const gt_lesson_step *st = &l[i].step[s];
            /* two configurations one parameter apart: one line, one process */
            int pair = st->nconfigs == 2 ? one_apart(st->exp, st->vals[0], st->vals[1]) : -1;
            bool pair_wanted = false;
            for (int c = 0; c < st->nconfigs; c++) {
                int64_t def[GT_MAX_PARAMS];
                bool dup = false;
                /* once per configuration, at its first appearance */
                for (int k = 0; k < nseen && !dup; k++)
                    dup = seen[k].exp == st->exp &&
                          !memcmp(seen[k].vals, st->vals[c], sizeof def);
                if (!dup && nseen < (int)(sizeof seen / sizeof seen[0])) {
                    seen[nseen].exp = st->exp;
                    memcpy(seen[nseen++].vals, st->vals[c], sizeof def);
                }
                if (dup || (have && gt_recording_find(&rec, st->exp, st->vals[c]) >= 0))
                    continue;
                if (st->claim.expect.peers && have &&
                    gt_dp_get(&rec.props, GT_DP_PEERS) < st->claim.expect.peers)
                    continue;   /* the device cannot run it: the verdict says so */
                missing++;
                if (check_only) {
                    printf("%s step %d config %d: %s\n", l[i].name, s + 1, c + 1,
                           gt_experiment_describe(st->exp, st->vals[c], (char[512]){0}, 512));
                    continue;
                }
                if (pair >= 0)
                    pair_wanted = true;
                else
                    recplan_print_args(st->exp, st->vals[c]);
            }
            if (pair_wanted)
                print_pair(st->exp, st->vals[0], st->vals[1], pair);
        }
    if (check_only && missing) {
        fprintf(stderr, "recplan: %d lesson configuration%s not recorded\n", missing,
                missing == 1 ? "" : "s");
        rc = 1;
    }
out:
    if (have)
        gt_recording_free(&rec);
    return rc;
}
