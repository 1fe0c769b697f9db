/* The ncurses front end: device panel, experiment pane, live histograms
 * (current configuration against the previous one), status line, help
 * overlay. Key handlers only change UI state and return what should
 * happen; the main loop alone redraws, reconfigures, restarts or quits. */
#include "gputui/ui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gputui/keys.h"
#include "gputui/report.h"
#include "gputui/replay.h"
#include "gputui/run.h"
#include "gputui/signals.h"
#include "gputui/sweep.h"
#include "gputui/units.h"

#define MIN_COLS 80
#define MIN_LINES 24
#define FRAME_S (1.0 / 30.0)
#define MAX_BINS 256
#define REPLAY_DWELL_S 8.0      /* a played-out configuration stays this long */
#define SWEEP_SAMPLES 15        /* samples per series at each value of a sweep */

enum { PANE_EXP, PANE_DEV, PANE_COUNT };
enum { C_HEAD = 1, C_BW, C_LAT, C_GHOST, C_ERR, C_WARN, C_OK, C_TITLE, C_H2D, C_KERNEL, C_D2H };

typedef enum { OUT_NONE, OUT_REDRAW, OUT_APPLY, OUT_RESTART, OUT_PAUSE,
               OUT_CLEAR, OUT_SWEEP, OUT_QUIT } outcome;

#define MAX_EXPS 16

typedef struct ui {
    gt_engine *eng;
    const gt_experiment *exp;
    int exp_idx;
    int64_t vals[GT_MAX_PARAMS];
    int64_t saved[MAX_EXPS][GT_MAX_PARAMS];     /* each experiment's last values */
    gt_run cur, prev;
    gt_status st;
    gt_devprops props;
    int pane, sel, dev_scroll, dev_lines;
    bool help, paused, color, utf8;
    bool editing;
    char edit[64];
    char msg[400];
    bool msg_err;
    FILE *trace;
    double trace_t0;
    uint32_t trace_gen;
    const gt_recording *rec;    /* replaying, or NULL */
    const char *banner;
    int cfg_idx;                /* replay: the recorded configuration shown */
    double done_since;          /* replay: when it played out, 0 = not yet */
    gt_recorder *recorder;      /* --record, or NULL */
    uint32_t recorded_gen, error_gen, recorded_tl_gen;
    uint32_t tl_seq;            /* of the engine's latest timeline taken */
    gt_sweep sweep;             /* 'w': the parameter being swept, and its plot */
    bool sweeping, sweep_shown;
    int sweep_i;                /* the value being measured */
} ui;

/* ---- small helpers ---- */

static attr_t role(const ui *u, int c)
{
    if (u->color)
        return COLOR_PAIR(c) | (c == C_ERR || c == C_TITLE ? A_BOLD : 0);
    switch (c) {
    case C_HEAD: return A_REVERSE;
    case C_BW: case C_LAT: case C_ERR: case C_TITLE: return A_BOLD;
    case C_GHOST: return A_DIM;
    default: return A_NORMAL;
    }
}

static void set_msg(ui *u, bool err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_msg(ui *u, bool err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(u->msg, sizeof u->msg, fmt, ap);
    va_end(ap);
    u->msg_err = err;
}

/* Writes s at (y, x) in exactly w columns: cut or padded with spaces.
 * Counts columns, not bytes, so UTF-8 glyphs (one column each) fit. */
static void put(int y, int x, int w, attr_t a, const char *s)
{
    char buf[1024];
    size_t o = 0;
    int cols = 0;

    if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
        return;
    if (x + w > COLS)
        w = COLS - x;
    while (*s && cols < w && o + 8 < sizeof buf) {
        int len = 1;
        unsigned char c = (unsigned char)*s;
        if (c >= 0xF0) len = 4;
        else if (c >= 0xE0) len = 3;
        else if (c >= 0xC0) len = 2;
        for (int i = 0; i < len && s[i]; i++)
            buf[o++] = s[i];
        s += len;
        cols++;
    }
    while (cols < w && o + 1 < sizeof buf) {
        buf[o++] = ' ';
        cols++;
    }
    buf[o] = '\0';
    attron(a);
    mvaddstr(y, x, buf);
    attroff(a);
}

static void putf(int y, int x, int w, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void putf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(y, x, w, a, buf);
}

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
    default: return ch;
    }
}

/* ---- parameter changes ---- */

/* Validates a new value of parameter i and, when it is good, takes it. */
static outcome try_value(ui *u, int i, int64_t v)
{
    int64_t vals[GT_MAX_PARAMS];
    const gt_param *p = &u->exp->params[i];
    const char *why;
    char err[400];

    if (!gt_param_applies(p, u->vals, &why)) {
        set_msg(u, true, "%s applies %s", p->name, why);
        return OUT_REDRAW;
    }
    if (gt_param_check(p, v, err, sizeof err)) {
        set_msg(u, true, "%s", err);
        return OUT_REDRAW;
    }
    memcpy(vals, u->vals, sizeof vals);
    vals[i] = v;
    if (vals[i] == u->vals[i])
        return OUT_REDRAW;
    if (u->rec) {
        /* Replaying: move to the recorded configuration with that value. */
        char have[300], vb[48];
        int idx = gt_recording_match(u->rec, u->exp, vals, i, have, sizeof have);
        if (idx < 0) {
            set_msg(u, true, "the recording has no configuration with %s=%s (recorded: %s)",
                    p->name, gt_param_format(p, v, vb, sizeof vb), have);
            return OUT_REDRAW;
        }
        u->cfg_idx = idx;
        memcpy(u->vals, u->rec->cfg[idx].vals, sizeof u->vals);
        u->msg[0] = '\0';
        return OUT_APPLY;
    }
    if (gt_experiment_check(u->exp, vals, &u->props, err, sizeof err)) {
        set_msg(u, true, "%s", err);
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

    memcpy(u->saved[u->exp_idx], u->vals, sizeof u->vals);
    for (int k = 1; k <= n; k++) {
        int i = ((u->exp_idx + dir * k) % n + n) % n;
        const gt_experiment *e = gt_experiments[i];
        if (u->rec) {
            size_t c = 0;
            while (c < u->rec->ncfg && u->rec->cfg[c].exp != e)
                c++;
            if (c == u->rec->ncfg)
                continue;       /* not in this recording */
            u->cfg_idx = (int)c;
            memcpy(u->saved[i], u->rec->cfg[c].vals, sizeof u->vals);
        }
        if (i == u->exp_idx) {
            set_msg(u, true, u->rec ? "the recording holds no other experiment"
                                    : "there is no other experiment");
            return OUT_REDRAW;
        }
        u->exp_idx = i;
        u->exp = e;
        memcpy(u->vals, u->saved[i], sizeof u->vals);
        u->sel = 0;
        set_msg(u, false, "experiment %d of %d: %s", i + 1, n, e->title);
        return OUT_APPLY;
    }
    return OUT_REDRAW;
}

/* Writes the current and the previous run's statistics as JSON and CSV
 * into the working directory; the status line names the files. */
static outcome export_stats(ui *u)
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
        set_msg(u, true, "nothing to export yet: no samples");
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
            set_msg(u, true, "cannot write %s: %s", path[i], strerror(errno));
    }
    if (has_prev)
        u->prev = runs[0];
    if (has_cur)
        u->cur = runs[has_prev ? 1 : 0];
    if (rc)
        return OUT_REDRAW;
    set_msg(u, false, "exported %d run%s to %s and %s", n, n > 1 ? "s" : "", path[0], path[1]);
    return OUT_REDRAW;
}

