/* Recordings: the reader of the .gtr JSON Lines format (record.h), one
 * line at a time: the header, configurations, their extras and errors;
 * the writer's own spelling of samples and traces is read by rec_fast.c,
 * what is kept within the limits by rec_keep.c, configurations are found
 * through rec_index.c. record_file.c feeds it a file; record_query.c answers what
 * a loaded recording holds; the writer is recorder.c. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/record.h"

#include <errno.h>
#include <jansson.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gputui/measure/run.h"
#include "gputui/experiments/registry.h"
#include "rec_index.h"
#include "rec_fast.h"
#include "rec_keep.h"

const gt_rec_limits gt_rec_default_limits = {
    .per_series = 1u << 16,
    .samples = (size_t)128 << 20,
    .extras = (size_t)64 << 20,
    .configs = (size_t)96 << 20,
    .idle = 4096,
};
static const gt_rec_limits *limits = &gt_rec_default_limits;
static gt_rec_limits test_limits;

void gt_recording_test_limits(const gt_rec_limits *l)
{
    if (l)
        test_limits = *l;
    limits = l ? &test_limits : &gt_rec_default_limits;
}

/* What a configuration line that tells nothing of its set-up points to. */
static const gt_setup_info no_info;

void gt_recording_free(gt_recording *r)
{
    for (size_t i = 0; i < r->ncfg; i++) {
        free(r->cfg[i].s);
        free(r->cfg[i].t);
        free(r->cfg[i].tl);
        free(r->cfg[i].trace);
        free((char *)r->cfg[i].error);
        if (r->cfg[i].info != &no_info)
            free((gt_setup_info *)r->cfg[i].info);
    }
    free(r->cfg);
    free(r->inspection);
    rec_index_free(r);
    memset(r, 0, sizeof *r);
}

/* "PATH:LINE: what" */
#define BAD(...)                                                                     \
    do {                                                                             \
        char what_[480];                                                             \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                  \
        gt_err_set(err, GT_EXIT_FAIL, "%s:%zu: %s", name, lineno, what_);            \
        goto fail;                                                                   \
    } while (0)

