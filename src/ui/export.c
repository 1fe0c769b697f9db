/* 'x': the statistics of the current and the previous configuration,
 * written as JSON and CSV into the working directory. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "gputui/report.h"
#include "ui_priv.h"

/* Writes the current and the previous run's statistics as JSON and CSV
 * into the working directory; the status line names the files. */
outcome ui_export(ui *u)
{
    gt_run runs[2];
    int n = 0, rc = 0;
    bool has_prev = gt_run_count(&u->prev) > 0, has_cur = gt_run_count(&u->cur) > 0;
    char stamp[32], path[2][64];
    time_t now = time(NULL);
    struct tm tm;
    static const gt_format fmts[2] = {GT_FMT_JSON, GT_FMT_CSV};
    static const char *const ext[2] = {"json", "csv"};

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
    for (int i = 0; i < 2 && !rc; i++) {
        FILE *f;
        snprintf(path[i], sizeof path[i], "gputui-%s.%s", stamp, ext[i]);
        f = fopen(path[i], "w");
        rc = !f || gt_report(f, fmts[i], &u->props, runs, n, u->rec);
        if (f && fclose(f))
            rc = 1;
        if (rc)
            ui_set_msg(u, true, "cannot write %s: %s", path[i], strerror(errno));
    }
    if (has_prev)
        u->prev = runs[0];
    if (has_cur)
        u->cur = runs[has_prev ? 1 : 0];
    if (rc)
        return OUT_REDRAW;
    ui_set_msg(u, false, "exported %d run%s: %s and .%s", n, n > 1 ? "s" : "", path[0], ext[1]);
    return OUT_REDRAW;
}