/* Replay: the next (dir 1) or previous (-1) recorded configuration of
 * this experiment, wrapping around. */
static outcome step_config(ui *u, int dir)
{
    int n = (int)u->rec->ncfg;

    for (int k = 1; k <= n; k++) {
        int i = ((u->cfg_idx + dir * k) % n + n) % n;
        if (u->rec->cfg[i].exp == u->exp) {
            u->cfg_idx = i;
            memcpy(u->vals, u->rec->cfg[i].vals, sizeof u->vals);
            set_msg(u, false, "recorded configuration %d of %d", i + 1, n);
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
            set_msg(u, true, "%s", err);
            return OUT_REDRAW;
        }
        return try_value(u, u->sel, v);
    } else if (ch >= 32 && ch < 127 && n + 1 < sizeof u->edit) {
        u->edit[n] = (char)ch;
        u->edit[n + 1] = '\0';
    }
    return OUT_REDRAW;
}

static outcome handle_key(ui *u, int ch)
{
    const gt_param *p;

    if (u->editing)
        return edit_key(u, ch);
    if (ch == KEY_RESIZE)
        return OUT_REDRAW;
    gt_action a = gt_key_action(translate_key(ch));
    if (u->help && a != GT_A_QUIT) {
        u->help = false;          /* any key closes the help */
        return OUT_REDRAW;
    }
    p = &u->exp->params[u->sel];
    switch (a) {
    case GT_A_QUIT: return OUT_QUIT;
    case GT_A_HELP: u->help = true; return OUT_REDRAW;
    case GT_A_PAUSE: u->paused = !u->paused; return OUT_PAUSE;
    case GT_A_RESTART: return OUT_RESTART;
    case GT_A_CLEAR: return OUT_CLEAR;
    case GT_A_NEXT_PANE: u->pane = (u->pane + 1) % PANE_COUNT; return OUT_REDRAW;
    case GT_A_UP:
        if (u->pane == PANE_DEV) {
            if (u->dev_scroll > 0)
                u->dev_scroll--;
        } else {
            u->sel = (u->sel + u->exp->nparams - 1) % u->exp->nparams;
        }
        return OUT_REDRAW;
    case GT_A_DOWN:
        if (u->pane == PANE_DEV)
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
        return export_stats(u);
    case GT_A_SWEEP:
        return OUT_SWEEP;
    case GT_A_NEXT_EXP:
    case GT_A_PREV_EXP:
        return step_experiment(u, a == GT_A_NEXT_EXP ? 1 : -1);
    case GT_A_SLOWER:
    case GT_A_FASTER:
        if (!u->rec) {
            set_msg(u, true, "speed applies only when replaying a recording");
            return OUT_REDRAW;
        }
        gt_replay_set_speed(gt_replay_speed() * (a == GT_A_FASTER ? 2.0 : 0.5));
        set_msg(u, false, "replay speed x%g", gt_replay_speed());
        return OUT_REDRAW;
    case GT_A_NEXT_CONFIG:
    case GT_A_PREV_CONFIG:
        if (!u->rec) {
            set_msg(u, true, "n/N step through a recording's configurations (--replay)");
            return OUT_REDRAW;
        }
        return step_config(u, a == GT_A_NEXT_CONFIG ? 1 : -1);
    case GT_A_EDIT: {
        const char *why;
        char allowed[200];
        if (u->pane != PANE_EXP)
            return OUT_NONE;
        if (!gt_param_applies(p, u->vals, &why)) {
            set_msg(u, true, "%s applies %s", p->name, why);
            return OUT_REDRAW;
        }
        u->editing = true;
        u->edit[0] = '\0';
        set_msg(u, false, "%s (%s): ", p->name, gt_param_allowed(p, allowed, sizeof allowed));
        return OUT_REDRAW;
    }
    default:
        return OUT_NONE;
    }
}

/* ---- drawing ---- */

static void draw_header(ui *u)
{
    char right[64];
    int st = u->st.state;

    putf(0, 0, COLS, role(u, C_HEAD), " gputui %s | %sGPU %d: %s | %s | %s", GT_VERSION,
         u->rec ? "REPLAY " : "", u->props.ordinal, u->props.name, u->exp->name,
         gt_state_name((gt_state)st));
    snprintf(right, sizeof right, "?:help  q:quit ");
    put(0, COLS - (int)strlen(right), (int)strlen(right), role(u, C_HEAD), right);
    if (u->banner)
        putf(1, 0, COLS, role(u, C_WARN) | A_REVERSE | A_BOLD, " %s | x%g (< >)  n/N: configuration %d of %zu",
             u->banner, gt_replay_speed(), u->cfg_idx + 1, u->rec->ncfg);
}

typedef struct devline { char label[32]; char value[64]; } devline;

