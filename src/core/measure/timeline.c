#include "gputui/measure/timeline.h"

#include <math.h>
#include <string.h>

#include "gputui/base/units.h"

const char *const gt_tl_kind_names[GT_TL_KINDS] = {"H2D", "kernel", "D2H"};
const char gt_tl_glyphs[GT_TL_KINDS] = {'>', '#', '<'};

#define MAX_CELLS 1024

void gt_timeline_row(const gt_timeline *tl, int run, int stream, double span, int w,
                     signed char *cells)
{
    float cov[MAX_CELLS][GT_TL_KINDS];      /* time of each kind in each cell */

    if (w > MAX_CELLS)
        w = MAX_CELLS;
    memset(cov, 0, sizeof cov[0] * (size_t)(w > 0 ? w : 0));
    for (int c = 0; c < w; c++)
        cells[c] = -1;
    if (w <= 0 || !(span > 0))
        return;
    for (int i = 0; i < tl->nops; i++) {
        const gt_tl_op *o = &tl->ops[i];
        double a, b;
        int c0, c1;

        if (o->run != run || o->stream != stream || o->kind >= GT_TL_KINDS)
            continue;
        a = o->start / span * w;
        b = o->end / span * w;
        if (b < a || b <= 0 || a >= w)
            continue;
        /* Cells [c0, c1]: an operation ending exactly on a cell's edge
         * does not reach into the next cell. */
        c0 = a < 0 ? 0 : (int)a;
        c1 = b >= w ? w - 1 : (int)ceil(b - 1e-4) - 1;    /* times are floats */
        if (c1 < c0)
            c1 = c0;
        for (int c = c0; c <= c1; c++) {
            double lo = a > c ? a : c, hi = b < c + 1 ? b : c + 1;
            /* A zero-length overlap still marks the cell, barely. */
            cov[c][o->kind] += (float)(hi > lo ? hi - lo : 1e-6);
        }
    }
    for (int c = 0; c < w; c++) {
        float best = 0;
        for (int k = 0; k < GT_TL_KINDS; k++)
            if (cov[c][k] > best) {
                best = cov[c][k];
                cells[c] = (signed char)k;
            }
    }
}

double gt_timeline_ideal(const gt_timeline *tl)
{
    double m = 0;

    for (int k = 0; k < GT_TL_KINDS; k++)
        if (tl->sum[k] > m && !(k == GT_TL_KERNEL && tl->kernels_overlap))
            m = tl->sum[k];
    for (int i = 0; tl->kernels_overlap && i < tl->nops; i++) {
        const gt_tl_op *op = &tl->ops[i];
        if (op->run == GT_TL_SERIAL && op->kind == GT_TL_KERNEL && op->end - op->start > m)
            m = op->end - op->start;
    }
    return m;
}

static void print_row(FILE *f, const gt_timeline *tl, const char *label, int run, int stream,
                      double span, int w)
{
    signed char cells[MAX_CELLS];

    gt_timeline_row(tl, run, stream, span, w, cells);
    fprintf(f, "  %-10s|", label);
    for (int c = 0; c < w; c++)
        fputc(cells[c] < 0 ? ' ' : gt_tl_glyphs[(int)cells[c]], f);
    fputs("|\n", f);
}

void gt_timeline_print(FILE *f, const gt_timeline *tl, int w)
{
    double span = tl->total[GT_TL_SERIAL] > tl->total[GT_TL_STREAMS] ?
        tl->total[GT_TL_SERIAL] : tl->total[GT_TL_STREAMS];
    char a[32], b[32], h[32], k[32], d[32];

    if (w > MAX_CELLS)
        w = MAX_CELLS;
    fprintf(f, "  timeline of the last iteration, 0 to %s across: %c H2D  %c kernel  %c D2H\n",
            gt_format_seconds(span, a, sizeof a), gt_tl_glyphs[0], gt_tl_glyphs[1],
            gt_tl_glyphs[2]);
    print_row(f, tl, "serial", GT_TL_SERIAL, 0, span, w);
    for (int s = 0; s < tl->nstreams; s++) {
        char label[16];
        snprintf(label, sizeof label, "stream %d", s);
        print_row(f, tl, label, GT_TL_STREAMS, s, span, w);
    }
    fprintf(f, "  serial %s, streams %s; summed H2D %s, kernel %s, D2H %s\n",
            gt_format_seconds(tl->total[GT_TL_SERIAL], a, sizeof a),
            gt_format_seconds(tl->total[GT_TL_STREAMS], b, sizeof b),
            gt_format_seconds(tl->sum[GT_TL_H2D], h, sizeof h),
            gt_format_seconds(tl->sum[GT_TL_KERNEL], k, sizeof k),
            gt_format_seconds(tl->sum[GT_TL_D2H], d, sizeof d));
}
