/* sweep.h - one parameter stepped through a list of values, the median
 * latency of each series at every value, and the text plot of them.
 * Batch reports build one from runs that differ in one parameter; the TUI
 * runs one live ('w' on a parameter). */
#ifndef GPUTUI_SWEEP_H
#define GPUTUI_SWEEP_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "gputui/measure/experiment.h"

#define GT_SWEEP_MAX 64
#define GT_SWEEP_SERIES 2

typedef struct gt_sweep {
    const gt_experiment *exp;
    int param;
    int n;                                  /* values */
    int64_t vals[GT_SWEEP_MAX];
    double p50[GT_SWEEP_MAX][GT_SWEEP_SERIES];   /* NAN: not measured (yet) */
    int nseries;
    char names[GT_SWEEP_SERIES][64];
    double mark;                            /* value to mark, NAN for none */
    char mark_label[96];
    int64_t base[GT_MAX_PARAMS];            /* the other parameters' values */
    int refused;                            /* values left out: the check refuses them */
    uint64_t disturbed;                     /* samples left out of the p50s: another
                                             * program disturbed them */
    char why_refused[160];                  /* the first one's message */
} gt_sweep;

/* A sweep of parameter 'param' of e at the other values in vals: series
 * names and the mark, no values yet. */
void gt_sweep_begin(gt_sweep *s, const gt_experiment *e, int param, const int64_t *vals,
                    const gt_devprops *p);
/* The values it steps through: the experiment's own list when it has one,
 * every step of a stepped number (at most GT_SWEEP_MAX), every choice of
 * an enum or flag; values the experiment's check refuses with the others
 * as they are (a peer on one GPU) are left out and counted in 'refused'.
 * Returns how many, or -1 with a message naming what can be swept. */
int gt_sweep_values(gt_sweep *s, const gt_devprops *p, char *err, size_t errlen);
/* Rows of text: a header, then per value its p50 per series and a bar
 * (bars scaled to the largest p50; the mark drawn as a rule where it
 * falls). Returns the number of rows written, at most maxrows, each at
 * most width columns. */
int gt_sweep_render(const gt_sweep *s, char (*rows)[256], int maxrows, int width);
void gt_sweep_print(FILE *f, const gt_sweep *s);

#endif
