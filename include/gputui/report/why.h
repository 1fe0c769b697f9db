/* why.h - the reason behind a headline figure ('y'): a title, then the
 * experiment's own lines (its 'why' hook, experiment.h), which set the
 * selected series' median against its bounds (measure/bounds.h: PCIe,
 * device memory) or against what the experiment knows (the L2 window,
 * the VMM granularity, the working set against each cache level ...);
 * without a hook, a line that says no bound decomposes the figure. */
#ifndef GPUTUI_WHY_H
#define GPUTUI_WHY_H

#include "gputui/measure/run.h"

/* Lines for series s of run r (at most max); returns how many. */
int gt_why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max);

#endif
