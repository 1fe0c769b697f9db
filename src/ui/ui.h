/* ui.h - the ncurses front end (src/ui/; gt_ui_run is the main loop in
 * loop.c). It draws and reads keys and never calls CUDA: everything it
 * shows comes from the engine (samples, status, device properties).
 * Returns the process exit status. */
#ifndef GPUTUI_UI_H
#define GPUTUI_UI_H

#include "gputui/record/bundle.h"
#include "gputui/input/cli.h"
#include "gputui/engine/engine.h"
#include "gputui/record/record.h"

/* Where the samples come from, set up by the caller. The UI may stop and
 * restart the engine on another device ('d'): then eng, rec and
 * bundle_idx change, and the caller frees what they hold at the end. */
typedef struct gt_ui_source {
    gt_engine *eng;             /* started on the device or the recording */
    const gt_backend *live;     /* the GPU back-end when measuring, else NULL */
    gt_recording *rec;          /* what the engine replays (A), else NULL */
    const gt_bundle *bundle;    /* rec is bundle->path[bundle_idx]: 'd' steps */
    int bundle_idx;
    const char *why;            /* replaying: the banner's start, "REPLAY of X:" */
    const gt_recording *compare;/* B, drawn as the ghost; NULL but in compare mode */
    const struct gt_lesson *lessons;    /* 'L' lists them; NULL if none loaded */
    int nlessons;
    const char *lessons_why;    /* why there are none, for 'L' */
    const struct gt_lesson *start;      /* --lesson: the TUI starts in it */
    bool share_off;             /* --no-share-lock: measured without turns */
    const gt_bundle *data;      /* the bundled recordings and thresholds ('I') */
    bool inspect;               /* --inspect: the TUI opens on the card */
    struct gt_follow *follow;   /* --follow: rec grows as its writer writes, else NULL */
    gt_rec_reader *reader;              /* rec still being read behind the screen, or NULL */
    gt_rec_reader *cmp_reader;          /* the same for compare */
    const char *note;           /* said on the status line at the start, or NULL */
} gt_ui_source;

int gt_ui_run(const gt_cli *cli, gt_ui_source *src);
/* The first frame before the GPU is up: starts the engine on be's device
 * cli->device (gt_engine_begin), draws what NVML names without a context
 * and the time the context takes, until the device is open. 0: open, the
 * terminal stays up for gt_ui_run; -1: the open failed (err says why; the
 * terminal stays up, for a replay, or gt_ui_term_close before a message);
 * 1: quit ('q' or a signal), the engine stopped and the terminal closed. */
int gt_ui_starting(const gt_cli *cli, const gt_backend *be, gt_engine **eng, gt_err *err);
/* The first frame while a recording is read (the viewer): "reading WHAT". */
void gt_ui_loading(const char *what);
/* Before anything is drawn: 0 when the TUI can run here, or -1 with err
 * (GT_EXIT_USAGE) when standard output is not a terminal, TERM is unset,
 * unknown or cannot move the cursor (dumb), or there is no terminal to
 * read keys from. With keys_from_stdin and standard input not a terminal,
 * the keys are read from /dev/tty (it becomes standard input). */
int gt_ui_check_terminal(bool keys_from_stdin, gt_err *err);
/* Gives the terminal back, if the UI holds it. */
void gt_ui_term_close(void);

#endif
