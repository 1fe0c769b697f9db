/* soak_run.h - the soak's harness: many random valid parameter changes
 * across every experiment, through the engine the TUI uses, whatever the
 * back-end. tests/gpu/soak.c runs it on the CUDA back-end (make soak);
 * tests/unit/test_soak.c runs it on a fake one in make test.
 *
 * Order: every value of every choice of every experiment once (from the
 * defaults), then random changes, SOAK_SAMPLES timed iterations each (one
 * when an iteration takes longer than slow_s: a child process a sample).
 * A change that fails says why in one line and the soak goes on; a change
 * that gives nothing in timeout_s counts as hung, and max_hangs in a row
 * end the soak. Before and after (the engine released), the caller's
 * figures must be back where they were; the device's free memory within
 * the slack it shows at rest, measured by two identical passes over every
 * experiment's defaults. */
#ifndef GPUTUI_SOAK_RUN_H
#define GPUTUI_SOAK_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gputui/engine/engine.h"

#define SOAK_MAX_EXP 32

/* What must come back; -1 where the caller cannot tell. */
typedef struct soak_figures {
    int64_t dev_free;       /* bytes */
    long vmlck_kb, vmpin_kb;
    int fds;
    int children;           /* child processes alive */
    int64_t persist;        /* the persisting-L2 limit, bytes */
} soak_figures;

typedef struct soak_opts {
    int changes;            /* in all, the pass over every choice included */
    uint64_t seed;
    int samples;            /* timed iterations a change (3) */
    double slow_s;          /* once a change has run this long, one iteration is enough */
    double timeout_s;       /* a change with no iteration and no error by then hangs */
    int max_hangs;          /* hangs in a row that end the soak */
    /* Reads the figures; called with the engine released. */
    void (*measure)(soak_figures *f, void *ctx);
    void *ctx;
    FILE *log;              /* one line per failed change */
    struct gt_recorder *record;     /* NULL, or where each change and its samples are
                                     * written, as the TUI's --record writes them */
} soak_opts;

typedef struct soak_result {
    int changes;            /* changes made */
    int sampled, errors, hangs, refused;
    int refused_setup;      /* changes whose set-up found the device refuses them (exit
                               64: a cluster larger than it runs, say), each said why */
    long failed;            /* samples that failed their verification */
    int per_exp[SOAK_MAX_EXP];
    int choices, choices_run;   /* values of choices, and those that ran */
    char not_run[600];      /* the values that never ran, and why */
    int64_t slack;          /* free memory's own difference at rest */
    int64_t uvm;            /* what the driver's unified-memory pool may keep of freed
                               managed memory: twice the largest managed buffer run */
    soak_figures before, after;
    double seconds;
    bool stopped;           /* max_hangs in a row ended it early */
    bool ok;
} soak_result;

/* Defaults for o: 1000 changes, seed 1, 3 samples, 0.5 s, 30 s, 3 hangs. */
void soak_opts_init(soak_opts *o);
/* Runs the soak on e (started, idle) and judges it: 0 when r->ok. */
int soak_run(gt_engine *e, const soak_opts *o, soak_result *r);
/* The report: one line per figure, then "soak: ok" or "soak: FAIL". */
void soak_print(FILE *f, const soak_result *r);

#endif
