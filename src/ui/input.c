/* Keys: each key becomes a change of the UI state and an outcome for the
 * main loop. Parameter values are validated here (the parameter table,
 * the device's limits, or what the recording holds). */
#include <string.h>

#include "gputui/input/keys.h"
#include "gputui/record/replay.h"
#include "ui_priv.h"

static int translate_key(int ch)
{
    switch (ch) {
    case KEY_UP: return GT_KEY_UP;
    case KEY_DOWN: return GT_KEY_DOWN;
    case KEY_LEFT: return GT_KEY_LEFT;
    case KEY_RIGHT: return GT_KEY_RIGHT;
    case KEY_ENTER: case '\n': case '\r': return GT_KEY_ENTER;
    case '\t': return GT_KEY_TAB;
    case KEY_F(1): return GT_KEY_F1;
    case KEY_F(10): return GT_KEY_F10;
    case 27: return GT_KEY_ESC;
    default: return ch;
    }
}

/* --follow: the teacher's session sets the configuration. */
static outcome follows(ui *u)
{
    ui_set_msg(u, true, "following the teacher's session: the configuration is theirs (p pauses; "
               "y, t, s, w and x work)");
    return OUT_REDRAW;
}

/* Validates a new value of parameter i and, when it is good, takes it. */
static outcome try_value(ui *u, int i, int64_t v)
{
    int64_t vals[GT_MAX_PARAMS];
    const gt_param *p = &u->exp->params[i];
    const char *why;
    char err[400];

    if (u->following)
        return follows(u);
    if (!gt_param_applies(p, u->vals, &why)) {
        ui_set_msg(u, true, "%s applies %s", p->name, why);
        return OUT_REDRAW;
    }
    if (gt_param_check(p, v, err, sizeof err)) {
        ui_set_msg(u, true, "%s", err);
        return OUT_REDRAW;
    }
    memcpy(vals, u->vals, sizeof vals);
    vals[i] = v;
    if (vals[i] == u->vals[i])
        return OUT_REDRAW;
    if (u->rec) {
        /* Replaying: move to the recorded configuration with that value
         * (once it is read: the nearest one is chosen from all of them). */
        char have[300], vb[48];
        int idx;
        if (ui_unread(u, u->exp, vals))
            return OUT_WAIT;
        idx = gt_recording_match(u->rec, u->exp, vals, i, have, sizeof have);
        if (idx < 0) {
            ui_set_msg(u, true, "not recorded%s: %s=%s (recorded: %s)%s", u->cmp ? " on A" : "",
                       p->name, gt_param_format(p, v, vb, sizeof vb), have,
                       u->cmp && gt_recording_find(u->cmp, u->exp, vals) >= 0 ? "; B has it" : "");
            return OUT_REDRAW;
        }
        u->cfg_idx = idx;
        memcpy(u->vals, u->rec->cfg[idx].vals, sizeof u->vals);
        u->msg[0] = '\0';
        return OUT_APPLY;
    }
    if (gt_experiment_check(u->exp, vals, &u->props, err, sizeof err)) {
        ui_set_msg(u, true, "%s", err);
        return OUT_REDRAW;
    }
    memcpy(u->vals, vals, sizeof vals);
    u->msg[0] = '\0';
    return OUT_APPLY;
}

/* The next (dir 1) or previous (-1) experiment, with the values it had
 * last time (its defaults at first; when replaying, its first recorded
 * configuration). */
