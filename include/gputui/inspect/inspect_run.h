/* inspect_run.h - gputui --batch --inspect: measures the open GPU through
 * the engine (pinned H2D, D2H and both at once, device-to-device copies
 * checked word by word, a copy kernel for the clocks, one load of mapped
 * host memory), reads its health from the back-end before, during (every
 * 100 ms) and after, sets the figures beside the bundled recording of the
 * same model, and prints the card (card.h) in cli's format. */
#ifndef GPUTUI_INSPECT_RUN_H
#define GPUTUI_INSPECT_RUN_H

#include "gputui/engine/backend.h"
#include "gputui/engine/engine.h"
#include "gputui/input/cli.h"
#include "gputui/record/bundle.h"

/* The exit status (card.h: 0 pass, 2 warn, 3 fail; 1 when the inspection
 * could not run, or 128+N after signal N). */
int gt_inspect_batch(const gt_cli *cli, gt_engine *eng, const gt_backend *be,
                     const gt_bundle *bundle);

#endif
