/* The transpose experiment's table row: an N x N matrix of 32-bit words
 * (floats) copied tile by tile, transposed naively, through a shared-memory
 * tile, and through a tile padded by one word a row, in blocks of tile x
 * rows threads, each thread tile / rows elements (NVIDIA's "efficient
 * matrix transpose" method). The GPU side is src/experiments/transpose/transpose_gpu.c, its
 * kernels transpose_kernels.cu. */
#include "transpose.h"

#include "gputui/experiments/smem.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const gt_param params[GT_TP_NPARAMS] = {
    [GT_TP_N] = {.name = "n", .label = "matrix N x N", .type = GT_P_INT, .min = 64,
                 .max = 32768, .def = 8192,
                 .help = "words a side, a multiple of the tile; 8192 makes 256 MiB, several "
                         "times the L2"},
    [GT_TP_TILE] = {.name = "tile", .label = "tile", .type = GT_P_INT, .min = 4, .max = 128,
                    .def = 32,
                    .help = "a block's tile is tile x tile words; 32 makes a tile row a warp"},
    [GT_TP_ROWS] = {.name = "rows", .label = "block rows", .type = GT_P_INT, .min = 1,
                    .max = 128, .def = 8,
                    .help = "a block is tile x rows threads, each moving tile / rows words"},
    [GT_TP_WARMUP] = GT_PARAM_WARMUP(3),
};

int gt_tp_conflict(int tile, int pad)
{
    uint32_t q[32];

    /* thread (tx, ty) = (l mod tile, l / tile) reads tile[tx][ty] */
    for (int l = 0; l < 32; l++)
        q[l] = (uint32_t)((l % tile) * (tile + pad) + l / tile);
    return gt_bk_busiest(q, 32);
}

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_TP_S_COPY] = "copy";
    names[GT_TP_S_NAIVE] = "naive";
    names[GT_TP_S_TILED] = "tiled";
    names[GT_TP_S_PADDED] = "tiled, padded";
    return GT_TP_NSERIES;
}

static uint64_t matrix_bytes(const int64_t *v)
{
    return (uint64_t)v[GT_TP_N] * (uint64_t)v[GT_TP_N] * 4u;
}

bool gt_tp_fits_l2(const int64_t *v, const gt_devprops *p)
{
    return gt_dp_ok(p, GT_DP_L2) && 2 * matrix_bytes(v) <= (uint64_t)gt_dp_get(p, GT_DP_L2);
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    int64_t N = v[GT_TP_N], tile = v[GT_TP_TILE], rows = v[GT_TP_ROWS];
    uint64_t smem = (uint64_t)tile * (uint64_t)(tile + 1) * 4u, need = 2 * matrix_bytes(v);
    char a[32], b[32];

    if (tile * rows > 1024) {
        snprintf(err, n, "a block of tile x rows = %lld x %lld = %lld threads; at most 1024: "
                 "rows 1 to %lld", (long long)tile, (long long)rows, (long long)(tile * rows),
                 (long long)(1024 / tile));
        return -1;
    }
    if (smem > GT_TP_SMEM_MAX) {
        int top = 1;
        while ((uint64_t)(top + 1) * (uint64_t)(top + 2) * 4u <= GT_TP_SMEM_MAX)
            top++;
        snprintf(err, n, "tile %lld: the padded tile takes %llu B of shared memory, more than "
                 "the %u B a block has without opting in; allowed: tile 4 to %d",
                 (long long)tile, (unsigned long long)smem, GT_TP_SMEM_MAX, top);
        return -1;
    }
    if (tile % rows) {
        snprintf(err, n, "rows: %lld does not divide the tile (%lld), so a thread would move "
                 "part of a column; allowed: a divisor of %lld", (long long)rows, (long long)tile,
                 (long long)tile);
        return -1;
    }
    if (N % tile) {
        long long lo = (long long)(N / tile * tile), hi = lo + (long long)tile;
        if (lo >= 64)
            snprintf(err, n, "n: %lld is not a multiple of the tile (%lld); allowed: a multiple "
                     "such as %lld or %lld", (long long)N, (long long)tile, lo, hi);
        else
            snprintf(err, n, "n: %lld is not a multiple of the tile (%lld); allowed: a multiple "
                     "such as %lld", (long long)N, (long long)tile, hi);
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && need > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE) / 10 * 9) {
        snprintf(err, n, "n: %lld needs %s of device memory (the matrix and its result); %s "
                 "is free", (long long)N, gt_format_size(need, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b));
        return -1;
    }
    return 0;
}

