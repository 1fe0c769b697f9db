/* ui.h - the ncurses front end. It draws and reads keys and never calls
 * CUDA: everything it shows comes from the engine (samples, status,
 * device properties). Returns the process exit status. */
#ifndef GPUTUI_UI_H
#define GPUTUI_UI_H

#include "gputui/cli.h"
#include "gputui/engine.h"
#include "gputui/record.h"

/* rec: the recording the engine replays, or NULL for a live GPU; banner:
 * a line shown above everything while replaying (why, what, when). */
int gt_ui_run(const gt_cli *cli, gt_engine *eng, const gt_recording *rec,
              const char *banner);

#endif