static int device_lines(const ui *u, devline *out, int max)
{
    const gt_devprops *p = &u->props;
    int n = 0;
    char a[48], b[48];

#define LINE(l, ...) do { if (n < max) { snprintf(out[n].label, sizeof out[n].label, "%s", l); \
        snprintf(out[n].value, sizeof out[n].value, __VA_ARGS__); n++; } } while (0)
    LINE("Name", "%s", p->name);
    LINE("PCI bus", "%s", p->pci_bus_id[0] ? p->pci_bus_id : "N/A");
    for (int i = 0; i < GT_DP_COUNT; i++) {
        const gt_dp_desc *d = &gt_dp_table[i];
        if (!d->label[0])
            continue;           /* shown with the line before it */
        gt_dp_format(p, (gt_dp_id)i, a, sizeof a);
        if (i + 1 < GT_DP_COUNT && !gt_dp_table[i + 1].label[0])
            LINE(d->label, "%s / %s", a, gt_dp_format(p, (gt_dp_id)(i + 1), b, sizeof b));
        else
            LINE(d->label, "%s", a);
        if (i == GT_DP_DRIVER_CUDA)
            LINE("Driver", "%s", p->driver[0] ? p->driver : "N/A");
    }
    if (p->nvml_note[0])
        LINE("NVML", "%s", p->nvml_note);
#undef LINE
    return n;
}

static void draw_device(ui *u, int y, int x, int w, int h)
{
    devline lines[48];
    int n = device_lines(u, lines, 48);
    attr_t t = role(u, C_TITLE) | (u->pane == PANE_DEV ? A_REVERSE : 0);

    u->dev_lines = n;
    if (u->dev_scroll > n - (h - 1))
        u->dev_scroll = n - (h - 1) > 0 ? n - (h - 1) : 0;
    putf(y, x, w, t, " Device%s", n > h - 1 ? "  (Tab, Up/Down: scroll)" : "");
    for (int i = 0; i < h - 1; i++) {
        int k = i + u->dev_scroll;
        if (k >= n) {
            put(y + 1 + i, x, w, A_NORMAL, "");
            continue;
        }
        bool na = !strcmp(lines[k].value, "N/A");
        int lw = 21;
        put(y + 1 + i, x, lw, A_NORMAL, lines[k].label);
        put(y + 1 + i, x + lw, w - lw, na ? role(u, C_GHOST) : A_BOLD, lines[k].value);
    }
}

/* Word-wraps text into at most maxl lines of width w at (y, x). */
static int wrap(int y, int x, int w, int maxl, attr_t a, const char *text)
{
    int lines = 0;
    const char *s = text;

    while (*s && lines < maxl && w > 8) {
        int len = (int)strlen(s), cut = len;
        if (len > w) {
            cut = w;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = w;
        }
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", cut, s);
        put(y + lines, x, w, a, buf);
        lines++;
        s += cut;
        while (*s == ' ')
            s++;
    }
    return lines;
}

static void draw_experiment(ui *u, int y, int x, int w, int h)
{
    const gt_experiment *e = u->exp;
    attr_t t = role(u, C_TITLE) | (u->pane == PANE_EXP ? A_REVERSE : 0);
    int row = y + 1, end = y + h;
    char v[64], tbuf[32];

    putf(y, x, w, t, " Experiment: %s", e->title);
    for (int i = 0; i < e->nparams && row < end; i++, row++) {
        const gt_param *p = &e->params[i];
        const char *why;
        bool ok = gt_param_applies(p, u->vals, &why);
        bool sel = i == u->sel && u->pane == PANE_EXP;
        attr_t a = (ok ? A_NORMAL : role(u, C_GHOST)) | (sel ? A_REVERSE : 0);

        gt_param_format(p, u->vals[i], v, sizeof v);
        if (p->type == GT_P_SIZE && !(p->zero_name && u->vals[i] == 0)) {
            char pretty[32];
            snprintf(v, sizeof v, "%s", gt_format_size((uint64_t)u->vals[i], pretty, sizeof pretty));
        }
        if (p->type == GT_P_BOOL)
            snprintf(v, sizeof v, "%s", u->vals[i] ? "[x]" : "[ ]");
        putf(row, x, w, a, " %-21s %s%s%s", p->label, p->type == GT_P_ENUM ? "< " : "",
             v, p->type == GT_P_ENUM ? " >" : "");
        if (!ok && w > 54)
            putf(row, x + 42, w - 42, role(u, C_GHOST), "(%s)", why);
    }
    if (row < end && e->params[u->sel].help)
        putf(row++, x, w, role(u, C_GHOST), " %s: %s", e->params[u->sel].name,
             e->params[u->sel].help);
    /* Set-up figures: allocation and registration times. */
    for (int i = 0; i < u->st.info.ntimes && row < end; i++)
        putf(row++, x, w, A_NORMAL, " %-44s %s", u->st.info.times[i].label,
             gt_format_seconds(u->st.info.times[i].sec, tbuf, sizeof tbuf));
    if (e->summary && row < end) {
        gt_summary_line lines[GT_SUMMARY_LINES];
        int n = e->summary(&u->cur, &u->props, lines, GT_SUMMARY_LINES);
        for (int i = 0; i < n && row < end; i++)
            putf(row++, x, w, role(u, C_TITLE), " %s", lines[i]);
    }
    if (row < end && u->st.info.note[0])
        putf(row++, x, w, strncmp(u->st.info.note, "SAMPLED", 7) ? A_NORMAL : role(u, C_WARN),
             " verify: %s", u->st.info.note);
    if (row < end && u->st.warmup_total)
        putf(row++, x, w, role(u, C_GHOST), " warm-up: %d of %d iterations done, not in the histograms",
             u->st.warmup_done, u->st.warmup_total);
    if (row < end - 1) {
        row++;
        row += wrap(row, x + 1, w - 2, end - row, role(u, C_GHOST), e->explain);
    }
    while (row < end)
        put(row++, x, w, A_NORMAL, "");
}

static gt_series *prev_series(ui *u, const char *name)
{
    for (int i = 0; i < u->prev.nseries; i++)
        if (!strcmp(u->prev.s[i].name, name))
            return &u->prev.s[i];
    return u->prev.nseries == 1 ? &u->prev.s[0] : NULL;
}

