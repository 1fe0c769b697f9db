/* The screen's layout: where the widgets go at this terminal's size, the
 * header, the status line and the help overlay (ui_draw). Reads the UI
 * state; changes nothing but the terminal. */
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gputui/input/keys.h"
#include "gputui/record/replay.h"
#include "gputui/base/units.h"
#include "ui_priv.h"

/* "NVIDIA H200" -> "H200", "NVIDIA H100 80GB HBM3" -> "H100 80GB HBM3". */
static const char *short_device(const char *name)
{
    return strncmp(name, "NVIDIA ", 7) ? name : name + 7;
}

/* The header keeps the experiment, the state and "?:help" at any width:
 * it drops, in this order, the vendor from the device name, the replay's
 * "(d: next)", the version, "q:quit", and then the device name's tail. */
static void ui_draw_header(ui *u)
{
    const char *state = gt_state_name((gt_state)u->st.state), *dev = u->props.name;
    char left[512], where[160], ver[32];
    int room;

    for (int level = 0; level < 6; level++) {
        const char *d = level >= 1 ? short_device(dev) : dev;
        bool bundle = u->src->bundle && u->src->bundle->n > 1;
        snprintf(ver, sizeof ver, " %s", level >= 3 ? "" : GT_VERSION);
        if (level >= 3)
            ver[0] = '\0';
        if (u->cmp.rec)
            snprintf(where, sizeof where, "COMPARE A: %s vs B: %s", d,
                     level >= 1 ? short_device(u->cmp.rec->props.name) : u->cmp.rec->props.name);
        else if (bundle)
            snprintf(where, sizeof where, "REPLAY recorded GPU %d of %d%s: %s",
                     u->src->bundle_idx + 1, u->src->bundle->n, level >= 2 ? "" : " (d: next)", d);
        else
            snprintf(where, sizeof where, "%sGPU %d: %s",
                     u->src->follow ? "FOLLOW " : u->rp.rec ? "REPLAY " : "", u->props.ordinal, d);
        snprintf(left, sizeof left, " gputui%s | %s | %s | %s", ver, where, u->exp->name, state);
        room = COLS - (level >= 4 ? 8 : 16);      /* "?:help " or "?:help  q:quit " */
        if ((int)strlen(left) <= room || level == 5)
            break;
    }
    if ((int)strlen(left) > room) {
        /* Still too long: the device name gives way, marked. */
        int tail = (int)strlen(u->exp->name) + (int)strlen(state) + 6;
        char head[512];
        snprintf(head, sizeof head, "%.*s", (int)(strlen(left) - (size_t)tail), left);
        ui_fit(where, sizeof where, head, room - tail > 4 ? room - tail : 4);
        snprintf(left, sizeof left, "%s | %s | %s", where, u->exp->name, state);
    }
    ui_put(0, 0, COLS, ui_role(u, C_HEAD), left);
    ui_put(0, COLS - room <= 8 ? COLS - 8 : COLS - 16, COLS - room <= 8 ? 8 : 16,
           ui_role(u, C_HEAD), COLS - room <= 8 ? "?:help  " : " ?:help  q:quit ");
    u->mouse.help_x = COLS - room <= 8 ? COLS - 8 : COLS - 15;
    u->mouse.exp_x = (int)(strstr(left, u->exp->name) ? strstr(left, u->exp->name) - left : -1);
    if (u->src->follow)
        ui_putf(1, 0, COLS, ui_role(u, C_WARN) | A_REVERSE | A_BOLD,
                " %s | configuration %d of %zu | %s", u->follow.line, u->rp.cfg_idx + 1,
                u->rp.rec->ncfg, u->rp.banner);
    else if (u->rp.rec) {
        /* +: more to read. The last column stays blank: a text that
         * fills the line is then cut with its mark, never taken for cut. */
        ui_putf(1, 0, COLS - 1, ui_role(u, C_WARN) | A_REVERSE | A_BOLD,
                " %s | x%g (< >)  n/N: configuration %d of %zu%s", u->rp.banner, gt_replay_speed(),
                u->rp.cfg_idx + 1, u->rp.rec->ncfg, u->rp.rec->loading ? "+" : "");
        ui_put(1, COLS - 1, 1, ui_role(u, C_WARN) | A_REVERSE | A_BOLD, " ");
    }
    else if (u->rp.banner[0])
        ui_putf(1, 0, COLS, ui_role(u, C_WARN) | A_REVERSE | A_BOLD, " %s", u->rp.banner);
}

