/* recplan.h - the classes of configurations the bundled recordings must
 * hold (recplan_plans.c), read by recplan (recplan.c). */
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

#endif
