/* stats.h - one distribution of samples: exact summary statistics,
 * percentiles and histogram bins.
 *
 * Up to GT_DIST_KEEP values are kept exactly; past that a uniform
 * reservoir of GT_DIST_KEEP values is kept (Vitter's algorithm R), so
 * memory stays bounded on long runs. count, min, max, mean and stddev are
 * always exact (Welford); percentiles are exact until the reservoir starts
 * and estimates after (gt_dist_exact() tells which). */
#ifndef GPUTUI_STATS_H
#define GPUTUI_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_DIST_KEEP (1u << 20)

typedef struct gt_dist {
    double *v;          /* kept values; v[0..nsorted) is sorted */
    size_t n;           /* values kept */
    size_t nsorted;
    size_t cap;
    double *tmp;        /* merge buffer */
    size_t tmpcap;
    uint64_t count;     /* values seen */
    double min, max, mean, m2;
    uint64_t rng;       /* reservoir state */
} gt_dist;

typedef struct gt_summary {
    uint64_t count;
    double min, p50, p90, p99, max, mean, stddev;
} gt_summary;

void gt_dist_init(gt_dist *d);
void gt_dist_free(gt_dist *d);
void gt_dist_clear(gt_dist *d);
/* Returns 0, or -1 when memory ran out (the value is still counted). */
int gt_dist_add(gt_dist *d, double x);
bool gt_dist_exact(const gt_dist *d);
/* Adds src's kept values to dst (all of src's values while src is exact). */
void gt_dist_merge(gt_dist *dst, const gt_dist *src);
/* q in [0,1]; linear interpolation between closest ranks (numpy's
 * default). NaN when empty. Sorts the kept values if needed: values added
 * since the last call are sorted and merged in, O(n) rather than a full
 * sort per redraw. */
double gt_dist_percentile(gt_dist *d, double q);
void gt_dist_summary(gt_dist *d, gt_summary *s);
/* Counts kept values into nbins equal bins over [lo, hi]; values below lo
 * go to bin 0 and above hi to the last bin. Returns the largest count. */
uint64_t gt_dist_bins(const gt_dist *d, double lo, double hi,
                      uint64_t *bins, int nbins);

#endif
