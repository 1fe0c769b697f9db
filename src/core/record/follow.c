/* A recording followed while it is written (follow.h): bytes read without
 * blocking from a file or a pipe, through zlib when they are gzip, split
 * into lines for record.c's line reader under the recording's lock. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/follow.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define READ_CHUNK 16384
#define READS_PER_POLL 256      /* 4 MiB a poll at most, */
#define POLL_S 0.008            /* and about this long: the screen stays live */

static const char HEADER[] = "{\"type\":\"header\"";
static const char SAMPLE[] = "{\"type\":\"sample\"";

struct gt_follow {
    gt_recording *rec;
    pthread_mutex_t mu;
    int fd;                     /* -1: not open (yet, or any more) */
    bool pipe;                  /* standard input: poll()able, no file to reopen */
    char path[512];             /* PATH (without ".partial"), or "-" */
    char partial[524];          /* PATH.partial */
    char reading[524];          /* the file open now */
    dev_t dev;
    ino_t ino;
    off_t offset;               /* bytes read from it */
    int gz;                     /* -1 not known yet, 0 plain, 1 gzip */
    bool z_open;
    z_stream z;
    char *line;                 /* an incomplete line */
    size_t have, cap;
    bool skipping;              /* a line past GT_REC_MAX_LINE: dropped to its end */
    size_t lineno;              /* lines of the current writer's recording */
    bool stopped;
    char stop_why[400];
    double last_sample;
    bool changed;
    bool behind;                /* the last poll stopped with more to read */
    char msg[700];
    bool msg_err, msg_new;
};

