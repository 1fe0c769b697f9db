/* recplan - what the bundled recordings must hold, from one table.
 *
 *   recplan plan [--props REC] [EXPERIMENT[/LIST][:PARAM=VALUE]...]
 *       prints one gputui --batch argument list per line (EXPERIMENT/LIST:
 *       only the plan that lists that parameter; :PARAM=VALUE: only its
 *       configurations with that value, as merge-recordings.py --drop
 *       takes them out): together they
 *       measure every configuration a class reaches with +/- (and Space)
 *       from the defaults on the parameters below. REC supplies the
 *       device properties that some values depend on (the L2 region sweep).
 *   recplan check [--min PCT] REC...
 *       for each recording: how many of those configurations it holds, per
 *       experiment; exit 1 if the share is below PCT.
 *   recplan traces REC [--check]
 *       one batch argument list per configuration a key reaches from an
 *       experiment's defaults that REC holds no CUDA calls for; with
 *       --check, exit 1 and name them.
 *   recplan dups BASE PART...
 *       the configuration numbers of BASE that a PART holds too, for
 *       merge-recordings.py --drop-gens.
 *   recplan openings REC DIR
 *       the configuration numbers of REC that a viewer opens on, in the
 *       order it needs them: each experiment's defaults (or its first
 *       recorded configuration), each lesson's first step (the lessons in
 *       DIR), then the lessons' other steps; for merge-recordings.py
 *       --first, which puts them at the head of the file, so that the
 *       viewer shows its first figures before the rest is read.
 *   recplan lessons DIR [--missing-from REC]
 *       one batch argument list per configuration a lesson step sets (the
 *       lessons in DIR), leaving out those REC holds; a step's two
 *       configurations one parameter apart in one list, swept by one
 *       process as the lesson runs them; with --check, exit 1 and name
 *       them if REC lacks any.
 *
 * The reachable values of a parameter are those gt_param_step reaches from
 * its default in either direction (an enum or switch: every value), cut at
 * 'max' where a class has no use for more; 'values' lists them instead
 * where the TUI's sweep or the lesson material names them. Switches of one
 * 'oneof' group are set one at a time (the flags of a host allocation). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/measure/experiment.h"
#include "gputui/record/record.h"
#include "gputui/experiments/registry.h"
#include "recplan.h"

#define MAXV 64
#define MAXCFG 4096


typedef struct {
    const gt_experiment *e;
    int np, idx[8], nv[8];
    int64_t v[8][MAXV];
} space;

static int reachable(const gt_param *p, int64_t max, int64_t *out)
{
    int n = 0;

    out[n++] = p->def;
    for (int dir = -1; dir <= 1; dir += 2) {
        int64_t v = p->def;
        for (;;) {
            int64_t w = gt_param_step(p, v, dir);
            bool seen = false;
            if (w == v || (max && w > max) || n == MAXV)
                break;
            for (int k = 0; k < n; k++)
                seen |= out[k] == w;
            if (seen)
                break;
            out[n++] = v = w;
        }
    }
    return n;
}

static int build(const cplan *pl, const gt_devprops *props, space *sp, char *err, size_t len)
{
    memset(sp, 0, sizeof *sp);
    sp->e = gt_experiment_find(pl->exp);
    if (!sp->e) {
        snprintf(err, len, "no experiment '%s'", pl->exp);
        return -1;
    }
    for (int i = 0; i < 8 && pl->p[i].name; i++, sp->np++) {
        const cparam *c = &pl->p[i];
        const gt_param *p;
        sp->idx[i] = gt_experiment_param(sp->e, c->name);
        if (sp->idx[i] < 0) {
            snprintf(err, len, "%s has no parameter '%s'", pl->exp, c->name);
            return -1;
        }
        p = &sp->e->params[sp->idx[i]];
        if (c->values) {
            char buf[256], *save = NULL;
            snprintf(buf, sizeof buf, "%s", c->values);
            for (char *t = strtok_r(buf, ",", &save); t && sp->nv[i] < MAXV;
                 t = strtok_r(NULL, ",", &save))
                if (gt_param_parse(p, t, &sp->v[i][sp->nv[i]++], err, len))
                    return -1;
        } else if (c->sweep) {
            sp->nv[i] = sp->e->sweep_values && props
                            ? sp->e->sweep_values(sp->idx[i], props, sp->v[i], MAXV)
                            : 0;
            if (sp->nv[i] <= 0) {
                snprintf(err, len, "%s %s: its values depend on the device (--props REC)",
                         pl->exp, c->name);
                return -1;
            }
        } else {
            sp->nv[i] = reachable(p, c->max, sp->v[i]);
        }
    }
    return 0;
}

/* Every valid configuration of the space, without duplicates (parameters
 * that do not apply are not part of a configuration). */
