/* Recordings: the reader of the .gtr JSON Lines format (record.h), one
 * line at a time. record_file.c feeds it a file; record_query.c answers
 * what a loaded recording holds; the writer is recorder.c. */
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

const char *const gt_verify_names[3] = {"full", "sampled", "failed"};

/* A sample's "verify" by its name; a name this gputui does not know
 * counts as failed. */
static uint8_t verify_of(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, gt_verify_names[i]))
            return (uint8_t)i;
    return GT_V_FAILED;
}

void gt_recording_free(gt_recording *r)
{
    for (size_t i = 0; i < r->ncfg; i++) {
        free(r->cfg[i].s);
        free(r->cfg[i].t);
        free(r->cfg[i].tl);
        free(r->cfg[i].trace);
    }
    free(r->cfg);
    free(r->inspection);
    memset(r, 0, sizeof *r);
}

/* "PATH:LINE: what" */
#define BAD(...)                                                                     \
    do {                                                                             \
        char what_[300];                                                             \
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
    for (size_t i = r->ncfg; i-- > 0;)
        if (r->cfg[i].gen == (uint32_t)gen)
            return &r->cfg[i];
    return NULL;
}

static int add_sample(gt_rec_config *c, const gt_sample *s, double t)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        gt_sample *ns = realloc(c->s, cap * sizeof *ns);
        if (!ns)
            return -1;
        c->s = ns;
        double *nt = realloc(c->t, cap * sizeof *nt);
        if (!nt)
            return -1;
        c->t = nt;
        c->cap = cap;
    }
    c->s[c->n] = *s;
    c->t[c->n++] = t;
    return 0;
}

/* A timeline line into c->tl (the last one of a configuration wins). */
static int parse_timeline(gt_rec_config *c, json_t *o, char *why, size_t n)
{
    json_t *ops = json_object_get(o, "ops"), *tot = json_object_get(o, "total"),
           *sum = json_object_get(o, "sum");
    json_int_t ns;
    gt_timeline *tl;

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
    if (!c->tl && !(c->tl = calloc(1, sizeof *c->tl))) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    tl = c->tl;
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

/* A "trace" line's calls into the configuration's trace (trace.h reads them). */
static int parse_trace(gt_rec_config *c, json_t *calls, char *why, size_t n)
{
    if (!c->trace && !(c->trace = calloc(1, sizeof *c->trace))) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    return gt_trace_read(calls, c->trace, why, n);
}

static int parse_line(gt_recording *r, json_t *o, const char *name, size_t lineno, gt_err *err)
{
    const char *type = json_string_value(json_object_get(o, "type"));
    json_int_t gen;
    double t = 0;

    if (!type)
        BAD("no \"type\" field");
    if (!strcmp(type, "header"))
        BAD("a second header line");
    if (!strcmp(type, "config")) {
        const char *en = json_string_value(json_object_get(o, "experiment"));
        json_t *vals = json_object_get(o, "values"), *setup = json_object_get(o, "setup");
        const char *note = json_string_value(json_object_get(o, "verification"));
        const char *timing = json_string_value(json_object_get(o, "timing"));
        gt_rec_config *c;
        const gt_experiment *exp;

        if (!get_gen(r, o, &gen))
            BAD("config without a valid \"gen\"");
        if (!en || !(exp = gt_experiment_find(en)))
            BAD("config of an unknown experiment '%s'", en ? en : "(none)");
        if (!json_is_object(vals))
            BAD("config without \"values\"");
        if (config_of(r, gen))
            BAD("configuration %lld appears twice", (long long)gen);
        if (r->ncfg == r->cfgcap) {
            size_t cap = r->cfgcap ? r->cfgcap * 2 : 16;
            gt_rec_config *nc = realloc(r->cfg, cap * sizeof *nc);
            if (!nc)
                BAD("out of memory");
            r->cfg = nc;
            r->cfgcap = cap;
        }
        c = &r->cfg[r->ncfg++];
        memset(c, 0, sizeof *c);
        c->exp = exp;
        c->gen = (uint32_t)gen;
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
                gt_param_parse(&exp->params[i], json_string_value(v), &c->vals[i], msg, sizeof msg))
                BAD("config value %s: %s", exp->params[i].name,
                    json_is_string(v) ? msg : "not a string");
        }
        for (size_t i = 0; json_is_array(setup) && i < json_array_size(setup); i++) {
            json_t *e = json_array_get(setup, i);
            const char *what = json_string_value(json_object_get(e, "what"));
            double sec;
            if (what && get_number(e, "seconds", &sec))
                gt_setup_info_time(&c->info, sec, "%s", what);
            if (json_is_true(json_object_get(e, "kept")))
                c->info.kept = true;
        }
        if (note)
            snprintf(c->info.note, sizeof c->info.note, "%s", note);
        if (timing)
            snprintf(c->info.timing, sizeof c->info.timing, "%s", timing);
        return 0;
    }
    if (!strcmp(type, "timeline")) {
        gt_rec_config *c;
        char why[200];
        if (!get_gen(r, o, &gen) || !(c = config_of(r, gen)))
            BAD("timeline of a configuration with no config line before it");
        if (parse_timeline(c, o, why, sizeof why))
            BAD("%s", why);
        return 0;
    }
    if (!strcmp(type, "trace")) {
        gt_rec_config *c;
        char why[200];
        if (!get_gen(r, o, &gen) || !(c = config_of(r, gen)))
            BAD("trace of a configuration with no config line before it");
        if (parse_trace(c, json_object_get(o, "calls"), why, sizeof why))
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
        free(r->inspection);
        r->inspection = text;
        return 0;
    }
    if (!strcmp(type, "sample") || !strcmp(type, "error")) {
        gt_rec_config *c;
        if (!get_gen(r, o, &gen) || !(c = config_of(r, gen)))
            BAD("%s of configuration %s, which has no config line before it", type,
                json_is_integer(json_object_get(o, "gen")) ? "given" : "(none)");
        get_number(o, "t", &t);
        if (!strcmp(type, "error")) {
            const char *m = json_string_value(json_object_get(o, "message"));
            snprintf(c->error, sizeof c->error, "%s", m ? m : "error");
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
        s.verify = verify_of(vs);
        if (add_sample(c, &s, t))
            BAD("out of memory");
        return 0;
    }
    return 0;   /* unknown line types come from newer writers: ignored */
fail:
    return -1;
}

