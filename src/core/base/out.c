/* Where text leaves gputui (out.h): the escaping rule, the streams that
 * apply it, and CSV cells. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/base/out.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/base/port.h"

/* ---- the rule ---- */

/* The length of the well-formed UTF-8 character at s (n bytes there):
 * 1 to 4; 0 when s holds only its beginning (more may come); -1 when it
 * is not UTF-8. */
static int utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xbf;
    int len;

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0;          /* no overlong forms */
        else if (c == 0xed)
            hi = 0x9f;          /* no surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;          /* nothing past U+10FFFF */
    } else
        return -1;
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n)
            return 0;
        if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
            return -1;
    }
    return len;
}

/* Escapes what of s[0..n) can be judged into out (room for 6 bytes an
 * input byte): returns the bytes written; *used says how many of s were
 * taken (the beginning of a character cut off at the end stays unless
 * final). */
static size_t escape_some(gt_out_kind kind, const unsigned char *s, size_t n, bool final,
                          char *out, size_t *used)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, o = 0;

    while (i < n) {
        int len = utf8_len(s + i, n - i);
        unsigned code = s[i];
        bool pass;

        if (len == 0 && !final)
            break;
        if (len <= 0) {         /* not UTF-8: the byte itself */
            len = 1;
            pass = false;
        } else if (len == 1) {
            pass = (code >= 0x20 && code != 0x7f) || code == '\n' ||
                   (code == '\t' && kind == GT_OUT_TEXT);
        } else if (len == 2 && code == 0xc2 && s[i + 1] < 0xa0) {
            code = s[i + 1];    /* C1: its code point */
            pass = false;
        } else {
            pass = true;
        }
        if (pass) {
            memcpy(out + o, s + i, (size_t)len);
            o += (size_t)len;
        } else {
            const char *lead = kind == GT_OUT_JSON ? "\\u00" : "\\x";
            memcpy(out + o, lead, strlen(lead));
            o += strlen(lead);
            out[o++] = hex[code >> 4];
            out[o++] = hex[code & 15];
        }
        i += (size_t)len;
    }
    *used = i;
    return o;
}

char *gt_out_escape(gt_out_kind kind, const char *s, char *dst, size_t cap)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), at = 0, o = 0;
    char tmp[24];

    if (!cap)
        return dst;
    while (at < n) {            /* a character at a time: cut at a whole one */
        int len = utf8_len(u + at, n - at);
        size_t used, k = escape_some(kind, u + at, len > 0 ? (size_t)len : 1, true, tmp, &used);
        if (o + k >= cap)
            break;
        memcpy(dst + o, tmp, k);
        o += k;
        at += used;
    }
    dst[o] = '\0';
    return dst;
}

/* ---- the streams ---- */

typedef struct {
    int fd;
    gt_out_kind kind;
    unsigned char pending[4];   /* the beginning of a character cut off by a flush */
    size_t npending;
} sink;

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Writes n bytes of buf (n 0 with final: what is pending) escaped. */
static long sink_put(sink *k, const char *buf, size_t n, bool final)
{
    unsigned char in[1024 + 4];
    char out[6 * sizeof in];
    size_t taken = 0;

    do {
        size_t m = n - taken < 1024 ? n - taken : 1024, used, o;
        memcpy(in, k->pending, k->npending);
        memcpy(in + k->npending, buf + taken, m);
        o = escape_some(k->kind, in, k->npending + m, final && taken + m == n, out, &used);
        k->npending = k->npending + m - used;
        memmove(k->pending, in + used, k->npending);
        taken += m;
        if (write_all(k->fd, out, o))
            return -1;
    } while (taken < n);
    return (long)n;
}

static long sink_write(void *cookie, const char *buf, size_t n)
{
    return sink_put(cookie, buf, n, false);
}

/* The streams open now, to free their sinks at close. */
#define MAX_OPEN 16
static struct {
    FILE *f;
    sink *k;
} open_streams[MAX_OPEN];

FILE *gt_out_open(int fd, gt_out_kind kind)
{
    sink *k = calloc(1, sizeof *k);
    FILE *f;
    int slot = -1;

    for (int i = 0; i < MAX_OPEN && slot < 0; i++)
        if (!open_streams[i].f)
            slot = i;
    if (!k || slot < 0) {
        free(k);
        errno = k ? EMFILE : ENOMEM;
        return NULL;
    }
    k->fd = fd;
    k->kind = kind;
    if (!(f = gt_port_write_stream(k, sink_write))) {
        free(k);
        return NULL;
    }
    open_streams[slot].f = f;
    open_streams[slot].k = k;
    return f;
}

int gt_out_close(FILE *f)
{
    sink *k = NULL;
    int rc, e;

    for (int i = 0; i < MAX_OPEN; i++)
        if (open_streams[i].f == f) {
            k = open_streams[i].k;
            open_streams[i].f = NULL;
        }
    rc = gt_port_stream_flush(f) ? -1 : 0;
    if (k && k->npending && sink_put(k, "", 0, true) < 0)
        rc = -1;
    e = errno;
    if (gt_port_stream_close(f))
        rc = -1;
    else
        errno = e;
    free(k);
    return rc;
}

/* ---- standard output and standard error ---- */

static gt_out_kind out_kind = GT_OUT_TEXT;
static FILE *std_out, *std_err;
static bool at_exit;

/* At exit: what they hold is written, and they are freed. */
static void close_both(void)
{
    FILE *o = std_out, *e = std_err;

    std_out = std_err = NULL;
    if (o)
        gt_out_close(o);
    if (e)
        gt_out_close(e);
}

static FILE *std_stream(FILE **slot, int fd, gt_out_kind kind, int mode)
{
    if (*slot)
        return *slot;
    if (!(*slot = gt_out_open(fd, kind)))
        return fd == STDOUT_FILENO ? stdout : stderr;  /* out of memory: said plainly */
    setvbuf(*slot, NULL, mode, mode == _IONBF ? 0 : BUFSIZ);
    if (!at_exit)
        at_exit = atexit(close_both) == 0;
    return *slot;
}

void gt_out_set_kind(gt_out_kind kind)
{
    out_kind = kind;
}

FILE *gt_stdout(void)
{
    return std_stream(&std_out, STDOUT_FILENO, out_kind, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF);
}

FILE *gt_stderr(void)
{
    return std_stream(&std_err, STDERR_FILENO, GT_OUT_TEXT, _IONBF);
}

int gt_out_flush(void)
{
    int rc = 0;

    if (std_out)
        rc = gt_port_stream_flush(std_out) ? -1 : 0;
    if (std_err)
        gt_port_stream_flush(std_err);
    return rc;
}

/* ---- CSV ---- */

void gt_csv_cell(FILE *f, const char *s, bool quoted)
{
    bool guard = strchr("=+-@\t\r", s[0]) && s[0];

    quoted |= guard || strpbrk(s, ",\"\n\r") != NULL;
    if (quoted)
        fputc('"', f);
    if (guard)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    if (quoted)
        fputc('"', f);
}
