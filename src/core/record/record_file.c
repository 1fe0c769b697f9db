/* A recording file read in bounded memory (record.h): a regular file only,
 * plain or gzip (told apart by the content; one gzip member after another,
 * as gzip writes an appended file, and nothing else after them), split
 * into lines of at most GT_REC_MAX_LINE that go to the line reader in
 * record.c as they come. Besides what it has parsed it holds at most one
 * line and a read's worth. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/record.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "gputui/base/files.h"

/* Small reads: corrupt data is found, and named by its line, within a
 * few hundred lines of where it decompresses. */
#define CHUNK 8192
/* After a bad line, the compressed bytes read on for corrupt data. */
#define READ_ON (1 << 20)

struct gt_rec_reader {
    gt_recording *r;
    int fd;
    int gz;                 /* -1 not known yet, 0 plain, 1 gzip */
    z_stream z;
    bool z_open;
    bool member_end;        /* a gzip member ended: another may follow */
    unsigned char in[CHUNK];    /* compressed bytes read and not yet inflated */
    size_t in_pos, in_have;
    bool in_eof;
    char *buf;
    size_t cap, have, lineno;
    off_t size, consumed;   /* the file's bytes, and those read (progress) */
    int state;              /* 0 reading, 1 all read, -1 stopped on an error */
    gt_err err;             /* why it stopped */
    bool shared;            /* mu is r->lock: lines go in under it */
    pthread_mutex_t mu;
};

/* At least want bytes not yet used in rd->in, or all that are left (the
 * unused ones moved to its start first): 0, or -1 with errno. */
static int fill(gt_rec_reader *rd, size_t want)
{
    while (rd->in_have - rd->in_pos < want && !rd->in_eof) {
        size_t left = rd->in_have - rd->in_pos;
        ssize_t k;

        memmove(rd->in, rd->in + rd->in_pos, left);
        rd->in_pos = 0;
        rd->in_have = left;
        do
            k = read(rd->fd, rd->in + left, sizeof rd->in - left);
        while (k < 0 && errno == EINTR);
        if (k < 0)
            return -1;
        rd->in_have += (size_t)k;
        rd->in_eof = k == 0;
        rd->consumed += k;
    }
    return 0;
}

/* Up to room bytes of the file's content at out: how many (0 at its
 * end), or -1 with rd->err set; *cut is set when a compressed stream ends
 * in the middle (a cut-off file). */
static long content(gt_rec_reader *rd, char *out, size_t room, size_t line, bool *cut)
{
    const char *path = rd->r->path;

    for (;;) {
        /* two bytes tell gzip from plain, at the start and after a member */
        if (fill(rd, rd->gz < 0 || rd->member_end ? 2 : 1)) {
            gt_err_set(&rd->err, GT_EXIT_FAIL, "%s: %s", path, strerror(errno));
            return -1;
        }
        if (rd->gz < 0) {
            rd->gz = rd->in_have - rd->in_pos >= 2 && rd->in[rd->in_pos] == 0x1f &&
                     rd->in[rd->in_pos + 1] == 0x8b;
            if (rd->gz) {
                if (inflateInit2(&rd->z, 16 + MAX_WBITS) != Z_OK) {
                    gt_err_set(&rd->err, GT_EXIT_FAIL, "%s: out of memory", path);
                    return -1;
                }
                rd->z_open = true;
            }
        }
        if (!rd->gz) {
            size_t k = rd->in_have - rd->in_pos < room ? rd->in_have - rd->in_pos : room;
            memcpy(out, rd->in + rd->in_pos, k);
            rd->in_pos += k;
            return (long)k;     /* 0: the end */
        }
        if (rd->member_end) {
            /* After a gzip member: the end, another member, or bytes that
             * are neither (a file joined on): refused, not dropped. */
            size_t left = rd->in_have - rd->in_pos;
            if (!left)
                return 0;
            if (left < 2 || rd->in[rd->in_pos] != 0x1f || rd->in[rd->in_pos + 1] != 0x8b) {
                gt_err_set(&rd->err, GT_EXIT_FAIL, "%s:%zu: bytes after the last gzip member "
                           "that are not gzip (%lld of them): a file joined to the recording? "
                           "gputui reads a recording whole or not at all", path, line,
                           (long long)(rd->size - rd->consumed + (off_t)left));
                return -1;
            }
            inflateReset(&rd->z);
            rd->member_end = false;
        }
        if (rd->in_pos == rd->in_have) {    /* the compressed stream stops mid-way */
            *cut = true;
            return 0;
        }
        rd->z.next_in = rd->in + rd->in_pos;
        rd->z.avail_in = (uInt)(rd->in_have - rd->in_pos);
        rd->z.next_out = (Bytef *)out;
        rd->z.avail_out = (uInt)room;
        int zr = inflate(&rd->z, Z_NO_FLUSH);
        rd->in_pos = rd->in_have - rd->z.avail_in;
        if (zr == Z_STREAM_END)
            rd->member_end = true;
        else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            gt_err_set(&rd->err, GT_EXIT_FAIL, "%s:%zu: corrupt compressed data (zlib: %s)",
                       path, line, rd->z.msg ? rd->z.msg : zError(zr));
            return -1;
        }
        if (room - rd->z.avail_out)
            return (long)(room - rd->z.avail_out);
    }
}

