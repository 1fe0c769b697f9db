/* why.h - the reason behind a headline figure: the selected series' median
 * set against its ceiling step by step, from the device's own properties
 * and named sources; a term that is not known reads N/A.
 *
 *   PCIe           generation x width, the line encoding, packet overhead
 *                  at the link's max payload size, then the median's share
 *                  of each step;
 *   device memory  clock x bus width x 2 (DDR), bytes once against
 *                  read + write;
 *   L2 window      set-aside granted, window x hitRatio, region, whether
 *                  the persisting lines fit, what is left of L2;
 *   zero-copy      the bytes a kernel pulls over PCIe per pass and the
 *                  time that alone needs;
 *   VMM            the size rounded up to the granularity, and the waste;
 *   others         the experiment's own 'why' (the latency experiment: the
 *                  working set against each level, one load in flight). */
#ifndef GPUTUI_WHY_H
#define GPUTUI_WHY_H

#include "gputui/measure/run.h"

/* PCIe bytes per packet besides its payload: a 4-DW TLP header (64-bit
 * address) 16, sequence number 2, LCRC 4, framing token 4 (Gen3 and
 * later). Acknowledgement and flow-control packets are not counted. */
#define GT_PCIE_TLP_OVERHEAD 26

/* Lines for series s of run r (at most max); returns how many. */
int gt_why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max);

#endif
