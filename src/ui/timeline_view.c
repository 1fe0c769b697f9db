/* The streams timeline: the last iteration's operations, one row per
 * stream under the serial run, with the ideal bound marked. */
#include <math.h>
#include <string.h>

#include "gputui/base/units.h"
#include "ui_priv.h"

/* Rows the timeline block wants: title, serial, one per stream, axis. */
int ui_timeline_rows(const ui *u)
{
    return u->cur.tl ? 3 + u->cur.tl->nstreams : 0;
}

/* The latest iteration's operations, one row per stream, over the serial
 * run's time; the ideal bound and the end of the streams run are marked. */
void ui_draw_timeline(ui *u, int y, int x, int w, int h)
{
    const gt_timeline *tl = u->cur.tl;
    static const int colour[GT_TL_KINDS] = {C_H2D, C_KERNEL, C_D2H};
    signed char cells[512];
    int lw = 11, cw = w - lw - 2, rows = h - 2, shown;
    double span = fmax(tl->total[GT_TL_SERIAL], tl->total[GT_TL_STREAMS]);
    char a[32], line[256];

    if (cw > (int)sizeof cells)
        cw = (int)sizeof cells;
    shown = rows - 1 < tl->nstreams ? rows - 1 : tl->nstreams;
    {
        const char *title = " Timeline of the last iteration";
        int off = (int)strlen(title) + 2;
        ui_put(y, x, w, ui_role(u, C_TITLE), title);
        for (int k = 0; k < GT_TL_KINDS; k++) {
            snprintf(line, sizeof line, "%c %s", gt_tl_glyphs[k], gt_tl_kind_names[k]);
            ui_put(y, x + off, (int)strlen(line), ui_role(u, colour[k]) | A_BOLD, line);
            off += (int)strlen(line) + 2;
        }
        if (shown < tl->nstreams) {
            snprintf(line, sizeof line, "(+%d streams: a taller terminal shows them)",
                     tl->nstreams - shown);
            if (off + (int)strlen(line) > w)
                snprintf(line, sizeof line, "(+%d streams)", tl->nstreams - shown);
            ui_put(y, x + off, w - off, ui_role(u, C_GHOST), line);
        }
    }
    for (int r = 0; r <= shown && r < rows; r++) {
        int run = r == 0 ? GT_TL_SERIAL : GT_TL_STREAMS, s = r == 0 ? 0 : r - 1;
        if (r == 0)
            snprintf(line, sizeof line, " serial");
        else
            snprintf(line, sizeof line, " stream %d", s);
        ui_put(y + 1 + r, x, lw, A_NORMAL, line);
        ui_put(y + 1 + r, x + lw, 1, ui_role(u, C_GHOST), "|");
        gt_timeline_row(tl, run, s, span, cw, cells);
        for (int c = 0; c < cw; c++) {
            if (cells[c] < 0) {
                mvaddch(y + 1 + r, x + lw + 1 + c, ' ');
                continue;
            }
            attron(ui_role(u, colour[(int)cells[c]]) | A_BOLD);
            mvaddch(y + 1 + r, x + lw + 1 + c, (chtype)gt_tl_glyphs[(int)cells[c]]);
            attroff(ui_role(u, colour[(int)cells[c]]) | A_BOLD);
        }
        ui_put(y + 1 + r, x + lw + 1 + cw, 1, ui_role(u, C_GHOST), "|");
    }
    /* Axis: 0, the ideal bound (^), the end of the streams run (|), span. */
    {
        int yy = y + 1 + (shown + 1 < rows ? shown + 1 : rows);
        double ideal = gt_timeline_ideal(tl);
        int ci = span > 0 ? (int)(ideal / span * cw) : -1;
        int ce = span > 0 ? (int)(tl->total[GT_TL_STREAMS] / span * cw) : -1;
        ui_put(yy, x, w, A_NORMAL, "");
        ui_put(yy, x + lw, 2, ui_role(u, C_GHOST), "0");
        if (ci >= 0 && ci < cw)
            ui_put(yy, x + lw + 1 + ci, 7, ui_role(u, C_OK), "^ideal");
        if (ce >= 0 && ce < cw && ce != ci)
            ui_put(yy, x + lw + 1 + ce, 8, ui_role(u, C_TITLE), "^streams");
        gt_format_seconds(span, a, sizeof a);
        ui_put(yy, x + lw + 1 + cw - (int)strlen(a), (int)strlen(a) + 1, ui_role(u, C_GHOST), a);
    }
}
