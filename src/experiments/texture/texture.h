/* texture.h - parameter indices and series of the texture experiment
 * (one 2D stencil read from linear memory, pitched memory, a CUDA array
 * through a texture object, linear memory through one, and a CUDA array
 * through a surface object), shared by its
 * table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_TEXTURE_H
#define GPUTUI_EXP_TEXTURE_H

#include <stdint.h>

#include "gputui/experiments/patterns.h"
#include "gputui/measure/experiment.h"

enum {
    GT_TX_WIDTH, GT_TX_HEIGHT, GT_TX_TYPE, GT_TX_ACCESS, GT_TX_FILTER, GT_TX_ADDRESS,
    GT_TX_NORMALIZED, GT_TX_WARMUP, GT_TX_NPARAMS
};
enum { GT_TX_FLOAT, GT_TX_UCHAR4 };
/* How the threads of a warp walk the image: along a row; down a column;
 * along a diagonal (each thread on another row and column); row by row in
 * 32 x 8 tiles taken in a scrambled order. */
enum { GT_TX_ROW, GT_TX_COLUMN, GT_TX_ROTATED, GT_TX_TILE };
enum { GT_TX_POINT, GT_TX_LINEAR };
enum { GT_TX_CLAMP, GT_TX_WRAP };

/* The series, in this order (the surface last: recordings made before it
 * keep their indices). */
enum {
    GT_TX_S_LINEAR,     /* cudaMalloc, indexed loads */
    GT_TX_S_PITCHED,    /* cudaMallocPitch, indexed loads */
    GT_TX_S_ARRAY,      /* a CUDA array through a texture object (tex2D) */
    GT_TX_S_LINTEX,     /* the cudaMalloc buffer through a texture object (tex1Dfetch) */
    GT_TX_S_FILL_ARRAY, /* cudaMemcpy2DToArray from pinned memory */
    GT_TX_S_FILL_PITCH, /* cudaMemcpy2D into the pitched buffer from pinned memory */
    GT_TX_S_SURFACE,    /* a CUDA array through a surface object (surf2Dread), the result
                         * written through another (surf2Dwrite) into a second array */
    GT_TX_NSERIES
};

/* With filter=linear the array is sampled this far past each texel's
 * centre: weights of 1/4 and 5/8, exact in the texture unit's 8
 * fractional bits. */
#define GT_TX_OFF_X 0.25f
#define GT_TX_OFF_Y 0.625f

extern const gt_experiment gt_exp_texture;

/* Channel c (0 for float) of texel (x, y): a float in [0, 1) with 10 bits,
 * or a byte. The host's stencil and the upload both use these. */
static inline GT_PAT_HD float gt_tx_float(uint32_t x, uint32_t y)
{
    return (float)((x * 7u + y * 13u) & 1023u) / 1024.0f;
}

static inline GT_PAT_HD uint8_t gt_tx_byte(uint32_t x, uint32_t y, uint32_t c)
{
    return (uint8_t)((x * 3u + y * 5u + c * 11u) & 255u);
}

/* The texel a thread's stencil centres on, for thread (gx, gy) of a
 * w x h grid: the walk's mapping (tiles: w a multiple of 32, h of 8). The
 * thread writes its result at gy * w + gx whatever the walk. */
static inline GT_PAT_HD void gt_tx_walk(int access, uint32_t gx, uint32_t gy, uint32_t w,
                                        uint32_t h, uint32_t *sx, uint32_t *sy)
{
    uint64_t t;
    uint32_t tiles_x, ntiles, tile, p;

    switch (access) {
    case GT_TX_COLUMN:
        t = (uint64_t)gy * w + gx;
        *sx = (uint32_t)(t / h);
        *sy = (uint32_t)(t % h);
        break;
    case GT_TX_ROTATED:
        *sx = (gx + gy) % w;
        *sy = (uint32_t)(((uint64_t)gy + h - gx % h) % h);
        break;
    case GT_TX_TILE:
        tiles_x = w / 32;
        ntiles = tiles_x * (h / 8);
        tile = (gy / 8) * tiles_x + gx / 32;
        /* Scrambled: an odd multiplier permutes the first power of two of
         * the tiles (mod that power); the rest keep their order. */
        p = tile;
        {
            uint32_t pow2 = 1;
            while (pow2 * 2 <= ntiles)
                pow2 *= 2;
            if (tile < pow2)
                p = (uint32_t)(((uint64_t)tile * 2654435761u) & (pow2 - 1));
        }
        *sx = (p % tiles_x) * 32 + gx % 32;
        *sy = (p / tiles_x) * 8 + gy % 8;
        break;
    default:
        *sx = gx;
        *sy = gy;
        break;
    }
}

/* What every thread of configuration v must write (w x h floats each):
 * point[i], the 5-point stencil as the kernels sum it (exactly), and, when
 * filtered is not NULL, the bilinear one the array's texture gives with
 * filter=linear (to float rounding). 0, or -1 when out of memory. */
int gt_tx_expected(const int64_t *v, float *point, float *filtered);

/* A texel coordinate past the edge, clamped or wrapped. */
static inline GT_PAT_HD uint32_t gt_tx_edge(int64_t v, uint32_t n, int address)
{
    if (address == GT_TX_WRAP)
        return (uint32_t)(((v % (int64_t)n) + (int64_t)n) % (int64_t)n);
    return v < 0 ? 0 : v >= (int64_t)n ? n - 1 : (uint32_t)v;
}

#endif
