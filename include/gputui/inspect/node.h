/* node.h - gputui --batch --inspect -d all: every GPU of the machine
 * inspected in turn, then the node: each GPU's copies to its peers as one
 * matrix, judged against the median of its link type (report/pairs_judge.h),
 * the cards as --fleet's table with outliers named, and one verdict, the
 * worst of the node. Text, JSON, HTML or Prometheus. */
#ifndef GPUTUI_INSPECT_NODE_H
#define GPUTUI_INSPECT_NODE_H

#include "gputui/engine/backend.h"
#include "gputui/input/cli.h"
#include "gputui/record/bundle.h"

/* The exit status: card.h's (3 a failure: a card's, or NVLink without peer
 * access; 1 an inspection that could not run; 2 a warning: a card's, an
 * odd link or an outlier; 4 busy; 0 pass), or 128+N after signal N. */
int gt_inspect_node(const gt_cli *cli, const gt_backend *be, const gt_bundle *bundle);

#endif
