#include "gputui/base/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct { const char *sfx; int shift; } suffixes[] = {
    {.sfx = ""},
    {.sfx = "b"},
    {.sfx = "k", .shift = 10},
    {.sfx = "kb", .shift = 10},
    {.sfx = "kib", .shift = 10},
    {.sfx = "m", .shift = 20},
    {.sfx = "mb", .shift = 20},
    {.sfx = "mib", .shift = 20},
    {.sfx = "g", .shift = 30},
    {.sfx = "gb", .shift = 30},
    {.sfx = "gib", .shift = 30},
    {.sfx = "t", .shift = 40},
    {.sfx = "tb", .shift = 40},
    {.sfx = "tib", .shift = 40},
};

int gt_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
    const char *p = s;
    char *end;
    char sfx[8];
    size_t n = 0;
    double num, bytes;
    int shift = -1;

    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p) && *p != '.') {
        snprintf(err, errlen, "'%s' is not a size (a number with an optional "
                 "K, M, G or T suffix, e.g. 64M or 1.5G)", s);
        return -1;
    }
    /* Plain decimal only: strtod alone would also take hex and exponents. */
    {
        char numbuf[40];
        size_t k = 0;
        while ((isdigit((unsigned char)p[k]) || p[k] == '.') && k + 1 < sizeof numbuf) {
            numbuf[k] = p[k];
            k++;
        }
        numbuf[k] = '\0';
        errno = 0;
        num = strtod(numbuf, &end);
        if (errno || end != numbuf + k || !isfinite(num)) {
            snprintf(err, errlen, "'%s' is not a size (a number with an optional "
                     "K, M, G or T suffix, e.g. 64M or 1.5G)", s);
            return -1;
        }
        p += k;
    }
    while (isspace((unsigned char)*p))
        p++;
    while (*p && !isspace((unsigned char)*p) && n + 1 < sizeof sfx)
        sfx[n++] = *p++;
    sfx[n] = '\0';
    while (isspace((unsigned char)*p))
        p++;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (!strcasecmp(sfx, suffixes[i].sfx))
            shift = suffixes[i].shift;
    if (shift < 0 || *p) {
        snprintf(err, errlen, "'%s' has an unknown unit (use K, M, G or T, "
                 "powers of 1024, e.g. 64M)", s);
        return -1;
    }
    bytes = ldexp(num, shift);
    if (bytes >= 18446744073709551616.0) {
        snprintf(err, errlen, "'%s' is too large", s);
        return -1;
    }
    if (bytes != floor(bytes)) {
        snprintf(err, errlen, "'%s' is not a whole number of bytes", s);
        return -1;
    }
    *out = (uint64_t)bytes;
    return 0;
}

char *gt_format_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    double v = (double)bytes;

    while (v >= 1024.0 && i < 4) {
        v /= 1024.0;
        i++;
    }
    if (i == 0)
        snprintf(buf, len, "%llu B", (unsigned long long)bytes);
    else if (v == floor(v))
        snprintf(buf, len, "%.0f %s", v, u[i]);
    else if (v < 10.0)
        snprintf(buf, len, "%.2f %s", v, u[i]);
    else
        snprintf(buf, len, "%.1f %s", v, u[i]);
    return buf;
}

const char *gt_latency_unit(double p50, double *k)
{
    *k = p50 >= 1e-3 ? 1e3 : p50 >= 1e-6 ? 1e6 : 1e9;
    return *k == 1e3 ? "latency ms" : *k == 1e6 ? "latency us" : "latency ns";
}

char *gt_format_seconds(double s, char *buf, size_t len)
{
    static const struct { double scale; const char *u; } t[] = {
        {.scale = 1e-9, .u = "ns"},
        {.scale = 1e-6, .u = "us"},
        {.scale = 1e-3, .u = "ms"},
        {.scale = 1.0, .u = "s"},
    };
    int i = 3;

    if (!isfinite(s)) {
        snprintf(buf, len, "N/A");
        return buf;
    }
    while (i > 0 && fabs(s) < t[i].scale)
        i--;
    double v = s / t[i].scale;
    if (fabs(v) >= 100.0)
        snprintf(buf, len, "%.0f %s", v, t[i].u);
    else if (fabs(v) >= 10.0)
        snprintf(buf, len, "%.1f %s", v, t[i].u);
    else
        snprintf(buf, len, "%.2f %s", v, t[i].u);
    return buf;
}
