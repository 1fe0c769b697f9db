/* export.h - 'x': the statistics as JSON, CSV and HTML files that never
 * replace another file. The set is named gputui-STAMP.json / .csv / .html,
 * or with -2, -3 ... when one of those names is taken; each file is created
 * exclusively (no symbolic link followed). When the directory asked for
 * cannot be written, the set goes to $XDG_STATE_HOME/gputui (or
 * ~/.local/state/gputui) and the message says why. A write that fails (a
 * full disk) removes what it wrote: no file is left that looks complete. */
#ifndef GPUTUI_EXPORT_H
#define GPUTUI_EXPORT_H

#include <stddef.h>

#include "gputui/measure/run.h"

struct gt_recording;

/* Writes runs[0..n) into dir (NULL: the working directory) under a name
 * from stamp ("20261122-221500"). Returns 0 with msg naming the files
 * ("exported ...: DIR/gputui-STAMP.json, .csv and .html"), or -1 with msg
 * saying where it tried and why it failed. */
int gt_export(const char *dir, const char *stamp, const gt_devprops *p, gt_run *runs, int n,
              const struct gt_recording *rec, char *msg, size_t msglen);

#endif
