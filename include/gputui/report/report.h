/* report.h - batch output of one run as text, JSON or CSV. */
#ifndef GPUTUI_REPORT_H
#define GPUTUI_REPORT_H

#include <stdio.h>

#include "gputui/input/cli.h"
#include "gputui/device/devprops.h"
#include "gputui/measure/run.h"

struct gt_recording;
/* Reports nruns runs measured on p; rec is the recording they were read
 * from, or NULL for live measurements. Text: a block per run (and a plot
 * when they sweep one parameter); CSV: one row per run, series and
 * metric; JSON: one object with a "runs" array; HTML: one page. 0, or -1
 * when it could not be written. */
int gt_report(FILE *f, gt_format fmt, const gt_devprops *p, gt_run *runs, int nruns,
              const struct gt_recording *rec);
/* The same a run at a time, in bounded memory however many there are:
 * begin (NULL out of memory), add each of the nruns runs (r must stay as
 * it is until the next add or the end: the page draws it as the next
 * one's ghost), end (frees the writer; 0, or -1 when anything could not
 * be written). */
typedef struct gt_report_writer gt_report_writer;
gt_report_writer *gt_report_begin(FILE *f, gt_format fmt, const gt_devprops *p,
                                  const struct gt_recording *rec, int nruns);
int gt_report_add(gt_report_writer *w, gt_run *r);
int gt_report_end(gt_report_writer *w);
/* One line per device for --list-devices. */
void gt_report_device_line(FILE *f, const gt_devprops *p);

#endif
