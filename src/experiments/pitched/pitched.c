/* The pitched-memory experiment's table row. The GPU side is
 * src/experiments/pitched/pitched_gpu.c. */
#include "pitched.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/bounds.h"
#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const dims_names[] = {"2d", "3d"};
static const char *const measure_names[] = {"h2d", "d2h", "kernel"};

static bool three_d(const int64_t *v, const char **why)
{
    if (v[GT_PI_DIMS] == GT_PI_3D)
        return true;
    *why = "only with dims=3d";
    return false;
}

static const gt_param params[GT_PI_NPARAMS] = {
    [GT_PI_DIMS] = {.name = "dims", .label = "dimensions", .type = GT_P_ENUM, .max = 1,
                    .def = GT_PI_2D, .choices = dims_names, .nchoices = 2,
                    .help = "2d: cudaMallocPitch + cudaMemcpy2D; 3d: cudaMalloc3D + cudaMemcpy3D"},
    [GT_PI_MEASURE] = {.name = "measure", .label = "measure", .type = GT_P_ENUM, .max = 2,
                       .def = GT_PI_H2D, .choices = measure_names, .nchoices = 3,
                       .help = "h2d or d2h: the 2D/3D copy from or to packed pinned host memory; "
                               "kernel: a kernel that walks the rows"},
    [GT_PI_WIDTH] = {.name = "width", .label = "row width W", .type = GT_P_SIZE, .min = 1,
                     .max = 1 << 20, .def = 1000, .align = 1, .unit = "bytes",
                     .help = "bytes per row; try 1000, 4096 and 4100"},
    [GT_PI_HEIGHT] = {.name = "height", .label = "rows H", .type = GT_P_INT, .min = 1,
                      .max = 1 << 20, .def = 262144,
                      .help = "rows (per slice for 3d); the default makes 256 MB or more, "
                              "several times a large L2"},
    [GT_PI_DEPTH] = {.name = "depth", .label = "slices D", .type = GT_P_INT, .min = 1, .max = 4096,
                     .def = 1, .help = "slices of the volume", .applies = three_d},
    [GT_PI_WARMUP] = GT_PARAM_WARMUP(3),
};

static int series(const int64_t *v, const char **names)
{
    names[GT_PI_S_PACKED] = "packed (pitch = W)";
    names[GT_PI_S_PITCHED] = v[GT_PI_DIMS] == GT_PI_3D ? "cudaMalloc3D" : "cudaMallocPitch";
    return 2;
}

static uint64_t bytes_of(const int64_t *v)
{
    return (uint64_t)v[GT_PI_WIDTH] * (uint64_t)v[GT_PI_HEIGHT] *
           (uint64_t)(v[GT_PI_DIMS] == GT_PI_3D ? v[GT_PI_DEPTH] : 1);
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    uint64_t b = bytes_of(v);
    char a[32], c[32], d[32];

    if (b > (4ull << 30)) {
        snprintf(err, n, "width x height%s: %s; at most 4 GiB",
                 v[GT_PI_DIMS] == GT_PI_3D ? " x depth" : "", gt_format_size(b, a, sizeof a));
        return -1;
    }
    /* packed + pitched (with at most 2x padding) on the device */
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && 3 * b > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "width x height: %s needs up to %s of device memory; %s is free",
                 gt_format_size(b, a, sizeof a), gt_format_size(3 * b, c, sizeof c),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), d, sizeof d));
        return -1;
    }
    return 0;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double a = gt_dist_percentile(&r->s[GT_PI_S_PACKED].bw, 0.5);
    double b = gt_dist_percentile(&r->s[GT_PI_S_PITCHED].bw, 0.5);

    (void)p;
    if (max < 1 || !isfinite(a) || !isfinite(b) || a <= 0)
        return 0;
    snprintf(lines[0], sizeof lines[0], "%s: packed %.2f GB/s, %s %.2f GB/s (p50): %.2fx",
             measure_names[r->vals[GT_PI_MEASURE]], a / 1e9, r->s[GT_PI_S_PITCHED].name, b / 1e9,
             b / a);
    return 1;
}

static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    (void)s;
    /* The kernel reads and writes each byte. */
    return v[GT_PI_MEASURE] == GT_PI_KERNEL ? gt_ceiling_hbm(p, factor, label, n)
                                            : gt_ceiling_host(p, factor, label, n);
}

/* 'y': a copy's median against the host link (measure/bounds.h); the
 * kernel's figure has no bound to decompose (-1). */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    gt_lines o = {lines, 0, max};

    if (r->vals[GT_PI_MEASURE] == GT_PI_KERNEL)
        return -1;
    gt_bound_pcie(&o, r, s, p, r->vals[GT_PI_MEASURE] == GT_PI_H2D);
    return o.n;
}

GT_EXPERIMENT(gt_exp_pitched) = {
    .name = "pitched",
    .title = "Pitched 2D/3D memory",
    .explain =
        "An array of H rows of W bytes (D slices for 3d), on the device two ways: packed, "
        "every row right after the last (cudaMalloc, pitch = W), and pitched, every row "
        "starting on the alignment CUDA chooses (cudaMallocPitch / cudaMalloc3D; the pane "
        "shows the pitch and the padding). The 2D/3D copies move W bytes per row between "
        "packed pinned host memory and either layout; the kernel adds 1 to every byte, a "
        "block per row, with 32-bit accesses when W is a multiple of 4. Widths that are not multiples of the alignment, such as 1000 or "
        "4100 bytes, leave packed rows misaligned; multiples such as 4096 do not.",
    .params = params,
    .nparams = GT_PI_NPARAMS,
    .warmup_param = GT_PI_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = true,
    .summary = summary,
    .why = why,
};
