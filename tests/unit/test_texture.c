/* The texture experiment's table row: its refusals, its walks (which
 * texel each thread's stencil centres on), the edges, its ceilings and its
 * summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "experiments/texture/texture.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"
#include "testutil.h"

static void values_and_refusals(void **state)
{
    const gt_experiment *e = gt_experiment_find("texture");
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    gt_devprops p;
    char err[400];
    (void)state;
    assert_ptr_equal(e, &gt_exp_texture);
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    assert_int_equal(v[GT_TX_WIDTH], 4096);
    assert_int_equal(v[GT_TX_ACCESS], GT_TX_ROW);
    assert_int_equal(e->series(v, names), GT_TX_NSERIES);
    assert_string_equal(names[GT_TX_S_ARRAY], "array (texture)");
    assert_string_equal(names[GT_TX_S_FILL_PITCH], "fill pitched");
    assert_string_equal(names[GT_TX_S_SURFACE], "array (surface)");
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    v[GT_TX_WIDTH] = 100;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "width: 100; allowed: a multiple of 32, 64 to 16384");
    v[GT_TX_WIDTH] = 4096;
    v[GT_TX_HEIGHT] = 100;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "height: 100; allowed: a multiple of 8, 64 to 16384");
    v[GT_TX_HEIGHT] = 4096;
    v[GT_TX_ADDRESS] = GT_TX_WRAP;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "wrap needs normalized=on"));
    v[GT_TX_NORMALIZED] = 1;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    /* twelve images' worth must fit in half the free memory */
    gt_dp_set(&p, GT_DP_MEM_FREE, 1ll << 30);
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "768 MiB of device memory"));
    assert_non_null(strstr(err, "more than half of the 1 GiB free"));
}

static void walks_and_edges(void **state)
{
    uint32_t sx, sy, seen[64 * 16] = {0};
    (void)state;
    gt_tx_walk(GT_TX_ROW, 5, 7, 64, 16, &sx, &sy);
    assert_true(sx == 5 && sy == 7);
    /* down a column: neighbouring threads one row apart */
    gt_tx_walk(GT_TX_COLUMN, 0, 0, 64, 16, &sx, &sy);
    assert_true(sx == 0 && sy == 0);
    gt_tx_walk(GT_TX_COLUMN, 1, 0, 64, 16, &sx, &sy);
    assert_true(sx == 0 && sy == 1);
    gt_tx_walk(GT_TX_COLUMN, 16, 0, 64, 16, &sx, &sy);
    assert_true(sx == 1 && sy == 0);
    /* a diagonal: one right and one up */
    gt_tx_walk(GT_TX_ROTATED, 3, 5, 64, 16, &sx, &sy);
    assert_true(sx == 8 && sy == 2);
    gt_tx_walk(GT_TX_ROTATED, 6, 2, 64, 16, &sx, &sy);
    assert_true(sx == 8 && sy == 12);
    /* tiles: every texel once, 32 x 8 at a time */
    for (uint32_t gy = 0; gy < 16; gy++)
        for (uint32_t gx = 0; gx < 64; gx++) {
            gt_tx_walk(GT_TX_TILE, gx, gy, 64, 16, &sx, &sy);
            assert_true(sx < 64 && sy < 16);
            assert_int_equal(sx % 32, gx % 32);
            assert_int_equal(sy % 8, gy % 8);
            seen[sy * 64 + sx]++;
        }
    for (int i = 0; i < 64 * 16; i++)
        assert_int_equal(seen[i], 1);
    /* past the edge */
    assert_int_equal(gt_tx_edge(-1, 64, GT_TX_CLAMP), 0);
    assert_int_equal(gt_tx_edge(64, 64, GT_TX_CLAMP), 63);
    assert_int_equal(gt_tx_edge(-1, 64, GT_TX_WRAP), 63);
    assert_int_equal(gt_tx_edge(64, 64, GT_TX_WRAP), 0);
    assert_int_equal(gt_tx_edge(17, 64, GT_TX_WRAP), 17);
    /* the image's values */
    assert_true(gt_tx_float(1, 0) == 7.0f / 1024);
    assert_true(gt_tx_float(0, 80) == (float)(1040 & 1023) / 1024);
    assert_int_equal(gt_tx_byte(1, 1, 1), 19);
}

