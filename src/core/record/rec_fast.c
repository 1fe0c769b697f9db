/* The writer's own spelling of its commonest lines, samples and traces
 * (recorder.c), read without jansson (rec_fast.h): most of a recording's
 * bytes, and what its reading costs. Each reader below moves p past what
 * it reads, and says false at the first thing unexpected: jansson then
 * reads the line and says what is wrong with it. */
#include "rec_fast.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/measure/trace.h"
#include "rec_index.h"
#include "rec_keep.h"

static bool lit(const char **p, const char *s)
{
    size_t k = 0;

    for (; s[k]; k++)           /* stops at the end of *p too: s holds no NUL */
        if ((*p)[k] != s[k])
            return false;
    *p += k;
    return true;
}

/* A run of digits as a whole number: at most 18 of them, which cannot
 * overflow; m is the value, *d the count. */
static const char *digits_at(const char *s, uint64_t *m, int *d)
{
    for (*m = 0, *d = 0; isdigit((unsigned char)*s) && *d < 19; s++, ++*d)
        *m = *m * 10 + (uint64_t)(*s - '0');
    return s;
}

static bool int_at(const char **p, long long *v)
{
    const char *s = *p + (**p == '-');
    char *end;
    uint64_t m;
    int d;

    if (!isdigit((unsigned char)*s))
        return false;
    s = digits_at(s, &m, &d);
    if (d <= 18 && (*s == ',' || *s == '}')) {
        *v = **p == '-' ? -(long long)m : (long long)m;
        *p = s;
        return true;
    }
    errno = 0;
    *v = strtoll(*p, &end, 10);
    if (errno || (*end != ',' && *end != '}'))
        return false;
    *p = end;
    return true;
}

