/* Lessons: the file format (lesson.h); the verdicts are lesson_verdict.c. Files are parsed
 * with jansson; since jansson keeps no positions for values, a small
 * scanner finds the line of the value an error is about. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/lesson/lesson.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/record/bundle.h"
#include "gputui/base/files.h"
#include "gputui/base/units.h"
#include "gputui/measure/param.h"
#include "gputui/experiments/registry.h"

#define MAX_FILE (1 << 20)      /* a lesson is a few KiB; refuse anything huge */

/* ---- where a value is: a path of keys (key != NULL) and indices ---- */

typedef struct comp {
    const char *key;
    int idx;
} comp;

#define DEPTH 8

/* The line on which the value at 'path' (n components) starts, or the
 * line of the longest prefix that exists; 1 for the document. */
static int line_of(const char *t, const comp *path, int n)
{
    struct { bool obj, want_key; int idx; const char *key; size_t klen; } st[DEPTH + 1];
    int d = 0, line = 1, best = 1, best_depth = -1;

    memset(st, 0, sizeof st);
    for (const char *c = t; *c; c++) {
        if (*c == '\n') {
            line++;
            continue;
        }
        if (*c == ' ' || *c == '\t' || *c == '\r')
            continue;
        if (*c == ':') {
            st[d].want_key = false;
            continue;
        }
        if (*c == ',') {
            if (st[d].obj)
                st[d].want_key = true;
            else
                st[d].idx++;
            continue;
        }
        if (*c == '}' || *c == ']') {
            if (d > 0)
                d--;
            continue;
        }
        if (*c == '"' && d > 0 && st[d].obj && st[d].want_key) {
            const char *k = ++c;
            while (*c && *c != '"')
                c += *c == '\\' && c[1] ? 2 : 1;
            st[d].key = k;
            st[d].klen = (size_t)(c - k);
            if (!*c)
                break;
            continue;
        }
        /* A value starts here: how much of the path does it match? */
        {
            int m = 0;
            while (m < d && m < n) {
                const comp *p = &path[m];
                bool ok = st[m + 1].obj
                    ? p->key && st[m + 1].key && strlen(p->key) == st[m + 1].klen &&
                      !strncmp(p->key, st[m + 1].key, st[m + 1].klen)
                    : !p->key && p->idx == st[m + 1].idx;
                if (!ok)
                    break;
                m++;
            }
            if (m == d && d > best_depth) {
                best = line;
                best_depth = d;
                if (d == n)
                    return line;
            }
        }
        if (*c == '{' || *c == '[') {
            if (d == DEPTH)
                return best;
            d++;
            st[d].obj = *c == '{';
            st[d].want_key = st[d].obj;
            st[d].idx = 0;
            st[d].key = NULL;
            continue;
        }
        if (*c == '"') {
            c++;
            while (*c && *c != '"') {
                if (*c == '\n')
                    line++;
                c += *c == '\\' && c[1] ? 2 : 1;
            }
            if (!*c)
                break;
            continue;
        }
        while (c[1] && !strchr(",]} \t\r\n", c[1]))
            c++;
    }
    return best;
}

/* "PATH:LINE: what" for the value at path. */
#define BAD(path_, n_, ...)                                                         \
    do {                                                                            \
        char what_[400];                                                            \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                 \
        gt_err_set(err, GT_EXIT_USAGE, "%s:%d: %s", name, line_of(text, path_, n_), \
                   what_);                                                          \
        return -1;                                                                  \
    } while (0)

static int get_text(const char *name, const char *text, json_t *o, const char *key, char *out,
                    size_t len, bool need, const comp *at, int n, gt_err *err)
{
    json_t *v = json_object_get(o, key);
    comp p[DEPTH];

    memcpy(p, at, sizeof *p * (size_t)n);
    p[n] = (comp){key, 0};
    if (!v) {
        if (need)
            BAD(p, n, "missing field \"%s\"", key);
        out[0] = '\0';
        return 0;
    }
    if (!json_is_string(v))
        BAD(p, n + 1, "\"%s\" must be a string", key);
    if (strlen(json_string_value(v)) >= len)
        BAD(p, n + 1, "\"%s\" is longer than %zu characters", key, len - 1);
    snprintf(out, len, "%s", json_string_value(v));
    return 0;
}