static void fmt_val(char *buf, size_t n, double v, bool bw)
{
    if (!isfinite(v))
        snprintf(buf, n, "-");
    else if (bw)
        snprintf(buf, n, v >= 1e12 ? "%.0f" : "%.2f", v / 1e9);
    else
        gt_format_seconds(v, buf, n);
}

static void stats_row(int y, int x, int w, const char *label, gt_dist *d,
                      bool bw, attr_t a)
{
    gt_summary s;
    char line[256], c[32];
    int off, ncol = (w - 7) / 9;

    gt_dist_summary(d, &s);
    double vals[] = {s.p50, s.p90, s.p99, s.min, s.max, s.mean, s.stddev};
    off = snprintf(line, sizeof line, " %-6s", label);
    for (int i = 0; i < 7 && i < ncol; i++) {
        fmt_val(c, sizeof c, vals[i], bw);
        off += snprintf(line + off, sizeof line - (size_t)off, "%9s", c);
    }
    if (ncol >= 8)
        snprintf(line + off, sizeof line - (size_t)off, "%9llu%s", (unsigned long long)s.count,
                 gt_dist_exact(d) ? "" : "~");
    put(y, x, w, a, line);
}

/* One histogram block: title, chart (current bars over the previous
 * configuration's ghost, both on one x axis), axis, statistics. */
static void draw_block(ui *u, int y, int x, int w, int h, int si, bool bw)
{
    gt_series *now = &u->cur.s[si], *pv = prev_series(u, now->name);
    gt_dist *dn = bw ? &now->bw : &now->lat;
    gt_dist *dp = pv ? (bw ? &pv->bw : &pv->lat) : NULL;
    /* Rows: title, chart, axis, [column header], now, [before]. A short
     * block keeps two chart rows before it keeps the optional rows; with
     * many series (3 rows or fewer) the axis goes, then the chart. */
    bool hdr = h >= 3 + 2 + 1, before_row = h >= 3 + 2 + 2, axis_row = h >= 4;
    int ch = h - 2 - axis_row - hdr - before_row, nb = w - 2 < MAX_BINS ? w - 2 : MAX_BINS;
    uint64_t bn[MAX_BINS], bp[MAX_BINS], tn = 0, tp = 0;
    double lo = NAN, hi = NAN;
    char title[256], a[32], b[32];
    static const char *const eighths[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584",
                                          "\u2585", "\u2586", "\u2587", "\u2588"};

    /* Title with the headline figure against its ceiling. */
    if (bw) {
        double factor = 1.0, ceil;
        char label[64];
        double p50 = gt_dist_percentile(dn, 0.5);
        ceil = gt_experiment_ceiling(u->exp, u->vals, si, &u->props, &factor, label, sizeof label);
        if (ceil > 0 && isfinite(p50))
            snprintf(title, sizeof title, " %s bandwidth GB/s  p50 %.2f = %.1f%% of %s %.1f%s",
                     now->name, p50 / 1e9, 100.0 * p50 * factor / ceil, label, ceil / 1e9,
                     factor != 1.0 ? " (x2)" : "");
        else
            snprintf(title, sizeof title, " %s bandwidth GB/s  (%s)", now->name, label);
    } else {
        snprintf(title, sizeof title, " %s latency per sample", now->name);
    }
    put(y, x, w, role(u, C_TITLE), title);
    if (now->failed) {
        snprintf(title, sizeof title, " %llu FAILED ", (unsigned long long)now->failed);
        put(y, x + w - (int)strlen(title) - 1, (int)strlen(title), role(u, C_ERR) | A_REVERSE, title);
    }

    if (dn->count) {
        lo = dn->min;
        hi = gt_dist_percentile(dn, 0.99);
    }
    if (dp && dp->count) {
        double plo = dp->min, phi = gt_dist_percentile(dp, 0.99);
        lo = isfinite(lo) ? fmin(lo, plo) : plo;
        hi = isfinite(hi) ? fmax(hi, phi) : phi;
    }
    if (isfinite(lo) && hi <= lo) {
        double pad = fabs(lo) * 0.005 + 1e-12;
        lo -= pad;
        hi += pad;
    }
    if (isfinite(lo)) {
        tn = dn->count ? gt_dist_bins(dn, lo, hi, bn, nb) : 0;
        tp = dp && dp->count ? gt_dist_bins(dp, lo, hi, bp, nb) : 0;
    }
    for (int r = 0; r < ch; r++) {
        int yy = y + 1 + r, level = ch - 1 - r;     /* 0 = bottom row */
        put(yy, x, w, A_NORMAL, "");
        if (!isfinite(lo))
            continue;
        for (int c = 0; c < nb; c++) {
            /* Heights in eighths of a row, each distribution scaled to its
             * own peak so both stay visible. */
            int en = tn ? (int)((double)bn[c] * ch * 8 / (double)tn + 0.5) : 0;
            int ep = tp ? (int)((double)bp[c] * ch * 8 / (double)tp + 0.5) : 0;
            int cell = en - level * 8;
            if (tn && bn[c] && en == 0)
                en = cell = 1 - level * 8;              /* never hide a sample */
            if (cell > 0) {
                attron(role(u, bw ? C_BW : C_LAT));
                if (u->utf8)
                    mvaddstr(yy, x + 1 + c, eighths[cell > 8 ? 8 : cell]);
                else
                    mvaddch(yy, x + 1 + c, cell >= 4 ? '#' : (level == 0 ? '_' : ' '));
                attroff(role(u, bw ? C_BW : C_LAT));
            } else if (ep - level * 8 > 0) {
                attron(role(u, C_GHOST));
                if (u->utf8)
                    mvaddstr(yy, x + 1 + c, "\u2591");
                else
                    mvaddch(yy, x + 1 + c, ':');
                attroff(role(u, C_GHOST));
            }
        }
    }
    /* Axis: range of both distributions; the last bin also holds values
     * above the larger p99. */
    int row = y + 1 + ch;
    if (axis_row && isfinite(lo)) {
        fmt_val(a, sizeof a, lo, bw);
        fmt_val(b, sizeof b, hi, bw);
        char axis[256];
        snprintf(axis, sizeof axis, " %s", a);
        put(row, x, w, A_NORMAL, axis);
        snprintf(axis, sizeof axis, ">=%s ", b);
        put(row, x + w - (int)strlen(axis), (int)strlen(axis), A_NORMAL, axis);
        if (w > 60) {
            snprintf(axis, sizeof axis, "%s now  %s before",
                     u->utf8 ? "\u2588" : "#", u->utf8 ? "\u2591" : ":");
            put(row, x + w / 2 - 8, 18, role(u, C_GHOST), axis);
        }
    } else if (axis_row) {
        /* A series this device cannot produce says why instead. */
        if (u->st.gen == u->cur.gen && (u->st.info.skipped & (1u << si)))
            putf(row, x, w, role(u, C_GHOST), " not run on this device: %s",
                 u->st.info.why_skipped);
        else
            put(row, x, w, role(u, C_GHOST), " waiting for samples");
    }
    row += axis_row;
    if (hdr) {
        char hdrline[256];
        const char *names[] = {"p50", "p90", "p99", "min", "max", "mean", "stddev", "n"};
        int off = snprintf(hdrline, sizeof hdrline, " %-6s", "");
        int ncol = (w - 7) / 9;
        for (int i = 0; i < 8 && i < ncol; i++)
            off += snprintf(hdrline + off, sizeof hdrline - (size_t)off, "%9s", names[i]);
        put(row++, x, w, role(u, C_GHOST), hdrline);
    }
    stats_row(row++, x, w, "now", dn, bw, role(u, bw ? C_BW : C_LAT));
    if (!before_row)
        return;
    if (dp)
        stats_row(row, x, w, "before", dp, bw, role(u, C_GHOST));
    else
        put(row, x, w, role(u, C_GHOST), " before -  (change a parameter to compare)");
}

