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

static void ui_draw_header(ui *u)
{
    char right[64];
    int st = u->st.state;

    if (u->cmp)
        ui_putf(0, 0, COLS, ui_role(u, C_HEAD), " gputui %s | COMPARE A: %s vs B: %s | %s | %s",
                GT_VERSION, u->props.name, u->cmp->props.name, u->exp->name,
                gt_state_name((gt_state)st));
    else if (u->src->bundle && u->src->bundle->n > 1)
        ui_putf(0, 0, COLS, ui_role(u, C_HEAD), " gputui %s | REPLAY recorded GPU %d of %d "
                "(d: next): %s | %s | %s", GT_VERSION, u->src->bundle_idx + 1, u->src->bundle->n,
                u->props.name, u->exp->name, gt_state_name((gt_state)st));
    else
        ui_putf(0, 0, COLS, ui_role(u, C_HEAD), " gputui %s | %sGPU %d: %s | %s | %s", GT_VERSION,
                u->rec ? "REPLAY " : "", u->props.ordinal, u->props.name, u->exp->name,
                gt_state_name((gt_state)st));
    snprintf(right, sizeof right, "?:help  q:quit ");
    ui_put(0, COLS - (int)strlen(right), (int)strlen(right), ui_role(u, C_HEAD), right);
    if (u->rec)
        ui_putf(1, 0, COLS, ui_role(u, C_WARN) | A_REVERSE | A_BOLD,
                " %s | x%g (< >)  n/N: configuration %d of %zu", u->banner, gt_replay_speed(),
                u->cfg_idx + 1, u->rec->ncfg);
    else if (u->banner[0])
        ui_putf(1, 0, COLS, ui_role(u, C_WARN) | A_REVERSE | A_BOLD, " %s", u->banner);
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
    if (u->rec)
        return;
    if (!sh->users_known && sh->users_note[0])
        snprintf(out, len, "  cannot tell whether the GPU is shared (%s)", sh->users_note);
    else if (sh->users_known && sh->foreign)
        snprintf(out, len, "  GPU also used by %s%s", sh->foreign_text,
                 sh->foreign_busy ? ", busy: samples marked disturbed" : "");
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

    if (u->editing) {
        ui_putf(y, 0, COLS, A_REVERSE, " %s%s_", u->msg, u->edit);
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
        if (u->rec && u->rec->cfg[u->cfg_idx].n) {
            /* Replay goes round the recorded samples: say which pass. */
            size_t rn = u->rec->cfg[u->cfg_idx].n;
            snprintf(left, sizeof left, " %sreplaying %zu recorded samples, pass %llu  "
                     "%llu samples", u->paused ? "PAUSED  " : "", rn,
                     (unsigned long long)(u->drained / rn + 1),
                     (unsigned long long)gt_run_count(&u->cur));
            break;
        }
        snprintf(left, sizeof left, " %s  %llu iterations  %llu samples", u->paused ? "PAUSED" :
                 gt_state_name(u->st.state), (unsigned long long)u->st.iterations,
                 (unsigned long long)gt_run_count(&u->cur));
        break;
    }
    share_text(u, left + strlen(left), sizeof left - strlen(left));
    if (u->recorder) {
        /* Recording: how far this configuration is towards --record-samples. */
        size_t n = strlen(left);
        snprintf(left + n, sizeof left - n, "  REC %llu/%lld",
                 (unsigned long long)gt_run_count(&u->cur), (long long)u->record_samples);
    }
    if (u->st.state == GT_ST_ERROR)
        ui_put(y, 0, COLS, ui_role(u, C_ERR) | A_REVERSE, left);
    else if (failed)
        ui_putf(y, 0, COLS, ui_role(u, C_ERR) | A_REVERSE, "%s  VERIFY FAILED: %llu samples", left,
             (unsigned long long)failed);
    else
        ui_put(y, 0, COLS, A_REVERSE, left);
    if (u->msg[0] && u->st.state != GT_ST_ERROR) {
        int w = (int)strlen(u->msg) + 2;
        int x = COLS - w > (int)strlen(left) + 2 ? COLS - w : (int)strlen(left) + 2;
        ui_put(y, x, COLS - x, (u->msg_err ? ui_role(u, C_ERR) : 0) | A_REVERSE, u->msg);
    }
}

static void ui_draw_help(void)
{
    int w = COLS - 8 < 76 ? COLS - 8 : 76, h = (int)GT_A_COUNT + 8;
    int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2, row;
    char keys[64];

    if (h > LINES - 2)
        h = LINES - 2, y0 = 1;
    for (int r = 0; r < h; r++)
        ui_put(y0 + r, x0, w, A_REVERSE, "");
    ui_putf(y0, x0, w, A_REVERSE | A_BOLD, "  gputui keys  (any key closes)");
    row = y0 + 2;
    for (int a = 1; a < GT_A_COUNT && row < y0 + h - 1; a++, row++)
        ui_putf(row, x0, w, A_REVERSE, "  %-22s %s", gt_action_keys((gt_action)a, keys, sizeof keys),
             gt_action_help((gt_action)a));
    row++;
    if (row < y0 + h - 1)
        ui_putf(row, x0, w, A_REVERSE, "  In the device pane Up/Down scroll; elsewhere they pick a parameter.");
}

void ui_draw(ui *u)
{
    int top, avail, dw, hy, hh;

    erase();
    if (COLS < MIN_COLS || LINES < MIN_LINES) {
        char m[128];
        snprintf(m, sizeof m, "terminal too small: %dx%d, gputui needs at least %dx%d",
                 COLS, LINES, MIN_COLS, MIN_LINES);
        mvaddnstr(LINES / 2, COLS > (int)strlen(m) ? (COLS - (int)strlen(m)) / 2 : 0, m, COLS);
        refresh();
        return;
    }
    int y0 = u->banner[0] ? 2 : 1;
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
    if (u->sweep_shown) {
        int need = u->sweep.n + 3 + (isfinite(u->sweep.mark) ? 1 : 0);
        if (avail - top < need)
            top = avail - need < 6 ? 6 : avail - need;
    }
    dw = u->lesson ? ui_lesson_width(u) : COLS >= 120 ? 42 : 34;
    ui_draw_header(u);
    if (ui_inspect_full(u)) {
        ui_draw_inspect(u, y0, avail);
        ui_draw_status(u);
        if (u->help)
            ui_draw_help();
        refresh();
        return;
    }
    if (u->inspect_shown) {
        ui_draw_inspect(u, y0, top);
    } else if (u->tracing) {
        ui_draw_trace(u, y0, 0, COLS, top);
    } else {
        if (u->lesson)
            ui_draw_lesson(u, y0, 0, dw, top);
        else
            ui_draw_device(u, y0, 0, dw, top);
        ui_draw_params(u, y0, dw + 1, COLS - dw - 1, top);
        for (int r = y0; r < y0 + top; r++)
            ui_put(r, dw, 1, ui_role(u, C_GHOST), u->utf8 ? "\u2502" : "|");
    }

    hy = y0 + top;
    hh = avail - top;
    if (u->sweep_shown)
        ui_draw_sweep(u, hy, hh);
    else
        ui_draw_histograms(u, hy, hh);
    ui_draw_status(u);
    if (u->lesson_list)
        ui_draw_lesson_list(u);
    if (u->help)
        ui_draw_help();
    refresh();
}