static int configs(const cplan *pl, const space *sp, int64_t (*out)[GT_MAX_PARAMS], int max)
{
    int at[8] = {0}, n = 0;
    char da[512], db[512], err[300];

    for (;;) {
        int64_t v[GT_MAX_PARAMS];
        int on[8] = {0};
        bool ok = true;
        gt_experiment_defaults(sp->e, v);
        for (int i = 0; i < sp->np; i++) {
            v[sp->idx[i]] = sp->v[i][at[i]];
            if (pl->p[i].oneof && v[sp->idx[i]] != sp->e->params[sp->idx[i]].def)
                ok &= ++on[pl->p[i].oneof] <= 1;
        }
        if (ok && gt_experiment_validate(sp->e, v, 0, err, sizeof err) == 0) {
            bool dup = false;
            gt_experiment_describe(sp->e, v, da, sizeof da);
            for (int k = 0; k < n && !dup; k++)
                dup = !strcmp(gt_experiment_describe(sp->e, out[k], db, sizeof db), da);
            if (!dup && n < max)
                memcpy(out[n++], v, sizeof v);
        }
        int i = 0;
        for (; i < sp->np; i++) {
            if (++at[i] < sp->nv[i])
                break;
            at[i] = 0;
        }
        if (i == sp->np)
            return n;
    }
}

/* One batch line per group of configurations that differ only in the
 * listed parameter, at most 16 values a line (the CLI's list limit). A
 * parameter is passed when it applies to a member; a list of more than one
 * value leaves it out where it does not (gt_cli_configs). */
static void print_plan(const cplan *pl, const space *sp, int64_t (*cfg)[GT_MAX_PARAMS], int n)
{
    int li = gt_experiment_param(sp->e, pl->list);
    bool *done = calloc((size_t)n, sizeof *done);
    char v[48];

    for (int a = 0; a < n; a++) {
        int members[MAXV], nm = 0;
        if (done[a])
            continue;
        for (int b = a; b < n && nm < MAXV; b++) {
            bool same = !done[b];
            for (int i = 0; same && i < sp->np; i++)
                same = sp->idx[i] == li || cfg[b][sp->idx[i]] == cfg[a][sp->idx[i]];
            if (same) {
                members[nm++] = b;
                done[b] = true;
            }
        }
        for (int c0 = 0; c0 < nm; c0 += 16) {
            int c1 = c0 + 16 < nm ? c0 + 16 : nm;
            printf("-e %s", sp->e->name);
            for (int i = 0; i < sp->np; i++) {
                const gt_param *p = &sp->e->params[sp->idx[i]];
                bool applies = false;
                for (int c = c0; c < c1; c++)
                    applies |= gt_param_applies(p, cfg[members[c]], NULL);
                if (sp->idx[i] != li && applies)
                    printf(" --%s=%s", p->name, gt_param_format(p, cfg[a][sp->idx[i]], v, sizeof v));
            }
            /* A single value of a parameter that does not apply here
             * would be refused: the configuration stands without it. */
            bool list_applies = c1 - c0 > 1;
            for (int c = c0; c < c1; c++)
                list_applies |= gt_param_applies(&sp->e->params[li], cfg[members[c]], NULL);
            if (list_applies) {
                printf(" --%s=", pl->list);
                for (int c = c0; c < c1; c++)
                    printf("%s%s", c > c0 ? "," : "",
                           gt_param_format(&sp->e->params[li], cfg[members[c]][li], v, sizeof v));
            }
            printf("\n");
        }
    }
    free(done);
}