static int series_known(const gt_lesson_step *st, const gt_lesson_ref *r, char *have, size_t n)
{
    const char *names[GT_MAX_SERIES];
    int ns = st->exp->series(st->vals[r->config], names);
    size_t off = 0;

    have[0] = '\0';
    for (int i = 0; i < ns; i++) {
        if (!strcmp(names[i], r->series))
            return 1;
        off += (size_t)snprintf(have + off, n > off ? n - off : 0, "%s%s", i ? ", " : "", names[i]);
    }
    return 0;
}

static int parse_ref(const char *name, const char *text, json_t *o, const gt_lesson_step *st,
                     gt_lesson_ref *r, comp *at, int n, gt_err *err)
{
    json_t *cfg = json_object_get(o, "config");
    char have[300];

    if (!json_is_object(o))
        BAD(at, n, "\"%s\" must be an object {\"config\": N, \"series\": NAME}", at[n - 1].key);
    if (cfg && (!json_is_integer(cfg) || json_integer_value(cfg) < 1 ||
                json_integer_value(cfg) > st->nconfigs)) {
        at[n] = (comp){"config", 0};
        BAD(at, n + 1, "\"config\" must be 1%s (the step has %d)",
            st->nconfigs > 1 ? " or 2" : "", st->nconfigs);
    }
    r->config = cfg ? (int)json_integer_value(cfg) - 1 : 0;
    if (get_text(name, text, o, "series", r->series, sizeof r->series, true, at, n, err) ||
        get_text(name, text, o, "label", r->label, sizeof r->label, false, at, n, err))
        return -1;
    if (!series_known(st, r, have, sizeof have)) {
        at[n] = (comp){"series", 0};
        BAD(at, n + 1, "unknown series \"%s\" of %s in config %d (allowed: %s)", r->series,
            st->exp->name, r->config + 1, have);
    }
    if (!r->label[0])
        snprintf(r->label, sizeof r->label, "%s", r->series);
    return 0;
}

/* The relations, as a lesson file names them. */
static const char *const rels[] = {
    [GT_REL_ABOVE] = "above", [GT_REL_BELOW] = "below", [GT_REL_BETWEEN] = "between",
    [GT_REL_CEIL_ABOVE] = "ceiling_above", [GT_REL_CEIL_BELOW] = "ceiling_below",
    [GT_REL_NOTE] = "note_has", [GT_REL_MARKED] = "marked_above",
};

const char *gt_relation_name(gt_relation r)
{
    return (unsigned)r < GT_ARRAY_LEN(rels) ? rels[r] : "?";
}

