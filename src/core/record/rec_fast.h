/* rec_fast.h - the writer's own spelling of a sample or a trace line read
 * without jansson (rec_fast.c), private to src/core/record/. */
#ifndef GPUTUI_REC_FAST_H
#define GPUTUI_REC_FAST_H

#include <stddef.h>

#include "gputui/record/record.h"

/* A sample or trace line as the writer spells it: 1 taken, 0 when jansson
 * must read it (anything else, or anything wrong: jansson's reading says
 * what). */
int rec_fast_line(gt_recording *r, const char *line, size_t n);

#endif
