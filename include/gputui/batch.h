/* batch.h - --batch: the same engine and experiment table as the TUI.
 * gt_batch_run measures every configuration the command line asks for
 * (value lists sweep), cli->samples samples per series each, optionally
 * recording them, and prints one report. gt_batch_replay reports a
 * recording instead, configuration by configuration. Both return the
 * process exit status. */
#ifndef GPUTUI_BATCH_H
#define GPUTUI_BATCH_H

#include "gputui/cli.h"
#include "gputui/engine.h"
#include "gputui/record.h"

int gt_batch_run(const gt_cli *cli, gt_engine *eng);
int gt_batch_replay(const gt_cli *cli, const gt_recording *rec);

#endif
