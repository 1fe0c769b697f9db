/* rec_index.h - a recording's configurations found in constant time
 * (rec_index.c), private to src/core/record/: by "gen", for each line that
 * names one, and by the values a configuration was measured with, for
 * each lookup of a replay, a lesson or a comparison. A reader never scans
 * every configuration per line: 200,000 load in linear time.
 *
 * The reader (record.c) adds each configuration once it is whole, in
 * order; rec_index_free goes with gt_recording_free. */
#ifndef GPUTUI_REC_INDEX_H
#define GPUTUI_REC_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gputui/record/record.h"

/* Adds r->cfg[i]: 0, or -1 out of memory (nothing added). */
int rec_index_add(gt_recording *r, size_t i);
/* The configuration with that gen, or NULL. */
gt_rec_config *rec_index_gen(const gt_recording *r, uint32_t gen);
/* The index of the first (or, with last, the newest) configuration of exp
 * with these values (values that do not apply aside), or -1. */
int rec_index_find(const gt_recording *r, const gt_experiment *exp, const int64_t *vals,
                   bool last);
/* The bytes it holds. */
size_t rec_index_bytes(const gt_recording *r);
void rec_index_free(gt_recording *r);

#endif