static bool get_number(json_t *o, const char *k, double *out)
{
    json_t *v = json_object_get(o, k);

    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

static bool get_int(json_t *o, const char *k, json_int_t *out)
{
    json_t *v = json_object_get(o, k);

    if (!json_is_integer(v))
        return false;
    *out = json_integer_value(v);
    return true;
}

/* A line's "gen", moved past the gens of a writer before a restart. */
static bool get_gen(const gt_recording *r, json_t *o, json_int_t *gen)
{
    if (!get_int(o, "gen", gen) || *gen < 0 || *gen > UINT32_MAX - r->gen_offset)
        return false;
    *gen += r->gen_offset;
    return true;
}

static gt_rec_config *config_of(gt_recording *r, json_int_t gen)
{
    return rec_index_gen(r, (uint32_t)gen);
}

/* A timeline line into tl. */
static int parse_timeline(const gt_rec_config *c, json_t *o, gt_timeline *tl, char *why, size_t n)
{
    json_t *ops = json_object_get(o, "ops"), *tot = json_object_get(o, "total"),
           *sum = json_object_get(o, "sum");
    json_int_t ns;

    if (!get_int(o, "streams", &ns) || ns < 1 || ns > GT_TL_MAX_STREAMS) {
        snprintf(why, n, "timeline with \"streams\" outside 1..%d", GT_TL_MAX_STREAMS);
        return -1;
    }
    if (!json_is_array(ops) || json_array_size(ops) > GT_TL_MAX_OPS || !json_is_array(tot) ||
        json_array_size(tot) != 2 || !json_is_array(sum) || json_array_size(sum) != GT_TL_KINDS) {
        snprintf(why, n, "timeline without \"ops\" (at most %d), \"total\" [2] and \"sum\" [3]",
                 GT_TL_MAX_OPS);
        return -1;
    }
    memset(tl, 0, sizeof *tl);
    tl->gen = c->gen;
    tl->nstreams = (int)ns;
    tl->kernels_overlap = json_is_true(json_object_get(o, "kernels_overlap"));
    for (int i = 0; i < 2; i++)
        tl->total[i] = json_number_value(json_array_get(tot, (size_t)i));
    for (int i = 0; i < GT_TL_KINDS; i++)
        tl->sum[i] = json_number_value(json_array_get(sum, (size_t)i));
    for (size_t i = 0; i < json_array_size(ops); i++) {
        json_t *a = json_array_get(ops, i);
        json_int_t run, st, kind, chunk;
        double s, e;
        if (json_unpack(a, "[IIIIFF!]", &run, &st, &kind, &chunk, &s, &e) || run < 0 || run > 1 ||
            st < 0 || st >= ns || kind < 0 || kind >= GT_TL_KINDS || chunk < 0 || chunk > 65535 ||
            !(s >= 0) || !(e >= s) || e > 1e6) {
            snprintf(why, n, "timeline operation %zu is not [run 0|1, stream, kind 0..2, chunk, "
                     "start, end >= start]", i);
            return -1;
        }
        tl->ops[i] = (gt_tl_op){(uint8_t)run, (uint8_t)st, (uint8_t)kind, (uint16_t)chunk,
                                (float)s, (float)e};
    }
    tl->nops = (int)json_array_size(ops);
    return 0;
}

/* A "timeline" or "trace" line: read whole (a bad one is an error), kept
 * within the budget. */
static int parse_extra(gt_recording *r, gt_rec_config *c, json_t *o, bool timeline, char *why,
                       size_t n)
{
    size_t size = timeline ? sizeof(gt_timeline) : sizeof(gt_trace);
    void *tmp = calloc(1, size);
    int rc;

    if (!tmp) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    rc = timeline ? parse_timeline(c, o, tmp, why, n)
                  : gt_trace_read(json_object_get(o, "calls"), tmp, why, n);
    if (!rc && rec_keep_extra(r, timeline ? (void **)&c->tl : (void **)&c->trace, tmp, size)) {
        snprintf(why, n, "out of memory");
        rc = -1;
    }
    free(tmp);
    return rc;
}

/* The longest set-up a configuration can report: a day; the longest
 * recorded error; the highest device ordinal. */
#define MAX_SETUP_S 86400.0
#define ERROR_LEN 256
#define MAX_ORDINAL 4095

/* A "config" line: a new configuration at the end of r->cfg. */
static int parse_config(gt_recording *r, json_t *o, char *why, size_t wn)
{
    const char *en = json_string_value(json_object_get(o, "experiment"));
    json_t *vals = json_object_get(o, "values"), *setup = json_object_get(o, "setup");
    const char *note = json_string_value(json_object_get(o, "verification"));
    const char *timing = json_string_value(json_object_get(o, "timing"));
    gt_setup_info info = {0};
    const gt_experiment *exp;
    size_t before = rec_index_bytes(r);
    json_int_t gen;
    gt_rec_config *c;

    if (!get_gen(r, o, &gen)) {
        snprintf(why, wn, "config without a valid \"gen\"");
        return -1;
    }
    if (!en || !(exp = gt_experiment_find(en))) {
        snprintf(why, wn, "config of an unknown experiment '%s'", en ? en : "(none)");
        return -1;
    }
    if (!json_is_object(vals)) {
        snprintf(why, wn, "config without \"values\"");
        return -1;
    }
    if (config_of(r, gen)) {
        snprintf(why, wn, "configuration %lld appears twice", (long long)gen);
        return -1;
    }
    for (size_t i = 0; json_is_array(setup) && i < json_array_size(setup); i++) {
        json_t *e = json_array_get(setup, i);
        const char *what = json_string_value(json_object_get(e, "what"));
        double sec;
        if (what && get_number(e, "seconds", &sec)) {
            if (!(sec >= 0 && sec <= MAX_SETUP_S)) {
                snprintf(why, wn, "config's set-up time %g s (\"%.40s\") is outside 0 to %.0f s",
                         sec, what, MAX_SETUP_S);
                return -1;
            }
            gt_setup_info_time(&info, sec, "%s", what);
        }
        if (json_is_true(json_object_get(e, "kept")))
            info.kept = true;
    }
    if (note)
        snprintf(info.note, sizeof info.note, "%s", note);
    if (timing)
        snprintf(info.timing, sizeof info.timing, "%s", timing);
    if (r->ncfg == r->cfgcap) {
        size_t cap = r->cfgcap ? r->cfgcap * 2 : 16;
        gt_rec_config *nc;
        if (!rec_charge(&r->held_configs, r->limits.configs, (cap - r->cfgcap) * sizeof *nc))
            goto too_many;
        if (!(nc = realloc(r->cfg, cap * sizeof *nc)))
            goto oom;
        r->cfg = nc;
        r->cfgcap = cap;
    }
    c = &r->cfg[r->ncfg];
    memset(c, 0, sizeof *c);
    c->exp = exp;
    c->gen = (uint32_t)gen;
    c->info = &no_info;
    gt_experiment_defaults(exp, c->vals);
    for (int i = 0; i < exp->nparams; i++) {
        json_t *v = json_object_get(vals, exp->params[i].name);
        char msg[300];
        if (!v && exp->params[i].before &&
            gt_param_parse(&exp->params[i], exp->params[i].before, &c->vals[i], msg,
                           sizeof msg) == 0)
            continue;       /* written by an older gputui: what it did */
        if (!v)
            continue;       /* written by an older gputui: default */
        if (!json_is_string(v) ||
            gt_param_parse(&exp->params[i], json_string_value(v), &c->vals[i], msg, sizeof msg)) {
            snprintf(why, wn, "config value %s: %s", exp->params[i].name,
                     json_is_string(v) ? msg : "not a string");
            return -1;
        }
    }
    if (memcmp(&info, &no_info, sizeof info)) {
        gt_setup_info *in;
        if (!rec_charge(&r->held_configs, r->limits.configs, sizeof *in))
            goto too_many;
        if (!(in = malloc(sizeof *in)))
            goto oom;
        *in = info;
        c->info = in;
    }
    if (rec_index_add(r, r->ncfg)) {
        if (c->info != &no_info)
            free((gt_setup_info *)c->info);
        goto oom;
    }
    r->ncfg++;
    if (!rec_charge(&r->held_configs, r->limits.configs, rec_index_bytes(r) - before))
        goto too_many;
    return 0;
too_many:
    snprintf(why, wn, "the recording's configurations take more than %zu MiB (%zu read so far): "
             "more than gputui keeps of one recording", r->limits.configs >> 20, r->ncfg);
    return -1;
oom:
    snprintf(why, wn, "out of memory");
    return -1;
}

static int parse_line(gt_recording *r, json_t *o, const char *name, size_t lineno, gt_err *err)
{
    const char *type = json_string_value(json_object_get(o, "type"));
    char why[300];
    json_int_t gen;
    double t = 0;

    if (!type)
        BAD("no \"type\" field");
    if (!strcmp(type, "header"))
        BAD("a second header line");
    if (!strcmp(type, "config")) {
        if (parse_config(r, o, why, sizeof why))
            BAD("%s", why);
        return 0;
    }
    if (!strcmp(type, "timeline") || !strcmp(type, "trace")) {
        gt_rec_config *c;
        if (!get_gen(r, o, &gen) || !(c = config_of(r, gen)))
            BAD("%s of a configuration with no config line before it", type);
        if (parse_extra(r, c, o, type[1] == 'i', why, sizeof why))
            BAD("%s", why);
        return 0;
    }
    if (!strcmp(type, "end")) {
        r->ended = true;
        return 0;
    }
    if (!strcmp(type, "inspection")) {
        json_t *v = json_object_get(o, "inspection");
        char *text;
        if (!json_is_object(v))
            BAD("inspection without an \"inspection\" object");
        if (!(text = json_dumps(v, JSON_COMPACT)))
            BAD("out of memory");
        r->held_extras -= r->inspection ? strlen(r->inspection) + 1 : 0;
        free(r->inspection);
        r->inspection = NULL;
        if (rec_charge(&r->held_extras, r->limits.extras, strlen(text) + 1))
            r->inspection = text;
        else {
            free(text);
            r->extras_unkept++;
        }
        return 0;
    }
    if (!strcmp(type, "sample") || !strcmp(type, "error")) {
        gt_rec_config *c;
        if (!get_gen(r, o, &gen) || !(c = config_of(r, gen)))
            BAD("%s of configuration %s, which has no config line before it", type,
                json_is_integer(json_object_get(o, "gen")) ? "given" : "(none)");
        if (json_object_get(o, "t") && (!get_number(o, "t", &t) || !(t >= 0) || t > REC_MAX_T))
            BAD("%s with a \"t\" outside 0 to %.0e s", type, REC_MAX_T);
        if (!strcmp(type, "error")) {
            const char *m = json_string_value(json_object_get(o, "message"));
            char *text = (char *)c->error;
            if (!text) {        /* its first; a later one takes its place */
                if (!rec_charge(&r->held_configs, r->limits.configs, ERROR_LEN))
                    BAD("the recording's configurations take more than %zu MiB: more than "
                        "gputui keeps of one recording", r->limits.configs >> 20);
                if (!(text = malloc(ERROR_LEN)))
                    BAD("out of memory");
                c->error = text;
            }
            snprintf(text, ERROR_LEN, "%s", m ? m : "error");
            return 0;
        }
        const char *names[GT_MAX_SERIES];
        int ns = c->exp->series(c->vals, names);
        json_int_t series, bytes;
        double sec;
        const char *vs = json_string_value(json_object_get(o, "verify"));
        gt_sample s = {c->gen, 0, GT_V_FULL, 0, 0};
        if (!get_int(o, "series", &series) || series < 0 || series >= ns)
            BAD("sample with a series outside 0..%d", ns - 1);
        if (!get_number(o, "sec", &sec) || !(sec >= 0) || sec > 1e6)
            BAD("sample without a valid \"sec\"");
        if (!get_int(o, "bytes", &bytes) || bytes < 0)
            BAD("sample without a valid \"bytes\"");
        s.series = (uint8_t)series;
        s.sec = sec;
        s.bytes = (uint64_t)bytes;
        s.disturbed = json_is_true(json_object_get(o, "disturbed"));
        if (!vs)
            BAD("sample without \"verify\"");
        s.verify = rec_verify_of(vs);
        if (rec_sample_add(r, c, &s, t) < 0)
            BAD("out of memory");
        return 0;
    }
    return 1;   /* unknown line types come from newer writers: ignored */
fail:
    return -1;
}

void gt_recording_begin(gt_recording *r, const char *name)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", name);
    r->limits = *limits;
}

