/* The call trace: see trace.h. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/measure/trace.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gputui/base/units.h"

static _Thread_local gt_trace *cur;
static _Thread_local int cur_phase;
static _Thread_local char pending[GT_TRACE_CALL];

static const char *const phase_names[GT_TR_NPHASES] = {"set-up", "one iteration", "teardown"};

const char *gt_trace_phase_name(int phase)
{
    return phase >= 0 && phase < GT_TR_NPHASES ? phase_names[phase] : "?";
}

int gt_trace_phase_parse(const char *name)
{
    for (int i = 0; name && i < GT_TR_NPHASES; i++)
        if (!strcmp(name, phase_names[i]))
            return i;
    return -1;
}

void gt_trace_clear(gt_trace *t)
{
    memset(t, 0, sizeof *t);
}

void gt_trace_capture(gt_trace *t, gt_trace_phase phase)
{
    cur = t;
    cur_phase = phase;
    pending[0] = '\0';
}

bool gt_trace_capturing(void)
{
    return cur != NULL;
}

void gt_trace_args(const char *fmt, ...)
{
    va_list ap;

    if (!cur)
        return;
    va_start(ap, fmt);
    vsnprintf(pending, sizeof pending, fmt, ap);
    va_end(ap);
}

unsigned gt_trace_count(const gt_trace *t, int phase)
{
    unsigned n = t->more[phase];

    for (int i = 0; i < t->n; i++)
        if (t->c[i].phase == phase)
            n += t->c[i].count;
    return n;
}

void gt_trace_add(gt_trace *t, int phase, const char *call, const char *result, bool ok,
                  unsigned count, double sec)
{
    gt_trace_call *last = t->n ? &t->c[t->n - 1] : NULL;

    if (phase < 0 || phase >= GT_TR_NPHASES)
        return;
    if (last && last->phase == phase && last->ok == ok && !strcmp(last->call, call) &&
        !strcmp(last->result, result)) {
        last->count += count;
        last->sec += sec;
        return;
    }
    if (t->kept[phase] >= GT_TRACE_PER_PHASE) {
        t->more[phase] += count;
        t->more_sec[phase] += sec;
        return;
    }
    t->kept[phase]++;
    last = &t->c[t->n++];
    last->phase = (unsigned char)phase;
    last->ok = ok;
    last->count = count;
    last->sec = sec;
    snprintf(last->call, sizeof last->call, "%s", call);
    snprintf(last->result, sizeof last->result, "%s", result);
}

/* The source text with runs of white space made one space; with readable
 * arguments, the called name and those. */
static void call_text(const char *expr, char *out, size_t len)
{
    size_t o = 0;
    bool space = false;

    if (pending[0] && strchr(expr, '(')) {
        const char *paren = strchr(expr, '(');
        int name = paren ? (int)(paren - expr) : (int)strlen(expr);
        snprintf(out, len, "%.*s(%s)", name, expr, pending);
        pending[0] = '\0';
        return;
    }
    pending[0] = '\0';
    for (; *expr && o + 1 < len; expr++) {
        if (*expr == ' ' || *expr == '\n' || *expr == '\t') {
            space = o > 0;
            continue;
        }
        if (space && o + 2 < len)
            out[o++] = ' ';
        space = false;
        out[o++] = *expr;
    }
    out[o] = '\0';
}

void gt_trace_call_done(const char *expr, const char *result, bool ok, double sec)
{
    char text[GT_TRACE_CALL];

    if (!cur)
        return;
    call_text(expr, text, sizeof text);
    gt_trace_add(cur, cur_phase, text, result, ok, 1, sec);
}

char *gt_trace_format(const gt_trace_call *c, char *buf, size_t len)
{
    char t[32], x[16] = "";

    if (c->count > 1)
        snprintf(x, sizeof x, " x%u", c->count);
    if (!strcmp(c->result, GT_TRACE_KEPT))     /* not called: no time to show */
        snprintf(buf, len, "%s%s -> %s", c->call, x, c->result);
    else
        snprintf(buf, len, "%s%s -> %s  %s", c->call, x, c->result,
                 gt_format_seconds(c->sec, t, sizeof t));
    return buf;
}

void gt_trace_keep_setup(gt_trace *t)
{
    gt_trace was = *t;

    gt_trace_clear(t);
    for (int i = 0; i < was.n; i++)
        if (was.c[i].phase == GT_TR_SETUP)
            gt_trace_add(t, GT_TR_SETUP, was.c[i].call, GT_TRACE_KEPT, true, was.c[i].count, 0);
    t->more[GT_TR_SETUP] = was.more[GT_TR_SETUP];
}

