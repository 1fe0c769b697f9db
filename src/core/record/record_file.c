/* A recording file read in bounded memory (record.h): a regular file only,
 * streamed through zlib (plain or gzip, told apart by the content), split
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

/* The zlib state after the last read: 0 (clean end), 1 (the compressed
 * stream stops mid-way: a cut-off file), -1 with err set. */
static int zstate(gzFile f, int n, const char *path, size_t lineno, gt_err *err)
{
    int zerr = Z_OK;
    const char *zmsg = gzerror(f, &zerr);
    size_t pl = strlen(path);

    if (n < 0 && zerr == Z_ERRNO) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (n < 0 || (zerr != Z_OK && zerr != Z_BUF_ERROR)) {
        if (zmsg && !strncmp(zmsg, path, pl) && !strncmp(zmsg + pl, ": ", 2))
            zmsg += pl + 2;     /* zlib names the file too, */
        else if (zmsg && !strncmp(zmsg, "<fd:", 4) && strstr(zmsg, ">: "))
            zmsg = strstr(zmsg, ">: ") + 3;     /* or its descriptor */
        gt_err_set(err, GT_EXIT_FAIL, "%s:%zu: corrupt compressed data (zlib: %s)", path, lineno,
                   zmsg && zmsg[0] ? zmsg : "error");
        return -1;
    }
    return zerr == Z_BUF_ERROR;
}

/* A bad line in a compressed stream may be what corrupt data decompressed
 * to: zlib only says so once it has read on (a bad code, the CRC at the
 * end). Reads on, without parsing, and if zlib objects, says that instead
 * (at the line where the damage showed). */
static void corrupt_instead(gzFile f, char *scratch, size_t len, const char *path, size_t lineno,
                            gt_err *err)
{
    gt_err z = {0};
    int n;

    if (gzdirect(f))
        return;
    while ((n = gzread(f, scratch, (unsigned)(len < CHUNK ? len : CHUNK))) > 0)
        ;
    if (zstate(f, n, path, lineno, &z) < 0)
        *err = z;
}

struct gt_rec_reader {
    gt_recording *r;
    gzFile f;
    char *buf;
    size_t cap, have, lineno;
    off_t size;             /* the file's bytes, for gt_rec_reader_progress */
    int state;              /* 0 reading, 1 all read, -1 stopped on an error */
    gt_err err;             /* why it stopped */
    bool shared;            /* mu is r->lock: lines go in under it */
    pthread_mutex_t mu;
};

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
    if ((fd = gt_open_regular(path, "a recording", err)) < 0) {
        free(rd);
        return -1;
    }
    rd->size = fstat(fd, &st) ? 0 : st.st_size;
    rd->cap = 1 << 20;
    if (!(rd->f = gzdopen(fd, "rb")) || !(rd->buf = malloc(rd->cap))) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: out of memory", path);
        if (!rd->f)
            close(fd);
        gt_rec_reader_close(rd);
        return -1;
    }
    gzbuffer(rd->f, CHUNK);     /* zlib decompresses at most twice this ahead of a read */
    rd->r = r;
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
    char *nl;
    int n, cut;

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
    if ((n = gzread(rd->f, rd->buf + rd->have, CHUNK)) > 0) {
        rd->have += (size_t)n;
        while ((nl = memchr(rd->buf + start, '\n', rd->have - start))) {
            if (gt_recording_line(r, rd->buf + start, (size_t)(nl - (rd->buf + start)), true,
                                  ++rd->lineno, &rd->err) < 0) {
                corrupt_instead(rd->f, rd->buf, rd->cap, path, rd->lineno, &rd->err);
                return -1;
            }
            start = (size_t)(nl - rd->buf) + 1;
        }
        memmove(rd->buf, rd->buf + start, rd->have - start);
        rd->have -= start;
        return 0;
    }
    if ((cut = zstate(rd->f, n, path, rd->lineno + 1, &rd->err)) < 0)
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
    double at;

    if (rd->state)
        return 1;
    at = (double)gzoffset(rd->f);
    return rd->size > 0 && at < rd->size ? at / (double)rd->size : 0.99;
}

void gt_rec_reader_close(gt_rec_reader *rd)
{
    if (!rd)
        return;
    if (rd->f)
        gzclose(rd->f);
    if (rd->r) {                /* set with the mutex made */
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
