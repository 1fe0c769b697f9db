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

    if (ui_shown(u, SCR_FOLLOW))
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
    if (u->rp.rec) {
        /* Replaying: move to the recorded configuration with that value
         * (once it is read: the nearest one is chosen from all of them). */
        char have[300], vb[48];
        int idx;
        if (ui_unread(u, u->exp, vals))
            return OUT_WAIT;
        idx = gt_recording_match(u->rp.rec, u->exp, vals, i, have, sizeof have);
        if (idx < 0) {
            ui_set_msg(u, true, "not recorded%s: %s=%s (recorded: %s)%s", u->cmp.rec ? " on A" : "",
                       p->name, gt_param_format(p, v, vb, sizeof vb), have,
                       u->cmp.rec && gt_recording_find(u->cmp.rec, u->exp, vals) >= 0 ? "; B has it" : "");
            return OUT_REDRAW;
        }
        u->rp.cfg_idx = idx;
        memcpy(u->vals, u->rp.rec->cfg[idx].vals, sizeof u->vals);
        u->msg.text[0] = '\0';
        return OUT_APPLY;
    }
    if (gt_experiment_check(u->exp, vals, &u->props, err, sizeof err)) {
        ui_set_msg(u, true, "%s", err);
        return OUT_REDRAW;
    }
    memcpy(u->vals, vals, sizeof vals);
    u->msg.text[0] = '\0';
    return OUT_APPLY;
}

/* The next (dir 1) or previous (-1) experiment, with the values it had
 * last time (its defaults at first; when replaying, its first recorded
 * configuration). */
