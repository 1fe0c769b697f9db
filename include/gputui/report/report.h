/* report.h - batch output of one run as text, JSON or CSV. */
#ifndef GPUTUI_REPORT_H
#define GPUTUI_REPORT_H

#include <stdio.h>

#include "gputui/input/cli.h"
#include "gputui/device/devprops.h"
#include "gputui/measure/run.h"

struct gt_recording;
/* Reports nruns runs measured on p; rec is the recording they were read
 * from, or NULL for live measurements. Text: a block per run; CSV: one row
 * per run, series and metric; JSON: one object with a "runs" array. */
int gt_report(FILE *f, gt_format fmt, const gt_devprops *p, gt_run *runs, int nruns,
              const struct gt_recording *rec);
/* One line per device for --list-devices. */
void gt_report_device_line(FILE *f, const gt_devprops *p);

#endif