/* The header line: its format and the device. -1 with why. */
static int parse_header(gt_recording *r, json_t *o, char *why, size_t n)
{
    json_t *fmt = json_object_get(o, "format"), *dev = json_object_get(o, "device"), *ord;
    const char *type = json_string_value(json_object_get(o, "type"));
    json_t *v = json_object_get(o, "version"), *c = json_object_get(o, "created");
    json_t *cl = json_object_get(o, "created_last");
    json_int_t major, minor;

    if (!type || strcmp(type, "header") || json_unpack(fmt, "[II!]", &major, &minor)) {
        snprintf(why, n, "not a gputui recording (no header line with a format [major, minor])");
        return -1;
    }
    if (major < 0 || minor < 0 || major > 9999 || minor > 9999) {
        snprintf(why, n, "format [%lld, %lld] is not a version of the recording format (two "
                 "whole numbers from 0 to 9999; this gputui reads %d.0 to %d.%d)",
                 (long long)major, (long long)minor, GT_REC_MAJOR, GT_REC_MAJOR, GT_REC_MINOR);
        return -1;
    }
    r->major = (int)major;
    r->minor = (int)minor;
    if (r->major != GT_REC_MAJOR) {
        snprintf(why, n, "recording format %d.%d is not supported: this gputui (%s) reads "
                 "format %d.x", r->major, r->minor, GT_VERSION, GT_REC_MAJOR);
        return -1;
    }
    if (!json_is_object(dev)) {
        snprintf(why, n, "the header's \"device\" is %s: it must be an object of the device's "
                 "properties", dev ? "not an object" : "missing");
        return -1;
    }
    if ((ord = json_object_get(dev, "ordinal")) &&
        (!json_is_integer(ord) || json_integer_value(ord) < -1 ||
         json_integer_value(ord) > MAX_ORDINAL)) {
        snprintf(why, n, "the header's device \"ordinal\" is not a whole number from -1 "
                 "(unknown) to %d", MAX_ORDINAL);
        return -1;
    }
    if ((v && !json_is_string(v)) || (c && !json_is_string(c)) || (cl && !json_is_string(cl))) {
        snprintf(why, n, "the header's \"%s\" is not a string", v && !json_is_string(v)
                 ? "version" : c && !json_is_string(c) ? "created" : "created_last");
        return -1;
    }
    snprintf(r->version, sizeof r->version, "%s", v ? json_string_value(v) : "?");
    snprintf(r->created, sizeof r->created, "%s", c ? json_string_value(c) : "?");
    snprintf(r->created_last, sizeof r->created_last, "%s", cl ? json_string_value(cl) : "");
    /* Parts made on two days: the days ("2026-11-25 to 2026-11-28"); on one
     * day, or one recording: its created. */
    if (r->created_last[0] && strncmp(r->created_last, r->created, 10))
        snprintf(r->when, sizeof r->when, "%.10s to %.10s", r->created, r->created_last);
    else
        snprintf(r->when, sizeof r->when, "%s", r->created);
    gt_devprops_read(dev, &r->props);
    return 0;
}