static outcome step_experiment(ui *u, int dir)
{
    int n = gt_nexperiments;

    if (u->following)
        return follows(u);
    memcpy(u->saved[u->exp_idx], u->vals, sizeof u->vals);
    for (int k = 1; k <= n; k++) {
        int i = ((u->exp_idx + dir * k) % n + n) % n;
        const gt_experiment *e = gt_experiments[i];
        if (u->rec) {
            /* Its last configuration if that was recorded, else its first. */
            int c;
            if (ui_unread(u, e, u->saved[i]))
                return OUT_WAIT;
            c = gt_recording_place(u->rec, e, u->saved[i]);
            if (c < 0 && (u->nowhere & (1ull << i) || !u->src->bundle ||
                          u->src->bundle->n < 2 || u->cmp || u->recorder))
                continue;       /* in no recording this replay can move to */
            if (c >= 0) {
                u->cfg_idx = c;
                memcpy(u->saved[i], u->rec->cfg[c].vals, sizeof u->vals);
            }                   /* else another bundled recording holds it (the loop) */
        }
        if (i == u->exp_idx) {
            ui_set_msg(u, true, u->rec ? "the recording holds no other experiment"
                                    : "there is no other experiment");
            return OUT_REDRAW;
        }
        /* "before" belongs to an experiment: this one keeps its last run
         * for when it comes back, and the next one gets its own back. */
        gt_run_free(&u->kept[u->exp_idx]);
        if (gt_run_count(&u->cur))
            gt_run_move(&u->kept[u->exp_idx], &u->cur);
        else if (u->prev.exp == u->exp)
            gt_run_move(&u->kept[u->exp_idx], &u->prev);
        gt_run_free(&u->cur);
        gt_run_move(&u->prev, &u->kept[i]);
        u->exp_idx = i;
        u->exp = e;
        memcpy(u->vals, u->saved[i], sizeof u->vals);
        u->sel = 0;
        ui_set_msg(u, false, "experiment %d of %d: %s", i + 1, n, e->title);
        return OUT_APPLY;
    }
    return OUT_REDRAW;
}

/* Replay: the next (dir 1) or previous (-1) recorded configuration of
 * this experiment, wrapping around. */
outcome ui_step_config(ui *u, int dir)
{
    int n = (int)u->rec->ncfg;

    if (u->following)
        return follows(u);
    for (int k = 1; k <= n; k++) {
        int i = ((u->cfg_idx + dir * k) % n + n) % n;
        if (u->rec->loading && (dir > 0 ? i <= u->cfg_idx : i >= u->cfg_idx)) {
            /* past the end: the configurations still to be read come first */
            ui_set_msg(u, false, "reading the recording; the key waits for it");
            return OUT_WAIT;
        }
        if (u->rec->cfg[i].exp == u->exp) {
            u->cfg_idx = i;
            memcpy(u->vals, u->rec->cfg[i].vals, sizeof u->vals);
            ui_set_msg(u, false, "recorded configuration %d of %d", i + 1, n);
            return OUT_APPLY;
        }
    }
    return OUT_REDRAW;
}

static outcome edit_key(ui *u, int ch)
{
    size_t n = strlen(u->edit);
    const gt_param *p = &u->exp->params[u->sel];
    char err[400];
    int64_t v;

    if (ch == 27) {
        u->editing = false;
        u->msg[0] = '\0';
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n)
            u->edit[n - 1] = '\0';
    } else if (ch == KEY_ENTER || ch == '\n' || ch == '\r') {
        u->editing = false;
        if (gt_param_parse(p, u->edit, &v, err, sizeof err)) {
            ui_set_msg(u, true, "%s", err);
            return OUT_REDRAW;
        }
        return try_value(u, u->sel, v);
    } else if (ch >= 32 && ch < 127 && n + 1 < sizeof u->edit) {
        u->edit[n] = (char)ch;
        u->edit[n + 1] = '\0';
    }
    return OUT_REDRAW;
}

/* A click or the wheel: the header's "?:help" and experiment name, a
 * parameter (a click selects it, the wheel changes its value), a series
 * (the table's row, or a histogram block: 'y' explains it). */
