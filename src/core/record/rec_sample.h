/* rec_sample.h - a recording's samples as its reader takes them
 * (rec_sample.c), private to src/core/record/: kept within the limits of
 * what a reader keeps (record.h), and read from the writer's own spelling
 * of a sample line without jansson, the same line twice at once. */
#ifndef GPUTUI_REC_SAMPLE_H
#define GPUTUI_REC_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gputui/record/record.h"

/* The latest a line's time can be: 30 years into a recording. */
#define REC_MAX_T 1e9

/* A sample's "verify" by its name; a name this gputui does not know
 * counts as failed. */
uint8_t rec_verify_of(const char *name);
/* Bytes of budget *held that may grow by n within limit: true, charged. */
bool rec_charge(size_t *held, size_t limit, size_t n);
/* Keeps sample s of configuration c at time t within the limits: 0 kept,
 * 1 counted and not kept (its series is full, or the samples' budget
 * spent), -1 out of memory. */
int rec_sample_add(gt_recording *r, gt_rec_config *c, const gt_sample *s, double t);
/* A sample line as the writer spells it: 1 taken, 0 when jansson must read
 * it (anything else, or anything wrong: jansson's reading says what). */
int rec_sample_fast(gt_recording *r, const char *line, size_t n);

#endif
