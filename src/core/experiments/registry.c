/* The experiments, one entry per line of all.h, in its order. */
#include "gputui/experiments/registry.h"

#include <string.h>

#define GT_EXP(name) extern const gt_experiment gt_exp_##name;
#include "experiments/all.h"

static const gt_experiment *const list[] = {
#define GT_EXP(name) &gt_exp_##name,
#include "experiments/all.h"
};

const gt_experiment *const *gt_experiment_list(void)
{
    return list;
}

int gt_experiment_count(void)
{
    return (int)(sizeof list / sizeof list[0]);
}

const gt_experiment *gt_experiment_find(const char *name)
{
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        if (!strcmp(list[i]->name, name))
            return list[i];
    return NULL;
}
