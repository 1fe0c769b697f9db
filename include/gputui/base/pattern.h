/* pattern.h - the words gputui writes and checks, the same on the host and
 * on the GPU, without the CUDA headers: word i of the pattern is
 * (uint32)i * K ^ seed. */
#ifndef GPUTUI_PATTERN_H
#define GPUTUI_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define GT_PATTERN_K 0x9E3779B1u

#ifdef __CUDACC__
#define GT_HOST_DEVICE __host__ __device__
#else
#define GT_HOST_DEVICE
#endif

static inline GT_HOST_DEVICE uint32_t gt_pattern_word(size_t i, uint32_t seed)
{
    return ((uint32_t)i * GT_PATTERN_K) ^ seed;
}

#endif
