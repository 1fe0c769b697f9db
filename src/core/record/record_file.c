/* A recording file read in bounded memory (record.h): a regular file only,
 * streamed through zlib (plain or gzip, told apart by the content), split
 * into lines of at most GT_REC_MAX_LINE that go to the line reader in
 * record.c as they come. Besides what it has parsed it holds at most one
 * line and a read's worth. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

int gt_recording_load(gt_recording *r, const char *path, gt_err *err)
{
    size_t cap = 1 << 20, have = 0, lineno = 0;
    char *buf = NULL;
    gzFile f = NULL;
    int fd, n = 0, rc = 0, cut = 0;

    gt_recording_begin(r, path);
    if ((fd = gt_open_regular(path, "a recording", err)) < 0)
        return -1;
    if (!(f = gzdopen(fd, "rb")) || !(buf = malloc(cap))) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: out of memory", path);
        if (!f)
            close(fd);
        goto fail;
    }
    gzbuffer(f, CHUNK);     /* zlib decompresses at most twice this ahead of a read */
    for (;;) {
        size_t start = 0;
        char *nl;

        if (cap - have < CHUNK) {       /* a long line: room for it, up to the limit */
            char *nb = have > GT_REC_MAX_LINE ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                if (have > GT_REC_MAX_LINE)
                    gt_err_set(err, GT_EXIT_FAIL, "%s:%zu: line longer than %d MiB", path,
                               lineno + 1, GT_REC_MAX_LINE >> 20);
                else
                    gt_err_set(err, GT_EXIT_FAIL, "%s: out of memory", path);
                goto fail;
            }
            buf = nb;
            cap *= 2;
        }
        if ((n = gzread(f, buf + have, CHUNK)) <= 0)
            break;
        have += (size_t)n;
        while ((nl = memchr(buf + start, '\n', have - start))) {
            if ((rc = gt_recording_line(r, buf + start, (size_t)(nl - (buf + start)), true,
                                        ++lineno, err)) < 0) {
                corrupt_instead(f, buf, cap, path, lineno, err);
                goto fail;
            }
            start = (size_t)(nl - buf) + 1;
        }
        memmove(buf, buf + start, have - start);
        have -= start;
    }
    if ((cut = zstate(f, n, path, lineno + 1, err)) < 0)
        goto fail;
    /* A last line without a newline: kept if whole, dropped if cut off. */
    if (have && gt_recording_line(r, buf, have, false, ++lineno, err) < 0)
        goto fail;
    if (gt_recording_end(r, lineno, err))
        goto fail;
    if (cut)
        snprintf(r->cut_note, sizeof r->cut_note, "%s:%zu: the compressed data ends early "
                 "(the file was cut off); the lines before it were loaded", path, r->lines + 1);
    gzclose(f);
    free(buf);
    return 0;
fail:
    if (f)
        gzclose(f);
    free(buf);
    gt_recording_free(r);
    return -1;
}
