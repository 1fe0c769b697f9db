/* rec_keep.h - what a recording's reader keeps (rec_keep.c), private to
 * src/core/record/: samples and extras within the limits of what a reader
 * keeps (record.h). */
#ifndef GPUTUI_REC_KEEP_H
#define GPUTUI_REC_KEEP_H

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
/* Keeps what was read into tmp (size bytes) in *slot, within the extras'
 * budget: the slot's own memory when it has some (the last line of a
 * configuration wins), else new; past the budget it is counted and not
 * kept. -1 out of memory. */
int rec_keep_extra(gt_recording *r, void **slot, const void *tmp, size_t size);

#endif