void gt_trace_kept(const char *call)
{
    if (cur)
        gt_trace_add(cur, cur_phase, call, GT_TRACE_KEPT, true, 1, 0);
}

void gt_trace_replay(const gt_trace *t)
{
    if (!cur || !t)
        return;
    for (int i = 0; i < t->n; i++)
        gt_trace_add(cur, t->c[i].phase, t->c[i].call, t->c[i].result, t->c[i].ok,
                     t->c[i].count, t->c[i].sec);
    for (int ph = 0; ph < GT_TR_NPHASES; ph++) {
        cur->more[ph] += t->more[ph];
        cur->more_sec[ph] += t->more_sec[ph];
    }
}

void gt_trace_print(FILE *f, const gt_trace *t, int indent)
{
    char line[GT_TRACE_CALL + 80], d[32];

    for (int ph = 0; ph < GT_TR_NPHASES; ph++) {
        if (!gt_trace_count(t, ph))
            continue;
        fprintf(f, "%*s%s:\n", indent, "", gt_trace_phase_name(ph));
        for (int i = 0; i < t->n; i++)
            if (t->c[i].phase == ph)
                fprintf(f, "%*s  %s\n", indent, "", gt_trace_format(&t->c[i], line, sizeof line));
        if (t->more[ph])
            fprintf(f, "%*s  ... and %u more calls, %s\n", indent, "", t->more[ph],
                    gt_format_seconds(t->more_sec[ph], d, sizeof d));
    }
}

/* The JSON form: [{phase, call, result, ok, count, SEC_KEY}, ...] and per
 * phase at most one {phase, more, SEC_KEY} for the calls not kept. */
json_t *gt_trace_json(const gt_trace *t, const char *sec_key)
{
    json_t *calls = json_array();

    for (int i = 0; i < t->n; i++) {
        const gt_trace_call *c = &t->c[i];
        json_array_append_new(calls, json_pack("{sssssssbsisf}", "phase",
                                               gt_trace_phase_name(c->phase), "call", c->call,
                                               "result", c->result, "ok", c->ok, "count",
                                               (json_int_t)c->count, sec_key, c->sec));
    }
    for (int ph = 0; ph < GT_TR_NPHASES; ph++)
        if (t->more[ph])
            json_array_append_new(calls, json_pack("{sssisf}", "phase", gt_trace_phase_name(ph),
                                                   "more", (json_int_t)t->more[ph], sec_key,
                                                   t->more_sec[ph]));
    return calls;
}

const char *gt_trace_take(gt_trace *t, int phase, const char *call, const char *result,
                          bool ok, long long count, long long more, double sec)
{
    if (phase < 0 || phase >= GT_TR_NPHASES)
        return "\"phase\" is not one of set-up, one iteration, teardown";
    if (!(sec >= 0 && sec < 1e6))
        return "\"sec\" is not a duration";
    if (more > 0 && more < 100000000) {
        t->more[phase] += (unsigned)more;
        t->more_sec[phase] += sec;
        return NULL;
    }
    if (!call || !result || count < 1 || count > 100000000)
        return "needs \"call\", \"result\" and a \"count\" of 1 or more";
    gt_trace_add(t, phase, call, result, ok, (unsigned)count, sec);
    return NULL;
}

int gt_trace_read(json_t *calls, gt_trace *t, char *why, size_t n)
{
    if (!json_is_array(calls)) {
        snprintf(why, n, "trace without a \"calls\" array");
        return -1;
    }
    gt_trace_clear(t);
    for (size_t i = 0; i < json_array_size(calls); i++) {
        json_t *e = json_array_get(calls, i);
        json_t *cnt = json_object_get(e, "count"), *more = json_object_get(e, "more");
        json_t *sec = json_object_get(e, "sec");
        const char *bad = gt_trace_take(
            t, gt_trace_phase_parse(json_string_value(json_object_get(e, "phase"))),
            json_string_value(json_object_get(e, "call")),
            json_string_value(json_object_get(e, "result")),
            json_is_true(json_object_get(e, "ok")),
            json_is_integer(cnt) ? (long long)json_integer_value(cnt) : 0,
            json_is_integer(more) ? (long long)json_integer_value(more) : 0,
            json_is_number(sec) ? json_number_value(sec) : 0);
        if (bad) {
            snprintf(why, n, "trace call %zu: %s", i + 1, bad);
            return -1;
        }
    }
    return 0;
}