/* A bad line in a compressed stream may be what corrupt data decompressed
 * to: zlib only says so once it has read on (a bad code, the CRC at the
 * end). Reads on, without parsing, and if zlib objects, says that instead
 * (at the line where the damage showed). */
static void corrupt_instead(gt_rec_reader *rd)
{
    gt_err bad = rd->err;
    off_t until = rd->consumed + READ_ON;
    bool cut = false;
    long n;

    if (rd->gz != 1)
        return;
    /* To the end of the gzip member (its CRC), within a bound: a file of
     * newlines is refused at once, not after 4 GiB of them. */
    while (!rd->member_end && rd->consumed < until &&
           (n = content(rd, rd->buf, rd->cap < CHUNK ? rd->cap : CHUNK, rd->lineno, &cut)) > 0)
        ;
    if (!strstr(rd->err.msg, "corrupt compressed data"))
        rd->err = bad;
}

int gt_rec_reader_open(gt_rec_reader **out, gt_recording *r, const char *path, gt_err *err)
{
    gt_rec_reader *rd = calloc(1, sizeof *rd);
    struct stat st;
    int fd;

    *out = NULL;
    gt_recording_begin(r, path);
    if (!rd) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: out of memory", path);
        return -1;
    }
    rd->fd = -1;
    if ((fd = gt_open_regular(path, "a recording", err)) < 0) {
        free(rd);
        return -1;
    }
    rd->fd = fd;
    rd->gz = -1;
    rd->size = fstat(fd, &st) ? 0 : st.st_size;
    rd->cap = 1 << 20;
    rd->r = r;
    if (!(rd->buf = malloc(rd->cap))) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: out of memory", path);
        gt_rec_reader_close(rd);
        return -1;
    }
    pthread_mutex_init(&rd->mu, NULL);
    *out = rd;
    return 0;
}

void gt_rec_reader_moved(gt_rec_reader *rd, gt_recording *r)
{
    rd->r = r;
}

void gt_rec_reader_share(gt_rec_reader *rd)
{
    rd->shared = true;
    rd->r->lock = &rd->mu;
    rd->r->loading = rd->state == 0;
}

/* The lines of one read; 0 to go on, 1 at the end of the file, -1 with
 * rd->err set. */