static int64_t (*cfgbuf)[GT_MAX_PARAMS];

/* Whether ARG (EXPERIMENT[/LIST][:PARAM=VALUE]) names plan pl; *filter
 * is then its ":PARAM=VALUE" part, or NULL. */
static bool names_plan(const char *arg, const cplan *pl, const char **filter)
{
    size_t el = strlen(pl->exp), al = strcspn(arg, ":");

    *filter = arg[al] == ':' ? arg + al + 1 : NULL;
    if (strncmp(arg, pl->exp, el))
        return false;
    if (al == el)
        return true;
    return arg[el] == '/' && al - el - 1 == strlen(pl->list) &&
           !strncmp(arg + el + 1, pl->list, al - el - 1);
}

/* Keeps the configurations whose PARAM is VALUE (FILTER "PARAM=VALUE");
 * -1 with a message naming the parameters or the values allowed. */
static int keep_only(const gt_experiment *e, const char *filter, int64_t (*cfg)[GT_MAX_PARAMS],
                     int *n, char *err, size_t len)
{
    char name[64], msg[300];
    const char *eq = strchr(filter, '=');
    size_t nl = eq ? (size_t)(eq - filter) : 0;
    int64_t want;
    int idx, kept = 0;

    if (!eq || !nl || nl >= sizeof name) {
        snprintf(err, len, "%s:%s: expected EXPERIMENT:PARAM=VALUE", e->name, filter);
        return -1;
    }
    memcpy(name, filter, nl);
    name[nl] = 0;
    if ((idx = gt_experiment_param(e, name)) < 0) {
        snprintf(err, len, "%s has no parameter '%s'", e->name, name);
        return -1;
    }
    if (gt_param_parse(&e->params[idx], eq + 1, &want, msg, sizeof msg)) {
        snprintf(err, len, "%s %s", e->name, msg);
        return -1;
    }
    for (int k = 0; k < *n; k++)
        if (cfg[k][idx] == want)
            memmove(cfg[kept++], cfg[k], sizeof cfg[k]);
    *n = kept;
    return 0;
}

static int plan(int argc, char **argv)
{
    gt_recording rec;
    gt_err err;
    bool have = false;
    char msg[300];
    int first = 0;

    if (argc >= 2 && !strcmp(argv[0], "--props")) {
        gt_err_clear(&err);
        if (gt_recording_load(&rec, argv[1], &err)) {
            fprintf(stderr, "recplan: %s\n", err.msg);
            return 2;
        }
        have = true;
        first = 2;
    }
    for (int k = 0; k < recplan_nplans; k++) {
        space sp;
        const char *filter = NULL, *f;
        bool wanted = first == argc;
        for (int a = first; a < argc; a++)
            if (names_plan(argv[a], &recplan_plans[k], &f)) {
                wanted = true;
                filter = f;
            }
        if (!wanted)
            continue;
        if (build(&recplan_plans[k], have ? &rec.props : NULL, &sp, msg, sizeof msg)) {
            fprintf(stderr, "recplan: %s\n", msg);
            return 2;
        }
        int n = configs(&recplan_plans[k], &sp, cfgbuf, MAXCFG);
        if (filter && keep_only(sp.e, filter, cfgbuf, &n, msg, sizeof msg)) {
            fprintf(stderr, "recplan: %s\n", msg);
            return 2;
        }
        print_plan(&recplan_plans[k], &sp, cfgbuf, n);
    }
    if (have)
        gt_recording_free(&rec);
    return 0;
}