/* Who else uses the GPU: other programs the driver names, and the gputui
 * processes this one takes turns with (engine.h): who holds the turn
 * while this one waits, or how many share it and what that costs. */
/* A user's name (the password database is read once per uid). */
static const char *user_name(unsigned uid)
{
    static unsigned last = ~0u;
    static char name[64];
    char buf[1024];
    struct passwd pw, *found = NULL;

    if (uid != last) {
        if (getpwuid_r((uid_t)uid, &pw, buf, sizeof buf, &found) || !found)
            snprintf(name, sizeof name, "uid %u", uid);
        else
            snprintf(name, sizeof name, "%s", pw.pw_name);
        last = uid;
    }
    return name;
}

static void share_text(ui *u, char *out, size_t len)
{
    const gt_share_status *sh = &u->st.share;
    size_t n;

    out[0] = '\0';
    if (u->rp.rec)
        return;
    if (!sh->users_known && sh->users_note[0])
        snprintf(out, len, "  cannot tell whether the GPU is shared (%s)", sh->users_note);
    else if (sh->users_known && sh->foreign) {
        char doing[96];
        snprintf(out, len, "  GPU also used by %s, %s%s", sh->foreign_text,
                 gt_share_foreign_doing(sh, doing, sizeof doing),
                 sh->foreign_busy || sh->foreign_moving || sh->cannot_tell
                     ? ": samples marked disturbed" : "");
    }
    else if (sh->users_known && sh->users_note[0])
        snprintf(out, len, "  %s", sh->users_note);
    n = strlen(out);
    out += n;
    len -= n;
    if (!sh->on)
        return;
    if (sh->waiting) {
        if (sh->holder_pid > 0)
            snprintf(out, len, "  waiting for GPU %d: held by pid %d (user %s) for %.0f s",
                     u->props.ordinal, sh->holder_pid, user_name(sh->holder_uid),
                     sh->holder_since > 0 ? fmax(0, (double)time(NULL) - sh->holder_since) : 0.0);
        else
            snprintf(out, len, "  waiting for GPU %d", u->props.ordinal);
        return;
    }
    if (sh->others > 0 && sh->turns)
        snprintf(out, len, "  GPU shared with %d other gputui (waited %.2f ms a sample)",
                 sh->others, sh->waited / (double)sh->turns * 1e3);
    if (sh->timeouts) {
        n = strlen(out);
        snprintf(out + n, len - n, "  %llu iterations ran without their turn (disturbed)",
                 (unsigned long long)sh->timeouts);
    }
}

static void ui_draw_status(ui *u)
{
    int y = LINES - 1;
    char left[256], t[32];
    double el = gt_now() - u->st.since;
    uint64_t failed = gt_run_failed(&u->cur);

    if (ui_shown(u, SCR_EDIT)) {
        ui_putf(y, 0, COLS, A_REVERSE, " %s%s_", u->msg.text, u->editor.text);
        return;
    }
    switch (u->st.state) {
    case GT_ST_SETUP:
        snprintf(left, sizeof left, " SETUP: allocating and filling buffers... %s",
                 gt_format_seconds(el, t, sizeof t));
        break;
    case GT_ST_WARMUP:
        snprintf(left, sizeof left, " WARM-UP %d/%d", u->st.warmup_done, u->st.warmup_total);
        break;
    case GT_ST_ERROR:
        snprintf(left, sizeof left, " ERROR: %s", u->st.msg);
        break;
    case GT_ST_DONE:
        snprintf(left, sizeof left, " no samples were recorded for this configuration; "
                 "n: the next one");
        break;
    default:
        if (u->rp.rec && u->rp.rec->cfg[u->rp.cfg_idx].n) {
            /* Replay goes round the recorded samples: which pass, and the
             * figures are of each sample once. */
            const gt_rec_config *c = &u->rp.rec->cfg[u->rp.cfg_idx];
            unsigned long long pass = u->sync.drained / c->n + 1;
            char unkept[64] = "";
            if (c->unkept)
                snprintf(unkept, sizeof unkept, "  (%llu more read, not kept)",
                         (unsigned long long)c->unkept);
            snprintf(left, sizeof left, " %sreplaying %zu recorded samples, pass %llu%s  %llu "
                     "samples%s", u->opt.paused ? "PAUSED  " : "", c->n, pass,
                     pass > 1 ? " (the same)" : "", (unsigned long long)gt_run_count(&u->cur),
                     unkept);
            break;
        }
        snprintf(left, sizeof left, " %s  %llu iterations  %llu samples", u->opt.paused ? "PAUSED" :
                 gt_state_name(u->st.state), (unsigned long long)u->st.iterations,
                 (unsigned long long)gt_run_count(&u->cur));
        break;
    }
    share_text(u, left + strlen(left), sizeof left - strlen(left));
    if (u->recd.w) {
        /* Recording: how far this configuration is towards --record-samples. */
        size_t n = strlen(left);
        snprintf(left + n, sizeof left - n, "  REC %llu/%lld",
                 (unsigned long long)gt_run_count(&u->cur), (long long)u->recd.samples);
    }
    if (u->st.state == GT_ST_ERROR)
        ui_put(y, 0, COLS, ui_role(u, C_ERR) | A_REVERSE, left);
    else if (failed)
        ui_putf(y, 0, COLS, ui_role(u, C_ERR) | A_REVERSE, "%s  VERIFY FAILED: %llu samples", left,
             (unsigned long long)failed);
    else
        ui_put(y, 0, COLS, A_REVERSE, left);
    if (u->msg.text[0] && u->st.state != GT_ST_ERROR) {
        /* At the right end; where the line is too short for both, a
         * refusal (what the last key could not do) that fits the line
         * covers the end of the state, and any other message follows the
         * state, cut short. */
        int w = (int)strlen(u->msg.text) + 2, end = (int)strlen(left) + 2;
        int x = COLS - w > end || (u->msg.err && COLS - w >= 0) ? COLS - w : end;
        if (x < end) {
            ui_put(y, x, 2, A_REVERSE, "  ");
            x += 2;
        }
        ui_put(y, x, COLS - x, (u->msg.err ? ui_role(u, C_ERR) : 0) | A_REVERSE, u->msg.text);
    }
}

