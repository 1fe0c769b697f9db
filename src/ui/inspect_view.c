/* 'I': the inspection card. Live, the inspection's steps are measured one
 * after another on this screen's engine (the progress over the panes, the
 * step's histograms below), then the card takes the screen; the
 * configuration shown before comes back. Replaying, the card is built
 * from the recording's inspection with this gputui's thresholds. Up/Down
 * pick a row, Enter shows the measurement behind it. */
#include <stdlib.h>
#include <string.h>

#include "gputui/inspect/inspect_json.h"
#include "ui_priv.h"

/* Five columns: "cannot tell" is "?". */
static const char *verdict_word(gt_iverdict v)
{
    return v == GT_IV_CANNOT ? "?" : gt_iverdict_word(v);
}

static int verdict_role(gt_iverdict v)
{
    return v == GT_IV_PASS ? C_OK : v == GT_IV_WARN ? C_WARN : v == GT_IV_FAIL ? C_ERR
         : v == GT_IV_BUSY ? C_LAT : C_GHOST;
}

/* Back to what was on screen before the inspection. */
static void restore(ui *u)
{
    if (!u->ins.exp)
        return;
    ui_show_config(u, u->ins.exp, u->ins.vals);
    u->ins.exp = NULL;
    ui_apply(u, false, gt_now());
}

static void stop(ui *u, const char *why)
{
    gt_inspection_free(u->ins.run);
    u->ins.run = NULL;
    snprintf(u->ins.note, sizeof u->ins.note, "%s", why);
    restore(u);
}

/* The step the inspection is at, on screen. */
static void show_step(ui *u)
{
    const gt_experiment *e;
    int64_t vals[GT_MAX_PARAMS];

    if (gt_inspection_next(u->ins.run, &e, vals, NULL, NULL, NULL)) {
        ui_show_config(u, e, vals);
        ui_apply(u, false, gt_now());
    }
}

/* A replay's card, built again from its inspection. */
static void replay_card(ui *u)
{
    gt_thresholds *th = malloc(sizeof *th);
    gt_err err;

    gt_err_clear(&err);
    free(u->ins.card);
    u->ins.card = NULL;
    u->ins.card_rec = u->rp.rec;
    u->ins.sel = u->ins.scroll = 0;
    if (!u->rp.rec->inspection) {
        snprintf(u->ins.note, sizeof u->ins.note, "this recording holds no inspection (it was "
                 "recorded %s): gputui --inspect --record FILE on a GPU makes one",
                 u->rp.rec->minor < 4 ? "before format 1.4" : "without --inspect");
    } else if (!th || !(u->ins.card = malloc(sizeof *u->ins.card))) {
        snprintf(u->ins.note, sizeof u->ins.note, "out of memory for the card");
    } else if (gt_inspection_thresholds(th, u->src->data, &err) ||
               gt_inspection_replay(u->rp.rec->inspection, th, u->ins.card, &err)) {
        snprintf(u->ins.note, sizeof u->ins.note, "%s", err.msg);
        free(u->ins.card);
        u->ins.card = NULL;
    }
    free(th);
}

static outcome start(ui *u)
{
    gt_err err;

    gt_err_clear(&err);
    if (!u->src->live) {
        snprintf(u->ins.note, sizeof u->ins.note, "there is no GPU to inspect here");
        return OUT_REDRAW;
    }
    if (gt_inspection_start(&u->ins.run, u->src->live, &u->props, u->src->data, &err)) {
        snprintf(u->ins.note, sizeof u->ins.note, "the inspection cannot start: %s", err.msg);
        return OUT_REDRAW;
    }
    free(u->ins.card);
    u->ins.card = NULL;
    u->ins.note[0] = '\0';
    u->ins.sel = u->ins.scroll = 0;
    u->ins.exp = u->exp;
    memcpy(u->ins.vals, u->vals, sizeof u->vals);
    if (u->sw.running)
        ui_sweep_stop(u, true);
    ui_close(u, SCR_TRACE);
    show_step(u);
    return OUT_REDRAW;
}

