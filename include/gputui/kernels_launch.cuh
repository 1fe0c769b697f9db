// What the kernels of several experiments share in a launch: blocks of
// kThreads threads, and grid(n), the blocks that give n threads one each;
// grid_upto, for a grid-stride loop, as many blocks of 'threads' as n
// items need, at most 'blocks' and at least one.
#ifndef GPUTUI_KERNELS_LAUNCH_CUH
#define GPUTUI_KERNELS_LAUNCH_CUH

#include <stdint.h>

namespace gt_launch {

constexpr int kThreads = 256;

inline int grid(uint64_t n)
{
    return (int)((n + kThreads - 1) / kThreads);
}

inline int grid_upto(uint64_t n, int threads, int blocks)
{
    uint64_t need = (n + (uint64_t)threads - 1) / (uint64_t)threads;
    if (need == 0)
        need = 1;
    return (int)(need < (uint64_t)blocks ? need : (uint64_t)blocks);
}

}  // namespace gt_launch

#endif
