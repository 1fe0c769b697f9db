/* The CUDA calls of the configuration on screen ('t'), over the top
 * panes: its set-up and one iteration, then the teardown of the
 * configuration before it (live; a replay shows this configuration's own,
 * as recorded). --record writes each configuration's calls once its
 * teardown is known. */
#include <stdlib.h>
#include <string.h>

#include "gputui/base/units.h"
#include "ui_priv.h"

/* Copies the engine's traces only when the pane or --record needs them
 * and something changed: this runs at every wake-up of the main loop. */
void ui_trace_refresh(ui *u)
{
    uint32_t g, seq;

    if (!ui_shown(u, SCR_TRACE) && !u->recd.w)
        return;
    seq = gt_engine_trace_seq(u->eng);
    if (u->calls.now && seq == u->calls.seq && u->calls.gen == u->cur.gen)
        return;
    u->calls.seq = seq;
    u->calls.gen = u->cur.gen;
    if (!u->calls.now && !(u->calls.now = calloc(1, sizeof *u->calls.now)))
        return;
    if (!u->calls.prev && !(u->calls.prev = calloc(1, sizeof *u->calls.prev)))
        return;
    if (!gt_engine_trace(u->eng, u->cur.gen, u->calls.now))
        gt_trace_clear(u->calls.now);
    g = gt_engine_trace_prev(u->eng, u->calls.prev);
    u->recd.calls_prev_gen = g;
    if (u->recd.w && g && g == u->recd.gen && u->recd.calls_written != g) {
        gt_recorder_trace(u->recd.w, g, u->calls.prev);
        u->recd.calls_written = g;
    }
}

/* The lines of one phase of t; returns the next row. */
static int phase(ui *u, const gt_trace *t, int ph, const char *title, int row, int *skip,
                 int x, int w, int end)
{
    char line[GT_TRACE_CALL + 80], d[32];

#define LINE(attr, ...)                                 \
    do {                                                \
        if (*skip > 0)                                  \
            (*skip)--;                                  \
        else if (row < end)                             \
            ui_putf(row++, x, w, attr, __VA_ARGS__);    \
    } while (0)
    if (!gt_trace_count(t, ph))
        return row;
    LINE(ui_role(u, C_TITLE), " %s", title);
    for (int i = 0; i < t->n; i++)
        if (t->c[i].phase == ph)
            LINE(t->c[i].ok ? A_NORMAL : ui_role(u, C_ERR), "   %s",
                 gt_trace_format(&t->c[i], line, sizeof line));
    if (t->more[ph])
        LINE(ui_role(u, C_GHOST), "   ... and %u more calls, %s", t->more[ph],
             gt_format_seconds(t->more_sec[ph], d, sizeof d));
#undef LINE
    return row;
}

/* Draws the trace's lines from line 'skip' on, rows [row, end); returns
 * how many lines were left to skip (all of them when nothing is drawn). */
static int draw_lines(ui *u, int skip, int row, int x, int w, int end)
{
    const gt_trace *t = u->calls.now;

    if (!t || !t->n) {
        if (skip-- <= 0 && row < end)
            ui_putf(row++, x, w, ui_role(u, C_GHOST), " %s", u->rp.rec ?
                    "none recorded for this configuration: a recording holds the calls of the "
                    "configurations it traced (before format 1.2, of none)" :
                    "none yet: the set-up is still running");
    } else {
        row = phase(u, t, GT_TR_SETUP, "set-up", row, &skip, x, w, end);
        row = phase(u, t, GT_TR_RUN, "one iteration (the first)", row, &skip, x, w, end);
        row = phase(u, t, GT_TR_TEARDOWN, "teardown", row, &skip, x, w, end);
    }
    if (!u->rp.rec && u->calls.prev && u->recd.calls_prev_gen && u->recd.calls_prev_gen != u->cur.gen)
        row = phase(u, u->calls.prev, GT_TR_TEARDOWN,
                    "teardown of the configuration before (this one's comes when it ends)",
                    row, &skip, x, w, end);
    while (row < end)
        ui_put(row++, x, w, A_NORMAL, "");
    return skip;
}

void ui_draw_trace(ui *u, int y, int x, int w, int h)
{
    const int all = 1 << 20;
    int lines = all - draw_lines(u, all, y + h, x, w, y + h);    /* count only */

    if (u->calls.scroll > lines - (h - 1))
        u->calls.scroll = lines - (h - 1) > 0 ? lines - (h - 1) : 0;
    ui_putf(y, x, w, ui_role(u, C_TITLE) | A_REVERSE, " CUDA calls of this configuration "
            "(t: close, Up/Down: scroll; lines %d-%d of %d)", u->calls.scroll + 1,
            u->calls.scroll + h - 1 < lines ? u->calls.scroll + h - 1 : lines, lines);
    draw_lines(u, u->calls.scroll, y + 1, x, w, y + h);
}