outcome ui_inspect_open(ui *u)
{
    if (u->rp.rec && u->rp.rec->loading) {   /* the last inspection line stands */
        ui_set_msg(u, false, "reading the recording for its card; I waits for it");
        return OUT_WAIT;
    }
    ui_open(u, SCR_INSPECT);
    ui_close(u, SCR_LESSONS);
    if (u->rp.rec) {
        if (u->ins.card_rec != u->rp.rec || (!u->ins.card && !u->ins.note[0]))
            replay_card(u);
        return OUT_REDRAW;
    }
    if (u->ins.run || u->ins.card)
        return OUT_REDRAW;
    return start(u);
}

void ui_inspect_tick(ui *u)
{
    const gt_experiment *e;
    int64_t vals[GT_MAX_PARAMS];
    bool failed;
    const char *what;

    if (u->rp.rec && ui_shown(u, SCR_INSPECT) && u->ins.card_rec != u->rp.rec)
        replay_card(u);         /* 'd' moved to another recording */
    if (!u->ins.run || !gt_inspection_next(u->ins.run, &e, vals, &what, NULL, NULL))
        return;
    if (u->cur.exp != e || memcmp(u->cur.vals, vals, sizeof vals))
        return;                 /* the step's configuration is on its way */
    failed = u->st.state == GT_ST_ERROR && u->st.gen == u->cur.gen;
    if (!failed && gt_run_count(&u->cur) < GT_INSPECT_SAMPLES)
        return;
    if (gt_inspection_take(u->ins.run, failed ? NULL : &u->cur, failed ? u->st.msg : NULL, &u->st)) {
        char why[300];
        snprintf(why, sizeof why, "the inspection stopped at %s: %s", what, u->st.msg);
        stop(u, why);
        return;
    }
    if (gt_inspection_next(u->ins.run, NULL, NULL, NULL, NULL, NULL)) {
        show_step(u);
        return;
    }
    if (!(u->ins.card = malloc(sizeof *u->ins.card))) {
        stop(u, "out of memory for the card");
        return;
    }
    {
        gt_inspect_facts f;
        gt_inspection_finish(u->ins.run, &u->st, &f, u->ins.card);
        if (u->recd.w) {
            char *json = gt_inspect_json_write(&f, u->ins.card);
            if (json)
                gt_recorder_inspection(u->recd.w, json);
            free(json);
        }
    }
    gt_inspection_free(u->ins.run);
    u->ins.run = NULL;
    ui_set_msg(u, gt_inspect_status(u->ins.card) != GT_INSPECT_EXIT_PASS, "inspection done in "
               "%.1f s%s", u->ins.card->wall_s, u->recd.w ? " (recorded)" : "");
    restore(u);
}

void ui_inspect_free(ui *u)
{
    gt_inspection_free(u->ins.run);
    u->ins.run = NULL;
    free(u->ins.card);
    u->ins.card = NULL;
}

bool ui_inspect_full(const ui *u)
{
    return ui_shown(u, SCR_INSPECT) && !u->ins.run;
}

/* Enter: the row's measurement on screen (a replay: where recorded). */
static outcome show_row(ui *u)
{
    const gt_inspect_row *r = &u->ins.card->row[u->ins.sel];
    const gt_experiment *e;
    int64_t vals[GT_MAX_PARAMS];

    if (!gt_inspection_config(r->id, r->peer, &e, vals)) {
        ui_set_msg(u, true, "%s is read from the driver, not measured", r->name);
        return OUT_REDRAW;
    }
    if (ui_unread(u, e, vals))
        return OUT_WAIT;
    if (u->rp.rec && gt_recording_find(u->rp.rec, e, vals) < 0) {
        ui_set_msg(u, true, "%s: its configuration is not in this recording", r->name);
        return OUT_REDRAW;
    }
    ui_close(u, SCR_INSPECT);
    ui_show_config(u, e, vals);
    ui_set_msg(u, false, "%s: the measurement behind it (I: back to the card)", r->name);
    return OUT_APPLY;
}

