/* fleet.h - gputui --fleet DIR|FILES...: many inspection cards (the JSON
 * of --batch --inspect, one per host and GPU) as one table, grouped by GPU
 * model, each figure against its group's median. An outlier is a card
 * with a failed row, a bandwidth or clock more than 5% below its group's
 * median, a latency more than 5% above it, or a file that holds no card
 * (a host where the inspection did not run). A busy card (exit status 4:
 * another program's work kept a figure from being judged, and no row
 * failed) is listed on its own: it is never an outlier, and its figures
 * stay out of the medians. */
#ifndef GPUTUI_FLEET_H
#define GPUTUI_FLEET_H

#include <stdio.h>

#include "gputui/base/common.h"
#include "gputui/input/cli.h"
#include "gputui/inspect/card.h"

#define GT_FLEET_FIGS 8

typedef struct gt_fleet_card {
    char file[256];
    char host[64], name[64], uuid[48];
    int gpu;
    int status;             /* the card's exit status; -1: no card */
    char why[200];          /* no card: what is wrong with the file */
    double fig[GT_FLEET_FIGS];  /* the columns (fleet.c), NAN if absent */
    char fails[240];        /* the failed rows' ids */
    char outlier[240];      /* why it is one, "" if not */
    char busy[240];         /* a busy card: the rows not judged, and who was on the
                             * GPU; "" if not busy */
} gt_fleet_card;

/* Reads every path (a directory: its *.json files, by name) into *cards
 * (malloc'd, *n of them). -1 with err when a path cannot be read at all,
 * or there is no file; a file that is no card is kept as one, status -1. */
int gt_fleet_load(const char *const *paths, int npaths, gt_fleet_card **cards, int *n,
                  gt_err *err);
/* One card from the JSON of --batch --inspect --format json (a node's,
 * in memory); name stands for its file. */
void gt_fleet_card_parse(gt_fleet_card *c, const char *json, const char *name);
/* Marks the outliers (see above); returns how many. */
int gt_fleet_judge(gt_fleet_card *cards, int n);
/* How many cards are busy. */
int gt_fleet_busy(const gt_fleet_card *cards, int n);
/* The table (text) or the cards with their verdicts (json); -1 on a
 * write error. */
int gt_fleet_print(FILE *f, gt_format fmt, const gt_fleet_card *cards, int n);
/* The HTML tables alone, for a larger page (a node's), each model under a
 * heading of this tag. */
int gt_fleet_html_tables(FILE *f, const gt_fleet_card *cards, int n, const char *heading);

#endif
