/* Taking turns on a GPU between gputui processes (share.h). The file:
 *   0     a header line, "gputui share lock 1\n"
 *   64    the holder: pid, uid, since (ns since the epoch), turns
 *   128   GT_SHARE_SLOTS slots of 16 bytes: pid, waiting (0, or the
 *         waiter's ticket), seen (ns)
 * Each record is one pread or pwrite of a few aligned bytes; a record torn
 * by a race only shows a wrong name on a screen for a moment, or lets one
 * waiter ahead of its place once.
 *
 * Waiters queue by ticket: a process that finds others waiting takes the
 * ticket after the last of theirs and leaves the lock alone while a waiter
 * with an earlier ticket (or the same ticket in a lower slot) is seen
 * waiting: flock alone hands the turn to whoever polls first, which over
 * a second of 20 ms turns gave 4 processes from 0.79 to 1.14 of a quarter
 * of the samples on an H200. A waiter not seen for FRESH_FOR (stopped, or
 * starved of CPU) loses its place until it is seen again. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/engine/share.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gputui/base/common.h"

#define MAGIC "gputui share lock 1\n"
#define HOLDER_AT 64
#define SLOTS_AT 128
#define FILE_SIZE (SLOTS_AT + 16 * GT_SHARE_SLOTS)
#define SEEN_FOR 30.0           /* seconds a slot counts without a refresh */
#define FRESH_FOR 0.2           /* seconds a waiter keeps its place without a refresh */

typedef struct holder_rec {
    int32_t pid;
    uint32_t uid;
    int64_t since_ns;
    uint64_t turns;
} holder_rec;

typedef struct slot_rec {
    int32_t pid;
    int32_t waiting;
    int64_t seen_ns;
} slot_rec;

static int64_t epoch_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void nap(long ns)
{
    struct timespec ts = {0, ns};

    nanosleep(&ts, NULL);
}

static bool alive(int pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

const char *gt_share_default_dir(void)
{
    const char *d = getenv("GPUTUI_LOCK_DIR");
    struct stat st;

    if (d && *d)
        return d;
    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode))
        return "/dev/shm";
    return "/tmp";
}

