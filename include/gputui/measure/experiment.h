/* experiment.h - the experiment table and what one timed iteration yields.
 *
 * An experiment is a name, an explanation, its parameters and a few pure
 * functions over the parameter values (series names, device-dependent
 * checks, the physical ceiling of each series). The GPU work behind it
 * lives beside the row (src/experiments/NAME/NAME_gpu.c), behind the
 * back-end (backend.h), under the same name. */
#ifndef GPUTUI_EXPERIMENT_H
#define GPUTUI_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gputui/device/devprops.h"
#include "gputui/measure/param.h"

#define GT_MAX_SERIES 12
#define GT_MAX_TIMES 8

/* How a sample's result was checked. */
typedef enum {
    GT_V_FULL = 0,     /* every element compared */
    GT_V_SAMPLED = 1,  /* random blocks compared (large host buffers) */
    GT_V_FAILED = 2    /* a compared element was wrong */
} gt_verify;

typedef struct gt_sample {
    uint32_t gen;      /* configuration generation (engine.h) */
    uint8_t series;    /* index into the experiment's series names */
    uint8_t verify;    /* gt_verify */
    double sec;        /* timed duration */
    uint64_t bytes;    /* bytes moved once during 'sec' */
    uint8_t disturbed; /* another process may have used the GPU meanwhile
                          (engine/share.h): counted, and kept in the figures */
    uint8_t again;     /* a replay's loop: a recorded sample played again once all
                          have played (replay.c); a run's figures count it once */
} gt_sample;

/* Figures a set-up measures besides the samples (allocation times ...). */
typedef struct gt_setup_info {
    int ntimes;
    struct { char label[64]; double sec; } times[GT_MAX_TIMES];
    char note[160];    /* e.g. how results are verified */
    char timing[128];  /* how a sample's time was taken, when not plainly events */
    uint32_t skipped;  /* bit s: series s is never produced on this device */
    char why_skipped[96];
    bool kept;         /* the configuration before's set-up was kept: times[0]
                          says why, and no time was spent */
} gt_setup_info;

struct gt_run;

#define GT_SUMMARY_LINES 8
typedef char gt_summary_line[160];

typedef struct gt_experiment {
    const char *name;
    const char *title;
    const char *explain;          /* one paragraph for the help pane */
    const gt_param *params;
    int nparams;
    int warmup_param;             /* index of the warm-up count, -1 if none */
    /* Series this configuration produces ("H2D", "D2H"); returns count. */
    int (*series)(const int64_t *vals, const char **names);
    /* Optional: device-dependent limits (free memory, features). 0, or -1
     * with a message that names the limit. Call gt_experiment_check. */
    int (*check)(const int64_t *vals, const gt_devprops *p,
                 char *err, size_t errlen);
    /* Optional: physical ceiling of series s in bytes/s, 0 when unknown.
     * *factor is what a sample's bytes-once bandwidth is multiplied by
     * before it is compared with the ceiling (2 for a device copy: read +
     * write). Call gt_experiment_ceiling. */
    double (*ceiling)(const int64_t *vals, int s, const gt_devprops *p,
                      double *factor, char *label, size_t labellen);
    bool bandwidth;               /* bandwidth means something here (shown) */
    /* Optional: whether it does under these values (overrides bandwidth). */
    bool (*bandwidth_for)(const int64_t *vals);
    /* Optional: lines that compare the series of a run (ratios, speed-up);
     * returns how many. */
    int (*summary)(struct gt_run *r, const gt_devprops *p,
                   gt_summary_line *lines, int max);
    /* Optional: in a sweep of parameter 'param', a value to mark on the
     * plot (the L2 set-aside in a sweep of the region), NAN for none. */
    double (*sweep_mark)(const int64_t *vals, int param, const gt_devprops *p,
                         char *label, size_t labellen);
    /* Optional: the values a sweep of 'param' steps through (the L2 region
     * from 5 MiB to twice the L2); returns how many, 0 for the default. */
    int (*sweep_values)(int param, const gt_devprops *p, int64_t *out, int max);
    /* Optional: the parameter that names a second GPU, an enum whose value
     * j + 1 is GPU j: --batch --pairs all measures every ordered pair of
     * GPUs by setting it (report/pairs.c). */
    const char *pair_param;
    /* Optional: 'y', the lines after why's title that set series s's
     * median against its bounds (measure/bounds.h, report/why.h); returns
     * how many, or -1 when no bound decomposes the figure under these
     * values. */
    int (*why)(struct gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max);
} gt_experiment;

