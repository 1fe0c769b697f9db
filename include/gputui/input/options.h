/* options.h - the general options of the command line, one table: the
 * parser (cli.c) finds each option here, and --help is printed from it:
 * a page of one line an option, an experiment's parameters (their own
 * table, param.h), or everything. */
#ifndef GPUTUI_OPTIONS_H
#define GPUTUI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "gputui/measure/experiment.h"

typedef enum {
    GT_OPT_EXPERIMENT, GT_OPT_DEVICE, GT_OPT_BATCH, GT_OPT_FORMAT, GT_OPT_SAMPLES,
    GT_OPT_NO_COLOR, GT_OPT_NO_MOUSE, GT_OPT_TRACE, GT_OPT_RECORD, GT_OPT_FORCE,
    GT_OPT_RECORD_SAMPLES, GT_OPT_RECORD_SECONDS, GT_OPT_REPLAY, GT_OPT_FOLLOW, GT_OPT_COMPARE,
    GT_OPT_TRACE_CALLS, GT_OPT_LESSON, GT_OPT_LIST_LESSONS, GT_OPT_NO_FALLBACK,
    GT_OPT_NO_SHARE_LOCK, GT_OPT_INSPECT, GT_OPT_WAIT_QUIET, GT_OPT_FLEET, GT_OPT_PAIRS, GT_OPT_LIST_DEVICES,
    GT_OPT_HELP, GT_OPT_VERSION
} gt_opt_id;

/* A row names its fields; a field left out is zero, which means what each
 * comment says. */
typedef struct gt_option {
    gt_opt_id id;
    const char *name;       /* "--record"; always given */
    const char *alias;      /* "-e"; NULL: none */
    const char *arg;        /* what --help shows after it ("FILE"); NULL: nothing */
    bool value;             /* it takes the next argument (or =VALUE); false: a switch */
    const char *help;       /* --help all's text, one paragraph, wrapped when printed */
    const char *brief;      /* --help's: one line of at most 52 characters */
} gt_option;

extern const gt_option gt_options[];
extern const int gt_noptions;

/* The row of "--name" or its alias, or NULL. */
const gt_option *gt_option_find(const char *name);
/* --help: a page of the usage lines, each option on a line, the
 * experiments' names and where the rest is. */
void gt_options_brief(FILE *f);
/* --help EXPERIMENT: its parameters with their allowed values and
 * defaults. */
void gt_options_experiment(FILE *f, const gt_experiment *x);
/* --help all: the usage lines, the general options in full, then each
 * experiment's parameters. */
void gt_options_usage(FILE *f);

#endif
