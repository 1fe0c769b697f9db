/* patterns.h - data patterns that the CPU (src/gpu) and the check kernels
 * (kernels/) compute the same way, so that either side can verify what the
 * other wrote. Plain C; no CUDA header. */
#ifndef GPUTUI_PATTERNS_H
#define GPUTUI_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GT_PAT_HD __host__ __device__
#else
#define GT_PAT_HD
#endif

/* The zero-copy experiment's inputs: small whole numbers, so every sum is
 * exact in float and a check never reads the (possibly write-combined)
 * inputs back. */
static inline GT_PAT_HD float gt_zc_a(size_t i, uint32_t seed)
{
    return (float)(((uint32_t)i * 7u + seed) & 1023u);
}

static inline GT_PAT_HD float gt_zc_b(size_t i, uint32_t seed)
{
    return (float)(((uint32_t)i * 13u + seed * 5u) & 1023u);
}

/* Byte i of the pitched experiment's W x H (x D) array, in packed order. */
static inline GT_PAT_HD uint8_t gt_pi_byte(size_t i, uint32_t seed)
{
    return (uint8_t)((i * 131u + seed) ^ (i >> 11));
}

#endif