/* The help overlay: every key and what it does, the text wrapped in the
 * box; Up/Down scroll when the box cannot hold them all. */
static void ui_draw_help(ui *u)
{
    enum { KEYW = 24, MAXL = 128 };
    static const char tail[] = "In the device pane Up/Down scroll; elsewhere they pick a "
                               "parameter. A click picks a parameter, the wheel changes it.";
    int w = COLS - 4 < 100 ? COLS - 4 : 100, x0 = (COLS - w) / 2, tw = w - KEYW - 4;
    int n = 0, h, y0, shown;
    struct { int a; const char *s; int len; } line[MAXL];
    char keys[64];

    /* Every line of the box: a key's first line names its keys. */
    for (int a = 1; a < GT_A_COUNT; a++)
        for (const char *t = gt_action_help((gt_action)a), *next; *t && n < MAXL - 4; t = next) {
            next = ui_wrap_step(t, tw, &line[n].len);
            line[n].a = t == gt_action_help((gt_action)a) ? a : 0;
            line[n++].s = t;
        }
    line[n].a = -1;
    line[n].s = "";
    line[n++].len = 0;
    for (const char *t = tail, *next; *t && n < MAXL; t = next) {
        next = ui_wrap_step(t, w - 4, &line[n].len);
        line[n].a = -1;
        line[n++].s = t;
    }
    h = n + 3 < LINES - 2 ? n + 3 : LINES - 2;
    shown = h - 3;
    if (u->help.scroll > n - shown)
        u->help.scroll = n - shown;
    if (u->help.scroll < 0)
        u->help.scroll = 0;
    y0 = (LINES - h) / 2;
    for (int r = 0; r < h; r++)
        ui_put(y0 + r, x0, w, A_REVERSE, "");
    ui_putf(y0, x0, w, A_REVERSE | A_BOLD, "  gputui keys  (%sany other key closes)",
            shown < n ? "Up/Down: more; " : "");
    for (int k = 0; k < shown && u->help.scroll + k < n; k++) {
        int i = u->help.scroll + k, y = y0 + 2 + k;
        char text[256];
        snprintf(text, sizeof text, "%.*s", line[i].len, line[i].s);
        if (line[i].a < 0) {
            ui_put(y, x0 + 2, w - 4, A_REVERSE, text);
            continue;
        }
        if (line[i].a > 0)
            ui_putf(y, x0 + 2, KEYW, A_REVERSE, "%s", gt_action_keys((gt_action)line[i].a,
                                                                    keys, sizeof keys));
        ui_put(y, x0 + 2 + KEYW, tw, A_REVERSE, text);
    }
}

/* Where each screen draws: over the panes, over the histograms, or over
 * everything (the help and the lesson list, each a box of its own). The
 * editor draws in the status line, the strip inside the histograms and
 * following in the banner, each where the panes draw them. */
