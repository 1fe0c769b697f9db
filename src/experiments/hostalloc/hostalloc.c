/* The host-allocation experiment's table row. The GPU side is
 * src/experiments/hostalloc/hostalloc_gpu.c. */
#include "hostalloc.h"

#include <math.h>
#include <stdio.h>

#include "gputui/experiments/host.h"
#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const op_names[] = {"alloc", "cpu"};
static const char *const kind_names[] = {"pageable", "pinned", "hostalloc", "register"};

static bool flag_applies(const int64_t *v, const char **why)
{
    if (v[GT_HA_KIND] != GT_HOST_HOSTALLOC && v[GT_HA_KIND] != GT_HOST_REGISTER) {
        *why = "only with kind=hostalloc or kind=register";
        return false;
    }
    return true;
}

static bool wc_applies(const int64_t *v, const char **why)
{
    if (v[GT_HA_KIND] != GT_HOST_HOSTALLOC) {
        *why = "only with kind=hostalloc (cudaHostAllocWriteCombined)";
        return false;
    }
    return true;
}

static const gt_param params[GT_HA_NPARAMS] = {
    [GT_HA_OP] = {.name = "op", .label = "measure", .type = GT_P_ENUM, .max = 1,
                  .def = GT_HA_OP_ALLOC, .choices = op_names, .nchoices = 2,
                  .help = "alloc: time to allocate and to free; cpu: CPU write and read bandwidth"},
    [GT_HA_KIND] = {.name = "kind", .label = "host memory", .type = GT_P_ENUM, .max = 3,
                    .def = GT_HOST_PINNED, .choices = kind_names, .nchoices = 4,
                    .help = "pageable (malloc + first touch), pinned (cudaMallocHost), hostalloc "
                            "(cudaHostAlloc + flags), register (malloc + cudaHostRegister)"},
    [GT_HA_PORTABLE] = {.name = "portable", .label = "  portable", .type = GT_P_BOOL, .max = 1,
                        .help = "cudaHostAllocPortable / cudaHostRegisterPortable",
                        .applies = flag_applies},
    [GT_HA_WC] = {.name = "write-combined", .label = "  write-combined", .type = GT_P_BOOL,
                  .max = 1,
                  .help = "cudaHostAllocWriteCombined: bypasses the CPU caches; reading it back "
                          "is usually slow",
                  .applies = wc_applies},
    [GT_HA_MAPPED] = {.name = "mapped", .label = "  mapped", .type = GT_P_BOOL, .max = 1,
                      .help = "cudaHostAllocMapped / cudaHostRegisterMapped",
                      .applies = flag_applies},
    [GT_HA_SIZE] = {.name = "size", .label = "size", .type = GT_P_SIZE, .min = 4096,
                    .max = 4ll << 30, .def = 64ll << 20, .align = 4096, .unit = "bytes",
                    .help = "bytes per allocation, a multiple of 4 KiB; +/- in powers of two"},
    [GT_HA_WARMUP] = GT_PARAM_WARMUP(1),
};

static int series(const int64_t *v, const char **out)
{
    if (v[GT_HA_OP] == GT_HA_OP_ALLOC) {
        out[0] = "allocate";
        out[1] = "free";
        if (v[GT_HA_KIND] == GT_HOST_REGISTER) {
            out[2] = "register used pages";
            return 3;
        }
    } else {
        out[0] = "CPU write";
        out[1] = "CPU read";
    }
    return 2;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double a = gt_dist_percentile(&r->s[0].lat, 0.5), b = gt_dist_percentile(&r->s[1].lat, 0.5);
    char x[32], y[32], sz[32];

    (void)p;
    if (max < 1 || !isfinite(a) || !isfinite(b))
        return 0;
    gt_format_size((uint64_t)r->vals[GT_HA_SIZE], sz, sizeof sz);
    if (r->vals[GT_HA_OP] == GT_HA_OP_ALLOC) {
        double c = gt_run_p50(r, 2);
        snprintf(lines[0], sizeof lines[0], "%s: allocate %s, free %s (p50)", sz,
                 gt_format_seconds(a, x, sizeof x), gt_format_seconds(b, y, sizeof y));
        if (max > 1 && isfinite(c)) {
            snprintf(lines[1], sizeof lines[1], "cudaHostRegister alone, of pages already "
                     "written: %s (p50)", gt_format_seconds(c, x, sizeof x));
            return 2;
        }
    } else
        snprintf(lines[0], sizeof lines[0], "%s: CPU write %.2f GB/s, read %.2f GB/s (p50); "
                 "read/write %.3f", sz, (double)r->vals[GT_HA_SIZE] / a / 1e9,
                 (double)r->vals[GT_HA_SIZE] / b / 1e9, a / b);
    return 1;
}

GT_EXPERIMENT(gt_exp_hostalloc) = {
    .name = "hostalloc",
    .title = "Host allocation cost",
    .explain =
        "op=alloc allocates and frees one buffer per iteration and times both on the CPU: "
        "pinning memory (cudaMallocHost, cudaHostAlloc) costs far more than malloc, and "
        "registering existing memory (cudaHostRegister) sits in between. For register, "
        "'allocate' is malloc + cudaHostRegister of fresh pages, which registering faults "
        "in; 'register used pages' is cudaHostRegister alone, of a buffer already written, "
        "as a program pinning its own buffer pays. op=cpu writes and "
        "then reads the whole buffer with the CPU: write-combined memory bypasses the CPU "
        "caches, which usually makes reading it back far slower than writing it; the "
        "histograms show whether it does on this machine. Each allocation is checked with "
        "cudaPointerGetAttributes and by writing and reading back its pages.",
    .params = params,
    .nparams = GT_HA_NPARAMS,
    .warmup_param = GT_HA_WARMUP,
    .series = series,
    .bandwidth = true,
    .summary = summary,
};