static outcome step_experiment(ui *u, int dir)
{
    int n = gt_nexperiments;

    if (ui_shown(u, SCR_FOLLOW))
        return follows(u);
    memcpy(u->saved[u->exp_idx], u->vals, sizeof u->vals);
    for (int k = 1; k <= n; k++) {
        int i = ((u->exp_idx + dir * k) % n + n) % n;
        const gt_experiment *e = gt_experiments[i];
        if (u->rp.rec) {
            /* Its last configuration if that was recorded, else its first. */
            int c;
            if (ui_unread(u, e, u->saved[i]))
                return OUT_WAIT;
            c = gt_recording_place(u->rp.rec, e, u->saved[i]);
            if (c < 0 && (u->rp.nowhere & (1ull << i) || !u->src->bundle ||
                          u->src->bundle->n < 2 || u->cmp.rec || u->recd.w))
                continue;       /* in no recording this replay can move to */
            if (c >= 0) {
                u->rp.cfg_idx = c;
                memcpy(u->saved[i], u->rp.rec->cfg[c].vals, sizeof u->vals);
            }                   /* else another bundled recording holds it (the loop) */
        }
        if (i == u->exp_idx) {
            ui_set_msg(u, true, u->rp.rec ? "the recording holds no other experiment"
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
        u->view.sel = 0;
        ui_set_msg(u, false, "experiment %d of %d: %s", i + 1, n, e->title);
        return OUT_APPLY;
    }
    return OUT_REDRAW;
}

/* Replay: the next (dir 1) or previous (-1) recorded configuration of
 * this experiment, wrapping around. */
outcome ui_step_config(ui *u, int dir)
{
    int n = (int)u->rp.rec->ncfg;

    if (ui_shown(u, SCR_FOLLOW))
        return follows(u);
    for (int k = 1; k <= n; k++) {
        int i = ((u->rp.cfg_idx + dir * k) % n + n) % n;
        /* past the end: the configurations still to be read come first */
        if ((dir > 0 ? i <= u->rp.cfg_idx : i >= u->rp.cfg_idx) && ui_unread_all(u))
            return OUT_WAIT;
        if (u->rp.rec->cfg[i].exp == u->exp) {
            u->rp.cfg_idx = i;
            memcpy(u->vals, u->rp.rec->cfg[i].vals, sizeof u->vals);
            ui_set_msg(u, false, "recorded configuration %d of %d", i + 1, n);
            return OUT_APPLY;
        }
    }
    return OUT_REDRAW;
}

/* ---- each screen's keys: OUT_NONE hands the key to the one below ---- */

/* The editor takes every key. */
static outcome edit_key(ui *u, int ch, gt_action a)
{
    size_t n = strlen(u->editor.text);
    const gt_param *p = &u->exp->params[u->view.sel];
    char err[400];
    int64_t v;

    (void)a;
    if (ch == 27) {
        ui_close(u, SCR_EDIT);
        u->msg.text[0] = '\0';
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (n)
            u->editor.text[n - 1] = '\0';
    } else if (ch == KEY_ENTER || ch == '\n' || ch == '\r') {
        ui_close(u, SCR_EDIT);
        if (gt_param_parse(p, u->editor.text, &v, err, sizeof err)) {
            ui_set_msg(u, true, "%s", err);
            return OUT_REDRAW;
        }
        return try_value(u, u->view.sel, v);
    } else if (ch >= 32 && ch < 127 && n + 1 < sizeof u->editor.text) {
        u->editor.text[n] = (char)ch;
        u->editor.text[n + 1] = '\0';
    }
    return OUT_REDRAW;
}

/* Up and Down scroll the help; any other key but quit closes it. */
static outcome help_key(ui *u, int ch, gt_action a)
{
    (void)ch;
    if (a == GT_A_UP || a == GT_A_DOWN) {
        u->help.scroll += a == GT_A_DOWN ? 1 : -1;     /* the box clamps it */
        return OUT_REDRAW;
    }
    if (a != GT_A_QUIT) {
        ui_close(u, SCR_HELP);
        return OUT_REDRAW;
    }
    return OUT_NONE;
}

/* Up and Down scroll the calls. */
static outcome trace_key(ui *u, int ch, gt_action a)
{
    (void)ch;
    if (a != GT_A_UP && a != GT_A_DOWN)
        return OUT_NONE;
    u->calls.scroll += a == GT_A_DOWN ? 1 : u->calls.scroll > 0 ? -1 : 0;
    return OUT_REDRAW;
}

static outcome inspect_key(ui *u, int ch, gt_action a)
{
    (void)a;
    return ui_inspect_key(u, ch);
}

static outcome lessons_key(ui *u, int ch, gt_action a)
{
    (void)a;
    return ui_lessons_key(u, ch);
}

/* What each screen does with a key; the strip, the sweep's plot and
 * following have no keys of their own. */
static const struct {
    outcome (*key)(ui *u, int ch, gt_action a);
} screens[SCR_COUNT] = {
    [SCR_HELP] = {.key = help_key},
    [SCR_EDIT] = {.key = edit_key},
    [SCR_TRACE] = {.key = trace_key},
    [SCR_LESSONS] = {.key = lessons_key},
    [SCR_INSPECT] = {.key = inspect_key},
};

/* A click or the wheel: the header's "?:help" and experiment name, a
 * parameter (a click selects it, the wheel changes its value), a series
 * (the table's row, or a histogram block: 'y' explains it). */
static outcome mouse_event(ui *u)
{
    MEVENT ev = u->mouse.ev;         /* the loop took it with the key */
    bool wheel_up, wheel_down, click;

    wheel_up = ev.bstate & BUTTON4_PRESSED;
    wheel_down = ev.bstate & BUTTON5_PRESSED;
    click = ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED);
    if (ui_shown(u, SCR_HELP)) {
        u->help.scroll += wheel_down ? 1 : wheel_up ? -1 : 0;
        if (click)
            ui_close(u, SCR_HELP);
        return OUT_REDRAW;
    }
    if (ui_shown(u, SCR_INSPECT) || ui_shown(u, SCR_LESSONS) || ui_shown(u, SCR_EDIT))
        return OUT_NONE;
    if (ev.y == 0 && click) {
        if (ev.x >= u->mouse.help_x) {
                    ui_open(u, SCR_HELP);
            u->help.scroll = 0;
            return OUT_REDRAW;
        }
        if (u->mouse.exp_x >= 0 && ev.x >= u->mouse.exp_x &&
            ev.x < u->mouse.exp_x + (int)strlen(u->exp->name))
            return step_experiment(u, 1);
        return OUT_NONE;
    }
    if (!ui_shown(u, SCR_TRACE) && ev.y >= u->mouse.par_y && ev.y < u->mouse.par_y + u->mouse.par_n && ev.x >= u->mouse.par_x &&
        ev.x < u->mouse.par_x + u->mouse.par_w) {
        int i = u->mouse.par_idx[ev.y - u->mouse.par_y];
        const gt_param *p = &u->exp->params[i];
        u->view.pane = PANE_EXP;
        u->view.sel = i;
        if (wheel_up || wheel_down)
            return try_value(u, i, gt_param_step(p, u->vals[i], wheel_up ? 1 : -1));
        return OUT_REDRAW;
    }
    for (int k = 0; k < u->mouse.nhit; k++) {
        const ui_hit *h = &u->mouse.hit[k];
        if (ev.y < h->y || ev.y >= h->y + h->h || ev.x < h->x || ev.x >= h->x + h->w)
            continue;
        if (u->view.compact && (wheel_up || wheel_down)) {
            u->view.series_sel += wheel_down ? 1 : -1;    /* the table clamps it */
            return OUT_REDRAW;
        }
        if (!click)
            return OUT_NONE;
        if (u->view.compact && h->h == 1) {
            u->view.series_sel = h->series;
            u->view.pane = PANE_SERIES;
            return OUT_REDRAW;
        }
        u->view.why = h->series + 1;
        ui_set_msg(u, false, "why: %s (%d of %d; y: next, then off)",
                   u->cur.s[h->series].name, u->view.why, u->cur.nseries);
        return OUT_REDRAW;
    }
    return OUT_NONE;
}

outcome ui_handle_key(ui *u, int ch)
{
    const gt_param *p;
    gt_action a;

    if (ch == KEY_MOUSE)
        return mouse_event(u);
    if (ch == KEY_RESIZE && ui_top(u) != SCR_EDIT)
        return OUT_REDRAW;
    a = gt_key_action(translate_key(ch));
    /* The screens, from the top down. */
    for (int i = u->scr.n - 1; i >= 0; i--) {
        ui_scr s = u->scr.at[i];
        outcome o = screens[s].key ? screens[s].key(u, ch, a) : OUT_NONE;
        if (o != OUT_NONE || s == SCR_EDIT)
            return o;
    }
    /* A running lesson's own keys. */
    {
        outcome o = ui_lesson_key(u, ch);
        if (o != OUT_NONE)
            return o;
    }
    p = &u->exp->params[u->view.sel];
    switch (a) {
    case GT_A_WHY:
        u->view.why = (u->view.why + 1) % (u->cur.nseries + 1);
        if (u->view.why)
            ui_set_msg(u, false, "why: %s (%d of %d; y: next, then off)",
                       u->cur.s[u->view.why - 1].name, u->view.why, u->cur.nseries);
        else
            u->msg.text[0] = '\0';
        return OUT_REDRAW;
    case GT_A_TRACE:
        ui_toggle(u, SCR_TRACE);
        u->calls.scroll = 0;
        return OUT_REDRAW;
    case GT_A_BACK:             /* what is on top closes; with nothing, quit */
        if (ui_shown(u, SCR_TRACE)) {
            ui_close(u, SCR_TRACE);
            return OUT_REDRAW;
        }
        if (u->view.why) {
            u->view.why = 0;
            u->msg.text[0] = '\0';
            return OUT_REDRAW;
        }
        return OUT_QUIT;
    case GT_A_QUIT: return OUT_QUIT;
    case GT_A_HELP: ui_open(u, SCR_HELP); u->help.scroll = 0; return OUT_REDRAW;
    case GT_A_PAUSE: u->opt.paused = !u->opt.paused; return OUT_PAUSE;
    case GT_A_RESTART: return OUT_RESTART;
    case GT_A_CLEAR: return OUT_CLEAR;
    case GT_A_NEXT_PANE:
        u->view.pane = (u->view.pane + 1) % PANE_COUNT;
        if (u->view.pane == PANE_SERIES && !u->view.compact)
            u->view.pane = PANE_EXP;     /* the table is there only with many series */
        return OUT_REDRAW;
    case GT_A_STRIP:
        if (!u->strip.s) {
            ui_set_msg(u, true, "s: out of memory for the time strip");
            return OUT_REDRAW;
        }
        ui_toggle(u, SCR_STRIP);
        ui_set_msg(u, false, "time strip %s", ui_shown(u, SCR_STRIP) ? "on: each series' median second "
                   "by second, the last minute (s: off)" : "off");
        return OUT_REDRAW;
    case GT_A_UP:
        if (u->view.pane == PANE_SERIES) {
            if (u->view.series_sel > 0)
                u->view.series_sel--;
        } else if (u->view.pane == PANE_DEV) {
            if (u->view.dev_scroll > 0)
                u->view.dev_scroll--;
        } else {
            u->view.sel = (u->view.sel + u->exp->nparams - 1) % u->exp->nparams;
        }
        return OUT_REDRAW;
    case GT_A_DOWN:
        if (u->view.pane == PANE_SERIES)
            u->view.series_sel++;        /* the table clamps it */
        else if (u->view.pane == PANE_DEV)
            u->view.dev_scroll++;
        else
            u->view.sel = (u->view.sel + 1) % u->exp->nparams;
        return OUT_REDRAW;
    case GT_A_DEC:
    case GT_A_INC:
        if (u->view.pane != PANE_EXP)
            return OUT_NONE;
        return try_value(u, u->view.sel, gt_param_step(p, u->vals[u->view.sel], a == GT_A_INC ? 1 : -1));
    case GT_A_TOGGLE:
        if (u->view.pane != PANE_EXP)
            return OUT_NONE;
        return try_value(u, u->view.sel, gt_param_step(p, u->vals[u->view.sel], 1));
    case GT_A_EXPORT:
        return ui_export(u);
    case GT_A_INSPECT:
        return ui_inspect_open(u);
    case GT_A_LESSONS:
        return ui_lessons_open(u);
    case GT_A_SWEEP:
        return OUT_SWEEP;
    case GT_A_DEVICE:
        return ui_shown(u, SCR_FOLLOW) ? follows(u) : OUT_DEVICE;
    case GT_A_NEXT_EXP:
    case GT_A_PREV_EXP:
        return step_experiment(u, a == GT_A_NEXT_EXP ? 1 : -1);
    case GT_A_SLOWER:
    case GT_A_FASTER:
        if (!u->rp.rec) {
            ui_set_msg(u, true, "speed applies only when replaying a recording");
            return OUT_REDRAW;
        }
        gt_replay_set_speed(gt_replay_speed() * (a == GT_A_FASTER ? 2.0 : 0.5));
        ui_set_msg(u, false, "replay speed x%g", gt_replay_speed());
        return OUT_REDRAW;
    case GT_A_NEXT_CONFIG:
    case GT_A_PREV_CONFIG:
        if (!u->rp.rec) {
            ui_set_msg(u, true, "n/N step through a recording's configurations (--replay)");
            return OUT_REDRAW;
        }
        return ui_step_config(u, a == GT_A_NEXT_CONFIG ? 1 : -1);
    case GT_A_EDIT: {
        const char *why;
        char allowed[200];
        if (u->view.pane != PANE_EXP)
            return OUT_NONE;
        if (ui_shown(u, SCR_FOLLOW))
            return follows(u);
        if (!gt_param_applies(p, u->vals, &why)) {
            ui_set_msg(u, true, "%s applies %s", p->name, why);
            return OUT_REDRAW;
        }
        ui_open(u, SCR_EDIT);
        u->editor.text[0] = '\0';
        ui_set_msg(u, false, "%s (%s): ", p->name, gt_param_allowed(p, allowed, sizeof allowed));
        return OUT_REDRAW;
    }
    default:
        return OUT_NONE;
    }
}
