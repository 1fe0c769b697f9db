// What the kernels of several experiments share in a launch: blocks of
// kThreads threads, and grid(n), the blocks that give n threads one each.
#ifndef GPUTUI_KERNELS_LAUNCH_CUH
#define GPUTUI_KERNELS_LAUNCH_CUH

#include <stdint.h>

namespace gt_launch {

constexpr int kThreads = 256;

inline int grid(uint64_t n)
{
    return (int)((n + kThreads - 1) / kThreads);
}

}  // namespace gt_launch

#endif
