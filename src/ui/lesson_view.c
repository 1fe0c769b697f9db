/* Lessons on screen: the list ('L'), and a lesson's panel in place of the
 * device panel: the step's title, what to look at, and the verdict from
 * the medians shown below it. A two-configuration step runs the first
 * until it has the samples the verdict needs, then the second, so the
 * first is the "before" of the histograms. The verdict (lesson.h) waits
 * while its interval holds the threshold, and stays once given. */
#include <string.h>

#include "ui_priv.h"

static uint64_t need(const ui *u)
{
    return gt_lesson_need(&u->les.lesson->step[u->les.step], u->rp.rec);
}

/* The step's configuration c on screen: its experiment, its values (in a
 * replay, where the recording has them), no "before" from elsewhere. */
static outcome show_config(ui *u, int c)
{
    const gt_lesson_step *st = &u->les.lesson->step[u->les.step];

    if (st->exp != u->exp || c == 0) {
        gt_run_free(&u->cur);
        gt_run_free(&u->prev);
    }
    ui_show_config(u, st->exp, st->vals[c]);
    u->view.sel = 0;
    u->les.step_cfg = c;
    memset(&u->les.verdict, 0, sizeof u->les.verdict);
    return OUT_APPLY;
}

static outcome go_step(ui *u, int step)
{
    u->les.step = step;
    ui_set_msg(u, false, "lesson %s: step %d of %d", u->les.lesson->name, step + 1,
               u->les.lesson->nsteps);
    return show_config(u, 0);
}

outcome ui_lesson_start(ui *u, const gt_lesson *l)
{
    u->les.lesson = l;
    ui_close(u, SCR_LESSONS);
    ui_close(u, SCR_TRACE);
    return go_step(u, 0);
}

/* Whether the screen still shows config c of the step (a key may have
 * changed a parameter since). */
static bool on_script(const ui *u, const gt_run *r, int c)
{
    const gt_lesson_step *st = &u->les.lesson->step[u->les.step];
    return r->exp == st->exp && !memcmp(r->vals, st->vals[c], sizeof r->vals);
}

void ui_lesson_tick(ui *u)
{
    const gt_lesson_step *st;
    gt_run *runs[GT_LESSON_CONFIGS] = {NULL, NULL};

    if (!u->les.lesson)
        return;
    st = &u->les.lesson->step[u->les.step];
    if (gt_lesson_unmet(st, &u->props, u->les.verdict.text, sizeof u->les.verdict.text)) {
        u->les.verdict.kind = GT_VERDICT_NO;        /* a claim about another kind of device */
        return;
    }
    if (!on_script(u, &u->cur, u->les.step_cfg)) {
        u->les.verdict.kind = GT_VERDICT_WAIT;
        snprintf(u->les.verdict.text, sizeof u->les.verdict.text, "the configuration was changed: "
                 "Backspace then Space/Enter sets the step again");
        return;
    }
    if (u->st.state == GT_ST_ERROR && u->st.gen == u->cur.gen) {
        u->les.verdict.kind = GT_VERDICT_CANNOT;
        snprintf(u->les.verdict.text, sizeof u->les.verdict.text, "cannot tell here: %s", u->st.msg);
        return;
    }
    if (u->les.step_cfg + 1 < st->nconfigs) {
        if (gt_run_count(&u->cur) >= need(u)) {
            show_config(u, u->les.step_cfg + 1);
            ui_apply(u, false, gt_now());       /* cur becomes "before" */
        } else {
            u->les.verdict.kind = GT_VERDICT_WAIT;
            snprintf(u->les.verdict.text, sizeof u->les.verdict.text, "measuring configuration %d of "
                     "%d: %llu of %llu samples", u->les.step_cfg + 1, st->nconfigs,
                     (unsigned long long)gt_run_count(&u->cur), (unsigned long long)need(u));
        }
        return;
    }
    /* A verdict stays once given; while the interval holds the threshold
     * it is computed again four times a second, until the samples of
     * GT_LESSON_ROUNDS rounds (live) or of the recording (replay) are in. */
    if (u->les.verdict.kind != GT_VERDICT_WAIT ||
        (u->les.verdict.more && gt_now() - u->les.verdict_at < 0.25))
        return;
    runs[u->les.step_cfg] = &u->cur;
    if (u->les.step_cfg == 1 && on_script(u, &u->prev, 0))
        runs[0] = &u->prev;
    /* Live, a case clear with room to spare (lesson.h) is judged from the
     * first GT_LESSON_FIRST samples of the running configuration; a
     * recording's from its own 'need'. */
    gt_lesson_verdict(st, runs, &u->props,
                      u->rp.rec || need(u) < GT_LESSON_FIRST ? need(u) : GT_LESSON_FIRST,
                      u->rp.rec || gt_run_count(&u->cur) >= need(u) * GT_LESSON_ROUNDS, &u->les.verdict);
    u->les.verdict_at = gt_now();
}