/* The powers of ten a double holds exactly. */
static const double exact_pow10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* A number as the writer spells it ([-]D[.D][e[+-]D], at most 18 digits
 * before the exponent) is a whole number m times 10^x; where m is at most
 * 2^53 and 10^|x| exact, one multiplication or division of two exact
 * doubles rounds once, to the double strtod gives (Clinger's fast path).
 * The rest (more digits, a larger exponent) is strtod's. */
static bool num_at(const char **p, double *v)
{
    const char *s = *p + (**p == '-');
    char *end;
    uint64_t m = 0;
    int d = 0, k = -1, x = 0;   /* k: digits after the point; -1 before it */

    if (!isdigit((unsigned char)**p) && **p != '-')
        return false;
    for (; d <= 18; s++) {
        if (isdigit((unsigned char)*s)) {
            m = m * 10 + (uint64_t)(*s - '0');
            d++;
            k += k >= 0;
        } else if (*s == '.' && k < 0 && d && isdigit((unsigned char)s[1])) {
            k = 0;
        } else {
            break;
        }
    }
    if (d && (*s == 'e' || *s == 'E')) {
        int sign = s[1] == '-' ? -1 : 1, n = 0;
        s += 1 + (s[1] == '-' || s[1] == '+');
        for (; isdigit((unsigned char)*s) && n < 3; s++, n++)
            x = x * 10 + (*s - '0');
        x = n ? sign * x : 99;      /* no digits: strtod's */
    }
    x -= k < 0 ? 0 : k;
    if (d && d <= 18 && m <= UINT64_C(1) << 53 && x >= -22 && x <= 22 &&
        (*s == ',' || *s == '}')) {
        double y = x < 0 ? (double)m / exact_pow10[-x] : (double)m * exact_pow10[x];
        *v = **p == '-' ? -y : y;
        *p = s;
        return true;
    }
    *v = strtod(*p, &end);      /* another locale's decimal comma stops it: jansson then */
    if (*end != ',' && *end != '}')
        return false;
    *p = end;
    return true;
}

/* A sample line; the same line as the last one is not read again. */
static int sample_line(gt_recording *r, const char *line, size_t n)
{
    char buf[256], verify[16];
    const char *p = buf, *names[GT_MAX_SERIES];
    long long gen, series, bytes;
    double t, sec;
    gt_rec_config *c;
    size_t k;

    if (n >= sizeof buf || n < 20)
        return 0;
    if (n == r->last.n && r->last.gen_offset == r->gen_offset && !memcmp(line, r->last.line, n) &&
        (c = rec_index_gen(r, r->last.s.gen)) && rec_sample_add(r, c, &r->last.s, r->last.t) >= 0) {
        r->lines++;
        r->idle = 0;
        return 1;
    }
    memcpy(buf, line, n);
    buf[n - (line[n - 1] == '\r')] = '\0';
    if (!lit(&p, "{\"type\":\"sample\",\"gen\":") || !int_at(&p, &gen) ||
        !lit(&p, ",\"t\":") || !num_at(&p, &t) || !lit(&p, ",\"series\":") ||
        !int_at(&p, &series) || !lit(&p, ",\"verify\":\""))
        return 0;
    for (k = 0; k + 1 < sizeof verify && isalpha((unsigned char)*p); k++)
        verify[k] = *p++;
    verify[k] = '\0';
    if (!lit(&p, "\",\"sec\":") || !num_at(&p, &sec) || !lit(&p, ",\"bytes\":") ||
        !int_at(&p, &bytes))
        return 0;
    gt_sample s = {0, 0, rec_verify_of(verify), 0, 0};
    s.disturbed = lit(&p, ",\"disturbed\":true");
    if (p[0] != '}' || p[1] || gen < 0 || gen > (long long)(UINT32_MAX - r->gen_offset) ||
        !(c = rec_index_gen(r, (uint32_t)(gen + r->gen_offset))) || series < 0 ||
        series >= c->exp->series(c->vals, names) || !(sec >= 0) || sec > 1e6 || bytes < 0)
        return 0;
    s.gen = c->gen;
    s.series = (uint8_t)series;
    s.sec = sec;
    s.bytes = (uint64_t)bytes;
    if (!(t >= 0) || t > REC_MAX_T || rec_sample_add(r, c, &s, t) < 0)
        return 0;
    memcpy(r->last.line, line, n);
    r->last.n = n;
    r->last.gen_offset = r->gen_offset;
    r->last.s = s;
    r->last.t = t;
    r->lines++;
    r->idle = 0;
    return 1;
}

/* A string with nothing to unescape and nothing but printable ASCII (what
 * jansson would check as UTF-8, it reads), at most size - 1 bytes, into
 * buf; p is past its opening quote, and moves past the closing one. */
static bool str_at(const char **p, char *buf, size_t size)
{
    const char *s = *p;
    size_t k = 0;

    for (; *s != '"'; s++) {
        if (*s == '\\' || (unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || k + 1 >= size)
            return false;
        buf[k++] = *s;
    }
    buf[k] = '\0';
    *p = s + 1;
    return true;
}

/* One of a trace's calls into t, as gt_trace_read takes it (gt_trace_take
 * judges it): a call, or the count of a phase's calls not kept ("more"). */
static bool call_at(const char **p, gt_trace *t)
{
    char phase[24], call[1024], result[256];
    long long count = 0, more = 0;
    double sec;
    bool ok = false;

    if (!lit(p, "{\"phase\":\"") || !str_at(p, phase, sizeof phase))
        return false;
    if (lit(p, ",\"more\":")) {
        if (!int_at(p, &more) || !lit(p, ",\"sec\":") || !num_at(p, &sec) || !lit(p, "}"))
            return false;
        return !gt_trace_take(t, gt_trace_phase_parse(phase), NULL, NULL, ok, count, more, sec);
    }
    if (!lit(p, ",\"call\":\"") || !str_at(p, call, sizeof call) ||
        !lit(p, ",\"result\":\"") || !str_at(p, result, sizeof result) ||
        !lit(p, ",\"ok\":") || !((ok = lit(p, "true")) || lit(p, "false")) ||
        !lit(p, ",\"count\":") || !int_at(p, &count) || !lit(p, ",\"sec\":") ||
        !num_at(p, &sec) || !lit(p, "}"))
        return false;
    return !gt_trace_take(t, gt_trace_phase_parse(phase), call, result, ok, count, more, sec);
}

/* A trace line: its calls into a gt_trace kept with its configuration, as
 * record.c keeps one that jansson read. */
static int trace_line(gt_recording *r, const char *line, size_t n)
{
    char *buf = malloc(n + 1);
    gt_trace *t = calloc(1, sizeof *t);
    const char *p = buf;
    long long gen;
    double at;
    gt_rec_config *c = NULL;
    int taken = 0;

    if (!buf || !t)
        goto out;
    memcpy(buf, line, n);
    buf[n - (line[n - 1] == '\r')] = '\0';
    if (!lit(&p, "{\"type\":\"trace\",\"gen\":") || !int_at(&p, &gen) || !lit(&p, ",\"t\":") ||
        !num_at(&p, &at) || !lit(&p, ",\"calls\":["))
        goto out;
    for (bool first = true; !lit(&p, "]"); first = false)
        if ((!first && !lit(&p, ",")) || !call_at(&p, t))
            goto out;
    if (p[0] != '}' || p[1] || gen < 0 || gen > (long long)(UINT32_MAX - r->gen_offset) ||
        !(c = rec_index_gen(r, (uint32_t)(gen + r->gen_offset))) ||
        rec_keep_extra(r, (void **)&c->trace, t, sizeof *t) < 0)
        goto out;
    r->lines++;
    r->idle = 0;
    taken = 1;
out:
    free(buf);
    free(t);
    return taken;
}

int rec_fast_line(gt_recording *r, const char *line, size_t n)
{
    if (n > 17 && !memcmp(line, "{\"type\":\"sample\",", 17))
        return sample_line(r, line, n);
    if (n > 16 && !memcmp(line, "{\"type\":\"trace\",", 16))
        return trace_line(r, line, n);
    return 0;
}
