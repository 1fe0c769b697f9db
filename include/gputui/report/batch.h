/* batch.h - --batch: the same engine and experiment table as the TUI.
 * gt_batch_run measures every configuration the command line asks for
 * (value lists sweep), cli->samples samples per series each, optionally
 * recording them, and prints one report. gt_batch_replay reports a
 * recording instead, configuration by configuration. Both return the
 * process exit status. */
#ifndef GPUTUI_BATCH_H
#define GPUTUI_BATCH_H

#include "gputui/input/cli.h"
#include "gputui/engine/engine.h"
#include "gputui/record/record.h"
#include "gputui/measure/run.h"

int gt_batch_run(const gt_cli *cli, gt_engine *eng);
/* Measures one configuration of exp into *run (initialised here) until
 * every series has 'want' samples (and, recording to rec, what --record-*
 * ask). Returns 0, GT_EXIT_FAIL after a set-up or run error (already
 * printed), or 128+N after signal N. */
int gt_batch_measure(const gt_cli *cli, gt_engine *eng, const gt_experiment *exp,
                     const int64_t *vals, int64_t want, gt_run *run, gt_recorder *rec);
int gt_batch_replay(const gt_cli *cli, const gt_recording *rec);
/* --pairs all (-e peer): cli's configuration from every GPU to every
 * other, one engine per GPU in turn on back-end be; prints the matrix of
 * p50s. Returns the exit status (64 on one GPU, with the reason). */
int gt_batch_pairs(const gt_cli *cli, const gt_backend *be);

#endif
