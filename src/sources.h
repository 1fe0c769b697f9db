/* sources.h - what main() opens before it hands over (sources.c): the
 * recording a command line names, or with no GPU the bundled one that
 * holds what it asks for; and what the TUI needs before its first frame.
 * Each says what went wrong on standard error and returns the exit status
 * (0: go on). */
#ifndef GPUTUI_SOURCES_H
#define GPUTUI_SOURCES_H

#include <stdbool.h>
#include <stddef.h>

#include "gputui/input/cli.h"
#include "gputui/record/bundle.h"
#include "gputui/record/record.h"
#include "ui/ui.h"

/* The TUI's terminal, checked once (gt_ui_check_terminal): 0, or 64,
 * said when say. A frame drawn while a recording is read asks quietly;
 * the TUI itself, once everything the command line names was found and
 * read, aloud: a file's fault is said before the terminal's. */
int sources_terminal(const gt_cli *cli, bool say);
/* --trace FILE: its folder must exist, and FILE not unless --force (the
 * TUI creates it): 0, or -1 with err. */
int sources_trace_unusable(const gt_cli *cli, gt_err *err);

/* Loads the recording that option opt names (a file or a bundled model);
 * a name that is neither is a usage error. With configs, a recording of an
 * inspection alone is refused. With rd (the TUI), up to the configuration
 * it opens on, the rest behind the screen, and screen draws the first
 * frame while it is read. */
int sources_load_named(const gt_bundle *b, const char *opt, const char *name, bool configs,
                       bool screen, gt_recording *rec, gt_rec_reader **rd, const gt_cli *cli,
                       const gt_ui_source *src);
/* With no GPU: the bundled recording -d N names; else the first that holds
 * the lesson or the experiment asked for (note says so when that is not
 * the first), else the first. Its index, or -1 (err says why). */
int sources_pick_bundled(const gt_cli *cli, gt_ui_source *src, const gt_bundle *b,
                         gt_recording *rec, char *note, size_t notelen, gt_err *err);
/* A recording named on the command line that lacks the lesson or the
 * experiment asked for: the bundled one that holds it, named in note
 * ("" when it lacks nothing, or none does). */
void sources_hint_elsewhere(const gt_cli *cli, const gt_ui_source *src, const gt_bundle *b,
                            const gt_recording *rec, char *note, size_t len);
/* A recording of an inspection alone has nothing to replay but its card:
 * true, said. */
bool sources_only_inspection(const gt_recording *rec);
/* Frees a recording, and its reader behind the screen (rd may be NULL). */
void sources_drop(gt_recording *rec, gt_rec_reader **rd);

#endif