outcome ui_inspect_key(ui *u, int ch)
{
    switch (ch) {
    case 27: case 'I':
        if (u->ins.run) {
            stop(u, "the inspection was stopped (I starts it again)");
            ui_set_msg(u, false, "inspection stopped");
        }
        ui_close(u, SCR_INSPECT);
        return OUT_REDRAW;
    case 'q': case 'Q': case KEY_F(10):
        return OUT_QUIT;
    case KEY_UP: case 'k':
        if (u->ins.card && u->ins.sel > 0)
            u->ins.sel--;
        return OUT_REDRAW;
    case KEY_DOWN: case 'j':
        if (u->ins.card && u->ins.sel + 1 < u->ins.card->nrows)
            u->ins.sel++;
        return OUT_REDRAW;
    case KEY_ENTER: case '\n': case '\r':
        return u->ins.card && !u->ins.run ? show_row(u) : OUT_REDRAW;
    case 'r':
        if (u->rp.rec || u->ins.run) {
            ui_set_msg(u, true, u->rp.rec ? "a recorded card cannot be measured again"
                                       : "the inspection is running");
            return OUT_REDRAW;
        }
        return start(u);
    case '?': case KEY_F(1):
        return OUT_NONE;
    case 'd':
        return u->rp.rec ? OUT_NONE : OUT_REDRAW;     /* a replay: the next GPU's card */
    default:
        return OUT_REDRAW;      /* the card has the keys while it is open */
    }
}

/* While measuring: the steps, over the panes. */
static void draw_progress(ui *u, int y, int h)
{
    int i, n, row = y;
    const char *w;

    gt_inspection_next(u->ins.run, NULL, NULL, NULL, &i, &n);
    ui_putf(row++, 0, COLS, ui_role(u, C_TITLE) | A_REVERSE, " Inspecting GPU %d: %s, step %d "
            "of %d (Esc stops)", u->props.ordinal, u->props.name, i + 1, n);
    for (int k = 0; (w = gt_inspection_step(u->ins.run, k)) && row < y + h; k++) {
        if (k < i)
            ui_putf(row++, 0, COLS, ui_role(u, C_OK), "   done      %s", w);
        else if (k == i)
            ui_putf(row++, 0, COLS, A_BOLD, "   measuring %s: %llu of %d samples%s", w,
                    (unsigned long long)gt_run_count(&u->cur), GT_INSPECT_SAMPLES,
                    u->st.state == GT_ST_SETUP ? " (setting up)" : "");
        else
            ui_putf(row++, 0, COLS, ui_role(u, C_GHOST), "             %s", w);
    }
    if (row < y + h)
        ui_wrap(row + 1, 1, COLS - 2, y + h - row - 1, ui_role(u, C_GHOST),
                "The GPU's health (link, clocks, what holds them back, temperature, power) is "
                "read every 100 ms meanwhile; the card follows the last step.");
}