static void say(gt_follow *f, bool err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(gt_follow *f, bool err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    f->msg_err = err;
    f->msg_new = f->changed = true;
}

static void stop(gt_follow *f, const char *why)
{
    snprintf(f->stop_why, sizeof f->stop_why, "%s", why);
    f->stopped = f->changed = true;
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
}

/* The next gen after everything read: a restarted writer counts from 1. */
static uint32_t gens_after(const gt_recording *r)
{
    uint32_t max = 0;

    for (size_t i = 0; i < r->ncfg; i++)
        if (r->cfg[i].gen > max)
            max = r->cfg[i].gen;
    return max + 1;
}

static const char *find_header(const char *s, size_t n)
{
    size_t k = sizeof HEADER - 1;

    for (size_t i = 0; i + k <= n; i++)
        if (s[i] == '{' && !memcmp(s + i, HEADER, k))
            return s + i;
    return NULL;
}

static bool is_header(const char *s, size_t n)
{
    return n >= sizeof HEADER - 1 && !memcmp(s, HEADER, sizeof HEADER - 1);
}

/* One complete line (without its newline). Only a line that does not
 * read is searched for a header inside it. */
static void take_line(gt_follow *f, const char *s, size_t n)
{
    bool header = is_header(s, n);
    const char *h = NULL;
    gt_err err;
    int rc = 0;

    if (n == 0 || (n == 1 && s[0] == '\r'))
        return;
    if (header && f->lineno > 0) {
        pthread_mutex_lock(&f->mu);
        f->rec->gen_offset = gens_after(f->rec);
        f->rec->ended = false;
        pthread_mutex_unlock(&f->mu);
        f->lineno = 0;
        say(f, false, "the writer restarted: a new recording began; its configurations follow");
    }
    if (f->lineno > 0 || header) {
        gt_err_clear(&err);
        f->lineno++;
        pthread_mutex_lock(&f->mu);
        rc = gt_recording_line(f->rec, s, n, true, f->lineno, &err);
        pthread_mutex_unlock(&f->mu);
    }
    if ((rc < 0 || f->lineno == 0) && !header && (h = find_header(s + 1, n - 1))) {
        /* A writer cut off in the middle of a line, and a new one's header
         * after it: the cut-off part is dropped, the header read. */
        say(f, true, "%s:%zu: a line cut off by a writer that restarted; dropped",
            f->rec->path, f->lineno);
        take_line(f, h, n - (size_t)(h - s));
        return;
    }
    if (f->lineno == 0) {
        stop(f, "not a gputui recording (the first line is not a JSON header)");
        return;
    }
    if (rc < 0 && f->lineno == 1) {
        stop(f, err.msg);           /* a header it cannot read: another format */
        return;
    }
    if (rc < 0)
        say(f, true, "%s; skipped", err.msg);
    else if (n >= sizeof SAMPLE - 1 && !memcmp(s, SAMPLE, sizeof SAMPLE - 1))
        f->last_sample = gt_now();
    f->changed = true;
}

/* Plain bytes: complete lines out, the rest kept. */
static void take_bytes(gt_follow *f, const char *b, size_t n)
{
    while (n && !f->stopped) {
        const char *nl = memchr(b, '\n', n);
        size_t part = nl ? (size_t)(nl - b) : n;

        if (f->skipping) {
            if (nl)
                f->skipping = false;
        } else if (f->have + part > GT_REC_MAX_LINE) {
            say(f, true, "%s:%zu: line longer than %d MiB; skipped", f->rec->path, f->lineno + 1,
                GT_REC_MAX_LINE >> 20);
            f->have = 0;
            f->skipping = !nl;
        } else {
            if (f->have + part > f->cap) {
                size_t cap = f->cap ? f->cap : 4096;
                char *nb;
                while (cap < f->have + part)
                    cap *= 2;
                if (!(nb = realloc(f->line, cap))) {
                    stop(f, "out of memory");
                    return;
                }
                f->line = nb;
                f->cap = cap;
            }
            memcpy(f->line + f->have, b, part);
            f->have += part;
            if (nl) {
                take_line(f, f->line, f->have);
                f->have = 0;
            }
        }
        b += part + (nl ? 1 : 0);
        n -= part + (nl ? 1 : 0);
    }
}

/* What was read, through zlib when the stream is gzip (its first bytes
 * say so); one gzip member after another (a writer that restarted). */
static void take_read(gt_follow *f, const unsigned char *b, size_t n)
{
    unsigned char out[READ_CHUNK];

    if (f->gz < 0)
        f->gz = n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
    if (!f->gz) {
        take_bytes(f, (const char *)b, n);
        return;
    }
    if (!f->z_open) {
        memset(&f->z, 0, sizeof f->z);
        if (inflateInit2(&f->z, 16 + MAX_WBITS) != Z_OK) {
            stop(f, "out of memory for zlib");
            return;
        }
        f->z_open = true;
    }
    f->z.next_in = (unsigned char *)b;
    f->z.avail_in = (unsigned)n;
    while (!f->stopped) {
        int zr;
        f->z.next_out = out;
        f->z.avail_out = sizeof out;
        zr = inflate(&f->z, Z_NO_FLUSH);
        take_bytes(f, (const char *)out, sizeof out - f->z.avail_out);
        if (zr == Z_STREAM_END) {
            if (f->z.avail_in == 0)
                break;
            inflateReset(&f->z);
            continue;
        }
        if (zr == Z_BUF_ERROR || (zr == Z_OK && f->z.avail_in == 0 && f->z.avail_out != 0))
            break;
        if (zr != Z_OK) {
            char why[300];
            snprintf(why, sizeof why, "%s:%zu: corrupt compressed data (zlib: %s); nothing after "
                     "it can be read", f->rec->path, f->lineno + 1, f->z.msg ? f->z.msg : "error");
            stop(f, why);
        }
    }
}

/* The file to read: PATH.partial while the writer is at work, else PATH. */
static bool open_file(gt_follow *f)
{
    const char *names[2] = {f->partial, f->path};
    struct stat st;

    for (int i = 0; i < 2; i++) {
        int fd = open(names[i], O_RDONLY | O_NONBLOCK);
        if (fd < 0)
            continue;
        if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
            close(fd);
            stop(f, "not a regular file");
            return false;
        }
        f->fd = fd;
        f->dev = st.st_dev;
        f->ino = st.st_ino;
        f->offset = 0;
        f->gz = -1;
        if (f->z_open)
            inflateEnd(&f->z);
        f->z_open = false;
        f->have = 0;
        f->skipping = false;
        snprintf(f->reading, sizeof f->reading, "%s", names[i]);
        f->changed = true;
        return true;
    }
    return false;
}

/* At the end of what a file holds: the writer may have started again (a
 * new PATH.partial, or this one cut shorter). */
static void file_at_end(gt_follow *f)
{
    struct stat st;

    if (fstat(f->fd, &st) == 0 && st.st_size < f->offset) {
        close(f->fd);
        f->fd = -1;
        open_file(f);
        return;
    }
    if (stat(f->partial, &st) == 0 && (st.st_dev != f->dev || st.st_ino != f->ino)) {
        close(f->fd);
        f->fd = -1;
        open_file(f);
    }
}

static void pipe_at_end(gt_follow *f)
{
    char why[400];

    if (f->have)
        say(f, true, "-:%zu: the stream was cut in the middle of a line; it was dropped",
            f->lineno + 1);
    if (f->rec->ended)
        snprintf(why, sizeof why, "the recording ended");
    else
        snprintf(why, sizeof why, "the stream closed before the recording's end (the writer or "
                 "the connection stopped); what arrived stays");
    stop(f, why);
}

