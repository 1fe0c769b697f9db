/* share.h - gputui processes on one machine take turns on a GPU, so that
 * one's timed iterations never overlap another's (the GPU time-slices
 * contexts, and a slice counts as latency).
 *
 * The turn is a flock(2) on DIR/gputui-UUID.lock, one file per GPU, which
 * any local user can open (mode 0666). The kernel drops the lock of a
 * process that dies. The file also holds, for display only, who holds the
 * turn and since when, and a slot per process: its pid, whether it waits,
 * when it was last seen. Another user can write that file, so nothing in
 * it is trusted beyond what a screen shows: a holder that never lets go is
 * waited for a bounded time, and the iteration then runs anyway, marked
 * disturbed.
 *
 * Opening refuses a symbolic link (O_NOFOLLOW), anything but a regular
 * file with one link, and a file that is not gputui's. */
#ifndef GPUTUI_SHARE_H
#define GPUTUI_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_SHARE_SLOTS 64

typedef struct gt_share {
    int fd;                 /* -1: not open */
    int slot;               /* this process's slot, -1 if none was free */
    bool held;
    bool switched;          /* another process had the GPU since this one's last turn */
    uint64_t mine;          /* the turn count this process's last turn left */
    double last_seen;       /* when the slot's time was last written */
    char path[512];
} gt_share;

/* Who holds the turn, as its holder wrote it; pid 0 when nobody said. */
typedef struct gt_share_holder {
    int pid;
    unsigned uid;
    double since;           /* seconds since the epoch */
    uint64_t turns;         /* turns taken on this GPU since the file was made */
} gt_share_holder;

typedef enum { GT_SHARE_TAKEN, GT_SHARE_TIMEOUT, GT_SHARE_CANCELLED } gt_share_rc;

/* $GPUTUI_LOCK_DIR, else /dev/shm where it is a directory, else /tmp. */
const char *gt_share_default_dir(void);
/* Opens DIR/gputui-UUID.lock, creating it with mode 0666 where it is
 * missing. uuid: letters, digits and '-' only. 0, or -1 with why (the path
 * and what is wrong with it); s is then closed. */
int gt_share_open(gt_share *s, const char *dir, const char *uuid, char *why, size_t whylen);
/* Takes the turn, waiting at most timeout_s, after the processes already
 * waiting (their slots hold tickets: first come, first served). While it
 * waits, its slot says so, and wait(ctx, holder, waited) is called about
 * four times a second (it may be NULL); cancel(ctx) true ends the wait. */
gt_share_rc gt_share_take(gt_share *s, double timeout_s, bool (*cancel)(void *ctx),
                          void (*wait)(void *ctx, const gt_share_holder *h, double waited),
                          void *ctx);
/* Gives the turn back. When another process waits for it, waits up to
 * 2 ms for one of them to take it (flock is not fair: without this the
 * process that lets go takes it again first). */
void gt_share_give(gt_share *s);
/* Other live processes with a slot in the file. */
int gt_share_others(gt_share *s);
/* Their pids, up to max; returns how many. */
int gt_share_pids(gt_share *s, int *pids, int max);
void gt_share_holder_read(gt_share *s, gt_share_holder *h);
void gt_share_close(gt_share *s);

#endif