void gt_recording_begin(gt_recording *r, const char *name)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", name);
}

/* A sample line exactly as the writer spells it (recorder.c), read without
 * jansson: most of a recording's lines, and what its reading costs. p
 * moves past what it reads; false at the first thing unexpected. */
static bool lit(const char **p, const char *s)
{
    size_t k = strlen(s);

    if (strncmp(*p, s, k))
        return false;
    *p += k;
    return true;
}

static bool int_at(const char **p, long long *v)
{
    char *end;

    if (!isdigit((unsigned char)**p) && !(**p == '-' && isdigit((unsigned char)(*p)[1])))
        return false;
    errno = 0;
    *v = strtoll(*p, &end, 10);
    if (errno || (*end != ',' && *end != '}'))
        return false;
    *p = end;
    return true;
}

static bool num_at(const char **p, double *v)
{
    char *end;

    if (!isdigit((unsigned char)**p) && **p != '-')
        return false;
    *v = strtod(*p, &end);      /* another locale's decimal comma stops it: jansson then */
    if (*end != ',' && *end != '}')
        return false;
    *p = end;
    return true;
}

/* 1 when the line was such a sample and is taken, 0 when jansson must
 * read it (anything else, or anything wrong: it says what). */
static int fast_sample(gt_recording *r, const char *line, size_t n)
{
    char buf[256], verify[16];
    const char *p = buf, *names[GT_MAX_SERIES];
    long long gen, series, bytes;
    double t, sec;
    gt_rec_config *c;
    size_t k;

    if (n >= sizeof buf || n < 20 || memcmp(line, "{\"type\":\"sample\",", 17))
        return 0;
    memcpy(buf, line, n);
    buf[n - (line[n - 1] == '\r')] = '\0';
    if (!lit(&p, "{\"type\":\"sample\",\"gen\":") || !int_at(&p, &gen) ||
        !lit(&p, ",\"t\":") || !num_at(&p, &t) || !lit(&p, ",\"series\":") ||
        !int_at(&p, &series) || !lit(&p, ",\"verify\":\""))
        return 0;
    for (k = 0; k + 1 < sizeof verify && isalpha((unsigned char)*p); k++)
        verify[k] = *p++;
    verify[k] = '\0';
    if (!lit(&p, "\",\"sec\":") || !num_at(&p, &sec) || !lit(&p, ",\"bytes\":") ||
        !int_at(&p, &bytes))
        return 0;
    gt_sample s = {0, 0, verify_of(verify), 0, 0};
    s.disturbed = lit(&p, ",\"disturbed\":true");
    if (strcmp(p, "}") || gen < 0 || gen > (long long)(UINT32_MAX - r->gen_offset) ||
        !(c = config_of(r, gen + r->gen_offset)) || series < 0 ||
        series >= c->exp->series(c->vals, names) || !(sec >= 0) || sec > 1e6 || bytes < 0)
        return 0;
    s.gen = c->gen;
    s.series = (uint8_t)series;
    s.sec = sec;
    s.bytes = (uint64_t)bytes;
    if (add_sample(c, &s, t))
        return 0;
    r->lines++;
    return 1;
}

int gt_recording_line(gt_recording *r, const char *line, size_t n, bool terminated,
                      size_t lineno, gt_err *err)
{
    const char *name = r->path;
    json_error_t je;
    json_t *o;

    if (n > GT_REC_MAX_LINE)
        BAD("line longer than %d MiB", GT_REC_MAX_LINE >> 20);
    if (n == 0 || (n == 1 && line[0] == '\r'))
        return 0;
    if (lineno > 1 && fast_sample(r, line, n))
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
        json_t *fmt = json_object_get(o, "format");
        const char *type = json_string_value(json_object_get(o, "type"));
        const char *v = json_string_value(json_object_get(o, "version"));
        const char *c = json_string_value(json_object_get(o, "created"));
        if (!type || strcmp(type, "header") || !json_is_array(fmt) ||
            !json_is_integer(json_array_get(fmt, 0)) || !json_is_integer(json_array_get(fmt, 1))) {
            json_decref(o);
            BAD("not a gputui recording (no header line with a format [major, minor])");
        }
        r->major = (int)json_integer_value(json_array_get(fmt, 0));
        r->minor = (int)json_integer_value(json_array_get(fmt, 1));
        if (r->major != GT_REC_MAJOR) {
            json_decref(o);
            BAD("recording format %d.%d is not supported: this gputui (%s) reads format %d.x",
                r->major, r->minor, GT_VERSION, GT_REC_MAJOR);
        }
        snprintf(r->version, sizeof r->version, "%s", v ? v : "?");
        snprintf(r->created, sizeof r->created, "%s", c ? c : "?");
        gt_devprops_read(json_object_get(o, "device"), &r->props);
    } else if (parse_line(r, o, name, lineno, err)) {
        json_decref(o);
        return -1;
    }
    json_decref(o);
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