/* "expect" of the step st (its experiment and configs) into x. */
static int parse_expect(const char *name, const char *text, json_t *o, const gt_lesson_step *st,
                        gt_lesson_expect *x, comp *at, int n, gt_err *err)
{
    const char *metric = json_string_value(json_object_get(o, "metric"));
    json_t *v;
    int found = -1;

    if (!json_is_object(o))
        BAD(at, n, "missing object \"expect\" (the relation the verdict checks)");
    x->samples = GT_LESSON_SAMPLES;
    for (int i = 0; i < (int)GT_ARRAY_LEN(rels); i++)
        if (json_object_get(o, rels[i])) {
            if (found >= 0) {
                at[n] = (comp){rels[i], 0};
                BAD(at, n + 1, "bad relation: both \"%s\" and \"%s\" (one of above, below, "
                    "between, ceiling_above, ceiling_below, note_has, marked_above)",
                    rels[found], rels[i]);
            }
            found = i;
        }
    if (found < 0)
        BAD(at, n, "bad relation: \"expect\" needs one of above, below, between, "
            "ceiling_above, ceiling_below, note_has, marked_above");
    x->rel = (gt_relation)found;
    v = json_object_get(o, rels[found]);
    at[n] = (comp){rels[found], 0};
    if (x->rel == GT_REL_NOTE) {
        const char *t = json_string_value(v);
        if (!t || !t[0] || strlen(t) >= sizeof x->note)
            BAD(at, n + 1, "bad relation: \"note_has\" needs a text of 1 to %zu characters "
                "that the set-up note of a must hold", sizeof x->note - 1);
        snprintf(x->note, sizeof x->note, "%s", t);
    } else if (x->rel == GT_REL_MARKED) {
        if (!json_is_number(v) || !(json_number_value(v) > 0) || json_number_value(v) > 1)
            BAD(at, n + 1, "bad relation: \"marked_above\" needs a share of the samples, "
                "above 0 and at most 1");
        x->lo = json_number_value(v);
    } else if (x->rel == GT_REL_BETWEEN) {
        if (!json_is_array(v) || json_array_size(v) != 2 ||
            !json_is_number(json_array_get(v, 0)) || !json_is_number(json_array_get(v, 1)) ||
            !(json_number_value(json_array_get(v, 0)) < json_number_value(json_array_get(v, 1))) ||
            !(json_number_value(json_array_get(v, 0)) > 0))
            BAD(at, n + 1, "bad relation: \"between\" needs [lo, hi] with 0 < lo < hi");
        x->lo = json_number_value(json_array_get(v, 0));
        x->hi = json_number_value(json_array_get(v, 1));
    } else {
        if (!json_is_number(v) || !(json_number_value(v) > 0) || json_number_value(v) > 1e6)
            BAD(at, n + 1, "bad relation: \"%s\" needs a number above 0", rels[found]);
        x->lo = json_number_value(v);
    }
    if (metric && strcmp(metric, "bandwidth") && strcmp(metric, "time")) {
        at[n] = (comp){"metric", 0};
        BAD(at, n + 1, "\"metric\" is \"%s\" (allowed: bandwidth, time)", metric);
    }
    x->time = metric && !strcmp(metric, "time");
    if ((x->rel == GT_REL_CEIL_ABOVE || x->rel == GT_REL_CEIL_BELOW) && x->time)
        BAD(at, n, "bad relation: a ceiling is a bandwidth (\"metric\": \"bandwidth\")");
    if ((x->rel == GT_REL_CEIL_ABOVE || x->rel == GT_REL_CEIL_BELOW) &&
        !gt_experiment_bandwidth(st->exp, st->vals[0]) &&
        !st->exp->ceiling)
        BAD(at, n, "bad relation: %s has no ceiling to compare with", st->exp->name);
    if ((v = json_object_get(o, "samples"))) {
        at[n] = (comp){"samples", 0};
        if (!json_is_integer(v) || json_integer_value(v) < 3 || json_integer_value(v) > 10000)
            BAD(at, n + 1, "\"samples\" must be an integer from 3 to 10000");
        x->samples = (int)json_integer_value(v);
    }
    if ((v = json_object_get(o, "peers"))) {
        at[n] = (comp){"peers", 0};
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 64)
            BAD(at, n + 1, "\"peers\" must be an integer from 0 to 64");
        x->peers = (int)json_integer_value(v);
    }
    at[n] = (comp){"a", 0};
    if (parse_ref(name, text, json_object_get(o, "a"), st, &x->a, at, n + 1, err))
        return -1;
    if (x->rel < GT_REL_CEIL_ABOVE) {
        at[n] = (comp){"b", 0};
        if (!json_object_get(o, "b"))
            BAD(at, n, "missing field \"b\" (a ratio compares a with b)");
        if (parse_ref(name, text, json_object_get(o, "b"), st, &x->b, at, n + 1, err))
            return -1;
    }
    return 0;
}

/* "say", "expect" and "otherwise" of object o (at[0..n) is where o is), a
 * claim of step st, into c. */
