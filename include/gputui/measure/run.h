/* run.h - the distributions of one configuration: per series, latency
 * and bandwidth, with verification counts. The TUI keeps the current run
 * and the previous one (before/after); batch mode prints one. */
#ifndef GPUTUI_RUN_H
#define GPUTUI_RUN_H

#include "gputui/measure/experiment.h"
#include "gputui/base/stats.h"
#include "gputui/measure/timeline.h"

typedef struct gt_series {
    const char *name;
    gt_dist lat;          /* seconds */
    gt_dist bw;           /* bytes/s, bytes counted once */
    uint64_t full, sampled, failed;
    uint64_t disturbed;   /* samples taken while the GPU may have been shared */
    gt_dist clean_lat;    /* the samples not marked disturbed: seconds, */
    gt_dist clean_bw;     /* ... and bytes/s */
} gt_series;

typedef struct gt_run {
    const gt_experiment *exp;
    uint32_t gen;
    int64_t vals[GT_MAX_PARAMS];
    int nseries;
    gt_series s[GT_MAX_SERIES];
    gt_setup_info info;
    gt_timeline *tl;      /* latest timeline (streams), owned; NULL if none */
    struct gt_trace *trace;   /* its CUDA calls (--trace-calls), owned; NULL if none */
    uint64_t unkept;      /* replayed: samples the recording held past what a
                           * reader keeps (record.h), not in these figures */
} gt_run;

void gt_run_init(gt_run *r, const gt_experiment *exp, const int64_t *vals,
                 uint32_t gen);
void gt_run_clear(gt_run *r);           /* drops samples, keeps config */
void gt_run_free(gt_run *r);
void gt_run_add(gt_run *r, const gt_sample *s);
uint64_t gt_run_count(const gt_run *r); /* fewest samples over series */
/* The median latency of series s in seconds; NAN when there is no series
 * s (s < 0 too) or it has no samples. */
double gt_run_p50(gt_run *r, int s);
uint64_t gt_run_failed(const gt_run *r);
/* More than this share of a series' samples disturbed, and its figures
 * say so (the headline, the reports, compare and lessons use the clean
 * ones). */
#define GT_DISTURBED_SHARE 0.05
bool gt_series_disturbed(const gt_series *s);
/* The share of s's samples (failed ones included) marked disturbed, 0
 * when it has none. */
double gt_series_disturbed_share(const gt_series *s);
/* The samples a judged figure stands on (compare, sweep, lessons): the
 * clean ones when any were disturbed, else all; bw: bandwidths, else
 * seconds. s->disturbed says how many were left out. */
gt_dist *gt_series_judged(gt_series *s, bool bw);
/* Adds src's samples to dst, series by series (the same experiment and
 * values, measured again: a lesson's rounds). */
void gt_run_merge(gt_run *dst, const gt_run *src);
/* Moves src into dst (dst freed first); src is left empty. */
void gt_run_move(gt_run *dst, gt_run *src);
/* Keeps a copy of tl as the run's latest timeline; -1 if out of memory. */
int gt_run_set_timeline(gt_run *r, const gt_timeline *tl);
/* Keeps a copy of t as the run's CUDA calls; -1 if out of memory. */
int gt_run_set_trace(gt_run *r, const struct gt_trace *t);

#endif
