/* streams.h - parameter indices of the stream-overlap experiment,
 * shared by its table row (core) and its back-end (gpu), and the kernel's
 * arithmetic, which the CPU checks in closed form. */
#ifndef GPUTUI_EXP_STREAMS_H
#define GPUTUI_EXP_STREAMS_H

#include "gputui/measure/experiment.h"

enum { GT_STR_CHUNKS, GT_STR_CHUNK, GT_STR_STREAMS, GT_STR_WORK, GT_STR_HOST, GT_STR_FLAGS,
       GT_STR_LEGACY, GT_STR_ALLOC, GT_STR_WARMUP, GT_STR_NPARAMS };
enum { GT_STR_HOST_PINNED, GT_STR_HOST_PAGEABLE };
enum { GT_STR_FLAGS_DEFAULT, GT_STR_FLAGS_NONBLOCKING };
/* An allocation issued between one chunk's work and the next's. */
enum { GT_STR_ALLOC_NONE, GT_STR_ALLOC_DEVICE, GT_STR_ALLOC_HOST };
#define GT_STR_ALLOC_BYTES (1u << 20)
enum { GT_STR_SERIES_SERIAL, GT_STR_SERIES_STREAMS };

/* The kernel applies x = x * GT_STR_LCG_A + c (mod 2^32) 'work' times to
 * every word, with a c that changes every run. */
#define GT_STR_LCG_A 1664525u

/* What 'work' steps amount to: x -> ak * x + sk * c, with ak = A^work and
 * sk = 1 + A + ... + A^(work-1). sk is never 0 mod 2^32 for work < 2^32
 * (A = 1 mod 4), so a new odd c changes every output word. */
static inline void gt_str_map(uint32_t work, uint32_t *ak, uint32_t *sk)
{
    uint32_t a = 1, s = 0;
    for (uint32_t i = 0; i < work; i++) {
        s += a;
        a *= GT_STR_LCG_A;
    }
    *ak = a;
    *sk = s;
}

extern const gt_experiment gt_exp_streams;

#endif
