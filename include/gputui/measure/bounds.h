/* bounds.h - a headline figure set against its physical bound, step by
 * step, from the device's own properties and named sources; a term that is
 * not known reads N/A. An experiment's 'why' hook (experiment.h) writes
 * its lines with these:
 *
 *   PCIe           generation x width, the line encoding, packet overhead
 *                  at the link's max payload size, then the median's share
 *                  of each step;
 *   device memory  clock x bus width x 2 (DDR), bytes once against
 *                  read + write. */
#ifndef GPUTUI_BOUNDS_H
#define GPUTUI_BOUNDS_H

#include <stdbool.h>

#include "gputui/measure/run.h"

/* PCIe bytes per packet besides its payload: a 4-DW TLP header (64-bit
 * address) 16, sequence number 2, LCRC 4, framing token 4 (Gen3 and
 * later). Acknowledgement and flow-control packets are not counted. */
#define GT_PCIE_TLP_OVERHEAD 26

/* Lines being written: l[0..max), n of them so far. */
typedef struct gt_lines {
    gt_summary_line *l;
    int n, max;
} gt_lines;

/* One more line, unless max are written. */
void gt_say(gt_lines *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Series s's median bandwidth against the host link (h2d: the direction). */
void gt_bound_pcie(gt_lines *o, gt_run *r, int s, const gt_devprops *p, bool h2d);
/* Series s's median bandwidth against the device memory's peak; copy: the
 * bytes are read and written. */
void gt_bound_hbm(gt_lines *o, gt_run *r, int s, const gt_devprops *p, bool copy);

#endif