static outcome mouse_event(ui *u)
{
    MEVENT ev = u->mev;         /* the loop took it with the key */
    bool wheel_up, wheel_down, click;

    wheel_up = ev.bstate & BUTTON4_PRESSED;
    wheel_down = ev.bstate & BUTTON5_PRESSED;
    click = ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED);
    if (u->help) {
        u->help_scroll += wheel_down ? 1 : wheel_up ? -1 : 0;
        if (click)
            u->help = false;
        return OUT_REDRAW;
    }
    if (u->inspect_shown || u->lesson_list || u->editing)
        return OUT_NONE;
    if (ev.y == 0 && click) {
        if (ev.x >= u->head_help_x) {
                    u->help = true;
            u->help_scroll = 0;
            return OUT_REDRAW;
        }
        if (u->head_exp_x >= 0 && ev.x >= u->head_exp_x &&
            ev.x < u->head_exp_x + (int)strlen(u->exp->name))
            return step_experiment(u, 1);
        return OUT_NONE;
    }
    if (!u->tracing && ev.y >= u->par_y && ev.y < u->par_y + u->par_n && ev.x >= u->par_x &&
        ev.x < u->par_x + u->par_w) {
        int i = ev.y - u->par_y;
        const gt_param *p = &u->exp->params[i];
        u->pane = PANE_EXP;
        u->sel = i;
        if (wheel_up || wheel_down)
            return try_value(u, i, gt_param_step(p, u->vals[i], wheel_up ? 1 : -1));
        return OUT_REDRAW;
    }
    for (int k = 0; k < u->nhit; k++) {
        const ui_hit *h = &u->hit[k];
        if (ev.y < h->y || ev.y >= h->y + h->h || ev.x < h->x || ev.x >= h->x + h->w)
            continue;
        if (u->compact && (wheel_up || wheel_down)) {
            u->series_sel += wheel_down ? 1 : -1;    /* the table clamps it */
            return OUT_REDRAW;
        }
        if (!click)
            return OUT_NONE;
        if (u->compact && h->h == 1) {
            u->series_sel = h->series;
            u->pane = PANE_SERIES;
            return OUT_REDRAW;
        }
        u->why = h->series + 1;
        ui_set_msg(u, false, "why: %s (%d of %d; y: next, then off)",
                   u->cur.s[h->series].name, u->why, u->cur.nseries);
        return OUT_REDRAW;
    }
    return OUT_NONE;
}

