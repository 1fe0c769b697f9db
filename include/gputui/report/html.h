/* html.h - the report of --batch runs and replays as one self-contained
 * HTML page (--format html): the device, then each configuration with its
 * set-up, verification and timing lines, a histogram of each series as
 * inline SVG (p50, p90 and p99 marked, the ceiling where one is known,
 * disturbed samples in their own colour, the configuration before it, when
 * of the same experiment, as a dashed ghost: x exports before and now),
 * its statistics, its summary and its 'y' lines. No script, font or image from elsewhere; light and dark
 * themes (prefers-color-scheme); it prints on A4 and Letter. The markup is
 * also well-formed XML, so that a test can parse it strictly. */
#ifndef GPUTUI_REPORT_HTML_H
#define GPUTUI_REPORT_HTML_H

#include <stdio.h>

#include "gputui/device/devprops.h"
#include "gputui/measure/run.h"
#include "gputui/record/record.h"

/* The pieces of a page (report.h writes the report's; a lesson's and a
 * card's are others): the head, the title and a line under it, and the
 * device (p NULL: none); one configuration (i: its number on the page,
 * from 0; before: the one before it, drawn as its ghost where it is of the
 * same experiment, or NULL); a line of text in tag, of class cls (NULL:
 * none), escaped; the end, 0 or -1 on a write error. */
void gt_html_begin(FILE *f, const gt_devprops *p, const char *title, const char *sub);
void gt_html_run(FILE *f, const gt_devprops *p, gt_run *r, int i, gt_run *before);
void gt_html_text(FILE *f, const char *tag, const char *cls, const char *text);
int gt_html_end(FILE *f);
/* A latency histogram of series s as inline SVG: its clean samples, and
 * those marked disturbed stacked on them in their own colour; the ghost's
 * (B's, or before's; NULL: none) outlined, dashed, on the same axis; p50,
 * p90 and p99 marked, and floor_s (> 0), the time the ceiling allows,
 * named by ceil_label. */
void gt_html_histogram(FILE *f, gt_series *s, gt_series *ghost, double floor_s,
                       const char *ceil_label);

#endif
