/* The texture experiment's table row: one 5-point stencil over a 2D image
 * read five ways (linear memory, pitched memory, a CUDA array through a
 * texture object, linear memory through a texture object, a CUDA array
 * through a surface object that also writes the result), under a walk
 * that suits linear memory (rows) or not (columns, a diagonal, scrambled
 * tiles), with the array's filtering and addressing; and what filling the
 * array costs beside filling pitched memory. The GPU side is
 * src/experiments/texture/texture_gpu.c, its kernels texture_kernels.cu. */
#include "texture.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const type_names[] = {"float", "uchar4"};
static const char *const access_names[] = {"row", "column", "rotated", "tile"};
static const char *const filter_names[] = {"point", "linear"};
static const char *const address_names[] = {"clamp", "wrap"};

static const gt_param params[GT_TX_NPARAMS] = {
    [GT_TX_WIDTH] = {.name = "width", .label = "width (texels)", .type = GT_P_INT, .min = 64,
                     .max = 16384, .def = 4096,
                     .help = "texels a row, a multiple of 32; +/- powers of two"},
    [GT_TX_HEIGHT] = {.name = "height", .label = "height (rows)", .type = GT_P_INT, .min = 64,
                      .max = 16384, .def = 4096,
                      .help = "rows, a multiple of 8; +/- powers of two"},
    [GT_TX_TYPE] = {.name = "type", .label = "texel", .type = GT_P_ENUM, .max = 1,
                    .def = GT_TX_FLOAT, .choices = type_names, .nchoices = 2,
                    .help = "float: one 32-bit float a texel; uchar4: four bytes (read as "
                            "normalized floats when filtered)"},
    [GT_TX_ACCESS] = {.name = "access", .label = "walk", .type = GT_P_ENUM, .max = 3,
                      .def = GT_TX_ROW, .choices = access_names, .nchoices = 4,
                      .help = "how a warp's threads walk the image: along a row, down a column, "
                              "along a diagonal (rotated 45 degrees), or row by row in 32 x 8 "
                              "tiles taken in a scrambled order"},
    [GT_TX_FILTER] = {.name = "filter", .label = "array filter", .type = GT_P_ENUM, .max = 1,
                      .def = GT_TX_POINT, .choices = filter_names, .nchoices = 2,
                      .help = "the array's texture: point (the nearest texel) or linear "
                              "(bilinear between four, in the texture unit, 1/256 steps)"},
    [GT_TX_ADDRESS] = {.name = "address", .label = "array address", .type = GT_P_ENUM,
                       .max = 1, .def = GT_TX_CLAMP, .choices = address_names, .nchoices = 2,
                       .help = "past the edge: clamp to it or wrap around (wrap needs "
                               "normalized coordinates); the other reads do the same by hand"},
    [GT_TX_NORMALIZED] = {.name = "normalized", .label = "normalized coords", .type = GT_P_BOOL,
                          .max = 1,
                          .help = "the array's coordinates in [0, 1) instead of texels"},
    [GT_TX_WARMUP] = GT_PARAM_WARMUP(2),
};

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_TX_S_LINEAR] = "linear";
    names[GT_TX_S_PITCHED] = "pitched";
    names[GT_TX_S_ARRAY] = "array (texture)";
    names[GT_TX_S_LINTEX] = "linear (texture)";
    names[GT_TX_S_FILL_ARRAY] = "fill array";
    names[GT_TX_S_FILL_PITCH] = "fill pitched";
    names[GT_TX_S_SURFACE] = "array (surface)";
    return GT_TX_NSERIES;
}

