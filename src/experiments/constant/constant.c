/* The __constant__ memory experiment's table row: how a warp's reads of
 * constant memory are served (one word broadcast, or a word a thread,
 * serialised), against the same data in global memory; and what
 * cudaMemcpyToSymbol costs beside cudaMemcpy. The GPU side is
 * src/experiments/constant/constant_gpu.c, its kernels constant_kernels.cu. */
#include "constant.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const op_names[] = {"read", "copy"};

static bool read_op(const int64_t *v, const char **why)
{
    if (v[GT_CO_OP] == GT_CO_OP_READ)
        return true;
    *why = "only with op=read";
    return false;
}

static bool copy_op(const int64_t *v, const char **why)
{
    if (v[GT_CO_OP] == GT_CO_OP_COPY)
        return true;
    *why = "only with op=copy";
    return false;
}

static const gt_param params[GT_CO_NPARAMS] = {
    [GT_CO_OP] = {.name = "op", .label = "measure", .type = GT_P_ENUM, .max = 1,
                  .def = GT_CO_OP_READ, .choices = op_names, .nchoices = 2,
                  .help = "read: kernels that read a 256-word __constant__ array with a warp on "
                          "one word, with a word a thread, and the same array in global memory; "
                          "copy: cudaMemcpyToSymbol, cudaMemcpy and cudaMemcpyFromSymbol of the "
                          "same bytes"},
    [GT_CO_READS] = {.name = "reads", .label = "reads per thread", .type = GT_P_INT, .min = 256,
                     .max = 1 << 20, .def = 4096,
                     .help = "words each thread reads per kernel (one block of 256 threads on "
                             "every SM)",
                     .applies = read_op},
    [GT_CO_SIZE] = {.name = "size", .label = "bytes copied", .type = GT_P_SIZE, .min = 4,
                    .max = GT_CO_MAX_BYTES, .def = 1024, .align = 4, .unit = "bytes",
                    .help = "bytes per call, up to the 64 KiB of constant memory; the default is "
                            "256 floats",
                    .applies = copy_op},
    [GT_CO_WARMUP] = GT_PARAM_WARMUP(3),
};

static int series(const int64_t *v, const char **names)
{
    if (v[GT_CO_OP] == GT_CO_OP_READ) {
        names[GT_CO_S_BROADCAST] = "constant, broadcast";
        names[GT_CO_S_DIVERGENT] = "constant, a word a thread";
        names[GT_CO_S_GLOBAL] = "global, a word a thread";
    } else {
        names[GT_CO_S_TOSYMBOL] = "cudaMemcpyToSymbol";
        names[GT_CO_S_MEMCPY] = "cudaMemcpy H2D";
        names[GT_CO_S_FROMSYMBOL] = "cudaMemcpyFromSymbol";
    }
    return 3;
}

static bool shows_bandwidth(const int64_t *v)
{
    return v[GT_CO_OP] == GT_CO_OP_COPY;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double a = gt_run_p50(r, 0), b = gt_run_p50(r, 1), c = gt_run_p50(r, 2);
    int n = 0;

    (void)p;
    if (!isfinite(a) || !isfinite(b) || !isfinite(c) || a <= 0)
        return 0;
    if (r->vals[GT_CO_OP] == GT_CO_OP_READ) {
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "a word a thread: %.1fx the broadcast's time "
                     "(32 different words a warp load are served one after another)", b / a);
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "global memory, a word a thread: %.2fx the "
                     "constant broadcast's time, %.2fx the constant a word a thread", c / a,
                     c / b);
    } else {
        char s[32];
        if (n < max)
            snprintf(lines[n++], sizeof lines[0], "%s: cudaMemcpyToSymbol %.1f us, cudaMemcpy "
                     "%.1f us (%.2fx), cudaMemcpyFromSymbol %.1f us (p50, host clock)",
                     gt_format_size((uint64_t)r->vals[GT_CO_SIZE], s, sizeof s), a * 1e6,
                     b * 1e6, a / b, c * 1e6);
    }
    return n;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    (void)p;
    if (v[GT_CO_OP] == GT_CO_OP_COPY && v[GT_CO_SIZE] % 4) {
        snprintf(err, n, "size: %lld B; allowed: a multiple of 4 bytes, 4 B to 64 KiB",
                 (long long)v[GT_CO_SIZE]);
        return -1;
    }
    return 0;
}

GT_EXPERIMENT(gt_exp_constant) = {
    .name = "constant",
    .title = "__constant__ memory",
    .explain =
        "A __constant__ array is read through each SM's constant cache, which serves one "
        "address to a whole warp at once (a broadcast) and several addresses one after "
        "another. op=read times three kernels, one block of 256 threads on every SM, each "
        "thread summing 'reads' words of a 256-word array: constant memory with every "
        "thread of a warp on the same word, constant memory with each thread on its own "
        "word, and the same array in global memory read the second way (one cache line a "
        "warp load). Every thread's sum is checked. op=copy times, on the host clock, "
        "cudaMemcpyToSymbol into the array against cudaMemcpy of the same bytes into "
        "global memory, and cudaMemcpyFromSymbol back; cudaGetSymbolAddress gives the "
        "array's device address, through which the copy is checked.",
    .params = params,
    .nparams = GT_CO_NPARAMS,
    .warmup_param = GT_CO_WARMUP,
    .series = series,
    .check = check,
    .bandwidth_for = shows_bandwidth,
    .summary = summary,
};