/* ---- sweep ('w') ---- */

static void sweep_stop(ui *u, bool hide)
{
    u->sweeping = false;
    if (hide)
        u->sweep_shown = false;
}

/* Starts a sweep of the selected parameter: the configuration moves to
 * each value in turn and stays until it has SWEEP_SAMPLES samples. */
static void sweep_start(ui *u, double now);

/* The sweep's plot in place of the histograms. */
static void draw_sweep(ui *u, int y, int h)
{
    static char rows[GT_SWEEP_MAX + 2][256];
    const gt_sweep *s = &u->sweep;
    int all = gt_sweep_render(s, rows, GT_SWEEP_MAX + 2, COLS);
    int n = all < h - 1 ? all : h - 1;

    /* Too short for every value: the last row says how many are hidden. */
    if (n < all && n > 1) {
        snprintf(rows[n - 1], sizeof rows[0], "  (%d more values: a taller terminal shows them)",
                 all - n + 1);
    }
    if (u->sweeping)
        putf(y, 0, COLS, role(u, C_TITLE), " Sweep of %s: p50 at each value, %d samples a "
             "series; value %d of %d (w stops)", s->exp->params[s->param].name, SWEEP_SAMPLES,
             u->sweep_i + 1, s->n);
    else
        putf(y, 0, COLS, role(u, C_TITLE), " Sweep of %s: p50 at each value (w sweeps again, "
             "any change leaves the plot)", s->exp->params[s->param].name);
    for (int r = 0; r < h - 1; r++) {
        attr_t a = A_NORMAL;
        if (r < n && strstr(rows[r], "----------"))
            a = role(u, C_OK);
        else if (r == 0)
            a = role(u, C_GHOST);
        put(y + 1 + r, 0, COLS, a, r < n ? rows[r] : "");
    }
}

/* Rows the timeline block wants: title, serial, one per stream, axis. */
static int timeline_rows(const ui *u)
{
    return u->cur.tl ? 3 + u->cur.tl->nstreams : 0;
}

/* The latest iteration's operations, one row per stream, over the serial
 * run's time; the ideal bound and the end of the streams run are marked. */
static void draw_timeline(ui *u, int y, int x, int w, int h)
{
    const gt_timeline *tl = u->cur.tl;
    static const int colour[GT_TL_KINDS] = {C_H2D, C_KERNEL, C_D2H};
    signed char cells[512];
    int lw = 11, cw = w - lw - 2, rows = h - 2, shown;
    double span = fmax(tl->total[GT_TL_SERIAL], tl->total[GT_TL_STREAMS]);
    char a[32], line[256];

    if (cw > (int)sizeof cells)
        cw = (int)sizeof cells;
    shown = rows - 1 < tl->nstreams ? rows - 1 : tl->nstreams;
    {
        const char *title = " Timeline of the last iteration";
        int off = (int)strlen(title) + 2;
        put(y, x, w, role(u, C_TITLE), title);
        for (int k = 0; k < GT_TL_KINDS; k++) {
            snprintf(line, sizeof line, "%c %s", gt_tl_glyphs[k], gt_tl_kind_names[k]);
            put(y, x + off, (int)strlen(line), role(u, colour[k]) | A_BOLD, line);
            off += (int)strlen(line) + 2;
        }
        if (shown < tl->nstreams) {
            snprintf(line, sizeof line, "(+%d streams: a taller terminal shows them)",
                     tl->nstreams - shown);
            if (off + (int)strlen(line) > w)
                snprintf(line, sizeof line, "(+%d streams)", tl->nstreams - shown);
            put(y, x + off, w - off, role(u, C_GHOST), line);
        }
    }
    for (int r = 0; r <= shown && r < rows; r++) {
        int run = r == 0 ? GT_TL_SERIAL : GT_TL_STREAMS, s = r == 0 ? 0 : r - 1;
        if (r == 0)
            snprintf(line, sizeof line, " serial");
        else
            snprintf(line, sizeof line, " stream %d", s);
        put(y + 1 + r, x, lw, A_NORMAL, line);
        put(y + 1 + r, x + lw, 1, role(u, C_GHOST), "|");
        gt_timeline_row(tl, run, s, span, cw, cells);
        for (int c = 0; c < cw; c++) {
            if (cells[c] < 0) {
                mvaddch(y + 1 + r, x + lw + 1 + c, ' ');
                continue;
            }
            attron(role(u, colour[(int)cells[c]]) | A_BOLD);
            mvaddch(y + 1 + r, x + lw + 1 + c, (chtype)gt_tl_glyphs[(int)cells[c]]);
            attroff(role(u, colour[(int)cells[c]]) | A_BOLD);
        }
        put(y + 1 + r, x + lw + 1 + cw, 1, role(u, C_GHOST), "|");
    }
    /* Axis: 0, the ideal bound (^), the end of the streams run (|), span. */
    {
        int yy = y + 1 + (shown + 1 < rows ? shown + 1 : rows);
        double ideal = gt_timeline_ideal(tl);
        int ci = span > 0 ? (int)(ideal / span * cw) : -1;
        int ce = span > 0 ? (int)(tl->total[GT_TL_STREAMS] / span * cw) : -1;
        put(yy, x, w, A_NORMAL, "");
        put(yy, x + lw, 2, role(u, C_GHOST), "0");
        if (ci >= 0 && ci < cw)
            put(yy, x + lw + 1 + ci, 7, role(u, C_OK), "^ideal");
        if (ce >= 0 && ce < cw && ce != ci)
            put(yy, x + lw + 1 + ce, 8, role(u, C_TITLE), "^streams");
        gt_format_seconds(span, a, sizeof a);
        put(yy, x + lw + 1 + cw - (int)strlen(a), (int)strlen(a) + 1, role(u, C_GHOST), a);
    }
}

