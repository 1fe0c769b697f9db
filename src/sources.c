/* What main() opens before it hands over (sources.h): a recording named on
 * the command line or the bundled one that holds what it asks for, read
 * whole for batch or up to its first configuration for the TUI; and the
 * TUI's terminal and --trace file, checked before its first frame. */
#define _POSIX_C_SOURCE 200809L
#include "sources.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gputui/base/out.h"
#include "gputui/lesson/lesson.h"

int sources_terminal(const gt_cli *cli, bool say)
{
    static int checked = -1;
    static gt_err err;

    if (checked < 0)
        checked = gt_ui_check_terminal(!(cli->replay && !strcmp(cli->replay, "-")), &err)
                  ? err.code : 0;
    if (checked && say)
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
    return checked;
}

int sources_trace_unusable(const gt_cli *cli, gt_err *err)
{
    char dir[PATH_MAX];
    const char *slash;
    struct stat st;

    if (!cli->trace)
        return 0;
    slash = strrchr(cli->trace, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - cli->trace) + (slash == cli->trace)
                                            : 1, slash ? cli->trace : ".");
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        gt_err_set(err, GT_EXIT_USAGE, "--trace %s: the folder %s does not exist", cli->trace,
                   dir);
        return -1;
    }
    if (!cli->force && lstat(cli->trace, &st) == 0) {
        gt_err_set(err, GT_EXIT_USAGE, "--trace %s: the file exists; give --force to replace "
                   "it, or another name", cli->trace);
        return -1;
    }
    return 0;
}

bool sources_only_inspection(const gt_recording *rec)
{
    if (rec->ncfg)
        return false;
    gt_ui_term_close();
    fprintf(gt_stderr(), "gputui: %s holds an inspection and no configuration to replay: "
            "gputui --batch --inspect --replay %s prints its card\n", rec->path, rec->path);
    return true;
}

/* Reads the recording at path: whole (rd NULL), or for the TUI up to the
 * configuration it opens on (the lesson's first step, else the
 * experiment and values asked for), the rest behind the screen (*rd). */
static int read_recording(const char *path, gt_recording *rec, gt_rec_reader **rd,
                          const gt_cli *cli, const gt_ui_source *src, gt_err *err)
{
    const gt_experiment *e = cli->exp;
    const int64_t *v = cli->vals;

    if (!rd)
        return gt_recording_load(rec, path, err);
    if (src->start) {
        e = src->start->step[0].exp;
        v = src->start->step[0].vals[0];
    }
    return gt_rec_reader_start(rd, rec, path, e, v, err);
}

/* Whether rec holds what the command line asks for: the lesson's
 * configurations (its first, while the rest is still being read), -e's
 * experiment, or anything. */
static bool holds(const gt_cli *cli, const gt_ui_source *src, const gt_recording *rec)
{
    const gt_lesson *l = src->start;

    if (l) {
        for (int s = 0; s < l->nsteps; s++)
            for (int c = 0; c < l->step[s].nconfigs; c++)
                if ((s || c) && rec->loading)
                    return true;
                else if (gt_recording_find(rec, l->step[s].exp, l->step[s].vals[c]) < 0)
                    return false;
        return true;
    }
    return !cli->exp_given || gt_recording_place(rec, cli->exp, cli->vals) >= 0;
}

void sources_hint_elsewhere(const gt_cli *cli, const gt_ui_source *src, const gt_bundle *b,
                           const gt_recording *rec, char *note, size_t len)
{
    if ((!src->start && !cli->exp_given) || holds(cli, src, rec))
        return;
    for (int i = 0; i < b->n; i++) {
        gt_recording other;
        gt_err err = {0};
        bool has;
        if (!strcmp(b->path[i], rec->path) || gt_recording_load(&other, b->path[i], &err))
            continue;
        has = holds(cli, src, &other);
        gt_recording_free(&other);
        if (has) {
            bool l = src->start != NULL;
            const char *name = l ? src->start->name : cli->exp->name;
            snprintf(note, len, "%s%s%s not in %s; the bundled %s recording holds %s: "
                     "gputui%s --replay %s %s%s", l ? "lesson " : "", name,
                     l ? "'s configurations are" : " is", rec->path, b->model[i],
                     l ? "them" : "it", cli->mode == GT_MODE_BATCH ? " --batch" : "",
                     b->model[i], l ? "--lesson " : "-e ", name);
            return;
        }
    }
}

/* Opens bundled recording i; in the TUI, the loading frame first. */
static int open_bundled(const gt_cli *cli, gt_ui_source *src, const gt_bundle *b, int i,
                        gt_recording *rec, gt_err *err)
{
    bool tui = cli->mode == GT_MODE_TUI;

    if (tui && !sources_terminal(cli, false)) {
        char loading[700];
        snprintf(loading, sizeof loading, "the bundled %s recording (%s)", b->model[i],
                 b->path[i]);
        gt_ui_loading(loading);
    }
    return read_recording(b->path[i], rec, tui ? &src->reader : NULL, cli, src, err);
}

int sources_pick_bundled(const gt_cli *cli, gt_ui_source *src, const gt_bundle *b,
                        gt_recording *rec, char *note, size_t notelen, gt_err *err)
{
    gt_rec_reader **rd = cli->mode == GT_MODE_TUI ? &src->reader : NULL;
    char what[200], models[200];

    if (cli->device_given)
        return open_bundled(cli, src, b, cli->device, rec, err) ? -1 : cli->device;
    if (src->start)
        snprintf(what, sizeof what, "lesson %s's configurations", src->start->name);
    else
        snprintf(what, sizeof what, "%s", cli->exp->name);
    for (int i = 0; i < b->n; i++) {
        if (open_bundled(cli, src, b, i, rec, err))
            return -1;
        if (holds(cli, src, rec)) {
            if (i != 0)
                snprintf(note, notelen, "the bundled %s recording lacks %s: replaying the "
                         "bundled %s recording, which holds %s (-d %d; in the TUI, d steps "
                         "through the recordings)", b->model[0], what, b->model[i],
                         src->start ? "them" : "it", i);
            return i;
        }
        sources_drop(rec, rd);
    }
    /* in none: the first, as without -e */
    if (open_bundled(cli, src, b, 0, rec, err))
        return -1;
    if (b->n > 1)
        snprintf(note, notelen, "no bundled recording holds all of %s (%s)", what,
                 gt_bundle_models(b, models, sizeof models));
    return 0;
}

void sources_drop(gt_recording *rec, gt_rec_reader **rd)
{
    if (rd) {
        gt_rec_reader_close(*rd);
        *rd = NULL;
    }
    gt_recording_free(rec);
}

int sources_load_named(const gt_bundle *b, const char *opt, const char *name, bool configs,
                      bool screen, gt_recording *rec, gt_rec_reader **rd, const gt_cli *cli,
                      const gt_ui_source *src)
{
    char path[1024], msg[700];
    gt_err err;

    gt_err_clear(&err);
    if (gt_bundle_resolve(b, name, path, sizeof path, msg, sizeof msg)) {
        fprintf(gt_stderr(), "gputui: %s: %s\n", opt, msg);
        return GT_EXIT_USAGE;
    }
    if (screen && !sources_terminal(cli, false))
        gt_ui_loading(path);    /* the TUI's first frame, while it is read */
    if (read_recording(path, rec, rd, cli, src, &err)) {
        gt_ui_term_close();
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return GT_EXIT_FAIL;
    }
    if (configs && sources_only_inspection(rec)) {
        sources_drop(rec, rd);
        return GT_EXIT_FAIL;
    }
    return 0;
}

