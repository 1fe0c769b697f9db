/* sharing.h - parameter indices and series of the sharing experiment
 * (a second process on the same GPU), shared by its table row (core) and
 * its back-end (gpu). */
#ifndef GPUTUI_EXP_SHARING_H
#define GPUTUI_EXP_SHARING_H

#include "gputui/measure/experiment.h"

enum { GT_SH_MEASURE, GT_SH_BESIDE, GT_SH_WARMUP, GT_SH_NPARAMS };
/* What this process times: a dependent-read chase, or a pinned copy. */
enum { GT_SH_LATENCY, GT_SH_COPY };
/* What the second process does meanwhile. stranger: it copies all the
 * time, and gputui does not count it as its own: the look at the GPU's
 * other programs finds it as it would any neighbour, and the one series
 * shows how many samples were marked disturbed. */
enum { GT_SH_KERNELS, GT_SH_COPIES, GT_SH_STRANGER };
enum { GT_SH_S_ALONE, GT_SH_S_BESIDE };
enum { GT_SH_S_STRANGER = 0 };

/* The chase: a 16 MiB chain of 128-byte steps, 4096 reads. The copy:
 * 64 MiB from pinned memory to the device. */
#define GT_SH_CHAIN_BYTES (16u << 20)
#define GT_SH_STEP_BYTES 128u
#define GT_SH_HOPS 4096u
#define GT_SH_COPY_BYTES (64u << 20)

extern const gt_experiment gt_exp_sharing;

#endif