/* A line that carries nothing: more than the limit in a row, and the file
 * is refused. */
static int idle_line(gt_recording *r, size_t lineno, gt_err *err)
{
    const char *name = r->path;

    if (++r->idle > r->limits.idle)
        BAD("%u lines in a row carry nothing (blank, or of a type this gputui ignores): not a "
            "gputui recording, or one that was damaged", r->idle);
    return 0;
fail:
    return -1;
}

int gt_recording_line(gt_recording *r, const char *line, size_t n, bool terminated,
                      size_t lineno, gt_err *err)
{
    const char *name = r->path;
    json_error_t je;
    char why[400];
    json_t *o;
    int rc;

    if (n > GT_REC_MAX_LINE)
        BAD("line longer than %d MiB", GT_REC_MAX_LINE >> 20);
    if (n == 0 || (n == 1 && line[0] == '\r'))
        return idle_line(r, lineno, err);
    if (lineno > 1 && rec_fast_line(r, line, n))
        return 0;
    o = json_loadb(line, n, 0, &je);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        /* A last line without its newline was cut off: drop it. */
        if (!terminated && lineno > 1) {
            r->dropped++;
            return 1;
        }
        if (lineno == 1)
            BAD("not a gputui recording (the first line is not a JSON header)");
        BAD("not a JSON object: %s", o ? "another JSON value" : je.text);
    }
    if (lineno == 1) {
        rc = parse_header(r, o, why, sizeof why);
        json_decref(o);
        if (rc)
            BAD("%s", why);
    } else {
        rc = parse_line(r, o, name, lineno, err);
        json_decref(o);
        if (rc < 0)
            return -1;
        if (rc > 0)
            return idle_line(r, lineno, err);
    }
    r->idle = 0;
    r->lines++;
    return 0;
fail:
    return -1;
}

int gt_recording_end(gt_recording *r, size_t lines_read, gt_err *err)
{
    const char *name = r->path;
    size_t lineno = lines_read;

    if (lines_read == 0)
        BAD("empty file, not a gputui recording");
    if (r->ncfg == 0 && !r->inspection)
        BAD("the recording holds no configuration");
    return 0;
fail:
    return -1;
}

int gt_recording_parse(gt_recording *r, const char *name, const char *buf, size_t len,
                       gt_err *err)
{
    size_t lineno = 0, pos = 0;
    int rc = 0;

    gt_recording_begin(r, name);
    while (pos < len && rc == 0) {
        const char *line = buf + pos, *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;

        pos += n + (nl ? 1 : 0);
        rc = gt_recording_line(r, line, n, nl != NULL, ++lineno, err);
    }
    if (rc < 0 || gt_recording_end(r, lineno, err)) {
        gt_recording_free(r);
        return -1;
    }
    return 0;
}
