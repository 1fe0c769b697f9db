/* replay.h - a back-end (backend.h) that plays a recording back at its
 * recorded pace, times a speed factor. The TUI, batch code and engine do
 * not know whether samples come from a GPU or from here.
 *
 * A configuration never runs dry: when its recorded samples have played,
 * they play again from the first, in recorded order and at the recorded
 * pace (one pass lasts from the first sample to the last plus the mean gap
 * between iterations), so histograms keep filling as in a live run. Only a
 * configuration recorded without samples is done (GT_ST_DONE).
 *
 * A followed recording (follow.h, rec->lock set) grows while it plays:
 * the configuration still being written gives each sample as it arrives
 * (no pace, no pass again until a newer configuration or the end line has
 * come), and a configuration the writer came back to plays its newest
 * recording.
 *
 * One recording per process: gt_replay_backend() keeps the pointer, which
 * must stay valid until the engine is stopped. */
#ifndef GPUTUI_REPLAY_H
#define GPUTUI_REPLAY_H

#include "gputui/engine/backend.h"
#include "gputui/record/record.h"

#define GT_REPLAY_MIN_SPEED 0.5
#define GT_REPLAY_MAX_SPEED 8.0

const gt_backend *gt_replay_backend(const gt_recording *rec);
/* Clamped to [GT_REPLAY_MIN_SPEED, GT_REPLAY_MAX_SPEED]; any thread. */
void gt_replay_set_speed(double x);
double gt_replay_speed(void);

#endif
