/* The concurrent kernels experiment's table row: N kernels that each spin
 * for a set time, queued on one stream and then on a stream each; on a
 * device with concurrentKernels the second run takes about one kernel's
 * time while the GPU has room, and the timeline shows them side by side.
 * The GPU side is src/experiments/concurrent/concurrent_gpu.c, its kernel kernels/spin.cu. */
#include "concurrent.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/measure/timeline.h"
#include "gputui/base/units.h"

static const gt_param params[GT_CK_NPARAMS] = {
    [GT_CK_KERNELS] = {.name = "kernels", .label = "kernels", .type = GT_P_INT, .min = 2,
                       .max = GT_TL_MAX_STREAMS, .def = 8, .step = 1,
                       .help = "kernels per run, each on its own stream in the second run"},
    [GT_CK_SPIN] = {.name = "spin", .label = "each kernel spins (us)", .type = GT_P_INT, .min = 10,
                    .max = 100000, .def = 200, .unit = "us",
                    .help = "how long each block of a kernel spins on the global timer"},
    [GT_CK_BLOCKS] = {.name = "blocks", .label = "blocks per kernel", .type = GT_P_INT,
                      .max = 65536, .def = 1,
                      .help = "blocks of one thread each; fill: as many as the GPU holds at once "
                              "(SMs x maxBlocksPerMultiProcessor), so one kernel leaves no room",
                      .zero_name = "fill"},
    [GT_CK_WARMUP] = GT_PARAM_WARMUP(3),
};

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_CK_S_ONE] = "one stream";
    names[GT_CK_S_EACH] = "a stream each";
    return 2;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double one = gt_run_p50(r, GT_CK_S_ONE), each = gt_run_p50(r, GT_CK_S_EACH);
    char a[32], b[32], c[32];
    int n = 0;

    if (n < max && isfinite(one) && isfinite(each) && each > 0)
        snprintf(lines[n++], sizeof lines[0], "%lld kernels of %lld us: one stream %s, a stream "
                 "each %s (%.1fx faster; one kernel alone is the bound, %s)",
                 (long long)r->vals[GT_CK_KERNELS], (long long)r->vals[GT_CK_SPIN],
                 gt_format_seconds(one, a, sizeof a), gt_format_seconds(each, b, sizeof b),
                 one / each, gt_format_seconds((double)r->vals[GT_CK_SPIN] * 1e-6, c, sizeof c));
    if (n < max && gt_dp_ok(p, GT_DP_CONC_KERNELS))
        snprintf(lines[n++], sizeof lines[0], "concurrentKernels = %lld: %s",
                 (long long)gt_dp_get(p, GT_DP_CONC_KERNELS),
                 gt_dp_get(p, GT_DP_CONC_KERNELS) ? "this device may run kernels of one context "
                 "at once" : "this device runs one kernel at a time");
    return n;
}

GT_EXPERIMENT(gt_exp_concurrent) = {
    .name = "concurrent",
    .title = "Concurrent kernels",
    .explain =
        "N kernels, each of 'blocks' one-thread blocks spinning for 'spin' microseconds on "
        "the global timer, queued first on one stream (they run one after another) and then "
        "each on its own stream, all released at once behind the timing gate. A device with "
        "concurrentKernels runs the second lot side by side while its SMs have room: about "
        "one kernel's time for all of them. With blocks=fill each kernel alone fills the GPU "
        "and streams bring nothing. The timeline shows both runs; every kernel's mark is "
        "checked.",
    .params = params,
    .nparams = GT_CK_NPARAMS,
    .warmup_param = GT_CK_WARMUP,
    .series = series,
    .summary = summary,
};