static void ceilings_and_summary(void **state)
{
    const gt_experiment *e = &gt_exp_texture;
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    double f;
    char label[64];
    (void)state;
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_PCIE_BW, 63000000000ll);
    gt_dp_set(&p, GT_DP_PCIE_GEN_MAX, 5);
    gt_dp_set(&p, GT_DP_PCIE_WIDTH_MAX, 16);
    gt_dp_set(&p, GT_DP_MEM_PEAK, 4800000000000ll);
    gt_dp_set(&p, GT_DP_L2, 60ll << 20);
    gt_experiment_defaults(e, v);
    assert_true(e->ceiling(v, GT_TX_S_LINEAR, &p, &f, label, sizeof label) == 4.8e12);
    assert_true(f == 2.0);
    assert_true(e->ceiling(v, GT_TX_S_FILL_ARRAY, &p, &f, label, sizeof label) == 63e9);
    v[GT_TX_WIDTH] = 1024;      /* 4 MiB: in the L2 */
    assert_true(e->ceiling(v, GT_TX_S_ARRAY, &p, &f, label, sizeof label) == 0);
    assert_string_equal(label, "none known: the image fits in the L2");
    gt_experiment_defaults(e, v);
    gt_run_init(&r, e, v, 1);
    {
        static const double sec[GT_TX_NSERIES] = {
            [GT_TX_S_LINEAR] = 0.4e-3, [GT_TX_S_PITCHED] = 0.38e-3, [GT_TX_S_ARRAY] = 0.1e-3,
            [GT_TX_S_LINTEX] = 0.3e-3, [GT_TX_S_FILL_ARRAY] = 1.5e-3, [GT_TX_S_FILL_PITCH] = 1.2e-3,
            [GT_TX_S_SURFACE] = 0.12e-3};
        run_add_each(&r, 1, sec, GT_TX_NSERIES, 64 << 20, 3);
    }
    assert_int_equal(e->summary(&r, &p, lines, GT_SUMMARY_LINES), 4);
    assert_string_equal(lines[0], "the array through a texture: 0.25x linear memory's time");
    assert_string_equal(lines[1], "pitched memory 0.95x, linear memory through a texture 0.75x "
                                  "linear memory's time");
    assert_string_equal(lines[2], "the array through a surface (read, and the result written "
                                  "into an array): 0.30x linear memory's time");
    assert_non_null(strstr(lines[3], "1.25x the time of filling pitched memory"));
    /* y: the array's kernel as traffic, and what the walk does */
    int n = e->why(&r, GT_TX_S_ARRAY, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 5);
    assert_string_equal(lines[0], "64 MiB read and as much written in 0.100 ms (p50): 1342.2 GB/s "
                                  "of traffic at best (each texel read once)");
    assert_non_null(strstr(lines[1], "4800 GB/s peak; the image does not fit in the L2"));
    assert_non_null(strstr(lines[2], "along a row"));
    assert_non_null(strstr(lines[4], "0.25x linear memory's time"));
    n = e->why(&r, GT_TX_S_FILL_PITCH, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 3);
    assert_non_null(strstr(lines[1], "the link (PCIe Gen5 x16): 63.0 GB/s a direction"));
    gt_run_free(&r);
}

/* The host's stencil, tap by tap as the kernels and the texture unit do
 * it: what gt_tx_expected must give, exactly for the point stencil. */
static float brute_texel(int type, int64_t x, int64_t y, uint32_t w, uint32_t h, int address)
{
    uint32_t tx = gt_tx_edge(x, w, address), ty = gt_tx_edge(y, h, address);
    if (type == GT_TX_FLOAT)
        return gt_tx_float(tx, ty);
    return (float)gt_tx_byte(tx, ty, 0) + gt_tx_byte(tx, ty, 1) + gt_tx_byte(tx, ty, 2) +
           gt_tx_byte(tx, ty, 3);
}

static void expected_against_taps(void **state)
{
    static const int dx[5] = {0, -1, 1, 0, 0}, dy[5] = {0, 0, 0, -1, 1};
    static const uint32_t dims[][2] = {{64, 64}, {96, 72}, {32, 8}};
    int64_t v[GT_MAX_PARAMS];
    (void)state;
    gt_experiment_defaults(&gt_exp_texture, v);
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++)
        for (int type = 0; type < 2; type++)
            for (int acc = 0; acc < 4; acc++)
                for (int addr = 0; addr < 2; addr++) {
                    uint32_t w = dims[d][0], h = dims[d][1];
                    size_t n = (size_t)w * h;
                    float *pt = malloc(n * sizeof *pt), *fl = malloc(n * sizeof *fl);
                    const float a = GT_TX_OFF_X, b = GT_TX_OFF_Y;
                    double worst = 0;
                    v[GT_TX_WIDTH] = w, v[GT_TX_HEIGHT] = h, v[GT_TX_TYPE] = type;
                    v[GT_TX_ACCESS] = acc, v[GT_TX_ADDRESS] = addr;
                    assert_int_equal(gt_tx_expected(v, pt, fl), 0);
                    for (uint32_t gy = 0; gy < h; gy++)
                        for (uint32_t gx = 0; gx < w; gx++) {
                            uint32_t sx, sy;
                            float p = 0, f = 0;
                            gt_tx_walk(acc, gx, gy, w, h, &sx, &sy);
                            for (int k = 0; k < 5; k++) {
                                int64_t x = (int64_t)sx + dx[k], y = (int64_t)sy + dy[k];
                                p += brute_texel(type, x, y, w, h, addr);
                                f += (1 - a) * (1 - b) * brute_texel(type, x, y, w, h, addr) +
                                     a * (1 - b) * brute_texel(type, x + 1, y, w, h, addr) +
                                     (1 - a) * b * brute_texel(type, x, y + 1, w, h, addr) +
                                     a * b * brute_texel(type, x + 1, y + 1, w, h, addr);
                            }
                            assert_true(pt[(size_t)gy * w + gx] == p);
                            double e = fabs((double)fl[(size_t)gy * w + gx] - f);
                            worst = e > worst ? e : worst;
                        }
                    /* float rounding only: far inside the 5/256 of a texel's range allowed */
                    assert_true(worst <= (type == GT_TX_FLOAT ? 1e-5 : 1e-2));
                    free(pt);
                    free(fl);
                }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_and_refusals),
        cmocka_unit_test(walks_and_edges),
        cmocka_unit_test(ceilings_and_summary),
        cmocka_unit_test(expected_against_taps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
