/* compare.h - two machines side by side. A is "now" and B the ghost: for
 * every configuration both hold, the medians of each series and their
 * ratio A/B (latency and, where it means something, bandwidth counted
 * bytes-once), with the verification counts; then the configurations
 * found on one side only. Batch mode prints this for two recordings; the
 * TUI shows the same ratio in every histogram block. */
#ifndef GPUTUI_COMPARE_H
#define GPUTUI_COMPARE_H

#include <stdio.h>

#include "gputui/input/cli.h"
#include "gputui/record/record.h"
#include "gputui/base/stats.h"

/* p50(a) / p50(b); NAN when either has no samples. */
double gt_compare_ratio(gt_dist *a, gt_dist *b);

/* "NVIDIA H100 80GB HBM3" -> "H100": the short name the header uses. */
const char *gt_compare_short_name(const char *device, char *buf, size_t len);

/* Writes the comparison of two loaded recordings in text, JSON or CSV.
 * Returns 0, or -1 when the output could not be written. */
int gt_compare_report(FILE *f, gt_format fmt, const gt_recording *a, const gt_recording *b);

#endif