static int parse_claim(const char *name, const char *text, json_t *o, const gt_lesson_step *st,
                       gt_lesson_claim *c, comp *at, int n, gt_err *err)
{
    json_t *say = json_object_get(o, "say");

    if (get_text(name, text, o, "otherwise", c->otherwise, sizeof c->otherwise, false, at, n,
                 err))
        return -1;
    at[n] = (comp){"say", 0};
    if (!json_is_array(say) || json_array_size(say) < 1 || json_array_size(say) > GT_LESSON_SAY)
        BAD(at, say ? n + 1 : n, "\"say\" must be a list of 1 to %d lines", GT_LESSON_SAY);
    c->nsay = (int)json_array_size(say);
    for (int k = 0; k < c->nsay; k++) {
        json_t *v = json_array_get(say, (size_t)k);
        at[n + 1] = (comp){NULL, k};
        if (!json_is_string(v) || strlen(json_string_value(v)) >= sizeof c->say[0])
            BAD(at, n + 2, "\"say\" line %d must be a string of at most %zu characters", k + 1,
                sizeof c->say[0] - 1);
        snprintf(c->say[k], sizeof c->say[k], "%s", json_string_value(v));
    }
    at[n] = (comp){"expect", 0};
    return parse_expect(name, text, json_object_get(o, "expect"), st, &c->expect, at, n + 1,
                        err);
}

/* A condition on a device property, object o at at[0..n). */
static int parse_cond(const char *name, const char *text, json_t *o, bool need_why,
                      gt_lesson_cond *c, comp *at, int n, gt_err *err)
{
    static const char *const ops[] = {"at_least", "at_most", "equals"};
    const char *key = json_string_value(json_object_get(o, "property"));
    json_t *v = NULL;
    int found = -1;

    if (!json_is_object(o))
        BAD(at, n, "a condition is an object {\"property\": KEY, \"at_least\"|\"at_most\"|"
            "\"equals\": VALUE%s}", need_why ? ", \"why\": TEXT" : "");
    for (c->prop = 0; key && c->prop < GT_DP_COUNT; c->prop++)
        if (!strcmp(gt_dp_table[c->prop].key, key))
            break;
    if (!key || c->prop == GT_DP_COUNT) {
        at[n] = (comp){"property", 0};
        BAD(at, n + 1, "unknown device property \"%s\" (allowed: a key of the device in gputui "
            "--batch --format json, e.g. compute_capability, integrated, async_engine_count, "
            "persisting_l2_max_bytes)", key ? key : "");
    }
    for (int i = 0; i < (int)GT_ARRAY_LEN(ops); i++)
        if (json_object_get(o, ops[i])) {
            if (found >= 0)
                BAD(at, n, "a condition has one of at_least, at_most, equals");
            found = i;
            v = json_object_get(o, ops[i]);
        }
    if (found < 0)
        BAD(at, n, "a condition needs one of at_least, at_most, equals");
    c->op = (gt_cond_op)found;
    at[n] = (comp){ops[found], 0};
    if (json_is_boolean(v)) {
        c->value = json_is_true(v);
    } else if (json_is_integer(v)) {
        c->value = json_integer_value(v);
    } else {
        uint64_t b;
        char msg[120];
        if (!json_is_string(v) || gt_parse_size(json_string_value(v), &b, msg, sizeof msg))
            BAD(at, n + 1, "\"%s\": a number, true, false or a size (\"32M\")", ops[found]);
        c->value = (int64_t)b;
    }
    return get_text(name, text, o, "why", c->why, sizeof c->why, need_why, at, n, err);
}

