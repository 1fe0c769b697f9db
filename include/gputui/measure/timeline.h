/* timeline.h - when each operation of one iteration ran, for experiments
 * that overlap work (streams): per operation its stream, kind and start
 * and end from CUDA events, plus the totals the summary compares.
 *
 * A back-end fills one after each iteration (gt_exp_ops.timeline); the
 * engine keeps the latest, recordings carry one per configuration, and
 * gt_timeline_row turns a stream's operations into text cells that the
 * TUI and the text report draw. */
#ifndef GPUTUI_TIMELINE_H
#define GPUTUI_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define GT_TL_MAX_OPS 1536      /* 2 runs x 256 chunks x 3 operations */
#define GT_TL_MAX_STREAMS 16

enum { GT_TL_H2D, GT_TL_KERNEL, GT_TL_D2H, GT_TL_KINDS };
enum { GT_TL_SERIAL, GT_TL_STREAMS };     /* which run an operation belongs to */

typedef struct gt_tl_op {
    uint8_t run;            /* GT_TL_SERIAL or GT_TL_STREAMS */
    uint8_t stream;         /* row: 0 .. nstreams-1 (always 0 in the serial run) */
    uint8_t kind;           /* GT_TL_H2D .. */
    uint16_t chunk;
    float start, end;       /* seconds since its run's first event */
} gt_tl_op;

typedef struct gt_timeline {
    uint32_t gen;
    int nstreams;
    bool kernels_overlap;       /* kernels may run at once (concurrent): not summed */
    int nops;
    double total[2];            /* elapsed time of the serial and streams runs */
    double sum[GT_TL_KINDS];    /* serial run: summed time of each kind */
    gt_tl_op ops[GT_TL_MAX_OPS];
} gt_timeline;

extern const char *const gt_tl_kind_names[GT_TL_KINDS];   /* "H2D", "kernel", "D2H" */
extern const char gt_tl_glyphs[GT_TL_KINDS];              /* '>', '#', '<' */

/* The cells of one row: w cells over [0, span] seconds; cell i gets the
 * kind that covers most of it (an operation shorter than a cell still
 * shows), or -1 for idle. */
void gt_timeline_row(const gt_timeline *tl, int run, int stream, double span, int w,
                     signed char *cells);
/* The ideal bound: the longest of the summed H2D, kernel and D2H times;
 * with kernels_overlap, kernels count as their longest, not their sum. */
double gt_timeline_ideal(const gt_timeline *tl);
/* The timeline as text, rows of w cells, for the text report. */
void gt_timeline_print(FILE *f, const gt_timeline *tl, int w);

#endif
