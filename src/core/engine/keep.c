/* The reuse policy of buffers kept across configurations (keep.h). */
#include "gputui/engine/keep.h"

bool gt_keep_reuse(int have_kind, unsigned have_flags, uint64_t cap, int kind, unsigned flags,
                   uint64_t bytes)
{
    return have_kind == kind && have_flags == flags && cap >= bytes && bytes > 0 &&
           cap / GT_KEEP_SLACK <= bytes;
}

bool gt_keep_hold(uint64_t cap, uint64_t kept, uint64_t avail)
{
    return cap > 0 && cap <= GT_KEEP_MAX_BYTES && avail > 0 && kept + cap <= avail / 4;
}
