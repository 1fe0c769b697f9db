/* 'w': the sweep of the selected parameter. It steps the configuration
 * through the parameter's values, keeps each until it has SWEEP_SAMPLES
 * samples, and plots the median at each value in place of the histograms. */
#include <math.h>
#include <string.h>

#include "ui_priv.h"

void ui_sweep_stop(ui *u, bool hide)
{
    u->sw.running = false;
    if (hide)
        ui_close(u, SCR_SWEEP);
}

/* OUT_WAIT while the recording is still being read: a replay sweeps the
 * values it holds, and which those are is known only once it is read. */
outcome ui_sweep_start(ui *u, double now)
{
    char err[300];
    const char *why;

    if (u->view.pane != PANE_EXP) {
        ui_set_msg(u, true, "select a parameter in the experiment pane (Tab), then w sweeps it");
        return OUT_NONE;
    }
    if (!gt_param_applies(&u->exp->params[u->view.sel], u->vals, &why)) {
        ui_set_msg(u, true, "%s applies %s: nothing to sweep", u->exp->params[u->view.sel].name, why);
        return OUT_NONE;
    }
    if (ui_unread_all(u))
        return OUT_WAIT;
    gt_sweep_begin(&u->sw.sweep, u->exp, u->view.sel, u->vals, &u->props);
    if (gt_sweep_values(&u->sw.sweep, &u->props, err, sizeof err) < 0) {
        ui_set_msg(u, true, "%s", err);
        return OUT_NONE;
    }
    if (u->rp.rec) {
        /* A replay sweeps the values the recording holds. */
        int k = 0, left = 0;
        int64_t v[GT_MAX_PARAMS];
        memcpy(v, u->vals, sizeof v);
        for (int i = 0; i < u->sw.sweep.n; i++) {
            v[u->view.sel] = u->sw.sweep.vals[i];
            if (gt_recording_find(u->rp.rec, u->exp, v) >= 0)
                u->sw.sweep.vals[k++] = u->sw.sweep.vals[i];
            else
                left++;
        }
        u->sw.sweep.n = k;
        if (!k) {
            ui_set_msg(u, true, "%s: the recording holds none of its values at the others "
                       "shown", u->exp->params[u->view.sel].name);
            return OUT_NONE;
        }
        if (left)
            ui_set_msg(u, false, "sweep of %s: %d value%s not recorded left out",
                       u->exp->params[u->view.sel].name, left, left == 1 ? "" : "s");
    }
    u->sw.running = true;
    ui_open(u, SCR_SWEEP);
    u->sw.i = 0;
    u->vals[u->view.sel] = u->sw.sweep.vals[0];
    ui_apply(u, false, now);
    return OUT_NONE;
}

/* Once the value being swept has its samples, or cannot give more (an
 * error, a played-out recording), its p50s go into the plot and the next
 * value starts. Uses the status read for this wake-up; true when it moved. */
bool ui_sweep_tick(ui *u, double now)
{
    gt_sweep *s = &u->sw.sweep;
    bool over = u->st.state == GT_ST_ERROR || u->st.state == GT_ST_DONE || ui_recorded_all(u);

    if (u->st.gen != u->cur.gen || (!over && gt_run_count(&u->cur) < SWEEP_SAMPLES))
        return false;
    for (int k = 0; k < s->nseries && k < u->cur.nseries; k++) {
        gt_dist *d = gt_series_judged(&u->cur.s[k], false);
        s->p50[u->sw.i][k] = d->count ? gt_dist_percentile(d, 0.5) : NAN;
        s->disturbed += u->cur.s[k].disturbed;
    }
    if (++u->sw.i >= s->n) {
        char busy[96] = "";
        ui_sweep_stop(u, false);
        if (s->disturbed)
            snprintf(busy, sizeof busy, "; the clean samples' p50s, %llu disturbed by another "
                     "program left out", (unsigned long long)s->disturbed);
        if (s->refused)
            ui_set_msg(u, false, "sweep of %s done: %d values; %d left out: %s%s",
                       s->exp->params[s->param].name, s->n, s->refused, s->why_refused, busy);
        else
            ui_set_msg(u, false, "sweep of %s done: %d values%s", s->exp->params[s->param].name,
                       s->n, busy);
        return true;
    }
    u->vals[s->param] = s->vals[u->sw.i];
    ui_apply(u, false, now);
    return true;
}

/* The sweep's plot in place of the histograms: a bar a value, as thick
 * as the height allows. */
void ui_draw_sweep(ui *u, int y, int h)
{
    static char rows[GT_SWEEP_MAX + 2][256];
    const gt_sweep *s = &u->sw.sweep;
    int all = gt_sweep_render(s, rows, GT_SWEEP_MAX + 2, COLS);
    int n = all < h - 1 ? all : h - 1, thick = all > 1 ? (h - 2) / (all - 1) : 1, row = y + 1;

    /* Too short for every value: the last row says how many are hidden. */
    if (n < all && n > 1) {
        snprintf(rows[n - 1], sizeof rows[0], "  (%d more values: a taller terminal shows them)",
                 all - n + 1);
    }
    if (u->sw.running)
        ui_putf(y, 0, COLS, ui_role(u, C_TITLE), " Sweep of %s: p50 at each value, %d samples a "
             "series; value %d of %d (w stops)", s->exp->params[s->param].name, SWEEP_SAMPLES,
             u->sw.i + 1, s->n);
    else
        ui_putf(y, 0, COLS, ui_role(u, C_TITLE), " Sweep of %s: p50 at each value (w sweeps again, "
             "any change leaves the plot)", s->exp->params[s->param].name);
    if (n < all || thick < 1)
        thick = 1;
    for (int r = 0; r < n && row < y + h; r++) {
        bool mark = strstr(rows[r], "----------") != NULL;
        attr_t a = mark ? ui_role(u, C_OK) : r == 0 ? ui_role(u, C_GHOST) : A_NORMAL;
        ui_put(row++, 0, COLS, a, rows[r]);
        /* the bar again below its value, without the figures */
        for (int k = 1; k < thick && r > 0 && !mark && row < y + h; k++) {
            char bar[256];
            for (int c = 0; c < 256; c++)
                bar[c] = rows[r][c] == '#' ? '#' : rows[r][c] ? ' ' : '\0';
            ui_put(row++, 0, COLS, a, bar);
            if (!rows[r][0])
                break;
        }
    }
    while (row < y + h)
        ui_put(row++, 0, COLS, A_NORMAL, "");
}
