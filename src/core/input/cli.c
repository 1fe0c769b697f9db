#include "gputui/input/cli.h"
#include "gputui/input/options.h"
#include "gputui/experiments/registry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_int(const char *opt, const char *v, long long lo, long long hi,
                     int64_t *out, gt_err *err)
{
    char *end;
    long long x;

    errno = 0;
    x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        gt_err_set(err, GT_EXIT_USAGE, "%s: '%s' is not valid (allowed: a whole "
                   "number from %lld to %lld)", opt, v, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* A number of seconds from lo to hi ("%g" in the message). */
static int parse_seconds(const char *opt, const char *v, double lo, double hi, double *out,
                         gt_err *err)
{
    char *end;
    double x;

    errno = 0;
    x = strtod(v, &end);
    if (errno || end == v || *end || !(x >= lo) || x > hi) {
        gt_err_set(err, GT_EXIT_USAGE, "%s: '%s' is not valid (allowed: a number of seconds "
                   "from %g to %g)", opt, v, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* "transfer, zerocopy, ..., pool": every experiment's name. */
static const char *experiment_names(char *buf, size_t len)
{
    size_t off = 0;

    buf[0] = '\0';
    for (int k = 0; k < gt_nexperiments && off < len; k++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s", k ? ", " : "",
                                gt_experiments[k]->name);
    return buf;
}

/* Splits "--name=value" into name and value; value NULL when absent. */
static const char *split(const char *arg, char *name, size_t len)
{
    const char *eq = strchr(arg, '=');
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

    if (n >= len)
        n = len - 1;
    memcpy(name, arg, n);
    name[n] = '\0';
    return eq ? eq + 1 : NULL;
}

int gt_cli_parse(int argc, char **argv, gt_cli *c, gt_err *err)
{
    char name[64], msg[400], list[400];
    bool batch_only = false, batch_opt_seen = false, list_seen = false, list_lessons = false;
    bool wait_quiet_seen = false;
    bool fleet_seen = false;
    const char *batch_opt = NULL, *record_opt = NULL;

    memset(c, 0, sizeof *c);
    c->mode = GT_MODE_TUI;
    c->samples = 50;
    c->record_samples = 300;
    c->record_seconds = 2.0;
    c->exp = gt_experiments[0];

    /* The experiment decides which parameter options exist. */
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "-e") || !strcmp(argv[i], "--experiment"))
            v = i + 1 < argc ? argv[i + 1] : NULL;
        else if (!strncmp(argv[i], "--experiment=", 13))
            v = argv[i] + 13;
        else
            continue;
        if (!v) {
            gt_err_set(err, GT_EXIT_USAGE, "%s needs a value (allowed: %s)", argv[i],
                       experiment_names(list, sizeof list));
            return -1;
        }
        c->exp = gt_experiment_find(v);
        c->exp_given = c->exp != NULL;
        if (!c->exp) {
            gt_err_set(err, GT_EXIT_USAGE, "--experiment: unknown experiment '%s' "
                       "(allowed: %s)", v, experiment_names(list, sizeof list));
            return -1;
        }
    }
    gt_experiment_defaults(c->exp, c->vals);

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val;
        const gt_option *o;
        int pi;

        if ((arg[0] != '-' || !arg[1]) && fleet_seen) {
            if (c->nfleet == GT_MAX_FLEET) {
                gt_err_set(err, GT_EXIT_USAGE, "--fleet: more than %d paths (give a directory "
                           "of cards instead)", GT_MAX_FLEET);
                return -1;
            }
            c->fleet[c->nfleet++] = arg;
            continue;
        }
        if (arg[0] != '-' || !arg[1]) {
            const char *prev = i > 1 ? argv[i - 1] : "";
            int bi = !strncmp(prev, "--", 2) && !strchr(prev, '=') ?
                gt_experiment_param(c->exp, prev + 2) : -1;
            if (bi >= 0 && c->exp->params[bi].type == GT_P_BOOL)
                gt_err_set(err, GT_EXIT_USAGE, "unexpected argument '%s': %s is a switch; "
                           "write %s for on or %s=off", arg, prev, prev, prev);
            else
                gt_err_set(err, GT_EXIT_USAGE, "unexpected argument '%s' (see gputui --help)",
                           arg);
            return -1;
        }
        val = split(arg, name, sizeof name);
#define NEED_VALUE()                                                        \
        do {                                                                \
            if (!val) {                                                     \
                if (i + 1 >= argc) {                                        \
                    gt_err_set(err, GT_EXIT_USAGE, "%s needs a value", name); \
                    return -1;                                              \
                }                                                           \
                val = argv[++i];                                            \
            }                                                               \
        } while (0)
        if ((o = gt_option_find(name))) {
            if (o->value)
                NEED_VALUE();
            switch (o->id) {
            case GT_OPT_HELP:
                /* --help, --help all, --help EXPERIMENT (or --help=...) */
                if (!val && i + 1 < argc && argv[i + 1][0] != '-')
                    val = argv[i + 1];
                if (val && strcmp(val, "all") && !gt_experiment_find(val)) {
                    gt_err_set(err, GT_EXIT_USAGE, "--help: '%s' is neither an experiment nor "
                               "all (allowed: all, %s)", val, experiment_names(list, sizeof list));
                    return -1;
                }
                c->mode = GT_MODE_HELP;
                c->help = val;
                return 0;
            case GT_OPT_VERSION:
                c->mode = GT_MODE_VERSION;
                return 0;
            case GT_OPT_BATCH:
                c->mode = GT_MODE_BATCH;
                break;
            case GT_OPT_LIST_DEVICES:
                c->mode = GT_MODE_LIST;
                break;
            case GT_OPT_LIST_LESSONS:
                list_lessons = true;
                break;
            case GT_OPT_LESSON:
                c->lesson = val;
                break;
            case GT_OPT_EXPERIMENT:
                break;      /* handled above */
            case GT_OPT_DEVICE: {
                int64_t d;
                c->device_given = true;
                if (!strcmp(val, "all")) {
                    c->all_devices = true;
                    break;
                }
                if (parse_int("--device", val, 0, 1023, &d, err))
                    return -1;
                c->device = (int)d;
                c->all_devices = false;
                break;
            }
            case GT_OPT_FORMAT:
                batch_opt_seen = true;
                batch_opt = "--format";
                if (!strcasecmp(val, "text"))
                    c->format = GT_FMT_TEXT;
                else if (!strcasecmp(val, "json"))
                    c->format = GT_FMT_JSON;
                else if (!strcasecmp(val, "csv"))
                    c->format = GT_FMT_CSV;
                else if (!strcasecmp(val, "prometheus"))
                    c->format = GT_FMT_PROMETHEUS;
                else if (!strcasecmp(val, "html"))
                    c->format = GT_FMT_HTML;
                else {
                    gt_err_set(err, GT_EXIT_USAGE, "--format: '%s' is not valid "
                               "(allowed: text, json, csv, html; prometheus with --inspect)", val);
                    return -1;
                }
                break;
            case GT_OPT_SAMPLES:
                batch_opt_seen = true;
                batch_opt = "--samples";
                if (parse_int("--samples", val, 1, 1000000, &c->samples, err))
                    return -1;
                break;
            case GT_OPT_NO_COLOR:
                c->no_color = true;
                break;
            case GT_OPT_NO_MOUSE:
                c->no_mouse = true;
                break;
            case GT_OPT_TRACE:
                c->trace = val;
                break;
            case GT_OPT_RECORD:
                c->record = val;
                break;
            case GT_OPT_RECORD_SAMPLES:
                record_opt = "--record-samples";
                if (parse_int("--record-samples", val, 1, 1000000, &c->record_samples, err))
                    return -1;
                break;
            case GT_OPT_RECORD_SECONDS:
                record_opt = "--record-seconds";
                if (parse_seconds("--record-seconds", val, 0.01, 3600, &c->record_seconds, err))
                    return -1;
                break;
            case GT_OPT_COMPARE:
                c->compare[0] = val;
                c->ncompare = 1;
                if (i + 1 < argc && argv[i + 1][0] != '-') {
                    c->compare[1] = argv[++i];
                    c->ncompare = 2;
                }
                break;
            case GT_OPT_REPLAY:
                c->replay = val;
                break;
            case GT_OPT_FOLLOW:
                c->follow = true;
                break;
            case GT_OPT_NO_FALLBACK:
                c->no_fallback = true;
                break;
            case GT_OPT_NO_SHARE_LOCK:
                c->no_share_lock = true;
                break;
            case GT_OPT_FORCE:
                c->force = true;
                break;
            case GT_OPT_PAIRS:
                if (strcmp(val, "all")) {
                    gt_err_set(err, GT_EXIT_USAGE, "--pairs: '%s' is not allowed; allowed: all",
                               val);
                    return -1;
                }
                c->pairs = true;
                batch_opt_seen = true;
                batch_opt = "--pairs";
                break;
            case GT_OPT_INSPECT:
                c->inspect = true;
                break;
            case GT_OPT_WAIT_QUIET:
                if (parse_seconds("--wait-quiet", val, 0, 3600, &c->wait_quiet, err))
                    return -1;
                wait_quiet_seen = true;
                break;
            case GT_OPT_FLEET:
                fleet_seen = true;
                break;
            case GT_OPT_TRACE_CALLS:
                c->trace_calls = true;
                batch_opt_seen = true;
                batch_opt = "--trace-calls";
                break;
            }
        } else if (!strncmp(name, "--", 2) &&
                   (pi = gt_experiment_param(c->exp, name + 2)) >= 0) {
            const gt_param *p = &c->exp->params[pi];
            char item[64];
            if (p->type == GT_P_BOOL && !val)
                val = "on";
            NEED_VALUE();
            /* A comma-separated list sweeps the values (batch). */
            c->nsweep[pi] = 0;
            for (const char *v = val;; v++) {
                const char *end = strchr(v, ',');
                size_t n = end ? (size_t)(end - v) : strlen(v);
                if (c->nsweep[pi] == GT_MAX_SWEEP) {
                    gt_err_set(err, GT_EXIT_USAGE, "--%s: more than %d values in the list",
                               p->name, GT_MAX_SWEEP);
                    return -1;
                }
                snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), v);
                if (gt_param_parse(p, item, &c->sweep[pi][c->nsweep[pi]], msg, sizeof msg)) {
                    gt_err_set(err, GT_EXIT_USAGE, "--%s", msg);
                    return -1;
                }
                c->nsweep[pi]++;
                if (!end)
                    break;
                v = end;
            }
            c->vals[pi] = c->sweep[pi][0];
            if (c->nsweep[pi] > 1)
                batch_opt = "a list of values", list_seen = true;
            c->given |= 1ull << pi;
        } else {
            gt_err_set(err, GT_EXIT_USAGE, "unknown option '%s' (see gputui --help)", arg);
            return -1;
        }
#undef NEED_VALUE
    }
    if (fleet_seen) {
        if (!c->nfleet) {
            gt_err_set(err, GT_EXIT_USAGE, "--fleet needs a directory or files of inspection "
                       "cards (gputui --batch --inspect --format json)");
            return -1;
        }
        if (c->inspect || c->exp_given || c->given || c->record || c->replay || c->ncompare ||
            c->lesson || c->pairs || c->trace_calls ||
            (c->format > GT_FMT_JSON && c->format != GT_FMT_HTML) || wait_quiet_seen) {
            gt_err_set(err, GT_EXIT_USAGE, "--fleet reads inspection cards and prints them as "
                       "one table; it takes only --format text, json or html");
            return -1;
        }
        c->mode = GT_MODE_FLEET;
        return 0;
    }
    if (list_lessons) {
        if (c->mode != GT_MODE_TUI || c->lesson) {
            gt_err_set(err, GT_EXIT_USAGE, "--list-lessons is used alone");
            return -1;
        }
        c->mode = GT_MODE_LESSONS;
        return 0;
    }
    if (c->force && !c->record && !c->trace) {
        gt_err_set(err, GT_EXIT_USAGE, "--force applies only with --record FILE or --trace FILE "
                   "(it lets them replace an existing FILE)");
        return -1;
    }
    if (c->lesson && (c->given || c->ncompare || (c->record && c->mode == GT_MODE_BATCH) ||
                      c->trace_calls)) {
        gt_err_set(err, GT_EXIT_USAGE, "--lesson sets its own configurations: it cannot be "
                   "used with %s", c->given ? "experiment options" : c->ncompare ? "--compare"
                   : c->trace_calls ? "--trace-calls" : "--batch --record");
        return -1;
    }
    if (c->lesson && c->mode == GT_MODE_BATCH && c->format == GT_FMT_CSV) {
        gt_err_set(err, GT_EXIT_USAGE, "--lesson --batch prints text, json or html (allowed: "
                   "--format text, json, html)");
        return -1;
    }
    batch_only = c->mode != GT_MODE_BATCH && (batch_opt_seen || list_seen);
    if (batch_only) {
        gt_err_set(err, GT_EXIT_USAGE, "%s applies only with --batch", batch_opt);
        return -1;
    }
    if (c->inspect && (c->exp_given || c->given || c->ncompare || c->lesson || c->pairs ||
                       c->trace_calls)) {
        gt_err_set(err, GT_EXIT_USAGE, "--inspect measures its own configurations; it cannot "
                   "be used with %s (it can with --record FILE, --replay FILE and -d N)",
                   c->exp_given ? "-e" : c->given ? "an experiment's parameters"
                   : c->ncompare ? "--compare" : c->lesson ? "--lesson" : c->pairs ? "--pairs"
                   : "--trace-calls");
        return -1;
    }
    if (c->all_devices && (!c->inspect || c->mode != GT_MODE_BATCH || c->replay || c->record)) {
        gt_err_set(err, GT_EXIT_USAGE, "-d all inspects every GPU of this machine: it applies "
                   "only with --batch --inspect, measuring (not with --replay or --record); "
                   "otherwise -d takes a device ordinal, 0 to 1023");
        return -1;
    }
    if (c->all_devices && c->format == GT_FMT_CSV) {
        gt_err_set(err, GT_EXIT_USAGE, "--inspect -d all prints text, json, html or "
                   "prometheus (allowed: --format text, json, html, prometheus); csv: one "
                   "GPU's card, with -d N");
        return -1;
    }
    if (wait_quiet_seen && (!c->inspect || c->mode != GT_MODE_BATCH || c->replay)) {
        gt_err_set(err, GT_EXIT_USAGE, "--wait-quiet applies only with --batch --inspect, "
                   "measuring this GPU (not with --replay)");
        return -1;
    }
    if (c->inspect && c->record && c->replay) {
        gt_err_set(err, GT_EXIT_USAGE, "--inspect: --record measures this GPU and --replay "
                   "shows a recorded card; give one of them");
        return -1;
    }
    if (c->format == GT_FMT_PROMETHEUS && !c->inspect) {
        gt_err_set(err, GT_EXIT_USAGE, "--format prometheus writes the inspection card: use it "
                   "with --inspect (other reports: text, json, csv)");
        return -1;
    }
    if (c->format == GT_FMT_HTML && c->pairs) {
        gt_err_set(err, GT_EXIT_USAGE, "--format html writes the report of --batch runs, "
                   "replays, lessons, inspections, compares and fleets; --pairs prints text, "
                   "json or csv");
        return -1;
    }
    if (c->trace_calls && c->format == GT_FMT_CSV) {
        gt_err_set(err, GT_EXIT_USAGE, "--trace-calls: the calls are listed in the text and "
                   "json reports, not in csv (allowed: --format text or json)");
        return -1;
    }
    if (c->pairs) {
        const gt_experiment *paired = c->exp;
        const char *pp = c->exp->pair_param, *with = NULL;
        char own[48] = "";
        if (pp)
            snprintf(own, sizeof own, "with --%s", pp);
        with = !pp ? "with another experiment" : c->record ? "with --record"
             : c->replay ? "with --replay" : c->ncompare ? "with --compare"
             : c->lesson ? "with --lesson" : list_seen ? "with a list of values"
             : (c->given >> gt_experiment_param(c->exp, pp)) & 1u ? own : NULL;
        for (int i = 0; !paired->pair_param && i < gt_experiment_count(); i++)
            paired = gt_experiment_list()[i];
        if (with) {
            gt_err_set(err, GT_EXIT_USAGE, "--pairs all measures -e %s over every pair of GPUs, "
                       "one configuration (no value lists), choosing the %s itself; it cannot "
                       "be used %s", paired->name, paired->pair_param ? paired->pair_param : "GPU",
                       with);
            return -1;
        }
    }
    if (record_opt && !c->record) {
        gt_err_set(err, GT_EXIT_USAGE, "%s applies only with --record FILE", record_opt);
        return -1;
    }
    if (c->trace && c->mode != GT_MODE_TUI) {
        gt_err_set(err, GT_EXIT_USAGE, "--trace FILE logs the TUI's key-press to first-sample "
                   "latency; %s has no keys (without --batch it does)",
                   c->mode == GT_MODE_BATCH ? "--batch" : "this mode");
        return -1;
    }
    if (c->follow && (!c->replay || c->mode != GT_MODE_TUI || c->lesson || c->inspect ||
                      c->ncompare > 1)) {
        gt_err_set(err, GT_EXIT_USAGE, "--follow %s", !c->replay
                   ? "applies only with --replay FILE (or --replay - for standard input)"
                   : c->mode != GT_MODE_TUI ? "is for the TUI: a report needs the whole "
                     "recording (gputui --batch --replay FILE once it has ended)"
                   : c->lesson ? "shows the teacher's configurations; --lesson sets its own"
                   : c->inspect ? "shows the teacher's configurations, not an inspection"
                   : "takes --compare B alone: A is the recording followed");
        return -1;
    }
    if (c->replay && !strcmp(c->replay, "-") && !c->follow) {
        gt_err_set(err, GT_EXIT_USAGE, "--replay - reads standard input only with --follow "
                   "(a recording file: --replay FILE)");
        return -1;
    }
    if (c->ncompare && (c->record || (c->replay && !c->follow))) {
        gt_err_set(err, GT_EXIT_USAGE, "--compare cannot be used with --%s",
                   c->record ? "record" : "replay");
        return -1;
    }
    if (c->ncompare == 1 && c->mode == GT_MODE_BATCH) {
        gt_err_set(err, GT_EXIT_USAGE, "--batch --compare needs two recordings, A and B "
                   "(files or bundled models such as h200 h100)");
        return -1;
    }
    if (c->ncompare && c->mode != GT_MODE_BATCH && c->mode != GT_MODE_TUI) {
        gt_err_set(err, GT_EXIT_USAGE, "--compare applies to the TUI and --batch only");
        return -1;
    }
    if (c->record && c->replay) {
        gt_err_set(err, GT_EXIT_USAGE, "--record and --replay cannot be used together");
        return -1;
    }
    if (c->mode != GT_MODE_BATCH && c->mode != GT_MODE_TUI && (c->record || c->replay)) {
        gt_err_set(err, GT_EXIT_USAGE, "--%s applies to the TUI and --batch only",
                   c->record ? "record" : "replay");
        return -1;
    }
    {
        static int64_t all[GT_MAX_CONFIGS][GT_MAX_PARAMS];
        if (gt_cli_configs(c, all, GT_MAX_CONFIGS, msg, sizeof msg) < 0) {
            gt_err_set(err, GT_EXIT_USAGE, "%s", msg);
            return -1;
        }
    }
    return 0;
}

