/* ui.h - the ncurses front end. It draws and reads keys and never calls
 * CUDA: everything it shows comes from the engine (samples, status,
 * device properties). Returns the process exit status. */
#ifndef GPUTUI_UI_H
#define GPUTUI_UI_H

#include "gputui/cli.h"
#include "gputui/engine.h"

int gt_ui_run(const gt_cli *cli, gt_engine *eng);

#endif