/* "requires" and "variants" (lesson.h) of step st, object o. */
static int parse_device(const char *name, const char *text, json_t *o, gt_lesson_step *st,
                        comp *at, gt_err *err)
{
    json_t *req = json_object_get(o, "requires"), *var = json_object_get(o, "variants");

    at[2] = (comp){"requires", 0};
    if (req && (!json_is_array(req) || json_array_size(req) > GT_LESSON_CONDS))
        BAD(at, 3, "\"requires\" must be a list of at most %d conditions", GT_LESSON_CONDS);
    st->nrequires = req ? (int)json_array_size(req) : 0;
    for (int k = 0; k < st->nrequires; k++) {
        at[3] = (comp){NULL, k};
        if (parse_cond(name, text, json_array_get(req, (size_t)k), true, &st->requires[k], at, 4,
                       err))
            return -1;
    }
    at[2] = (comp){"variants", 0};
    if (var && (!json_is_array(var) || json_array_size(var) > GT_LESSON_VARIANTS))
        BAD(at, 3, "\"variants\" must be a list of at most %d", GT_LESSON_VARIANTS);
    st->nvariants = var ? (int)json_array_size(var) : 0;
    for (int k = 0; k < st->nvariants; k++) {
        json_t *vo = json_array_get(var, (size_t)k);
        gt_lesson_variant *vt = &st->variant[k];
        at[3] = (comp){NULL, k};
        if (!json_is_object(vo))
            BAD(at, 4, "a variant is an object {\"if\": CONDITION, \"say\": [...], "
                "\"expect\": {...}}");
        at[4] = (comp){"if", 0};
        if (parse_cond(name, text, json_object_get(vo, "if"), false, &vt->when, at, 5, err) ||
            parse_claim(name, text, vo, st, &vt->claim, at, 4, err))
            return -1;
    }
    return 0;
}

static int parse_step(const char *name, const char *text, json_t *o, gt_lesson_step *st, int i,
                      gt_err *err)
{
    comp at[DEPTH] = {{.key = "steps"}, {.idx = i}};
    json_t *cfgs;
    char en[32], msg[300];

    if (!json_is_object(o))
        BAD(at, 2, "step %d is not an object", i + 1);
    if (get_text(name, text, o, "title", st->title, sizeof st->title, true, at, 2, err) ||
        get_text(name, text, o, "experiment", en, sizeof en, true, at, 2, err))
        return -1;
    if (!(st->exp = gt_experiment_find(en))) {
        size_t off = 0;
        char list[200] = "";
        for (int k = 0; k < gt_nexperiments; k++)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", k ? ", " : "",
                                    gt_experiments[k]->name);
        at[2] = (comp){"experiment", 0};
        BAD(at, 3, "unknown experiment \"%s\" (allowed: %s)", en, list);
    }
    cfgs = json_object_get(o, "configs");
    at[2] = (comp){"configs", 0};
    if (!json_is_array(cfgs) || json_array_size(cfgs) < 1 ||
        json_array_size(cfgs) > GT_LESSON_CONFIGS)
        BAD(at, cfgs ? 3 : 2, "\"configs\" must be a list of 1 or 2 configurations");
    st->nconfigs = (int)json_array_size(cfgs);
    for (int c = 0; c < st->nconfigs; c++) {
        json_t *cv = json_array_get(cfgs, (size_t)c);
        const char *k;
        json_t *v;
        at[3] = (comp){NULL, c};
        if (!json_is_object(cv))
            BAD(at, 4, "config %d is not an object of parameter values", c + 1);
        gt_experiment_defaults(st->exp, st->vals[c]);
        json_object_foreach(cv, k, v) {
            int pi = gt_experiment_param(st->exp, k);
            at[4] = (comp){k, 0};
            if (pi < 0)
                BAD(at, 5, "unknown parameter \"%s\" of experiment %s (see gputui --help)", k,
                    st->exp->name);
            if (!json_is_string(v) && !json_is_integer(v))
                BAD(at, 5, "%s: the value must be a string as on the command line", k);
            if (json_is_integer(v))
                snprintf(en, sizeof en, "%lld", (long long)json_integer_value(v));
            else
                snprintf(en, sizeof en, "%s", json_string_value(v));
            if (gt_param_parse(&st->exp->params[pi], en, &st->vals[c][pi], msg, sizeof msg))
                BAD(at, 5, "%s", msg);
        }
        if (gt_experiment_validate(st->exp, st->vals[c], 0, msg, sizeof msg))
            BAD(at, 4, "config %d: %s", c + 1, msg);
    }
    if (parse_claim(name, text, o, st, &st->claim, at, 2, err))
        return -1;
    return parse_device(name, text, o, st, at, err);
}