int gt_cli_configs(const gt_cli *c, int64_t (*out)[GT_MAX_PARAMS], int max, char *err,
                   size_t errlen)
{
    const gt_experiment *e = c->exp;
    int idx[GT_MAX_PARAMS] = {0}, n = 0;
    char first_err[400] = "", da[512], db[512];
    uint64_t given = c->given;

    /* In a sweep, a value that does not apply to one combination (--host
     * for dir=d2d) is left out of it; given alone, it is an error. */
    for (int i = 0; i < e->nparams; i++)
        if (c->nsweep[i] > 1)
            given = 0;

    for (;;) {
        int64_t v[GT_MAX_PARAMS];
        memcpy(v, c->vals, sizeof v);
        for (int i = 0; i < e->nparams; i++)
            if (c->nsweep[i])
                v[i] = c->sweep[i][idx[i]];
        if (gt_experiment_validate(e, v, given, first_err[0] ? da : first_err,
                                   first_err[0] ? sizeof da : sizeof first_err) == 0) {
            bool dup = false;
            gt_experiment_describe(e, v, da, sizeof da);
            for (int k = 0; k < n && !dup; k++)
                dup = !strcmp(gt_experiment_describe(e, out[k], db, sizeof db), da);
            if (!dup) {
                if (n == max) {
                    snprintf(err, errlen, "more than %d configurations in one run", max);
                    return -1;
                }
                memcpy(out[n++], v, sizeof v);
            }
        }
        /* Next combination, odometer style. */
        int i = 0;
        for (; i < e->nparams; i++) {
            if (c->nsweep[i] > 1 && ++idx[i] < c->nsweep[i])
                break;
            idx[i] = 0;
        }
        if (i == e->nparams)
            break;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s", first_err);
        return -1;
    }
    return n;
}