/* Each kernel reads the matrix and writes as much: device memory, read +
 * write, unless both fit in the L2. */
static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    (void)s;
    *factor = 1.0;
    if (gt_tp_fits_l2(v, p)) {
        snprintf(label, n, "none known: the matrix and its transpose fit in the L2");
        return 0;
    }
    return gt_ceiling_hbm(p, factor, label, n);
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    double cp = gt_run_p50(r, GT_TP_S_COPY), nv = gt_run_p50(r, GT_TP_S_NAIVE);
    double tl = gt_run_p50(r, GT_TP_S_TILED), pd = gt_run_p50(r, GT_TP_S_PADDED);
    double bytes = 2.0 * (double)matrix_bytes(r->vals);
    int n = 0;

    (void)p;
    if (max < 1 || !isfinite(cp) || !isfinite(nv) || !isfinite(tl) || !isfinite(pd) || cp <= 0)
        return 0;
    snprintf(lines[n++], sizeof lines[0], "read + write GB/s (p50): copy %.0f, naive %.0f, tiled "
             "%.0f, padded %.0f", bytes / cp / 1e9, bytes / nv / 1e9, bytes / tl / 1e9,
             bytes / pd / 1e9);
    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "of the copy's rate: naive %.0f%%, tiled %.0f%%, "
                 "padded %.0f%%; padding makes the tiled one %.2fx faster", 100 * cp / nv,
                 100 * cp / tl, 100 * cp / pd, tl / pd);
    return n;
}

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)

static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double t = gt_run_p50(r, s), bytes = (double)matrix_bytes(v);
    long long tile = (long long)v[GT_TP_TILE], rows = (long long)v[GT_TP_ROWS];
    char a[32];
    int n = 0;

    if (!isfinite(t) || t <= 0)
        return 0;
    LINE("%s read and as much written in %.3f ms (p50): %.0f GB/s read + write",
         gt_format_size(matrix_bytes(v), a, sizeof a), t * 1e3, 2 * bytes / t / 1e9);
    if (gt_dp_ok(p, GT_DP_MEM_PEAK))
        LINE("device memory: %.0f GB/s peak; %.0f%% of it", gt_dp_get(p, GT_DP_MEM_PEAK) / 1e9,
             100 * 2 * bytes / t / (double)gt_dp_get(p, GT_DP_MEM_PEAK));
    LINE("blocks of %lld x %lld threads, each moving %lld words of a %lld x %lld tile", tile,
         rows, tile / rows, tile, tile);
    switch (s) {
    case GT_TP_S_COPY:
        LINE("rows in, rows out: every warp's reads and writes coalesced; the ceiling");
        break;
    case GT_TP_S_NAIVE:
        LINE("reads along a row (coalesced); writes down a column: each thread's word %lld B "
             "after its neighbour's, a 32-byte sector for 4 useful bytes",
             (long long)v[GT_TP_N] * 4);
        break;
    case GT_TP_S_TILED:
        LINE("the tile is read by rows and written by rows; in between a warp reads a column "
             "of the shared tile, %lld words apart: %d-way bank conflicts", tile,
             gt_tp_conflict((int)tile, 0));
        break;
    default: {
        int k = gt_tp_conflict((int)tile, 1);
        LINE("a tile row of %lld words: a column's words, %lld apart, are %d-way in conflict%s",
             tile + 1, tile + 1, k, k == 1 ? ": none" : "");
        break;
    }
    }
    return n;
}

GT_EXPERIMENT(gt_exp_transpose) = {
    .name = "transpose",
    .title = "Matrix transpose: naive, tiled, padded",
    .explain =
        "An N x N matrix of 32-bit words (floats) four ways, in blocks of tile x rows threads "
        "that each move tile / rows words: a copy, the ceiling; a naive transpose, whose "
        "writes stride down a column; a transpose through a tile x tile shared array, which "
        "makes both sides coalesced but reads the tile's columns with bank conflicts; and the "
        "same with each tile row padded by one word, which removes them. Every result is "
        "poisoned before and checked after each kernel.",
    .params = params,
    .nparams = GT_TP_NPARAMS,
    .warmup_param = GT_TP_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = true,
    .summary = summary,
    .why = why,
};