int gt_lesson_parse(gt_lesson *l, const char *name, const char *text, gt_err *err)
{
    json_error_t je;
    json_t *root, *steps;
    comp at[DEPTH] = {{.key = NULL}};
    int rc = -1;

    memset(l, 0, sizeof *l);
    snprintf(l->path, sizeof l->path, "%s", name);
    root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        gt_err_set(err, GT_EXIT_USAGE, "%s:%d: not valid JSON: %s", name, je.line, je.text);
        return -1;
    }
    if (!json_is_object(root)) {
        gt_err_set(err, GT_EXIT_USAGE, "%s:1: a lesson is a JSON object", name);
        goto out;
    }
    if (get_text(name, text, root, "lesson", l->name, sizeof l->name, true, at, 0, err) ||
        get_text(name, text, root, "title", l->title, sizeof l->title, true, at, 0, err) ||
        get_text(name, text, root, "about", l->about, sizeof l->about, false, at, 0, err))
        goto out;
    for (const char *c = l->name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) {
            at[0] = (comp){"lesson", 0};
            gt_err_set(err, GT_EXIT_USAGE, "%s:%d: \"lesson\" \"%s\": a name is lower-case "
                       "letters, digits and '-'", name, line_of(text, at, 1), l->name);
            goto out;
        }
    steps = json_object_get(root, "steps");
    at[0] = (comp){"steps", 0};
    if (!json_is_array(steps) || json_array_size(steps) < 1 ||
        json_array_size(steps) > GT_LESSON_STEPS) {
        gt_err_set(err, GT_EXIT_USAGE, "%s:%d: \"steps\" must be a list of 1 to %d steps", name,
                   line_of(text, at, steps ? 1 : 0), GT_LESSON_STEPS);
        goto out;
    }
    l->nsteps = (int)json_array_size(steps);
    for (int i = 0; i < l->nsteps; i++)
        if (parse_step(name, text, json_array_get(steps, (size_t)i), &l->step[i], i, err))
            goto out;
    rc = 0;
out:
    json_decref(root);
    return rc;
}

int gt_lesson_load(gt_lesson *l, const char *path, gt_err *err)
{
    int fd = gt_open_regular(path, "a lesson", err);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    char *buf;
    size_t n;
    int rc;

    if (fd < 0)
        return -1;
    if (!f) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    buf = malloc(MAX_FILE + 1);
    if (!buf) {
        fclose(f);
        gt_err_set(err, GT_EXIT_FAIL, "out of memory");
        return -1;
    }
    n = fread(buf, 1, MAX_FILE + 1, f);
    fclose(f);
    if (n > MAX_FILE) {
        free(buf);
        gt_err_set(err, GT_EXIT_USAGE, "%s: larger than %d bytes, not a lesson", path, MAX_FILE);
        return -1;
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n)) {
        free(buf);
        gt_err_set(err, GT_EXIT_USAGE, "%s: holds a NUL byte, not a lesson", path);
        return -1;
    }
    rc = gt_lesson_parse(l, path, buf, err);
    free(buf);
    return rc;
}

int gt_lessons_load_dir(const char *dir, gt_lesson *out, int max, gt_err *err)
{
    char *names[GT_LESSON_MAX];
    int n = gt_data_files(dir, ".json", false, names, max < GT_LESSON_MAX ? max : GT_LESSON_MAX);
    int rc = 0;

    if (n < 0) {
        gt_err_set(err, GT_EXIT_FAIL, "no lessons: %s: %s", dir, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (rc == 0 && gt_lesson_load(&out[i], path, err))
            rc = -1;
        for (int k = 0; rc == 0 && k < i; k++)
            if (!strcmp(out[k].name, out[i].name)) {
                gt_err_set(err, GT_EXIT_USAGE, "%s: lesson \"%s\" is also %s", path,
                           out[i].name, out[k].path);
                rc = -1;
            }
    }
    gt_data_files_free(names, n);
    if (rc == 0 && n == 0) {
        gt_err_set(err, GT_EXIT_FAIL, "no lessons in %s", dir);
        return -1;
    }
    return rc ? -1 : n;
}

const gt_lesson *gt_lesson_find(const gt_lesson *l, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(l[i].name, name))
            return &l[i];
    return NULL;
}
