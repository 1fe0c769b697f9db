/* The call trace: see trace.h. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gputui/units.h"

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
    snprintf(buf, len, "%s%s -> %s  %s", c->call, x, c->result,
             gt_format_seconds(c->sec, t, sizeof t));
    return buf;
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