/* An experiment's table row defines itself with
 *     GT_EXPERIMENT(gt_exp_NAME) = { .name = "NAME", ... };
 * (src/experiments/NAME/NAME.c) and is one line of the list in
 * src/experiments/all.h, which the registry (gputui/experiments/registry.h)
 * and the CUDA back-end read. */
#define GT_EXPERIMENT(sym)              \
    extern const gt_experiment sym;     \
    const gt_experiment sym

int gt_experiment_param(const gt_experiment *e, const char *name);
void gt_experiment_defaults(const gt_experiment *e, int64_t *vals);
/* Rejects values given explicitly (bit i of 'given') that do not apply to
 * the rest of the configuration. 0 or -1 with a message. */
int gt_experiment_validate(const gt_experiment *e, const int64_t *vals,
                           uint64_t given, char *err, size_t errlen);
/* "host=pinned dir=h2d size=64M ..." for headers and logs. */
char *gt_experiment_describe(const gt_experiment *e, const int64_t *vals,
                             char *buf, size_t len);

/* Whether going from values 'from' to 'to' changes only parameters that
 * need no new set-up (gt_param.iteration), at least one of them: the
 * warm-up count always, the others only when 'retune' (the back-end can
 * take them into a set-up). On true, 'what' names them ("copies per
 * sample"). */
bool gt_experiment_iteration_only(const gt_experiment *e, const int64_t *from,
                                  const int64_t *to, bool retune, char *what, size_t len);
/* Whether bandwidth is shown for these values. */
bool gt_experiment_bandwidth(const gt_experiment *e, const int64_t *vals);
/* e->check, or 0 when the experiment has none. */
int gt_experiment_check(const gt_experiment *e, const int64_t *vals, const gt_devprops *p,
                        char *err, size_t errlen);
/* e->ceiling, or 0 ("no ceiling known") when the experiment has none. */
double gt_experiment_ceiling(const gt_experiment *e, const int64_t *vals, int s,
                             const gt_devprops *p, double *factor, char *label,
                             size_t labellen);

/* The two physical ceilings, for an experiment's ceiling function: the
 * link to the host per direction (factor 1; PCIe or NVLink-C2C, none on an
 * integrated GPU: gt_host_link), or the device memory peak, which a
 * device copy uses twice (read + write: factor 2); and the link between
 * two GPUs. */
double gt_ceiling_host(const gt_devprops *p, double *factor, char *label, size_t labellen);
/* "p50 = 87.9% of PCIe Gen5 x16 (63.0 GB/s)": a bandwidth p50 (bytes/s,
 * counted once) against a ceiling and its factor (gt_experiment_ceiling).
 * Returns buf. */
char *gt_ceiling_share(double bw_p50, double factor, double ceil, const char *label, char *buf,
                       size_t len);
double gt_ceiling_hbm(const gt_devprops *p, double *factor, char *label, size_t labellen);
/* The device memory peak for a kernel that only reads it (factor 1). */
double gt_ceiling_hbm_read(const gt_devprops *p, double *factor, char *label, size_t labellen);
/* Whether 'bytes' may fit in the L2, where no ceiling is known: then the
 * label says so ("none known: the WHAT fits in the L2", or the L2's size
 * is unknown), factor 1. */
bool gt_ceiling_in_l2(const gt_devprops *p, uint64_t bytes, const char *what, double *factor,
                      char *label, size_t labellen);
/* Between GPUs a and b: their NVLinks (links x the generation's rate, one
 * way), else the PCIe link; 0 when NVML could not say. */
double gt_ceiling_link(const gt_devprops *p, int a, int b, double *factor, char *label,
                       size_t labellen);

void gt_setup_info_time(gt_setup_info *info, double sec,
                        const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Set-up row i's time as shown: "kept" for a kept set-up (no time was
 * spent), else its seconds. Returns buf. */
const char *gt_setup_time_text(const gt_setup_info *info, int i, char *buf, size_t len);
/* Sets info->timing (cut at its size). */
void gt_setup_info_timing(gt_setup_info *info, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
