/* constant.h - parameter indices and series of the __constant__
 * memory experiment, shared by its table row (core) and its back-end
 * (gpu). */
#ifndef GPUTUI_EXP_CONSTANT_H
#define GPUTUI_EXP_CONSTANT_H

#include "gputui/measure/experiment.h"

enum { GT_CO_OP, GT_CO_READS, GT_CO_SIZE, GT_CO_WARMUP, GT_CO_NPARAMS };
/* read: a kernel reads a 256-word array again and again, three ways;
 * copy: cudaMemcpyToSymbol against cudaMemcpy of the same bytes. */
enum { GT_CO_OP_READ, GT_CO_OP_COPY };
/* op=read: __constant__ with every thread of a warp on the same word
 * (broadcast), with each thread on its own word (32 words a warp load),
 * and the same array in global memory read the second way. */
enum { GT_CO_S_BROADCAST, GT_CO_S_DIVERGENT, GT_CO_S_GLOBAL };
/* op=copy: host-timed calls of 'size' bytes. */
enum { GT_CO_S_TOSYMBOL, GT_CO_S_MEMCPY, GT_CO_S_FROMSYMBOL };

/* The words the kernels of op=read cycle through (a power of two), and
 * the most a copy may move: the 64 KiB of constant memory a module has. */
#define GT_CO_WORDS 256
#define GT_CO_MAX_BYTES 65536

extern const gt_experiment gt_exp_constant;

/* The word at index i of the array, drawn from seed (the host's and the
 * device's fill agree). */
static inline uint32_t gt_co_word(uint32_t i, uint32_t seed)
{
    uint32_t x = (i + 1u) * 2654435761u ^ seed;
    return x ^ (x >> 15);
}

#endif
