/* cli.h - command-line parsing. Experiment options come from the
 * parameter table; a bad option or value is a GT_EXIT_USAGE error whose
 * message names the option and its allowed values. */
#ifndef GPUTUI_CLI_H
#define GPUTUI_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "gputui/base/common.h"
#include "gputui/measure/experiment.h"

typedef enum {
    GT_MODE_TUI, GT_MODE_BATCH, GT_MODE_LIST, GT_MODE_HELP, GT_MODE_VERSION,
    GT_MODE_LESSONS,    /* --list-lessons */
    GT_MODE_FLEET       /* --fleet DIR|FILES...: inspection cards as one table */
} gt_mode;

/* prometheus: the inspection card alone (--inspect). */
typedef enum { GT_FMT_TEXT, GT_FMT_JSON, GT_FMT_CSV, GT_FMT_PROMETHEUS, GT_FMT_HTML } gt_format;

#define GT_MAX_SWEEP 16       /* values in one comma-separated list */
#define GT_MAX_CONFIGS 512    /* configurations one batch run may sweep */
#define GT_MAX_FLEET 256      /* paths after --fleet */

typedef struct gt_cli {
    gt_mode mode;
    const gt_experiment *exp;
    bool exp_given;         /* -e was on the command line */
    int64_t vals[GT_MAX_PARAMS];            /* the first value of each list */
    uint64_t given;         /* bit i: parameter i was on the command line */
    int nsweep[GT_MAX_PARAMS];              /* values given for parameter i */
    int64_t sweep[GT_MAX_PARAMS][GT_MAX_SWEEP];
    int device;
    gt_format format;
    int64_t samples;        /* batch: samples per series */
    bool no_color;
    bool no_mouse;          /* --no-mouse: no clicks or wheel in the TUI */
    const char *trace;      /* --trace FILE: key-to-sample latency log */
    const char *record;     /* --record FILE (.gz: compressed) */
    int64_t record_samples; /* --record-samples: per series and configuration */
    double record_seconds;  /* --record-seconds: ... or this long, the sooner */
    const char *replay;     /* --replay FILE ("-": standard input, with --follow) */
    bool follow;            /* --follow: the recording is still being written */
    const char *compare[2]; /* --compare [A] B: recordings or bundled models */
    int ncompare;
    bool no_fallback;       /* --no-fallback: no replay when there is no GPU */
    bool no_share_lock;     /* --no-share-lock: no turns with other gputui processes */
    bool force;             /* --force: --record may replace an existing file */
    bool trace_calls;       /* --trace-calls: batch reports list the CUDA calls */
    const char *lesson;     /* --lesson NAME: the TUI starts in it; --batch runs it */
    bool pairs;             /* --pairs all: -e peer over every ordered pair of GPUs */
    bool inspect;           /* --inspect: the health card (batch) */
    double wait_quiet;      /* --wait-quiet S: before each inspection step, wait up to
                             * S seconds for the other programs' work to stop; 0 no */
    const char *fleet[GT_MAX_FLEET];        /* --fleet: directories or files */
    int nfleet;
    bool device_given;      /* -d was on the command line */
    bool all_devices;       /* -d all: --batch --inspect over every GPU (a node) */
    const char *help;       /* --help's topic: NULL the page, "all", or an experiment */
} gt_cli;

int gt_cli_parse(int argc, char **argv, gt_cli *c, gt_err *err);
/* The configurations the command line asks for: the cartesian product of
 * the value lists, without duplicates. Without lists, a parameter given
 * explicitly must apply; with lists, one that does not apply to a
 * combination is left out of it (--host does not apply to dir=d2d).
 * Returns how many (>= 1), or -1 with a message when none is valid or
 * there are too many. */
int gt_cli_configs(const gt_cli *c, int64_t (*out)[GT_MAX_PARAMS], int max,
                   char *err, size_t errlen);

#endif