static int read_chunk(gt_rec_reader *rd)
{
    gt_recording *r = rd->r;
    const char *path = r->path;
    size_t start = 0;
    bool cut = false;
    char *nl;
    long n;

    if (rd->cap - rd->have < CHUNK) {       /* a long line: room for it, up to the limit */
        char *nb = rd->have > GT_REC_MAX_LINE ? NULL : realloc(rd->buf, rd->cap * 2);
        if (!nb) {
            if (rd->have > GT_REC_MAX_LINE)
                gt_err_set(&rd->err, GT_EXIT_FAIL, "%s:%zu: line longer than %d MiB", path,
                           rd->lineno + 1, GT_REC_MAX_LINE >> 20);
            else
                gt_err_set(&rd->err, GT_EXIT_FAIL, "%s: out of memory", path);
            return -1;
        }
        rd->buf = nb;
        rd->cap *= 2;
    }
    if ((n = content(rd, rd->buf + rd->have, CHUNK, rd->lineno + 1, &cut)) > 0) {
        rd->have += (size_t)n;
        while ((nl = memchr(rd->buf + start, '\n', rd->have - start))) {
            if (gt_recording_line(r, rd->buf + start, (size_t)(nl - (rd->buf + start)), true,
                                  ++rd->lineno, &rd->err) < 0) {
                corrupt_instead(rd);
                return -1;
            }
            start = (size_t)(nl - rd->buf) + 1;
        }
        memmove(rd->buf, rd->buf + start, rd->have - start);
        rd->have -= start;
        return 0;
    }
    if (n < 0)
        return -1;
    /* A last line without a newline: kept if whole, dropped if cut off. */
    if (rd->have && gt_recording_line(r, rd->buf, rd->have, false, ++rd->lineno, &rd->err) < 0)
        return -1;
    if (gt_recording_end(r, rd->lineno, &rd->err))
        return -1;
    if (cut)
        snprintf(r->cut_note, sizeof r->cut_note, "%s:%zu: the compressed data ends early "
                 "(the file was cut off); the lines before it were loaded", path, r->lines + 1);
    return 1;
}

int gt_rec_reader_step(gt_rec_reader *rd, double seconds)
{
    double until = gt_now() + seconds;

    while (rd->state == 0) {
        if (rd->shared)
            pthread_mutex_lock(&rd->mu);
        int rc = read_chunk(rd);
        if (rc)
            rd->state = rc;
        if (rd->shared) {
            rd->r->loading = rd->state == 0;
            pthread_mutex_unlock(&rd->mu);
        }
        if (seconds > 0 && gt_now() >= until)
            break;
    }
    return rd->state;
}

int gt_rec_reader_until(gt_rec_reader *rd, const gt_experiment *exp, const int64_t *vals)
{
    int idx;

    while ((idx = gt_recording_find(rd->r, exp, vals)) < 0 ||
           (size_t)idx + 1 == rd->r->ncfg) {  /* the last may lack samples yet */
        if (gt_rec_reader_step(rd, 0.005))
            break;
    }
    return rd->state;
}

int gt_rec_reader_start(gt_rec_reader **out, gt_recording *r, const char *path,
                        const gt_experiment *exp, const int64_t *vals, gt_err *err)
{
    if (gt_rec_reader_open(out, r, path, err))
        return -1;
    if (gt_rec_reader_until(*out, exp, vals) < 0) {
        *err = (*out)->err;
        gt_rec_reader_close(*out);
        *out = NULL;
        gt_recording_free(r);
        return -1;
    }
    gt_rec_reader_share(*out);
    return 0;
}

const gt_err *gt_rec_reader_error(const gt_rec_reader *rd)
{
    return rd->state < 0 ? &rd->err : NULL;
}

double gt_rec_reader_progress(const gt_rec_reader *rd)
{
    if (rd->state)
        return 1;
    return rd->size > 0 && rd->consumed < rd->size ? (double)rd->consumed / (double)rd->size
                                                   : 0.99;
}

void gt_rec_reader_close(gt_rec_reader *rd)
{
    if (!rd)
        return;
    if (rd->z_open)
        inflateEnd(&rd->z);
    if (rd->fd >= 0)
        close(rd->fd);
    if (rd->r && rd->buf) {     /* set with the mutex made */
        if (rd->shared) {
            rd->r->lock = NULL;
            rd->r->loading = false;
        }
        pthread_mutex_destroy(&rd->mu);
    }
    free(rd->buf);
    free(rd);
}

int gt_recording_load(gt_recording *r, const char *path, gt_err *err)
{
    gt_rec_reader *rd;

    if (gt_rec_reader_open(&rd, r, path, err))
        return -1;
    if (gt_rec_reader_step(rd, 0) < 0) {
        *err = rd->err;
        gt_rec_reader_close(rd);
        gt_recording_free(r);
        return -1;
    }
    gt_rec_reader_close(rd);
    return 0;
}
