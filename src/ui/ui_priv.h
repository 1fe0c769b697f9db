/* ui_priv.h - what the files of the ncurses front end share: the UI state,
 * the colour roles, the outcome of a key, and each file's functions.
 *
 * One file per widget or concern, from the bottom up: a file calls only
 * files listed before it (tests/layers.py checks it):
 *   screen.c         drawing primitives: colour roles, put, wrap
 *   screens.c        the stack of open screens
 *   state.c          the status message; a configuration to the engine
 *   reading.c        a recording read behind the screen; keys that wait
 *   crash.c          the terminal given back when the TUI crashes
 *   term.c           the terminal opened once and closed once
 *   starting.c       the first frame, before the GPU is up
 *   device_panel.c   the device's properties
 *   param_pane.c     the experiment's parameters, set-up figures, summary,
 *                    and 'y': the headline's decomposition
 *   timeline_view.c  the streams timeline
 *   hist_block.c     the histogram blocks (now over before)
 *   sweep_view.c     'w': the sweep, its steps and its plot
 *   trace_view.c     't': the CUDA calls of the configuration
 *   lesson_view.c    'L': the lesson list, a lesson's steps and verdict
 *   inspect_view.c   'I': the inspection card, and its steps measured
 *   save_stats.c     'x': the statistics of now and before as JSON and CSV
 *   layout.c         where the widgets go; header, status line, help
 *   input.c          keys -> outcomes; parameter and experiment changes
 *   source.c         the recording placed on, the banner, 'd'
 *   follow_view.c    --follow: the teacher's configurations as they arrive
 *   loop.c           the main loop: engine wake-ups, samples, recording,
 *                    and what a key's outcome does (apply, restart, quit)
 * Drawing functions read the state and never change the configuration;
 * only the loop and what it calls (sweep and lesson ticks) reconfigure
 * the engine, through ui_apply. Nothing here calls CUDA. */
#ifndef GPUTUI_UI_PRIV_H
#define GPUTUI_UI_PRIV_H

#include <curses.h>
#include <stdio.h>

#include "gputui/input/cli.h"
#include "gputui/engine/engine.h"
#include "gputui/experiments/registry.h"
#include "gputui/inspect/card.h"
#include "gputui/inspect/inspection.h"
#include "gputui/lesson/lesson.h"
#include "gputui/record/record.h"
#include "gputui/measure/run.h"
#include "gputui/measure/strip.h"
#include "gputui/measure/sweep.h"
#include "ui/ui.h"

#define MIN_COLS 80
#define MIN_LINES 24
#define FRAME_S (1.0 / 30.0)
#define SWEEP_SAMPLES 15        /* samples per series at each value of a sweep */
#define MAX_EXPS GT_NEXPERIMENTS  /* experiments/registry.h */

enum { PANE_EXP, PANE_DEV, PANE_SERIES, PANE_COUNT };   /* series: the compact table */
enum { C_HEAD = 1, C_BW, C_LAT, C_GHOST, C_ERR, C_WARN, C_OK, C_TITLE, C_H2D, C_KERNEL, C_D2H };

/* What a key asks of the main loop. */
typedef enum { OUT_NONE, OUT_REDRAW, OUT_APPLY, OUT_RESTART, OUT_PAUSE,
               OUT_CLEAR, OUT_SWEEP, OUT_DEVICE, OUT_QUIT,
               OUT_WAIT } outcome;      /* WAIT: again once more of the recording is read */

/* A rectangle of the screen that a click on selects a series. */
typedef struct ui_hit {
    int y, x, w, h, series;
} ui_hit;

/* The screens: each is drawn over the panes while it is open, has its own
 * state below and, but for the strip, its own keys. They stand on a stack
 * (screens.c): a key goes to the screen on top first, then to those under
 * it, then to the global keys (input.c). */