static int check(int argc, char **argv)
{
    double min = 0;
    int rc = 0;

    if (argc >= 2 && !strcmp(argv[0], "--min")) {
        min = atof(argv[1]);
        argv += 2;
        argc -= 2;
    }
    for (int f = 0; f < argc; f++) {
        gt_recording rec;
        gt_err err;
        int all = 0, held = 0;
        gt_err_clear(&err);
        if (gt_recording_load(&rec, argv[f], &err)) {
            fprintf(stderr, "recplan: %s\n", err.msg);
            return 2;
        }
        printf("%s (%s):\n", argv[f], rec.props.name);
        for (int k = 0; k < recplan_nplans; k++) {
            space sp;
            char msg[300];
            int n, got = 0, refused = 0;
            if (build(&recplan_plans[k], &rec.props, &sp, msg, sizeof msg)) {
                fprintf(stderr, "recplan: %s\n", msg);
                gt_recording_free(&rec);
                return 2;
            }
            n = configs(&recplan_plans[k], &sp, cfgbuf, MAXCFG);
            for (int i = 0; i < n; i++) {
                if (gt_experiment_check(sp.e, cfgbuf[i], &rec.props, msg, sizeof msg))
                    refused++;      /* this device cannot run it: not expected */
                else if (gt_recording_find(&rec, sp.e, cfgbuf[i]) >= 0)
                    got++;
            }
            printf("  %-9s %-9s %4d of %4d recorded (%5.1f%%)\n", recplan_plans[k].exp,
                   recplan_plans[k].list,
                   got, n - refused, n - refused ? 100.0 * got / (n - refused) : 100.0);
            if (refused)
                printf("  %-19s %4d more refused by this device before set-up\n", "", refused);
            all += n - refused;
            held += got;
        }
        printf("  all: %d of %d reachable configurations recorded (%.1f%%), %zu in the file\n",
               held, all, all ? 100.0 * held / all : 100.0, rec.ncfg);
        if (all && 100.0 * held / all < min)
            rc = 1;
        gt_recording_free(&rec);
    }
    return rc;
}

/* One gputui --batch argument list: the experiment and the values that
 * differ from its defaults. */
void recplan_print_args(const gt_experiment *e, const int64_t *vals)
{
    int64_t def[GT_MAX_PARAMS];
    char v[64];

    gt_experiment_defaults(e, def);
    printf("-e %s", e->name);
    for (int k = 0; k < e->nparams; k++)
        if (vals[k] != def[k] && gt_param_applies(&e->params[k], vals, NULL))
            printf(" --%s=%s", e->params[k].name, gt_param_format(&e->params[k], vals[k], v,
                                                                   sizeof v));
    printf("\n");
}

/* recplan traces REC [--check]: every configuration one key takes an
 * experiment to from its defaults (its defaults, and each parameter that
 * applies one step either way) that REC's device can run and REC holds
 * no CUDA calls ('t') for. */