int gt_follow_open(gt_follow **out, const char *path, gt_recording *rec, gt_err *err)
{
    gt_follow *f = calloc(1, sizeof *f);
    size_t n = strlen(path);

    *out = NULL;
    if (!f) {
        gt_err_set(err, GT_EXIT_FAIL, "out of memory");
        return -1;
    }
    f->fd = -1;
    f->gz = -1;
    f->rec = rec;
    if (n >= sizeof f->path) {
        gt_err_set(err, GT_EXIT_USAGE, "--replay %s: the name is too long", path);
        free(f);
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    if (n > 8 && !strcmp(path + n - 8, ".partial"))
        f->path[n - 8] = '\0';      /* either name follows the writer */
    snprintf(f->partial, sizeof f->partial, "%s.partial", f->path);
    if (!strcmp(path, "-")) {
        f->pipe = true;
        if ((f->fd = dup(STDIN_FILENO)) < 0) {
            gt_err_set(err, GT_EXIT_FAIL, "--replay -: standard input: %s", strerror(errno));
            free(f);
            return -1;
        }
        fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) | O_NONBLOCK);
        snprintf(f->reading, sizeof f->reading, "standard input");
    } else {
        char dir[524];
        char *slash;
        struct stat st;
        snprintf(dir, sizeof dir, "%s", f->path);
        slash = strrchr(dir, '/');
        if (slash)
            *(slash == dir ? slash + 1 : slash) = '\0';
        if (slash && (stat(dir, &st) || !S_ISDIR(st.st_mode))) {
            gt_err_set(err, GT_EXIT_USAGE, "--replay %s --follow: the folder %s does not exist",
                       path, dir);
            free(f);
            return -1;
        }
    }
    gt_recording_begin(rec, path);
    pthread_mutex_init(&f->mu, NULL);
    rec->lock = &f->mu;
    rec->followed = true;
    *out = f;
    return 0;
}

bool gt_follow_poll(gt_follow *f)
{
    unsigned char buf[READ_CHUNK];

    double until = gt_now() + POLL_S;

    f->changed = f->behind = false;
    if (f->stopped)
        return false;
    if (f->fd < 0 && (f->pipe || !open_file(f)))
        return f->changed;
    for (int i = 0, full = 0; f->fd >= 0 && !f->stopped; i++) {
        ssize_t n;
        if (full && (i == READS_PER_POLL || gt_now() > until)) {
            f->behind = true;       /* a backlog: read on at the next poll */
            break;
        }
        n = read(f->fd, buf, sizeof buf);
        full = n == (ssize_t)sizeof buf;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n < 0) {
            char why[600];
            snprintf(why, sizeof why, "%s: %s", f->reading, strerror(errno));
            stop(f, why);
            break;
        }
        if (n == 0) {
            if (f->pipe)
                pipe_at_end(f);
            else
                file_at_end(f);
            break;
        }
        f->offset += n;
        take_read(f, buf, (size_t)n);
    }
    if (!f->stopped && !f->pipe && f->rec->ended && f->fd >= 0) {
        struct stat st;
        /* Ended: only a new writer's PATH.partial brings more. */
        if (stat(f->partial, &st) == 0 && (st.st_dev != f->dev || st.st_ino != f->ino))
            file_at_end(f);
    }
    return f->changed;
}

bool gt_follow_behind(const gt_follow *f)
{
    return f->behind;
}

int gt_follow_fd(const gt_follow *f)
{
    return f->pipe ? f->fd : -1;
}

bool gt_follow_stopped(const gt_follow *f)
{
    return f->stopped || f->rec->ended;
}

double gt_follow_last_sample(const gt_follow *f)
{
    return f->last_sample;
}

const char *gt_follow_status(const gt_follow *f, double now, char *buf, size_t len)
{
    double ago = now - f->last_sample;

    if (f->stopped)
        snprintf(buf, len, "the stream stopped: %s", f->stop_why);
    else if (f->rec->ended)
        snprintf(buf, len, "the recording ended (the writer closed it)");
    else if (f->fd < 0 && !f->rec->lines)
        snprintf(buf, len, "waiting for %s (the writer's gputui --record %s) to appear",
                 f->partial, f->path);
    else if (f->behind)
        snprintf(buf, len, "following: catching up on what was written (%.0f MB read)",
                 (double)f->offset / 1e6);
    else if (!f->last_sample)
        snprintf(buf, len, "following: no sample yet");
    else
        snprintf(buf, len, ago < 1 ? "following: last sample under 1 s ago"
                                   : "following: last sample %.0f s ago", ago);
    return buf;
}

bool gt_follow_take_msg(gt_follow *f, char *buf, size_t len, bool *err)
{
    if (!f->msg_new)
        return false;
    snprintf(buf, len, "%s", f->msg);
    *err = f->msg_err;
    f->msg_new = false;
    return true;
}

void gt_follow_close(gt_follow *f)
{
    if (!f)
        return;
    if (f->fd >= 0)
        close(f->fd);
    if (f->z_open)
        inflateEnd(&f->z);
    f->rec->lock = NULL;
    pthread_mutex_destroy(&f->mu);
    free(f->line);
    free(f);
}