typedef enum {
    SCR_HELP,       /* '?': the keys */
    SCR_EDIT,       /* 'e'/Enter on a parameter: a value typed in */
    SCR_TRACE,      /* 't': the CUDA calls of the configuration */
    SCR_LESSONS,    /* 'L': the lesson list */
    SCR_INSPECT,    /* 'I': the inspection card */
    SCR_SWEEP,      /* 'w': the sweep's plot (sw.running while it measures) */
    SCR_STRIP,      /* 's': each series' median second by second */
    SCR_FOLLOW,     /* --follow, until the recording ends: keys that change
                     * the configuration are refused */
    SCR_COUNT
} ui_scr;

typedef struct ui {
    gt_ui_source *src;          /* where samples come from; 'd' changes it */
    gt_engine *eng;
    const gt_experiment *exp;
    int exp_idx;
    int64_t vals[GT_MAX_PARAMS];
    int64_t saved[MAX_EXPS][GT_MAX_PARAMS];     /* each experiment's last values */
    gt_run cur, prev;           /* now, and before (this experiment's) */
    gt_run kept[MAX_EXPS];      /* each experiment's last run, for its return */
    gt_status st;
    gt_devprops props;
    struct {                    /* the screens open, bottom up (screens.c) */
        ui_scr at[SCR_COUNT];
        int n;
    } scr;
    struct {                    /* the panes */
        int pane, sel, dev_scroll, dev_lines;
        bool compact;           /* too many series for blocks: a table and one series */
        int series_sel, series_scroll;
        int why;                /* 'y': 0 the explanation, k: series k-1's decomposition */
    } view;
    struct {
        bool paused, color, utf8;
        bool mouse;             /* clicks and the wheel are read */
    } opt;
    struct {
        char text[400];         /* the status line's message */
        bool err;
        char fatal[600];        /* why the loop had to stop, "" if it did not */
    } msg;
    struct {                    /* --trace: key-press to first-sample latency */
        FILE *file;
        double t0;
        uint32_t gen;
    } keylog;
    struct {                    /* replaying */
        const gt_recording *rec;    /* or NULL */
        char banner[1024];      /* replaying or comparing: what, from where */
        int cfg_idx;            /* the recorded configuration shown */
        /* The bundled recordings: the experiments each is known to lack
         * (bit: the experiment's index), and those none holds. */
        uint64_t lacks[GT_BUNDLE_MAX], nowhere;
    } rp;
    struct {                    /* compare mode */
        const gt_recording *rec;    /* B, or NULL */
        gt_run run;             /* B's samples of the current configuration */
        bool have;              /* B holds the current configuration */
        char name_a[32], name_b[32];    /* "H200", "H100": the labels of A and B */
    } cmp;
    struct {                    /* what was taken from the engine, and what waits */
        uint64_t drained;       /* samples of the current configuration taken */
        uint32_t info_gen;      /* cur.info holds this generation's set-up note */
        uint32_t tl_seq;        /* of the engine's latest timeline taken */
        bool waiting;           /* ui_apply waits for its configuration to be read */
        bool restart;
        double t;               /* when the key behind what waits was read (--trace) */
        struct {                /* keys that wait for the recording (OUT_WAIT), in order */
            int ch;
            MEVENT mev;         /* a KEY_MOUSE's event */
        } keys[32];
        int nkeys;
    } sync;
    struct {                    /* --follow */
        int idx;                /* the newest configuration shown */
        char line[200];         /* "following: last sample 2 s ago" */
    } follow;
    struct {                    /* --record */
        gt_recorder *w;         /* or NULL */
        int64_t samples;        /* --record-samples, shown while recording */
        uint32_t gen, error_gen, tl_gen;
        bool warned;            /* the status line said the recording failed */
        uint32_t calls_prev_gen, calls_written;     /* the last calls written */
    } recd;
    struct {
        int scroll;
    } help;
    struct {
        char text[64];
    } editor;
    struct {                    /* 't' */
        int scroll;
        gt_trace *now, *prev;   /* this configuration's CUDA calls; the one torn down before */
        uint32_t seq, gen;      /* what they were copied at; seq 0: copy again */
    } calls;
    struct {                    /* 'L' */
        int sel;
        const gt_lesson *lesson;    /* in a lesson, else NULL */
        int step, step_cfg;     /* its step, and which of the step's configurations runs */
        gt_verdict verdict;     /* kept once given: it does not flip while samples come */
        double verdict_at;      /* when a "too close so far" was last computed */
    } les;
    struct {                    /* 'I' */
        gt_inspection *run;     /* live: the inspection being measured, NULL */
        gt_inspect_card *card;  /* the card shown (malloc'd), NULL if none yet */
        const gt_recording *card_rec;   /* replay: the recording it was built from */
        char note[300];         /* why there is no card */
        int sel, scroll;
        const gt_experiment *exp;   /* what was on screen before the inspection */
        int64_t vals[GT_MAX_PARAMS];
        const char *ecc_of;     /* the inspection ecc_recorded was read from */
        int ecc_recorded;       /* ECC as it read it (device_panel.c) */
    } ins;
    struct {                    /* 'w' */
        gt_sweep sweep;         /* the parameter being swept, and its plot */
        bool running;           /* measuring (the plot stays after) */
        int i;                  /* the value being measured */
    } sw;
    struct {
        gt_strip *s;            /* 's': each series' median second by second */
    } strip;
    struct {                    /* where a click lands */
        MEVENT ev;              /* the event of the KEY_MOUSE being handled */
        int help_x, exp_x;      /* where "?:help" and the experiment's name are */
        int par_y, par_x, par_w, par_n; /* the parameter rows: first row, columns, count */
        int par_idx[GT_MAX_PARAMS];     /* the parameter on each of those rows */
        ui_hit hit[2 * GT_MAX_SERIES];  /* histogram blocks and table rows */
        int nhit;
    } mouse;
} ui;