static int traces(int argc, char **argv)
{
    gt_recording rec;
    gt_err err;
    bool check_only = argc >= 2 && !strcmp(argv[1], "--check");
    int missing = 0;
    char msg[300];

    gt_err_clear(&err);
    if (gt_recording_load(&rec, argv[0], &err)) {
        fprintf(stderr, "recplan: %s\n", err.msg);
        return 2;
    }
    for (int x = 0; x < gt_nexperiments; x++) {
        const gt_experiment *e = gt_experiments[x];
        int64_t def[GT_MAX_PARAMS], v[GT_MAX_PARAMS];
        gt_experiment_defaults(e, def);
        if (gt_recording_place(&rec, e, def) < 0)
            continue;       /* not an experiment of this recording (2xh200: peer alone) */
        for (int k = -1; k < e->nparams; k++)
            for (int dir = -1; dir <= 1; dir += 2) {
                int i;
                memcpy(v, def, sizeof v);
                if (k >= 0) {
                    if (!gt_param_applies(&e->params[k], def, NULL))
                        continue;
                    v[k] = gt_param_step(&e->params[k], def[k], dir);
                    if (v[k] == def[k] ||
                        (dir > 0 && v[k] == gt_param_step(&e->params[k], def[k], -1)))
                        continue;   /* no step, or the same value both ways */
                } else if (dir > 0) {
                    continue;       /* the defaults once */
                }
                if (gt_experiment_check(e, v, &rec.props, msg, sizeof msg))
                    continue;       /* this device cannot run it */
                i = gt_recording_find(&rec, e, v);
                if (i >= 0 && rec.cfg[i].trace)
                    continue;
                missing++;
                if (check_only)
                    printf("no calls for %s\n", gt_experiment_describe(e, v, (char[512]){0}, 512));
                else
                    recplan_print_args(e, v);
            }
    }
    gt_recording_free(&rec);
    if (check_only && missing) {
        fprintf(stderr, "recplan: %d configuration%s a key reaches without its calls\n", missing,
                missing == 1 ? "" : "s");
        return 1;
    }
    return 0;
}

/* recplan dups BASE PART...: the configuration numbers (gen) of BASE
 * that a PART holds too, as gputui reads them (values an older writer
 * left out take what it did), comma-separated: what merge-recordings.py
 * --drop-gens leaves out so that the parts' take their place. */
static int dups(int argc, char **argv)
{
    gt_recording base, *part = calloc((size_t)argc, sizeof *part);
    gt_err err;
    int n = 0, loaded = 1, rc = 0;

    gt_err_clear(&err);
    if (!part || gt_recording_load(&base, argv[0], &err)) {
        fprintf(stderr, "recplan: %s\n", part ? err.msg : "out of memory");
        free(part);
        return 2;
    }
    for (; loaded < argc; loaded++)         /* each part once */
        if (gt_recording_load(&part[loaded], argv[loaded], &err)) {
            fprintf(stderr, "recplan: %s\n", err.msg);
            rc = 2;
            goto out;
        }
    for (size_t i = 0; i < base.ncfg; i++) {
        bool found = false;
        for (int a = 1; a < argc && !found; a++)
            found = gt_recording_find(&part[a], base.cfg[i].exp, base.cfg[i].vals) >= 0;
        if (found)
            printf("%s%u", n++ ? "," : "", base.cfg[i].gen);
    }
    printf("\n");
out:
    while (--loaded >= 1)
        gt_recording_free(&part[loaded]);
    gt_recording_free(&base);
    free(part);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 2;

    cfgbuf = calloc(MAXCFG, sizeof *cfgbuf);
    if (!cfgbuf)
        return 2;
    if (argc >= 2 && !strcmp(argv[1], "plan"))
        rc = plan(argc - 2, argv + 2);
    else if (argc >= 3 && !strcmp(argv[1], "check"))
        rc = check(argc - 2, argv + 2);
    else if (argc >= 3 && !strcmp(argv[1], "lessons"))
        rc = recplan_lessons(argc - 2, argv + 2);
    else if (argc >= 3 && !strcmp(argv[1], "traces"))
        rc = traces(argc - 2, argv + 2);
    else if (argc == 4 && !strcmp(argv[1], "openings"))
        rc = recplan_openings(argc - 2, argv + 2);
    else if (argc >= 4 && !strcmp(argv[1], "dups"))
        rc = dups(argc - 2, argv + 2);
    else
        fprintf(stderr, "usage: recplan plan [--props REC] [EXPERIMENT[/LIST][:PARAM=VALUE]...]\n"
                        "       recplan check [--min PCT] REC...\n"
                        "       recplan lessons DIR [--missing-from REC] [--check]\n"
                        "       recplan traces REC [--check]\n"
                        "       recplan dups BASE PART...\n"
                        "       recplan openings REC DIR\n");
    free(cfgbuf);
    return rc;
}
