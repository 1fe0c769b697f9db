/* Buffers kept across configurations (policy: include/gputui/engine/keep.h).
 * An experiment takes a slot's buffer at set-up when it fits and puts its
 * own back at teardown; gt_keep_release frees them all, which the back-end
 * does when the experiment changes, when the engine is released and
 * before the device is closed. Only the worker thread calls these. */
#define _GNU_SOURCE
#include <string.h>

#include "gputui/base/port.h"
#include "gputui/engine/keep.h"
#include "gpu.h"

static gt_kept slots[GT_KEEP_NSLOTS];

void gt_kept_free(gt_kept *k)
{
    if (k->device)
        gt_free_device(&k->d);
    else
        gt_hostmem_free(&k->h);
    memset(k, 0, sizeof *k);
}

bool gt_keep_take(int slot, bool device, int kind, unsigned flags, size_t bytes, gt_kept *out)
{
    gt_kept *k = &slots[slot];

    memset(out, 0, sizeof *out);
    if (!k->cap)
        return false;
    if (k->device == device && gt_keep_reuse(k->kind, k->flags, k->cap, kind, flags, bytes)) {
        *out = *k;
        memset(k, 0, sizeof *k);
        return true;
    }
    gt_kept_free(k);    /* another kind, or a size far from it: make room */
    return false;
}

void gt_keep_trim(int slot, int kind, unsigned flags)
{
    gt_kept *k = &slots[slot];

    if (k->cap && !k->device && (k->kind != kind || k->flags != flags))
        gt_kept_free(k);
}

void gt_keep_put(int slot, gt_kept *b)
{
    uint64_t kept = 0, avail = 0;
    size_t free_b = 0, total = 0;

    if (!b->cap) {
        gt_kept_free(b);
        return;
    }
    gt_kept_free(&slots[slot]);
    for (int i = 0; i < GT_KEEP_NSLOTS; i++)
        if (slots[i].device == b->device)
            kept += slots[i].cap;
    if (b->device) {
        if (cudaMemGetInfo(&free_b, &total) == cudaSuccess)
            avail = free_b;
        cudaGetLastError();
    } else {
        avail = gt_port_mem_available();
    }
    if (gt_keep_hold(b->cap, kept, avail)) {
        slots[slot] = *b;
        memset(b, 0, sizeof *b);
    } else {
        gt_kept_free(b);
    }
}

void gt_keep_release(void)
{
    for (int i = 0; i < GT_KEEP_NSLOTS; i++)
        if (slots[i].cap)
            gt_kept_free(&slots[i]);
}
