/* Chains for dependent loads (chain.h). */
#include "chain.h"

#include "gputui/base/common.h"

void gt_chain_order(uint32_t *next, size_t slots, bool random, uint64_t seed)
{
    uint32_t *perm = next;      /* built in place: first a cycle order, then successors */
    uint64_t rng = seed ? seed : 0x9E3779B97F4A7C15ull;

    if (!random) {
        for (size_t k = 0; k < slots; k++)
            next[k] = (uint32_t)((k + 1) % slots);
        return;
    }
    /* Sattolo: a uniformly random single cycle. perm[i] is the slot after
     * slot i, drawn by swapping with an index strictly below i. */
    for (size_t k = 0; k < slots; k++)
        perm[k] = (uint32_t)k;
    for (size_t i = slots - 1; i > 0; i--) {
        size_t j = (size_t)(gt_xorshift64(&rng) % i);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

uint32_t gt_chain_walk(const uint32_t *next, size_t slots, uint32_t start, uint64_t steps)
{
    uint32_t k = start;

    if (!next)
        return (uint32_t)(((uint64_t)start + steps) % slots);
    for (uint64_t i = 0; i < steps; i++)
        k = next[k];
    return k;
}

void gt_chain_lane_starts(const uint32_t *next, size_t slots, uint32_t start, int lanes,
                          uint32_t *out)
{
    uint64_t gap = (uint64_t)slots / (uint64_t)lanes;
    uint32_t k = start;

    out[0] = start;
    for (int l = 1; l < lanes; l++) {   /* each lane goes on from the one before */
        k = gt_chain_walk(next, slots, k, gap);
        out[l] = k;
    }
}