/* The lesson list's keys, while it is open: it has them all. */
outcome ui_lessons_key(ui *u, int ch)
{
    int n = u->src->nlessons;
    if (ch >= '1' && ch <= '9' && ch - '1' < n)
        return ui_lesson_start(u, &u->src->lessons[ch - '1']);
    switch (ch) {
    case KEY_UP: case 'k':
        u->les.sel = (u->les.sel + n - 1) % (n ? n : 1);
        return OUT_REDRAW;
    case KEY_DOWN: case 'j':
        u->les.sel = (u->les.sel + 1) % (n ? n : 1);
        return OUT_REDRAW;
    case KEY_ENTER: case '\n': case '\r': case ' ':
        if (n)
            return ui_lesson_start(u, &u->src->lessons[u->les.sel]);
        /* fall through */
    case 27: case 'L': case 'q':
        ui_close(u, SCR_LESSONS);
        return OUT_REDRAW;
    case KEY_F(10):
        return OUT_QUIT;
    default:
        return OUT_REDRAW;      /* the list has the keys while it is open */
    }
}

/* 'L': the list, unless following or there are none. */
outcome ui_lessons_open(ui *u)
{
    if (ui_shown(u, SCR_FOLLOW)) {
        ui_set_msg(u, true, "L: following the teacher's session, whose configurations a "
                   "lesson would change (gputui --lesson NAME runs one on its own)");
        return OUT_REDRAW;
    }
    if (!u->src->nlessons) {
        ui_set_msg(u, true, "L: %s", u->src->lessons_why ? u->src->lessons_why
                                                           : "no lessons loaded");
        return OUT_REDRAW;
    }
    ui_open(u, SCR_LESSONS);
    return OUT_REDRAW;
}

/* A lesson's own keys while one runs: Space/Enter, Backspace, Esc. */
outcome ui_lesson_key(ui *u, int ch)
{
    if (!u->les.lesson)
        return OUT_NONE;
    switch (ch) {
    case ' ': case KEY_ENTER: case '\n': case '\r':
        if (u->les.step + 1 < u->les.lesson->nsteps)
            return go_step(u, u->les.step + 1);
        ui_set_msg(u, false, "lesson %s: that was the last step; Esc leaves", u->les.lesson->name);
        return OUT_REDRAW;
    case KEY_BACKSPACE: case 127: case 8:
        return go_step(u, u->les.step > 0 ? u->les.step - 1 : 0);
    case 27:
        ui_set_msg(u, false, "left lesson %s; the experiment stays as it is", u->les.lesson->name);
        u->les.lesson = NULL;
        return OUT_REDRAW;
    default:
        return OUT_NONE;
    }
}

int ui_lesson_width(const ui *u)
{
    if (!u->les.lesson)
        return 0;
    return COLS >= 160 ? COLS / 2 : COLS >= 120 ? 60 : 46;
}

