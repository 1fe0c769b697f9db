/* units.h - byte sizes with units ("64M", "1.5G") and human formatting. */
#ifndef GPUTUI_UNITS_H
#define GPUTUI_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Parses a size: a decimal number with an optional suffix K, M, G or T
 * (also KiB/MiB/.., KB/MB/..; all powers of 1024) or B. Returns 0 and sets
 * *out, or -1 and writes a reason into err. The value must be a whole
 * number of bytes ("1.5K" is fine, "1.1K" is not). */
int gt_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);

/* "64 MiB", "1.5 GiB", "4000 B". Returns buf. */
char *gt_format_size(uint64_t bytes, char *buf, size_t len);

/* Seconds shown with a unit that keeps 3-4 significant digits:
 * "812 ns", "12.3 us", "1.25 ms", "2.50 s". Returns buf. */
char *gt_format_seconds(double s, char *buf, size_t len);

/* The unit a table of latencies shows, chosen so that the p50 reads well:
 * ms from 1 ms, us from 1 us, ns below (a dependent load is tens of ns).
 * Sets *k, what seconds are multiplied by; returns "latency ms" ... */
const char *gt_latency_unit(double p50, double *k);

#endif