static void draw_card(ui *u, int y, int h)
{
    const gt_inspect_card *c = u->ins.card;
    const gt_inspect_row *sel;
    int counts[GT_IV_BUSY + 1] = {0}, status, list, row, wn, wf, wr;
    const char *section = NULL;
    int lines[GT_INSPECT_ROWS];     /* the screen line of each row in the list */
    int nl = 0;

    for (int i = 0; i < c->nrows; i++)
        counts[c->row[i].verdict]++;
    status = gt_inspect_status(c);
    ui_putf(y, 0, COLS, ui_role(u, status == GT_INSPECT_EXIT_FAIL ? C_ERR : status ==
            GT_INSPECT_EXIT_BUSY ? C_LAT : status == GT_INSPECT_EXIT_WARN ? C_WARN : C_OK) |
            A_REVERSE | A_BOLD,
            " %s: GPU %d %s on %s, %.1f s: %d pass, %d warn, %d fail, %d cannot tell, %d busy",
            status == GT_INSPECT_EXIT_FAIL ? "FAIL" : status == GT_INSPECT_EXIT_BUSY ? "BUSY"
            : status == GT_INSPECT_EXIT_WARN ? "WARN" : "PASS", c->ordinal, c->device, c->host,
            c->wall_s, counts[GT_IV_PASS], counts[GT_IV_WARN], counts[GT_IV_FAIL],
            counts[GT_IV_CANNOT], counts[GT_IV_BUSY]);
    /* The list, scrolled to keep the selection; the selected row's
     * expectation and reason below it. */
    for (int i = 0; i < c->nrows; i++) {
        if (c->row[i].section != section) {
            section = c->row[i].section;
            nl++;
        }
        lines[i] = nl++;
    }
    list = nl < h - 6 ? nl : h - 6;     /* below it: a blank, name, expectation, */
    if (list < 3)                       /* two of reason, the keys */
        list = 3;
    if (lines[u->ins.sel] < u->ins.scroll)
        u->ins.scroll = lines[u->ins.sel] - (u->ins.sel == 0 || c->row[u->ins.sel - 1].section
                                               != c->row[u->ins.sel].section);
    if (lines[u->ins.sel] >= u->ins.scroll + list)
        u->ins.scroll = lines[u->ins.sel] - list + 1;
    if (u->ins.scroll < 0)
        u->ins.scroll = 0;
    wn = 28;
    wf = COLS >= 120 ? 34 : 22;
    wr = COLS - wn - wf - 11;
    section = NULL;
    nl = 0;
    for (int i = 0; i < c->nrows; i++) {
        const gt_inspect_row *r = &c->row[i];
        if (r->section != section) {
            section = r->section;
            if (nl >= u->ins.scroll && nl < u->ins.scroll + list)
                ui_putf(y + 1 + nl - u->ins.scroll, 0, COLS, ui_role(u, C_TITLE) | A_BOLD,
                        " %s", section);
            nl++;
        }
        if (nl >= u->ins.scroll && nl < u->ins.scroll + list) {
            int yy = y + 1 + nl - u->ins.scroll;
            attr_t a = i == u->ins.sel ? A_REVERSE : A_NORMAL;
            ui_putf(yy, 0, COLS, a, "   %-*.*s %-*.*s", wn, wn, r->name, wf, wf, r->figure);
            ui_put(yy, wn + wf + 5, 5, ui_role(u, verdict_role(r->verdict)) | A_BOLD | a,
                   verdict_word(r->verdict));
            if (wr > 8)
                ui_put(yy, wn + wf + 11, wr, ui_role(u, C_GHOST) | a, r->reason);
        }
        nl++;
    }
    sel = &c->row[u->ins.sel];
    row = y + 2 + list;
    ui_putf(row, 0, COLS, A_BOLD, " %s: %s", sel->name, sel->figure);
    row++;
    if (sel->expect[0])
        ui_putf(row++, 0, COLS, A_NORMAL, " expected %s", sel->expect);
    ui_wrap(row, 1, COLS - 2, y + h - 1 - row, ui_role(u, verdict_role(sel->verdict)),
            sel->reason);
    ui_put(y + h - 1, 0, COLS, ui_role(u, C_GHOST), u->rp.rec
           ? " Up/Down: a row  Enter: its measurement  Esc/I: close  (recorded; judged by "
             "today's thresholds)"
           : " Up/Down: a row  Enter: its measurement  r: inspect again  Esc/I: close");
}

void ui_draw_inspect(ui *u, int y, int h)
{
    for (int r = y; r < y + h; r++)
        ui_put(r, 0, COLS, A_NORMAL, "");
    if (u->ins.run) {
        draw_progress(u, y, h);
        return;
    }
    if (!u->ins.card) {
        ui_putf(y, 0, COLS, ui_role(u, C_TITLE) | A_REVERSE, " Inspection of GPU %d: %s",
                u->props.ordinal, u->props.name);
        ui_wrap(y + 2, 1, COLS - 2, h - 4, ui_role(u, C_WARN),
                u->ins.note[0] ? u->ins.note : "no card");
        ui_put(y + h - 1, 0, COLS, ui_role(u, C_GHOST), u->rp.rec ? " Esc/I: close"
               : " r: inspect  Esc/I: close");
        return;
    }
    draw_card(u, y, h);
}