static void draw_status(ui *u)
{
    int y = LINES - 1;
    char left[256], t[32];
    double el = gt_now() - u->st.since;
    uint64_t failed = gt_run_failed(&u->cur);

    if (u->editing) {
        putf(y, 0, COLS, A_REVERSE, " %s%s_", u->msg, u->edit);
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
        snprintf(left, sizeof left, " END of this recorded configuration: %llu samples; "
                 "n: next (moves on by itself)", (unsigned long long)gt_run_count(&u->cur));
        break;
    default:
        snprintf(left, sizeof left, " %s  %llu iterations  %llu samples", u->paused ? "PAUSED" :
                 gt_state_name(u->st.state), (unsigned long long)u->st.iterations,
                 (unsigned long long)gt_run_count(&u->cur));
        break;
    }
    if (u->st.state == GT_ST_ERROR)
        put(y, 0, COLS, role(u, C_ERR) | A_REVERSE, left);
    else if (failed)
        putf(y, 0, COLS, role(u, C_ERR) | A_REVERSE, "%s  VERIFY FAILED: %llu samples", left,
             (unsigned long long)failed);
    else
        put(y, 0, COLS, A_REVERSE, left);
    if (u->msg[0] && u->st.state != GT_ST_ERROR) {
        int w = (int)strlen(u->msg) + 2;
        int x = COLS - w > (int)strlen(left) + 2 ? COLS - w : (int)strlen(left) + 2;
        put(y, x, COLS - x, (u->msg_err ? role(u, C_ERR) : 0) | A_REVERSE, u->msg);
    }
}

static void draw_help(void)
{
    int w = COLS - 8 < 76 ? COLS - 8 : 76, h = (int)GT_A_COUNT + 8;
    int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2, row;
    char keys[64];

    if (h > LINES - 2)
        h = LINES - 2, y0 = 1;
    for (int r = 0; r < h; r++)
        put(y0 + r, x0, w, A_REVERSE, "");
    putf(y0, x0, w, A_REVERSE | A_BOLD, "  gputui keys  (any key closes)");
    row = y0 + 2;
    for (int a = 1; a < GT_A_COUNT && row < y0 + h - 1; a++, row++)
        putf(row, x0, w, A_REVERSE, "  %-22s %s", gt_action_keys((gt_action)a, keys, sizeof keys),
             gt_action_help((gt_action)a));
    row++;
    if (row < y0 + h - 1)
        putf(row, x0, w, A_REVERSE, "  In the device pane Up/Down scroll; elsewhere they pick a parameter.");
}

/* The live histograms (and the streams timeline) in rows hy .. hy+hh. */
static void draw_histograms(ui *u, int hy, int hh)
{
    int ns = u->cur.nseries ? u->cur.nseries : 1, th = timeline_rows(u);
    bool bw = gt_experiment_bandwidth(u->exp, u->vals);
    int nblocks = bw ? 2 * ns : ns, rows = (nblocks + 1) / 2;

    /* The timeline (streams) takes the bottom rows, leaving the histograms
     * at least six. */
    if (th > hh - 6)
        th = hh - 6;
    if (th >= 4) {
        hh -= th;
        draw_timeline(u, hy + hh, 0, COLS, th);
    }
    /* Two blocks a row: bandwidth and latency of one series, or the
     * latency of two series when bandwidth means nothing here. */
    for (int b = 0; b < nblocks; b++) {
        int r = b / 2, y = hy + r * (hh / rows), h = hh / rows;
        int x = b % 2 ? COLS / 2 : 0, w = b % 2 ? COLS - COLS / 2 : COLS / 2;
        if (bw)
            draw_block(u, y, x, w, h, b / 2, b % 2 == 0);
        else
            draw_block(u, y, x, w, h, b, false);
    }
}

static void draw(ui *u)
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
    int y0 = u->banner ? 2 : 1;
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
    dw = COLS >= 120 ? 42 : 34;
    draw_header(u);
    draw_device(u, y0, 0, dw, top);
    draw_experiment(u, y0, dw + 1, COLS - dw - 1, top);
    for (int r = y0; r < y0 + top; r++)
        put(r, dw, 1, role(u, C_GHOST), u->utf8 ? "\u2502" : "|");

    hy = y0 + top;
    hh = avail - top;
    if (u->sweep_shown)
        draw_sweep(u, hy, hh);
    else
        draw_histograms(u, hy, hh);
    draw_status(u);
    if (u->help)
        draw_help();
    refresh();
}

/* ---- main loop ---- */

/* tkey: when the key that caused this was read (for --trace). */
static void apply(ui *u, bool restart, double tkey)
{
    uint32_t gen;

    if (gt_run_count(&u->cur) || !u->prev.exp || restart)
        gt_run_move(&u->prev, &u->cur);
    else
        gt_run_free(&u->cur);
    gen = gt_engine_configure(u->eng, u->exp, u->vals);
    gt_run_init(&u->cur, u->exp, u->vals, gen);
    u->trace_t0 = tkey;
    u->trace_gen = gen;
}

