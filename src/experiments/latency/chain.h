/* chain.h - the chains that the latency experiment walks with dependent
 * loads: a buffer of 'slots' slots, 'stride' bytes apart; slot
 * k holds the address of the slot that follows it, so each load's
 * address is what the load before returned. Linear chains step to the next
 * slot; random ones follow one cycle through every slot (Sattolo's
 * algorithm), which no prefetcher predicts. The host walks the same chain
 * to check where a walk on the GPU ended. */
#ifndef GPUTUI_CHAIN_H
#define GPUTUI_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Random chains keep their order on the host: at most this many slots. */
#define GT_CHAIN_MAX_RANDOM_SLOTS (1u << 26)

/* next[k] = the slot after slot k: k + 1 (linear) or a single random cycle
 * through all slots drawn from seed. slots >= 2. */
void gt_chain_order(uint32_t *next, size_t slots, bool random, uint64_t seed);
/* The slot reached after 'steps' steps from 'start': (start + steps) mod
 * slots when next is NULL (linear), else by following next. */
uint32_t gt_chain_walk(const uint32_t *next, size_t slots, uint32_t start, uint64_t steps);
/* Where each of 'lanes' walkers starts: evenly spaced along the chain
 * from 'start' (lane 0), so they never meet; one pass over the chain. */
void gt_chain_lane_starts(const uint32_t *next, size_t slots, uint32_t start, int lanes,
                          uint32_t *out);

#endif
