/* cli.h - command-line parsing. Experiment options come from the
 * parameter table; a bad option or value is a GT_EXIT_USAGE error whose
 * message names the option and its allowed values. */
#ifndef GPUTUI_CLI_H
#define GPUTUI_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "gputui/common.h"
#include "gputui/experiment.h"

typedef enum {
    GT_MODE_TUI, GT_MODE_BATCH, GT_MODE_LIST, GT_MODE_HELP, GT_MODE_VERSION
} gt_mode;

typedef enum { GT_FMT_TEXT, GT_FMT_JSON, GT_FMT_CSV } gt_format;

typedef struct gt_cli {
    gt_mode mode;
    const gt_experiment *exp;
    int64_t vals[GT_MAX_PARAMS];
    uint64_t given;         /* bit i: parameter i was on the command line */
    int device;
    gt_format format;
    int64_t samples;        /* batch: samples per series */
    bool no_color;
    const char *trace;      /* --trace FILE: key-to-sample latency log */
} gt_cli;

int gt_cli_parse(int argc, char **argv, gt_cli *c, gt_err *err);
void gt_cli_usage(FILE *f);

#endif
