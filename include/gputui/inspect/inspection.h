/* inspection.h - one inspection, step by step, for whoever drives the
 * engine: the batch run (inspect_run.c) and the TUI's 'I' screen. It
 * chooses the configurations (pinned H2D, D2H and both at once; device
 * copies checked word by word, by the copy engine and by SMs; one load of
 * mapped host memory; a copy to every other GPU), reads the GPU's health
 * before, every 100 ms during (a thread) and after them, sets the figures
 * beside the bundled recording of the same model, and builds the card
 * (card.h) with the thresholds of share/gputui/inspect.json.
 *
 *   gt_inspection_start -> { gt_inspection_next -> measure GT_INSPECT_SAMPLES
 *   samples -> gt_inspection_take }* -> gt_inspection_finish -> free */
#ifndef GPUTUI_INSPECTION_H
#define GPUTUI_INSPECTION_H

#include <stdbool.h>

#include "gputui/engine/backend.h"
#include "gputui/engine/engine.h"
#include "gputui/inspect/card.h"
#include "gputui/measure/run.h"
#include "gputui/record/bundle.h"

#define GT_INSPECT_SAMPLES 20   /* of each step's series */

typedef struct gt_inspection gt_inspection;

/* The thresholds of bundle's directory (share/gputui when it has none). */
int gt_inspection_thresholds(gt_thresholds *th, const gt_bundle *bundle, gt_err *err);

/* Loads the thresholds and the reference recording, reads the health and
 * starts the poller (be may lack health: its rows cannot tell). -1 with
 * err when the thresholds do not load or out of memory. */
int gt_inspection_start(gt_inspection **out, const gt_backend *be, const gt_devprops *p,
                        const gt_bundle *bundle, gt_err *err);
/* The step to measure now, false when every step is done. what: a word
 * for the progress line ("h2d", "peer 1"); i of n. */
bool gt_inspection_next(const gt_inspection *in, const gt_experiment **exp, int64_t *vals,
                        const char **what, int *i, int *n);
/* Step i's word (for a list of the steps), NULL past the last. */
const char *gt_inspection_step(const gt_inspection *in, int i);
/* The step's run, or the message it failed with (run NULL), and the
 * engine's status after it (who else was on the GPU; NULL: unknown). A
 * step with samples marked disturbed is judged by its clean ones, or not
 * at all when too few are clean (card.h). A failed copy to a peer is that
 * peer's row; any other failure ends the inspection: -1 (the caller says
 * why). */
int gt_inspection_take(gt_inspection *in, gt_run *run, const char *error, const gt_status *st);
/* Stops the poller, reads the health after, fills f and c (host and wall
 * time included). st: the engine's status, for other programs on the GPU
 * (NULL: unknown). */
void gt_inspection_finish(gt_inspection *in, const gt_status *st, gt_inspect_facts *f,
                          gt_inspect_card *c);
void gt_inspection_free(gt_inspection *in);

/* A recorded inspection's card, built again with th; -1 with err when the
 * object does not read. */
int gt_inspection_replay(const char *json, const gt_thresholds *th, gt_inspect_card *c,
                         gt_err *err);
/* The configuration a row of the card was measured with (TUI: Enter on
 * the row shows it; peer: the row's), false for a row read from the
 * driver. */
bool gt_inspection_config(const char *row_id, int peer, const gt_experiment **exp,
                          int64_t *vals);

#endif
