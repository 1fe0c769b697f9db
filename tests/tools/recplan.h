/* recplan.h - the classes of configurations the bundled recordings must
 * hold (recplan_plans.c), read by recplan (recplan.c), and what its
 * files share: the lessons' commands (recplan_lessons.c) print argument
 * lists as recplan.c does. */
#ifndef GPUTUI_RECPLAN_H
#define GPUTUI_RECPLAN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    const char *name;
    int64_t max;                /* 0: the parameter's own */
    const char *values;         /* "1000,4096,4100": these instead of +/- */
    bool sweep;                 /* the experiment's sweep values (device) */
    int oneof;                  /* >0: at most one switch of the group on */
} cparam;

typedef struct {
    const char *exp;
    const char *list;           /* the parameter a batch line lists */
    cparam p[8];
} cplan;

extern const cplan recplan_plans[];
extern const int recplan_nplans;

struct gt_experiment;
/* One gputui --batch argument list: the experiment and the values that
 * differ from its defaults. */
void recplan_print_args(const struct gt_experiment *e, const int64_t *vals);
/* recplan openings REC DIR; recplan lessons DIR [--missing-from REC] [--check] */
int recplan_openings(int argc, char **argv);
int recplan_lessons(int argc, char **argv);

#endif