static void fail(gt_share *s, char *why, size_t len, const char *fmt, const char *what)
{
    snprintf(why, len, fmt, s->path, what);
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

static bool read_slot(gt_share *s, int i, slot_rec *r)
{
    return pread(s->fd, r, sizeof *r, SLOTS_AT + 16 * (off_t)i) == (ssize_t)sizeof *r;
}

/* All the slots in one read; false if the file is short. */
static bool read_slots(gt_share *s, slot_rec *all)
{
    ssize_t want = (ssize_t)(sizeof *all * GT_SHARE_SLOTS);

    return pread(s->fd, all, (size_t)want, SLOTS_AT) == want;
}

static void write_slot(gt_share *s, int waiting)
{
    slot_rec r = {(int32_t)getpid(), waiting, epoch_ns()};

    if (s->slot < 0)
        return;
    if (pwrite(s->fd, &r, sizeof r, SLOTS_AT + 16 * (off_t)s->slot) == (ssize_t)sizeof r)
        s->last_seen = gt_now();
}

/* The first slot from pid's own that is free, dead or stale. */
static void claim_slot(gt_share *s)
{
    int pid = (int)getpid();
    double now = (double)epoch_ns() * 1e-9;

    s->slot = -1;
    for (int k = 0; k < GT_SHARE_SLOTS; k++) {
        int i = (pid + k) % GT_SHARE_SLOTS;
        slot_rec r;
        if (!read_slot(s, i, &r) || r.pid == pid || !alive(r.pid) ||
            now - (double)r.seen_ns * 1e-9 > SEEN_FOR) {
            s->slot = i;
            write_slot(s, 0);
            return;
        }
    }
}

int gt_share_open(gt_share *s, const char *dir, const char *uuid, char *why, size_t whylen)
{
    char head[sizeof MAGIC - 1];
    struct stat st;
    ssize_t got;

    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->slot = -1;
    if (!uuid || !*uuid || strspn(uuid, "abcdefABCDEF0123456789-GPUgpu") != strlen(uuid)) {
        snprintf(why, whylen, "no usable GPU UUID ('%s')", uuid ? uuid : "");
        return -1;
    }
    if ((size_t)snprintf(s->path, sizeof s->path, "%s/gputui-%s.lock", dir, uuid) >=
        sizeof s->path) {
        snprintf(why, whylen, "lock directory path too long: %s", dir);
        return -1;
    }
    /* Without O_CREAT first: in a sticky directory, Linux refuses O_CREAT
     * on another user's file (protected_regular) even when it may be
     * opened. */
    s->fd = open(s->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (s->fd < 0 && errno == ENOENT) {
        s->fd = open(s->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (s->fd < 0 && errno == EEXIST)
            s->fd = open(s->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    }
    if (s->fd < 0) {
        int e = errno;
        fail(s, why, whylen, "%s: %s", e == ELOOP ? "a symbolic link: refused" : strerror(e));
        return -1;
    }
    if (fstat(s->fd, &st)) {
        fail(s, why, whylen, "%s: %s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        fail(s, why, whylen, "%s: %s", "not a regular file: refused");
        return -1;
    }
    if (st.st_nlink != 1) {
        fail(s, why, whylen, "%s: %s", "has more than one name (hard links): refused");
        return -1;
    }
    if (st.st_size > 64 * 1024) {
        fail(s, why, whylen, "%s: %s", "too large for a gputui lock file: refused");
        return -1;
    }
    /* Its maker's umask may have narrowed the mode. */
    if (st.st_uid == geteuid() && (st.st_mode & 0777) != 0666)
        fchmod(s->fd, 0666);
    got = pread(s->fd, head, sizeof head, 0);
    if (got == (ssize_t)sizeof head && memcmp(head, MAGIC, sizeof head)) {
        fail(s, why, whylen, "%s: %s", "not a gputui lock file: refused");
        return -1;
    }
    if (got != (ssize_t)sizeof head) {
        /* New (or cut short): the header, and the records' room. */
        if (pwrite(s->fd, MAGIC, sizeof head, 0) != (ssize_t)sizeof head ||
            (st.st_size < FILE_SIZE && ftruncate(s->fd, FILE_SIZE))) {
            fail(s, why, whylen, "%s: %s", strerror(errno));
            return -1;
        }
    }
    claim_slot(s);
    return 0;
}

void gt_share_holder_read(gt_share *s, gt_share_holder *h)
{
    holder_rec r;

    memset(h, 0, sizeof *h);
    if (s->fd < 0 || pread(s->fd, &r, sizeof r, HOLDER_AT) != (ssize_t)sizeof r || r.pid <= 0)
        return;
    h->pid = r.pid;
    h->uid = r.uid;
    h->since = (double)r.since_ns * 1e-9;
    h->turns = r.turns;
}

/* Whether a live waiter ahead of ticket t (0: any live waiter) is seen
 * waiting; with t 0, *last is the latest ticket seen. */
static bool waiter_ahead(gt_share *s, int32_t t, int32_t *last)
{
    slot_rec all[GT_SHARE_SLOTS];
    double now = (double)epoch_ns() * 1e-9;
    bool ahead = false;

    if (last)
        *last = 0;
    if (s->slot < 0 || !read_slots(s, all))
        return false;
    for (int i = 0; i < GT_SHARE_SLOTS; i++) {
        slot_rec *r = &all[i];
        if (i == s->slot || r->waiting <= 0 || r->pid == (int32_t)getpid() ||
            now - (double)r->seen_ns * 1e-9 > FRESH_FOR || !alive(r->pid))
            continue;
        if (last && r->waiting > *last)
            *last = r->waiting;
        if (!t || r->waiting < t || (r->waiting == t && i < s->slot))
            ahead = true;
    }
    return ahead;
}

gt_share_rc gt_share_take(gt_share *s, double timeout_s, bool (*cancel)(void *ctx),
                          void (*wait)(void *ctx, const gt_share_holder *h, double waited),
                          void *ctx)
{
    double t0 = gt_now(), next_report = t0, beat = t0, checked = t0, waited;
    int32_t ticket = 0, last;
    bool head;
    gt_share_holder h;
    holder_rec r;

    if (s->fd < 0)
        return GT_SHARE_TAKEN;
    /* Behind the waiters already queued, if any. */
    head = !waiter_ahead(s, 0, &last);
    if (!head) {
        ticket = last + 1;
        write_slot(s, ticket);
    }
    for (;;) {
        if (ticket && gt_now() - beat > FRESH_FOR / 5) {
            write_slot(s, ticket);
            beat = gt_now();
        }
        /* Behind others: a look every poll; first in line: every ms, in
         * case another took the same ticket from a lower slot. */
        if (ticket && (!head || gt_now() - checked > 1e-3)) {
            head = !waiter_ahead(s, ticket, NULL);
            checked = gt_now();
        }
        if (head) {
            if (!flock(s->fd, LOCK_EX | LOCK_NB))
                break;
            if (errno != EWOULDBLOCK && errno != EINTR) {
                if (ticket)
                    write_slot(s, 0);
                return GT_SHARE_TIMEOUT;    /* the file refuses locks: run, marked */
            }
        }
        if (!ticket) {
            /* First in line: the slot says so from now on. */
            ticket = 1;
            write_slot(s, ticket);
            beat = gt_now();
        }
        waited = gt_now() - t0;
        if (waited >= timeout_s || (cancel && cancel(ctx))) {
            write_slot(s, 0);
            return waited >= timeout_s ? GT_SHARE_TIMEOUT : GT_SHARE_CANCELLED;
        }
        if (wait && gt_now() >= next_report) {
            gt_share_holder_read(s, &h);
            wait(ctx, &h, waited);
            next_report = gt_now() + 0.25;
        }
        /* First in line: 20 us polls for the first millisecond, then 50;
         * behind others, 200 us. */
        nap(head ? (waited < 1e-3 ? 20000 : 50000) : 200000);
    }
    s->held = true;
    gt_share_holder_read(s, &h);
    s->switched = h.turns != s->mine;
    s->mine = h.turns + 1;
    r = (holder_rec){(int32_t)getpid(), (uint32_t)geteuid(), epoch_ns(), h.turns + 1};
    if (pwrite(s->fd, &r, sizeof r, HOLDER_AT) != (ssize_t)sizeof r) {
        /* display only: nothing to do */
    }
    if (ticket || gt_now() - s->last_seen > 1.0)
        write_slot(s, 0);
    return GT_SHARE_TAKEN;
}

/* Whether another live process's slot says it waits. */
static bool others_wait(gt_share *s)
{
    for (int i = 0; i < GT_SHARE_SLOTS; i++) {
        slot_rec r;
        if (i != s->slot && read_slot(s, i, &r) && r.waiting && r.pid != (int)getpid() &&
            alive(r.pid))
            return true;
    }
    return false;
}

void gt_share_give(gt_share *s)
{
    gt_share_holder before, now;
    double t0;

    if (s->fd < 0 || !s->held)
        return;
    gt_share_holder_read(s, &before);
    flock(s->fd, LOCK_UN);
    s->held = false;
    if (!others_wait(s))
        return;
    t0 = gt_now();
    do {
        nap(20000);
        gt_share_holder_read(s, &now);
    } while (now.turns == before.turns && gt_now() - t0 < 2e-3);
}

int gt_share_pids(gt_share *s, int *pids, int max)
{
    double now = (double)epoch_ns() * 1e-9;
    int n = 0;

    if (s->fd < 0)
        return 0;
    for (int i = 0; i < GT_SHARE_SLOTS; i++) {
        slot_rec r;
        if (i != s->slot && read_slot(s, i, &r) && r.pid != (int)getpid() && alive(r.pid) &&
            now - (double)r.seen_ns * 1e-9 <= SEEN_FOR) {
            if (pids && n < max)
                pids[n] = r.pid;
            n++;
        }
    }
    return n;
}

int gt_share_others(gt_share *s)
{
    return gt_share_pids(s, NULL, 0);
}

void gt_share_close(gt_share *s)
{
    slot_rec none = {0, 0, 0};

    if (s->fd < 0)
        return;
    if (s->held)
        flock(s->fd, LOCK_UN);
    if (s->slot >= 0 &&
        pwrite(s->fd, &none, sizeof none, SLOTS_AT + 16 * (off_t)s->slot) != (ssize_t)sizeof none) {
        /* a stale slot ages out after SEEN_FOR */
    }
    close(s->fd);
    s->fd = -1;
    s->held = false;
}