void ui_draw_lesson(ui *u, int y, int x, int w, int h)
{
    const gt_lesson_step *st = &u->les.lesson->step[u->les.step];
    const gt_lesson_claim *claim = gt_lesson_claim_for(st, &u->props);   /* this kind of device's */
    int row = y, end = y + h, role;

    ui_putf(row++, x, w, ui_role(u, C_TITLE) | A_REVERSE, " Lesson %s, step %d/%d",
            u->les.lesson->name, u->les.step + 1, u->les.lesson->nsteps);
    ui_putf(row++, x, w, A_BOLD, " %s", st->title);
    for (int i = 0; i < claim->nsay && row < end - 2; i++)
        row += ui_wrap(row, x + 1, w - 2, end - 2 - row, A_NORMAL, claim->say[i]);
    role = u->les.verdict.kind == GT_VERDICT_YES ? C_OK
         : u->les.verdict.kind == GT_VERDICT_NO || u->les.verdict.kind == GT_VERDICT_CLOSE ? C_WARN
         : u->les.verdict.kind == GT_VERDICT_CANNOT ? C_ERR : C_GHOST;
    if (row < end) {
        ui_putf(row++, x, w, ui_role(u, role) | A_BOLD, " VERDICT: %s",
                gt_verdict_name(u->les.verdict.kind));
        row += ui_wrap(row, x + 1, w - 2, end - row, ui_role(u, role), u->les.verdict.text);
    }
    if (row < end)
        ui_put(end - 1, x, w, ui_role(u, C_GHOST),
               " Space/Enter: next step  Backspace: back  Esc: leave");
    while (row < end - 1)
        ui_put(row++, x, w, A_NORMAL, "");
}

void ui_draw_lesson_list(ui *u)
{
    int n = u->src->nlessons, w = COLS - 8 < 110 ? COLS - 8 : 110;
    int h, y0, x0 = (COLS - w) / 2, row, need = 3, about;

    /* Each lesson: its title line, then what it is about wrapped below
     * (as many lines as the screen allows, the last one marked if cut). */
    for (int i = 0; i < n; i++)
        need += 1 + ui_wrap_lines(w - 6, u->src->lessons[i].about);
    h = need < LINES - 2 ? need : LINES - 2;
    about = n ? (h - 3 - n) / n : 0;
    /* More lessons than rows: the list scrolls to keep the selected one
     * in view, and the title says which are shown. */
    int rows = h - 3, top = 0;
    if (about <= 0 && n > rows) {
        top = u->les.sel - rows + 1 > 0 ? u->les.sel - rows + 1 : 0;
        about = 0;
    }
    y0 = (LINES - h) / 2;
    for (int r = 0; r < h; r++)
        ui_put(y0 + r, x0, w, A_REVERSE, "");
    if (top || n > rows)
        ui_putf(y0, x0, w, A_REVERSE | A_BOLD, "  Lessons %d-%d of %d  (Up/Down, Enter starts one; "
                "Esc closes)", top + 1, top + rows < n ? top + rows : n, n);
    else
        ui_putf(y0, x0, w, A_REVERSE | A_BOLD, "  Lessons  (1-9 or Up/Down + Enter starts one; "
                "Esc closes)");
    row = y0 + 2;
    for (int i = top; i < n && row < y0 + h - 1; i++) {
        const gt_lesson *l = &u->src->lessons[i];
        attr_t a = A_REVERSE | (i == u->les.sel ? A_BOLD : 0);
        ui_putf(row++, x0, w, a, " %s%d %-15s %s (%d steps)", i == u->les.sel ? ">" : " ",
                i + 1, l->name, l->title, l->nsteps);
        if (about > 0 && row < y0 + h - 1)
            row += ui_wrap(row, x0 + 5, w - 6, about < y0 + h - 1 - row ? about
                           : y0 + h - 1 - row, A_REVERSE, l->about);
    }
}
