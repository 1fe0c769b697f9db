/* 'x': the statistics of the current and the previous configuration,
 * written as JSON and CSV into the working directory (export.h: never
 * over another file; a fallback directory when this one is not
 * writable). */
#include <time.h>

#include "gputui/report/export.h"
#include "ui_priv.h"

/* Writes the current and the previous run's statistics; the status line
 * names the files, or says where it tried and why it failed. */
outcome ui_export(ui *u)
{
    gt_run runs[2];
    int n = 0, rc;
    bool has_prev = gt_run_count(&u->prev) > 0, has_cur = gt_run_count(&u->cur) > 0;
    char stamp[32], msg[1600];
    time_t now = time(NULL);
    struct tm tm;

    if (!has_prev && !has_cur) {
        ui_set_msg(u, true, "nothing to export yet: no samples");
        return OUT_REDRAW;
    }
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    /* The runs move into the array and back: reports sort their samples. */
    if (has_prev)
        runs[n++] = u->prev;
    if (has_cur)
        runs[n++] = u->cur;
    rc = gt_export(NULL, stamp, &u->props, runs, n, u->rp.rec, msg, sizeof msg);
    if (has_prev)
        u->prev = runs[0];
    if (has_cur)
        u->cur = runs[has_prev ? 1 : 0];
    ui_set_msg(u, rc != 0, "%s", msg);
    return OUT_REDRAW;
}
