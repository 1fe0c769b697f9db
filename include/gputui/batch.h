/* batch.h - --batch: the same engine and experiment table as the TUI,
 * collecting cli->samples samples per series and printing one report.
 * Returns the process exit status. */
#ifndef GPUTUI_BATCH_H
#define GPUTUI_BATCH_H

#include "gputui/cli.h"
#include "gputui/engine.h"

int gt_batch_run(const gt_cli *cli, gt_engine *eng);

#endif
