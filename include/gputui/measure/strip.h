/* strip.h - the time strip: the median of each series second by second
 * over the last minute of one configuration, so that a drift shows (a
 * clock that throttles, a GPU another process shares, a link that
 * retrains), which the histograms, holding every sample at once, hide.
 * Pure: samples and the time come in, the points go out. */
#ifndef GPUTUI_STRIP_H
#define GPUTUI_STRIP_H

#include <stdint.h>

#include "gputui/measure/experiment.h"

#define GT_STRIP_POINTS 60          /* seconds kept */
#define GT_STRIP_PER_SECOND 1024    /* samples a second a series keeps for its median */

typedef struct gt_strip {
    uint32_t gen;                   /* the configuration it follows */
    double t0;                      /* when the second being gathered began; 0 none yet */
    int n;                          /* points kept, up to GT_STRIP_POINTS */
    double sec[GT_MAX_SERIES][GT_STRIP_POINTS];     /* median duration of each second, oldest
                                                     * first; NAN: no sample that second */
    uint64_t bytes[GT_MAX_SERIES];  /* bytes of a sample of the series (one configuration) */
    int cnt[GT_MAX_SERIES];         /* this second's samples, and up to 1024 of them: */
    uint64_t seen[GT_MAX_SERIES];
    uint64_t rng;                   /* xorshift state for the reservoir */
    double cur[GT_MAX_SERIES][GT_STRIP_PER_SECOND];
} gt_strip;

/* Empties it for configuration gen. */
void gt_strip_reset(gt_strip *s, uint32_t gen);
/* A sample at time now (seconds, monotonic); samples of another
 * configuration are ignored. Closes the seconds that have passed. */
void gt_strip_add(gt_strip *s, const gt_sample *x, double now);
/* Closes the seconds that have passed (call it when drawing, so an idle
 * second shows as a gap). */
void gt_strip_tick(gt_strip *s, double now);
/* Point i (0 oldest) of series k as a duration (lat) or bytes/s (bw);
 * NAN for a second without samples. */
double gt_strip_point(const gt_strip *s, int k, int i, bool bw);

#endif