static uint64_t image_bytes(const int64_t *v)
{
    return (uint64_t)v[GT_TX_WIDTH] * (uint64_t)v[GT_TX_HEIGHT] * 4u;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double lin = gt_run_p50(r, GT_TX_S_LINEAR), pit = gt_run_p50(r, GT_TX_S_PITCHED);
    double arr = gt_run_p50(r, GT_TX_S_ARRAY), ltx = gt_run_p50(r, GT_TX_S_LINTEX);
    double fa = gt_run_p50(r, GT_TX_S_FILL_ARRAY), fp = gt_run_p50(r, GT_TX_S_FILL_PITCH);
    double sf = gt_run_p50(r, GT_TX_S_SURFACE);
    int n = 0;

    (void)p;
    if (!isfinite(lin) || !isfinite(arr) || lin <= 0)
        return 0;
    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "the array through a texture: %.2fx linear "
                 "memory's time%s", arr / lin,
                 r->vals[GT_TX_FILTER] == GT_TX_LINEAR ? " (it filters; the others do not)" : "");
    if (n < max && isfinite(pit) && isfinite(ltx))
        snprintf(lines[n++], sizeof lines[0], "pitched memory %.2fx, linear memory through a "
                 "texture %.2fx linear memory's time", pit / lin, ltx / lin);
    if (n < max && isfinite(sf))
        snprintf(lines[n++], sizeof lines[0], "the array through a surface (read, and the result "
                 "written into an array): %.2fx linear memory's time", sf / lin);
    if (n < max && isfinite(fa) && isfinite(fp) && fp > 0)
        snprintf(lines[n++], sizeof lines[0], "filling the array (cudaMemcpy2DToArray) %.2fx "
                 "the time of filling pitched memory (cudaMemcpy2D)", fa / fp);
    return n;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    char a[32], b[32];
    /* the image in four forms (one a surface's array), five outputs and the
     * surface's output array, two expected results */
    uint64_t need = 12 * image_bytes(v);

    if (v[GT_TX_WIDTH] % 32 || v[GT_TX_HEIGHT] % 8) {
        snprintf(err, n, "%s: %lld; allowed: a multiple of %d, 64 to 16384",
                 v[GT_TX_WIDTH] % 32 ? "width" : "height",
                 (long long)v[v[GT_TX_WIDTH] % 32 ? GT_TX_WIDTH : GT_TX_HEIGHT],
                 v[GT_TX_WIDTH] % 32 ? 32 : 8);
        return -1;
    }
    if ((gt_dp_ok(p, GT_DP_TEX2D_W) && v[GT_TX_WIDTH] > gt_dp_get(p, GT_DP_TEX2D_W)) ||
        (gt_dp_ok(p, GT_DP_TEX2D_H) && v[GT_TX_HEIGHT] > gt_dp_get(p, GT_DP_TEX2D_H))) {
        snprintf(err, n, "width x height: %lld x %lld is larger than this device's largest 2D "
                 "texture (maxTexture2D %lld x %lld)", (long long)v[GT_TX_WIDTH],
                 (long long)v[GT_TX_HEIGHT], (long long)gt_dp_get(p, GT_DP_TEX2D_W),
                 (long long)gt_dp_get(p, GT_DP_TEX2D_H));
        return -1;
    }
    if (v[GT_TX_ADDRESS] == GT_TX_WRAP && !v[GT_TX_NORMALIZED]) {
        snprintf(err, n, "address: wrap needs normalized=on: CUDA wraps normalized coordinates "
                 "only (allowed with normalized=off: clamp)");
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && need > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE) / 2) {
        snprintf(err, n, "width x height: %s of device memory for the image's four forms, the "
                 "outputs (one an array) and the expected results, more than half of the %s free",
                 gt_format_size(need, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b));
        return -1;
    }
    return 0;
}

/* A kernel reads the image and writes as much; past the L2 that is bounded
 * by device memory, within it by nothing known. The fills cross the link. */
static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    *factor = 1.0;
    if (s == GT_TX_S_FILL_ARRAY || s == GT_TX_S_FILL_PITCH)
        return gt_ceiling_host(p, factor, label, n);
    if (gt_ceiling_in_l2(p, image_bytes(v), "image", factor, label, n))
        return 0;
    return gt_ceiling_hbm(p, factor, label, n);
}

/* Texel (x, y)'s sum of channels, as the kernels add them. */
static float texel(int type, uint32_t x, uint32_t y)
{
    if (type == GT_TX_FLOAT)
        return gt_tx_float(x, y);
    return (float)gt_tx_byte(x, y, 0) + gt_tx_byte(x, y, 1) + gt_tx_byte(x, y, 2) +
           gt_tx_byte(x, y, 3);
}

/* The point stencil centred on every (u, v) of 0..w x 0..h (one past each
 * edge: the bilinear taps reach it), then each thread's walk picks its
 * point, and the bilinear stencil is the blend of four neighbouring point
 * stencils: the taps and the blend commute, edges included. */
int gt_tx_expected(const int64_t *v, float *point, float *filtered)
{
    uint32_t w = (uint32_t)v[GT_TX_WIDTH], h = (uint32_t)v[GT_TX_HEIGHT];
    int type = (int)v[GT_TX_TYPE], access = (int)v[GT_TX_ACCESS], address = (int)v[GT_TX_ADDRESS];
    size_t pw = (size_t)w + 1;
    float *t = malloc((size_t)w * h * sizeof *t), *p = malloc(pw * (h + 1) * sizeof *p);
    const float a = GT_TX_OFF_X, b = GT_TX_OFF_Y;

    if (!t || !p) {
        free(t);
        free(p);
        return -1;
    }
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            t[(size_t)y * w + x] = texel(type, x, y);
    for (uint32_t y = 0; y <= h; y++)
        for (uint32_t x = 0; x <= w; x++) {
            float sum = 0;
            if (x >= 1 && x + 1 < w && y >= 1 && y + 1 < h) {
                const float *c = t + (size_t)y * w + x;
                sum += c[0];
                sum += c[-1];
                sum += c[1];
                sum += c[-(ptrdiff_t)w];
                sum += c[w];
            } else {
                static const int dx[5] = {0, -1, 1, 0, 0}, dy[5] = {0, 0, 0, -1, 1};
                for (int k = 0; k < 5; k++)
                    sum += t[(size_t)gt_tx_edge((int64_t)y + dy[k], h, address) * w +
                             gt_tx_edge((int64_t)x + dx[k], w, address)];
            }
            p[(size_t)y * pw + x] = sum;
        }
    for (uint32_t gy = 0; gy < h; gy++)
        for (uint32_t gx = 0; gx < w; gx++) {
            uint32_t sx, sy;
            size_t i = (size_t)gy * w + gx;
            gt_tx_walk(access, gx, gy, w, h, &sx, &sy);
            point[i] = p[(size_t)sy * pw + sx];
            if (filtered)
                filtered[i] = (1 - a) * (1 - b) * point[i] + a * (1 - b) * p[(size_t)sy * pw + sx + 1] +
                              (1 - a) * b * p[(size_t)(sy + 1) * pw + sx] +
                              a * b * p[(size_t)(sy + 1) * pw + sx + 1];
        }
    free(t);
    free(p);
    return 0;
}