enum { AREA_NONE, AREA_PANES, AREA_FIGURES, AREA_OVER };

static void draw_trace(ui *u, int y, int h)
{
    ui_draw_trace(u, y, 0, COLS, h);
}

static void draw_lesson_list(ui *u, int y, int h)
{
    (void)y, (void)h;
    ui_draw_lesson_list(u);
}

static void draw_help(ui *u, int y, int h)
{
    (void)y, (void)h;
    ui_draw_help(u);
}

static const struct {
    int area;
    void (*draw)(ui *u, int y, int h);
} areas[SCR_COUNT] = {
    [SCR_HELP] = {.area = AREA_OVER, .draw = draw_help},
    [SCR_TRACE] = {.area = AREA_PANES, .draw = draw_trace},
    [SCR_LESSONS] = {.area = AREA_OVER, .draw = draw_lesson_list},
    [SCR_INSPECT] = {.area = AREA_PANES, .draw = ui_draw_inspect},
    [SCR_SWEEP] = {.area = AREA_FIGURES, .draw = ui_draw_sweep},
};

/* The open screen highest on the stack that draws in area; SCR_COUNT: none. */
static ui_scr topmost(const ui *u, int area)
{
    for (int i = u->scr.n - 1; i >= 0; i--)
        if (areas[u->scr.at[i]].area == area)
            return u->scr.at[i];
    return SCR_COUNT;
}

/* The boxes over everything, bottom up. */
static void draw_over(ui *u)
{
    for (int i = 0; i < u->scr.n; i++)
        if (areas[u->scr.at[i]].area == AREA_OVER)
            areas[u->scr.at[i]].draw(u, 0, LINES);
}

void ui_draw(ui *u)
{
    int top, avail, dw, hy, hh;
    ui_scr s;

    erase();
    if (COLS < MIN_COLS || LINES < MIN_LINES) {
        char m[128];
        snprintf(m, sizeof m, "terminal too small: %dx%d, gputui needs at least %dx%d",
                 COLS, LINES, MIN_COLS, MIN_LINES);
        mvaddnstr(LINES / 2, COLS > (int)strlen(m) ? (COLS - (int)strlen(m)) / 2 : 0, m, COLS);
        refresh();
        return;
    }
    int y0 = u->rp.banner[0] ? 2 : 1;
    avail = LINES - 1 - y0;
    top = avail / 2 - 1;
    if (top < 10)
        top = 10;
    if (top > 20)
        top = 20;
    /* Two rows of histograms on a small terminal: give them the room. */
    if (LINES < 30 && (gt_experiment_bandwidth(u->exp, u->vals) ? 2 * u->cur.nseries : u->cur.nseries) > 2)
        top = 8;
    /* A sweep plot takes what it needs, down to six rows of panes. */
    if (ui_shown(u, SCR_SWEEP)) {
        int need = u->sw.sweep.n + 3 + (isfinite(u->sw.sweep.mark) ? 1 : 0);
        if (avail - top < need)
            top = avail - need < 6 ? 6 : avail - need;
    }
    dw = u->les.lesson ? ui_lesson_width(u) : COLS >= 120 ? 42 : 34;
    ui_draw_header(u);
    if (ui_inspect_full(u)) {   /* the card's steps being measured: all of it */
        ui_draw_inspect(u, y0, avail);
        ui_draw_status(u);
        draw_over(u);
        refresh();
        return;
    }
    s = topmost(u, AREA_PANES);
    if (s != SCR_COUNT) {
        areas[s].draw(u, y0, top);
    } else {
        if (u->les.lesson)
            ui_draw_lesson(u, y0, 0, dw, top);
        else    /* a blank column before the separator: a value that fills the
                 * pane reads as whole, one cut short ends in its mark */
            ui_draw_device(u, y0, 0, dw - 1, top);
        ui_draw_params(u, y0, dw + 1, COLS - dw - 1, top);
        for (int r = y0; r < y0 + top; r++)
            ui_put(r, dw, 1, ui_role(u, C_GHOST), u->opt.utf8 ? "\u2502" : "|");
    }

    hy = y0 + top;
    hh = avail - top;
    s = topmost(u, AREA_FIGURES);
    if (s != SCR_COUNT)
        areas[s].draw(u, hy, hh);
    else
        ui_draw_histograms(u, hy, hh);
    ui_draw_status(u);
    draw_over(u);
    refresh();
}
