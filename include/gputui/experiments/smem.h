/* smem.h - the arithmetic of shared memory's 32 banks of 4 bytes, for the
 * experiments that count the wavefronts of a warp's request (banks,
 * transpose). */
#ifndef GPUTUI_EXPERIMENTS_SMEM_H
#define GPUTUI_EXPERIMENTS_SMEM_H

#include <stdint.h>

/* The most distinct 32-bit words (indices q[0..n), n <= 128) that any one
 * of the 32 banks (bank q mod 32) must deliver: the wavefronts of a
 * request, one word read by several lanes being broadcast. */
int gt_bk_busiest(const uint32_t *q, int n);

#endif