/* 'y': a series' median as traffic, and what the walk does to it. */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double t = gt_run_p50(r, s), bytes = (double)image_bytes(v), lin = gt_run_p50(r, GT_TX_S_LINEAR);
    int n = 0;
    char a[32];

    if (!isfinite(t) || t <= 0)
        return 0;
    gt_format_size(image_bytes(v), a, sizeof a);
#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)
    if (s == GT_TX_S_FILL_ARRAY || s == GT_TX_S_FILL_PITCH) {
        LINE("%s from pinned memory in %.3f ms (p50): %.1f GB/s", a, t * 1e3, bytes / t / 1e9);
        char what[64];
        double link = gt_host_link(p, NULL, what, sizeof what);
        if (link > 0)
            LINE("the link (%s): %.1f GB/s a direction; %.0f%% of it", what, link / 1e9,
                 100 * bytes / t / link);
        if (s == GT_TX_S_FILL_ARRAY)
            LINE("the copy also lays the rows out in the array's opaque 2D layout");
        else
            LINE("row by row, each row starting a pitch (a padded row) after the last");
        return n;
    }
    LINE("%s read and as much written in %.3f ms (p50): %.1f GB/s of traffic at best (each "
         "texel read once)", a, t * 1e3, 2 * bytes / t / 1e9);
    if (gt_dp_ok(p, GT_DP_MEM_PEAK))
        LINE("device memory: %.0f GB/s peak; %s", gt_dp_get(p, GT_DP_MEM_PEAK) / 1e9,
             gt_dp_ok(p, GT_DP_L2) && image_bytes(v) <= (uint64_t)gt_dp_get(p, GT_DP_L2) ?
             "but the image fits in the L2" : "the image does not fit in the L2");
    switch (v[GT_TX_ACCESS]) {
    case GT_TX_COLUMN:
        LINE("down a column: a warp's 32 texels lie in 32 rows; from linear memory that is 32 "
             "sectors of 32 B for 128 useful bytes");
        break;
    case GT_TX_ROTATED:
        LINE("a diagonal: a warp's 32 texels lie in 32 rows and 32 columns");
        break;
    case GT_TX_TILE:
        LINE("tiles: a warp reads one row of a 32 x 8 tile; the tiles come in a scrambled order");
        break;
    default:
        LINE("along a row: a warp's 32 texels are 128 contiguous bytes, one coalesced access "
             "from linear memory");
        break;
    }
    if (s == GT_TX_S_ARRAY)
        LINE("the array keeps texels near in 2D near in memory, and the texture cache serves "
             "them%s", v[GT_TX_FILTER] == GT_TX_LINEAR ? "; each fetch blends four texels" : "");
    else if (s == GT_TX_S_LINTEX)
        LINE("the same bytes as linear memory, read through the texture cache by index");
    else if (s == GT_TX_S_SURFACE)
        LINE("an array in the same layout, read by texel through a surface (no filtering; the "
             "edges by hand), each result stored into a second array through another");
    if (s != GT_TX_S_LINEAR && isfinite(lin) && lin > 0)
        LINE("%.2fx linear memory's time", t / lin);
#undef LINE
    return n;
}

GT_EXPERIMENT(gt_exp_texture) = {
    .name = "texture",
    .title = "CUDA arrays, textures and surfaces: one stencil read five ways",
    .explain =
        "A CUDA array is an opaque layout made for texture fetches: texels close in 2D are "
        "close in memory, and the texture unit can filter and handle the edges. Each sample "
        "runs one 5-point stencil (a texel and its four neighbours, summed) over a width x "
        "height image five times: from cudaMalloc memory, from cudaMallocPitch memory, from "
        "a CUDA array through a texture object (tex2D, with the filter, address mode and "
        "coordinates chosen), from the cudaMalloc memory through a texture object "
        "(tex1Dfetch), and from a CUDA array through a surface object (surf2Dread), which "
        "writes its result into a second array (surf2Dwrite): surfaces read and write "
        "arrays, textures only read them. The walk decides which texels a warp's threads "
        "read together: a row (coalesced for linear memory), a column, a diagonal, or "
        "scrambled tiles. Each "
        "kernel is timed with events behind the timing gate and every output is checked "
        "against the host's own stencil (the filtered one within the texture unit's 1/256 "
        "steps). Beside them, cudaMemcpy2DToArray and cudaMemcpy2D fill the array and the "
        "pitched buffer from pinned memory.",
    .params = params,
    .nparams = GT_TX_NPARAMS,
    .warmup_param = GT_TX_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = true,
    .summary = summary,
    .why = why,
};
