/* l2.h - parameter indices and series of the L2 persistence
 * experiment, shared by its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_L2_H
#define GPUTUI_EXP_L2_H

#include "gputui/measure/experiment.h"

enum { GT_L2_OP, GT_L2_SETASIDE, GT_L2_WINDOW, GT_L2_HIT, GT_L2_HITPROP, GT_L2_MISSPROP,
       GT_L2_APPLY, GT_L2_REGION, GT_L2_STREAMING, GT_L2_WARMUP, GT_L2_NPARAMS };
/* compete: two kernels on two streams at once, each with its own region,
 * streaming data and window (the Programming Guide's example). */
enum { GT_L2_OP_WINDOW, GT_L2_OP_COST, GT_L2_OP_COMPETE };
enum { GT_L2_PROP_PERSISTING, GT_L2_PROP_STREAMING, GT_L2_PROP_NORMAL };
enum { GT_L2_APPLY_STREAM, GT_L2_APPLY_GRAPH };
/* op=window: with the access-policy window, and without (the baseline).
 * op=cost: a device copy under the set-aside, and with the limit at 0.
 * op=compete: both kernels with their windows, and both without. */
enum { GT_L2_S_WINDOW, GT_L2_S_BASELINE };

extern const gt_experiment gt_exp_l2;

/* The set-aside the values ask for, in bytes (a percentage of the
 * device's persistingL2CacheMaxSize). */
uint64_t gt_l2_setaside(const int64_t *vals, const gt_devprops *p);
/* The window's num_bytes: the persisting region when 'region' (0), at
 * most accessPolicyMaxWindowSize. */
uint64_t gt_l2_window(const int64_t *vals, const gt_devprops *p);

#endif
