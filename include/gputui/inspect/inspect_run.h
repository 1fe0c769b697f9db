/* inspect_run.h - gputui --batch --inspect: one inspection (inspection.h)
 * measured through the engine, with the card printed in cli's format and,
 * with --record, the measurements and the inspection written to a
 * recording; and the card of a recorded inspection (--replay FILE, or a
 * bundled model's name). */
#ifndef GPUTUI_INSPECT_RUN_H
#define GPUTUI_INSPECT_RUN_H

#include "gputui/engine/backend.h"
#include "gputui/engine/engine.h"
#include "gputui/input/cli.h"
#include "gputui/inspect/card.h"
#include "gputui/record/bundle.h"
#include "gputui/record/record.h"

/* The steps measured through eng (and written to rec, NULL: none), then
 * f and c filled: 0, or 1 (printed why) when the inspection could not
 * run, 128+N after signal N. */
int gt_inspect_measure(const gt_cli *cli, gt_engine *eng, const gt_backend *be,
                       const gt_bundle *bundle, gt_recorder *rec, gt_inspect_facts *f,
                       gt_inspect_card *c);
/* The exit status (card.h: 0 pass, 2 warn, 3 fail; 1 when the inspection
 * could not run, or 128+N after signal N). */
int gt_inspect_batch(const gt_cli *cli, gt_engine *eng, const gt_backend *be,
                     const gt_bundle *bundle);
/* The card of rec's inspection, judged by today's thresholds; 1 when rec
 * holds none. */
int gt_inspect_batch_replay(const gt_cli *cli, const gt_recording *rec, const gt_bundle *bundle);

#endif
