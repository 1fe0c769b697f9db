/* registry.h - the experiments gputui knows, from the one list in
 * experiments/all.h: the CLI, the TUI, reports, recordings and lessons read
 * them here, in the list's order (the first is the default). */
#ifndef GPUTUI_REGISTRY_H
#define GPUTUI_REGISTRY_H

#include "gputui/measure/experiment.h"

/* How many there are, as a constant (arrays of one entry an experiment). */
enum {
#define GT_EXP(name) GT_EXP_INDEX_##name,
#include "experiments/all.h"
    GT_NEXPERIMENTS
};

const gt_experiment *const *gt_experiment_list(void);
int gt_experiment_count(void);
#define gt_experiments (gt_experiment_list())
#define gt_nexperiments (gt_experiment_count())

/* The experiment named so, or NULL. */
const gt_experiment *gt_experiment_find(const char *name);

#endif