/* screens.c: the stack of open screens. ui_open puts s on top (from
 * wherever it stood), ui_close takes it off, ui_toggle does one or the
 * other, ui_set opens or closes; ui_shown says whether s is open, ui_top which is on top
 * (SCR_COUNT: none). */
void ui_open(ui *u, ui_scr s);
void ui_close(ui *u, ui_scr s);
bool ui_toggle(ui *u, ui_scr s);
/* Opens s where it is not open yet (where it stands otherwise), or closes it. */
void ui_set(ui *u, ui_scr s, bool on);
bool ui_shown(const ui *u, ui_scr s);
ui_scr ui_top(const ui *u);

/* screen.c: drawing primitives. Text longer than its columns is cut with
 * a mark ("…", or ">" without UTF-8: ui_screen_init says which). */
void ui_screen_init(bool utf8);
attr_t ui_role(const ui *u, int c);
void ui_fit(char *out, size_t len, const char *s, int w);
int ui_wrap_lines(int w, const char *text);     /* lines ui_wrap would take */
/* One wrapped line of s: its length in *len, and where the next starts. */
const char *ui_wrap_step(const char *s, int w, int *len);
void ui_put(int y, int x, int w, attr_t a, const char *s);
void ui_putf(int y, int x, int w, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int ui_wrap(int y, int x, int w, int maxl, attr_t a, const char *text);

/* state.c: the status line's message; the new configuration to the
 * engine, the current run becoming "before" (tkey: when the key that
 * caused it was read, for --trace). */
void ui_set_msg(ui *u, bool err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ui_apply(ui *u, bool restart, double tkey);
/* Experiment e with vals on screen (each experiment keeps its last
 * values; a replay moves to the recorded configuration): apply it next. */
void ui_show_config(ui *u, const gt_experiment *e, const int64_t *vals);
/* Compare mode: B's run of the configuration on screen, if B holds it. */
void ui_cmp_take(ui *u);
/* Replaying: every recorded sample of the configuration on screen has
 * played once (what comes after is the same again). */
bool ui_recorded_all(const ui *u);

/* reading.c: a recording read behind the screen (gt_ui_source's readers).
 * ui_reading: more is to be read (the loop must not sleep); ui_unread:
 * the configuration is not read yet (a key waits: the status line says
 * so); ui_unread_all: the same for a key that needs the whole recording
 * (a sweep, the next configuration past the last read); ui_read_tick: a
 * slice read, true when something came. */
bool ui_reading(const ui *u);
bool ui_unread(ui *u, const gt_experiment *e, const int64_t *vals);
bool ui_unread_all(ui *u);
bool ui_read_tick(ui *u);

/* layout.c: the whole screen */
void ui_draw(ui *u);

/* widgets: each draws into the rectangle it is given */
void ui_draw_device(ui *u, int y, int x, int w, int h);
void ui_draw_params(ui *u, int y, int x, int w, int h);
void ui_draw_histograms(ui *u, int hy, int hh);
void ui_draw_sweep(ui *u, int y, int h);
int ui_timeline_rows(const ui *u);
void ui_draw_timeline(ui *u, int y, int x, int w, int h);

/* input.c, save_stats.c */
outcome ui_handle_key(ui *u, int ch);
outcome ui_export(ui *u);
/* Replay: the next (dir 1) or previous (-1) recorded configuration. */
outcome ui_step_config(ui *u, int dir);

/* lesson_view.c: 'L' opens the list, which has every key while it is open;
 * a running lesson takes its own keys first (OUT_NONE: not its key); tick
 * moves a two-configuration step on and computes the verdict. */
outcome ui_lessons_open(ui *u);
outcome ui_lessons_key(ui *u, int ch);
outcome ui_lesson_key(ui *u, int ch);
outcome ui_lesson_start(ui *u, const gt_lesson *l);
void ui_lesson_tick(ui *u);
int ui_lesson_width(const ui *u);   /* columns the lesson panel takes, 0 if none */
void ui_draw_lesson(ui *u, int y, int x, int w, int h);
void ui_draw_lesson_list(ui *u);

/* inspect_view.c: 'I' opens the card (live: measures it first); the card's
 * screen takes the keys while it is open (OUT_NONE: not its key); tick moves the
 * measurement on; free at the end. */
outcome ui_inspect_open(ui *u);
outcome ui_inspect_key(ui *u, int ch);
void ui_inspect_tick(ui *u);
void ui_inspect_free(ui *u);
bool ui_inspect_full(const ui *u);  /* the finished card takes the whole body */
void ui_draw_inspect(ui *u, int y, int h);

/* follow_view.c: reads what arrived and moves to the teacher's newest
 * configuration (true: redraw); the loop's poll timeout and descriptor. */
bool ui_follow_tick(ui *u, double now);
int ui_follow_timeout(const ui *u, int timeout, int *fd);

/* term.c: curses started (once: true if it is up) and the codeset. */
bool ui_term_open(void);
bool ui_term_utf8(void);
/* crash.c: save_tty before initscr, arm after it, disarm before endwin. */
void ui_crash_save_tty(void);
void ui_crash_arm(void);
void ui_crash_disarm(void);

/* trace_view.c */
void ui_trace_refresh(ui *u);       /* the engine's traces, and --record's */
void ui_draw_trace(ui *u, int y, int x, int w, int h);

/* sweep_view.c */
outcome ui_sweep_start(ui *u, double now);
void ui_sweep_stop(ui *u, bool hide);
bool ui_sweep_tick(ui *u, double now);

/* source.c: replay placed on u->exp/u->vals, or the nearest recorded
 * configuration (false when it had to leave the one asked for); the
 * banner; 'd' (false when gputui cannot go on: u->fatal says why).
 * ui_elsewhere: whether the configuration on screen is in another bundled
 * recording than the one replayed (it lacks it, and is read that far);
 * ui_switch_device(u, true, now) moves to the one that holds it. */
bool ui_place_on_recording(ui *u);
void ui_make_banner(ui *u);
bool ui_elsewhere(const ui *u);
bool ui_switch_device(ui *u, bool seek, double now);

#endif