static void sweep_start(ui *u, double now)
{
    char err[300];
    const char *why;

    if (u->pane != PANE_EXP) {
        set_msg(u, true, "select a parameter in the experiment pane (Tab), then w sweeps it");
        return;
    }
    if (!gt_param_applies(&u->exp->params[u->sel], u->vals, &why)) {
        set_msg(u, true, "%s applies %s: nothing to sweep", u->exp->params[u->sel].name, why);
        return;
    }
    gt_sweep_begin(&u->sweep, u->exp, u->sel, u->vals, &u->props);
    if (gt_sweep_values(&u->sweep, &u->props, err, sizeof err) < 0) {
        set_msg(u, true, "%s", err);
        return;
    }
    u->sweeping = u->sweep_shown = true;
    u->sweep_i = 0;
    u->vals[u->sel] = u->sweep.vals[0];
    apply(u, false, now);
}

/* Once the value being swept has its samples, or cannot give more (an
 * error, a played-out recording), its p50s go into the plot and the next
 * value starts. Uses the status read for this wake-up; true when it moved. */
static bool sweep_tick(ui *u, double now)
{
    gt_sweep *s = &u->sweep;
    bool over = u->st.state == GT_ST_ERROR || u->st.state == GT_ST_DONE;

    if (u->st.gen != u->cur.gen || (!over && gt_run_count(&u->cur) < SWEEP_SAMPLES))
        return false;
    for (int k = 0; k < s->nseries && k < u->cur.nseries; k++)
        s->p50[u->sweep_i][k] = gt_dist_percentile(&u->cur.s[k].lat, 0.5);
    if (++u->sweep_i >= s->n) {
        sweep_stop(u, false);
        set_msg(u, false, "sweep of %s done: %d values", s->exp->params[s->param].name, s->n);
        return true;
    }
    u->vals[s->param] = s->vals[u->sweep_i];
    apply(u, false, now);
    return true;
}

static void init_colors(ui *u, const gt_cli *cli)
{
    const char *nc = getenv("NO_COLOR");

    u->color = !cli->no_color && !(nc && nc[0]) && has_colors();
    if (!u->color)
        return;
    start_color();
    use_default_colors();
    init_pair(C_HEAD, COLOR_BLACK, COLOR_CYAN);
    init_pair(C_BW, COLOR_GREEN, -1);
    init_pair(C_LAT, COLOR_CYAN, -1);
    init_pair(C_GHOST, COLORS >= 16 ? 8 : COLOR_WHITE, -1);
    init_pair(C_ERR, COLOR_RED, -1);
    init_pair(C_WARN, COLOR_YELLOW, -1);
    init_pair(C_OK, COLOR_GREEN, -1);
    init_pair(C_TITLE, COLOR_YELLOW, -1);
    init_pair(C_H2D, COLOR_CYAN, -1);
    init_pair(C_KERNEL, COLOR_YELLOW, -1);
    init_pair(C_D2H, COLOR_MAGENTA, -1);
}

/* --record: a configuration's line goes out with its first sample, when
 * its set-up figures are known; an error once per configuration. */
static void record_samples(ui *u, const gt_sample *buf, size_t n)
{
    if (!u->recorder)
        return;
    for (size_t i = 0; i < n; i++) {
        if (buf[i].gen != u->cur.gen)
            continue;
        if (u->recorded_gen != u->cur.gen) {
            gt_status st;
            gt_engine_status(u->eng, &st);
            gt_recorder_config(u->recorder, u->exp, u->vals, u->cur.gen, &st.info);
            u->recorded_gen = u->cur.gen;
        }
        gt_recorder_sample(u->recorder, &buf[i]);
    }
}

/* The engine's latest timeline of this configuration, if newer; --record
 * keeps the first one of each configuration (after its config line). */
static void take_timeline(ui *u)
{
    static gt_timeline tl;

    if (!gt_engine_timeline(u->eng, &tl, &u->tl_seq) || tl.gen != u->cur.gen)
        return;
    if (gt_run_set_timeline(&u->cur, &tl))
        set_msg(u, true, "out of memory for the timeline");
    if (u->recorder && u->recorded_gen == u->cur.gen && u->recorded_tl_gen != u->cur.gen) {
        gt_recorder_timeline(u->recorder, &tl);
        u->recorded_tl_gen = u->cur.gen;
    }
}

static void record_error(ui *u)
{
    if (!u->recorder || u->st.state != GT_ST_ERROR || u->st.gen != u->cur.gen ||
        u->error_gen == u->cur.gen)
        return;
    if (u->recorded_gen != u->cur.gen)
        gt_recorder_config(u->recorder, u->exp, u->vals, u->cur.gen, &u->st.info);
    u->recorded_gen = u->cur.gen;
    gt_recorder_error(u->recorder, u->cur.gen, u->st.msg);
    u->error_gen = u->cur.gen;
}

