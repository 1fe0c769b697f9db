/* keep.h - when a buffer outlives its configuration. Changing only a size
 * should not free and pin host memory again (1 GiB of cudaMallocHost takes
 * ~0.4 s): an experiment's teardown hands its buffers to src/gpu/kept_buffers.c,
 * and the next set-up takes them back when they fit. This is the policy;
 * it is plain arithmetic so that it is unit-tested on any machine. */
#ifndef GPUTUI_KEEP_H
#define GPUTUI_KEEP_H

#include <stdbool.h>
#include <stdint.h>

/* Never keep more than this in one buffer after its configuration. */
#define GT_KEEP_MAX_BYTES (1ull << 30)
/* A kept buffer is reused for at most this many times less than it holds
 * (4 KiB from a kept 1 GiB would pin 1 GiB for nothing). */
#define GT_KEEP_SLACK 8

/* Reuse a kept buffer (have_kind, have_flags, cap bytes) for a set-up that
 * needs 'bytes' of kind/flags: same kind and flags, cap >= bytes, and cap
 * at most GT_KEEP_SLACK x bytes. */
bool gt_keep_reuse(int have_kind, unsigned have_flags, uint64_t cap, int kind, unsigned flags,
                   uint64_t bytes);

/* Keep a buffer of cap bytes when its configuration ends, 'kept' bytes of
 * its kind being kept already and 'avail' available (host: MemAvailable;
 * device: free memory; 0 = unknown): cap <= GT_KEEP_MAX_BYTES and
 * kept + cap <= avail / 4. Unknown availability keeps nothing. */
bool gt_keep_hold(uint64_t cap, uint64_t kept, uint64_t avail);

#endif