outcome ui_handle_key(ui *u, int ch)
{
    const gt_param *p;

    if (ch == KEY_MOUSE)
        return mouse_event(u);
    if (u->editing)
        return edit_key(u, ch);
    if (ch == KEY_RESIZE)
        return OUT_REDRAW;
    gt_action a = gt_key_action(translate_key(ch));
    if (u->help && (a == GT_A_UP || a == GT_A_DOWN)) {
        u->help_scroll += a == GT_A_DOWN ? 1 : -1;     /* the box clamps it */
        return OUT_REDRAW;
    }
    if (u->help && a != GT_A_QUIT) {
        u->help = false;          /* any other key closes the help */
        return OUT_REDRAW;
    }
    {
        outcome o = ui_inspect_key(u, ch);
        if (o == OUT_NONE)
            o = ui_lesson_key(u, ch);
        if (o != OUT_NONE)
            return o;
    }
    if (u->tracing && (a == GT_A_UP || a == GT_A_DOWN)) {
        u->trace_scroll += a == GT_A_DOWN ? 1 : u->trace_scroll > 0 ? -1 : 0;
        return OUT_REDRAW;
    }
    p = &u->exp->params[u->sel];
    switch (a) {
    case GT_A_WHY:
        u->why = (u->why + 1) % (u->cur.nseries + 1);
        if (u->why)
            ui_set_msg(u, false, "why: %s (%d of %d; y: next, then off)",
                       u->cur.s[u->why - 1].name, u->why, u->cur.nseries);
        else
            u->msg[0] = '\0';
        return OUT_REDRAW;
    case GT_A_TRACE:
        u->tracing = !u->tracing;
        u->trace_scroll = 0;
        return OUT_REDRAW;
    case GT_A_BACK:             /* what is on top closes; with nothing, quit */
        if (u->tracing) {
            u->tracing = false;
            return OUT_REDRAW;
        }
        if (u->why) {
            u->why = 0;
            u->msg[0] = '\0';
            return OUT_REDRAW;
        }
        return OUT_QUIT;
    case GT_A_QUIT: return OUT_QUIT;
    case GT_A_HELP: u->help = true; u->help_scroll = 0; return OUT_REDRAW;
    case GT_A_PAUSE: u->paused = !u->paused; return OUT_PAUSE;
    case GT_A_RESTART: return OUT_RESTART;
    case GT_A_CLEAR: return OUT_CLEAR;
    case GT_A_NEXT_PANE:
        u->pane = (u->pane + 1) % PANE_COUNT;
        if (u->pane == PANE_SERIES && !u->compact)
            u->pane = PANE_EXP;     /* the table is there only with many series */
        return OUT_REDRAW;
    case GT_A_STRIP:
        if (!u->strip) {
            ui_set_msg(u, true, "s: out of memory for the time strip");
            return OUT_REDRAW;
        }
        u->strip_on = !u->strip_on;
        ui_set_msg(u, false, "time strip %s", u->strip_on ? "on: each series' median second "
                   "by second, the last minute (s: off)" : "off");
        return OUT_REDRAW;
    case GT_A_UP:
        if (u->pane == PANE_SERIES) {
            if (u->series_sel > 0)
                u->series_sel--;
        } else if (u->pane == PANE_DEV) {
            if (u->dev_scroll > 0)
                u->dev_scroll--;
        } else {
            u->sel = (u->sel + u->exp->nparams - 1) % u->exp->nparams;
        }
        return OUT_REDRAW;
    case GT_A_DOWN:
        if (u->pane == PANE_SERIES)
            u->series_sel++;        /* the table clamps it */
        else if (u->pane == PANE_DEV)
            u->dev_scroll++;
        else
            u->sel = (u->sel + 1) % u->exp->nparams;
        return OUT_REDRAW;
    case GT_A_DEC:
    case GT_A_INC:
        if (u->pane != PANE_EXP)
            return OUT_NONE;
        return try_value(u, u->sel, gt_param_step(p, u->vals[u->sel], a == GT_A_INC ? 1 : -1));
    case GT_A_TOGGLE:
        if (u->pane != PANE_EXP)
            return OUT_NONE;
        return try_value(u, u->sel, gt_param_step(p, u->vals[u->sel], 1));
    case GT_A_EXPORT:
        return ui_export(u);
    case GT_A_SWEEP:
        return OUT_SWEEP;
    case GT_A_DEVICE:
        return u->following ? follows(u) : OUT_DEVICE;
    case GT_A_NEXT_EXP:
    case GT_A_PREV_EXP:
        return step_experiment(u, a == GT_A_NEXT_EXP ? 1 : -1);
    case GT_A_SLOWER:
    case GT_A_FASTER:
        if (!u->rec) {
            ui_set_msg(u, true, "speed applies only when replaying a recording");
            return OUT_REDRAW;
        }
        gt_replay_set_speed(gt_replay_speed() * (a == GT_A_FASTER ? 2.0 : 0.5));
        ui_set_msg(u, false, "replay speed x%g", gt_replay_speed());
        return OUT_REDRAW;
    case GT_A_NEXT_CONFIG:
    case GT_A_PREV_CONFIG:
        if (!u->rec) {
            ui_set_msg(u, true, "n/N step through a recording's configurations (--replay)");
            return OUT_REDRAW;
        }
        return ui_step_config(u, a == GT_A_NEXT_CONFIG ? 1 : -1);
    case GT_A_EDIT: {
        const char *why;
        char allowed[200];
        if (u->pane != PANE_EXP)
            return OUT_NONE;
        if (u->following)
            return follows(u);
        if (!gt_param_applies(p, u->vals, &why)) {
            ui_set_msg(u, true, "%s applies %s", p->name, why);
            return OUT_REDRAW;
        }
        u->editing = true;
        u->edit[0] = '\0';
        ui_set_msg(u, false, "%s (%s): ", p->name, gt_param_allowed(p, allowed, sizeof allowed));
        return OUT_REDRAW;
    }
    default:
        return OUT_NONE;
    }
}