int gt_ui_run(const gt_cli *cli, gt_engine *eng, const gt_recording *rec, const char *banner)
{
    ui u;
    gt_sample buf[1024];
    double last_draw = 0;
    bool dirty = true, quit = false;
    const char *cs;

    memset(&u, 0, sizeof u);
    u.eng = eng;
    u.exp = cli->exp;
    u.rec = rec;
    u.banner = banner;
    memcpy(u.vals, cli->vals, sizeof u.vals);
    for (int i = 0; i < gt_nexperiments && i < MAX_EXPS; i++) {
        gt_experiment_defaults(gt_experiments[i], u.saved[i]);
        if (gt_experiments[i] == u.exp)
            u.exp_idx = i;
    }
    gt_engine_props(eng, &u.props);
    if (rec) {
        /* Start on the configuration asked for if it was recorded, else
         * on the first recorded one. */
        int idx = gt_recording_find(rec, u.exp, u.vals);
        if (idx < 0) {
            for (idx = 0; idx < (int)rec->ncfg && rec->cfg[idx].exp != u.exp; idx++)
                ;
            if (idx == (int)rec->ncfg)
                idx = 0;        /* this experiment was not recorded: the first one */
            if (cli->given)
                set_msg(&u, true, "that configuration was not recorded; showing the first recorded one");
        }
        u.exp = rec->cfg[idx].exp;
        for (int i = 0; i < gt_nexperiments; i++)
            if (gt_experiments[i] == u.exp)
                u.exp_idx = i;
        u.cfg_idx = idx;
        memcpy(u.vals, rec->cfg[idx].vals, sizeof u.vals);
        if (rec->dropped && !u.msg[0])
            set_msg(&u, true, "%s: the last line was cut off; %zu line dropped", rec->path,
                    rec->dropped);
    }
    if (cli->trace) {
        u.trace = fopen(cli->trace, "w");
        if (!u.trace) {
            fprintf(stderr, "gputui: --trace %s: %s\n", cli->trace, strerror(errno));
            return GT_EXIT_USAGE;
        }
    }
    if (cli->record) {
        gt_err err;
        gt_err_clear(&err);
        if (gt_recorder_open(&u.recorder, cli->record, &u.props, &err)) {
            fprintf(stderr, "gputui: %s\n", err.msg);
            if (u.trace)
                fclose(u.trace);
            return GT_EXIT_FAIL;
        }
    }
    if (!rec) {
        char msg[400];
        if (gt_experiment_check(u.exp, u.vals, &u.props, msg, sizeof msg)) {
            fprintf(stderr, "gputui: --%s\n", msg);
            if (u.trace)
                fclose(u.trace);
            gt_recorder_close(u.recorder, &(gt_err){0});
            return GT_EXIT_USAGE;
        }
    }
    cs = nl_langinfo(CODESET);
    u.utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));

    if (!initscr()) {
        fprintf(stderr, "gputui: cannot initialize the terminal (TERM=%s)\n",
                getenv("TERM") ? getenv("TERM") : "");
        return GT_EXIT_FAIL;
    }
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    init_colors(&u, cli);
    apply(&u, false, gt_now());

    while (!quit) {
        struct pollfd pfd[2] = {{STDIN_FILENO, POLLIN, 0}, {gt_engine_fd(eng), POLLIN, 0}};
        double now = gt_now(), wait;
        int timeout = -1, ch;
        size_t n;

        if (gt_signal_caught)
            break;
        /* The engine's status, once per wake-up. */
        gt_engine_status(eng, &u.st);
        record_error(&u);
        if (u.sweeping && sweep_tick(&u, now))
            dirty = true;
        /* Replay: a played-out configuration gives way to the next one. */
        if (u.rec && u.st.state == GT_ST_DONE && u.st.gen == u.cur.gen && !u.paused &&
            !u.sweep_shown) {
            if (!u.done_since)
                u.done_since = now;
            else if (now - u.done_since >= REPLAY_DWELL_S / gt_replay_speed()) {
                step_config(&u, 1);
                apply(&u, false, now);
                dirty = true;
            }
        } else {
            u.done_since = 0;
        }
        if (dirty && now - last_draw >= FRAME_S) {
            gt_engine_props(eng, &u.props);
            draw(&u);
            last_draw = now;
            dirty = false;
            if (u.trace && u.trace_gen && u.cur.gen == u.trace_gen && gt_run_count(&u.cur)) {
                fprintf(u.trace, "%u %.3f\n", u.trace_gen, (gt_now() - u.trace_t0) * 1e3);
                fflush(u.trace);
                u.trace_gen = 0;
            }
        }
        if (dirty) {
            /* Frame pending: leave the engine's fd alone until it is due,
             * so a fast sample stream cannot spin this loop. */
            wait = last_draw + FRAME_S - now;
            timeout = (int)(wait * 1e3) + 1;
            pfd[1].fd = -1;
        } else if (u.st.state == GT_ST_SETUP || u.st.state == GT_ST_WARMUP ||
                   u.st.state == GT_ST_DONE) {
            timeout = 250;      /* elapsed time on screen; replay dwell */
        }
        if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
            break;
        if (timeout > 0 && !pfd[0].revents && !pfd[1].revents)
            dirty = true;
        if (pfd[1].fd >= 0 && pfd[1].revents) {
            bool first = gt_run_count(&u.cur) == 0;
            while ((n = gt_engine_drain(eng, buf, GT_ARRAY_LEN(buf))) > 0) {
                record_samples(&u, buf, n);
                for (size_t i = 0; i < n; i++)
                    gt_run_add(&u.cur, &buf[i]);
            }
            dirty = true;
            if (first && gt_run_count(&u.cur))
                last_draw = 0;      /* the first sample after a change: show it now */
        }
        take_timeline(&u);
        /* Keys (also KEY_RESIZE after SIGWINCH interrupted poll). */
        while ((ch = getch()) != ERR) {
            double tkey = gt_now();
            switch (handle_key(&u, ch)) {
            case OUT_QUIT:
                quit = true;
                break;
            case OUT_APPLY:
                sweep_stop(&u, true);
                apply(&u, false, tkey);
                break;
            case OUT_SWEEP:
                if (u.sweeping) {
                    sweep_stop(&u, false);
                    set_msg(&u, false, "sweep stopped");
                } else {
                    sweep_start(&u, tkey);
                }
                break;
            case OUT_RESTART:
                sweep_stop(&u, true);
                apply(&u, true, tkey);
                set_msg(&u, false, "restarted");
                break;
            case OUT_PAUSE:
                gt_engine_set_paused(eng, u.paused);
                break;
            case OUT_CLEAR:
                gt_run_clear(&u.cur);
                gt_run_free(&u.prev);
                set_msg(&u, false, "histograms cleared");
                break;
            default:
                break;
            }
            dirty = true;
            if (quit)
                break;
        }
    }
    endwin();
    if (u.trace)
        fclose(u.trace);
    {
        gt_err err;
        gt_err_clear(&err);
        if (gt_recorder_close(u.recorder, &err))
            fprintf(stderr, "gputui: %s\n", err.msg);
    }
    gt_run_free(&u.cur);
    gt_run_free(&u.prev);
    if (gt_signal_caught) {
        fprintf(stderr, "gputui: stopped by signal %d\n", (int)gt_signal_caught);
        return 128 + (int)gt_signal_caught;
    }
    return GT_EXIT_OK;
}
