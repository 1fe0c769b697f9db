#include "gputui/measure/param.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gputui/base/units.h"

char *gt_param_allowed(const gt_param *p, char *buf, size_t len)
{
    char a[32], b[32];
    size_t off = 0;

    buf[0] = '\0';
    switch (p->type) {
    case GT_P_ENUM:
        for (int i = 0; i < p->nchoices && off < len; i++)
            off += (size_t)snprintf(buf + off, len - off, "%s%s",
                                    i ? ", " : "", p->choices[i]);
        break;
    case GT_P_SIZE:
        snprintf(buf, len, "%s%s%s to %s", p->zero_name ? p->zero_name : "",
                 p->zero_name ? " or " : "",
                 gt_format_size((uint64_t)(p->zero_name && p->min == 0 ? 1 : p->min), a, sizeof a),
                 gt_format_size((uint64_t)p->max, b, sizeof b));
        break;
    case GT_P_INT:
        if (p->zero_name && p->min == 0)
            snprintf(buf, len, "%s or 1 to %lld", p->zero_name, (long long)p->max);
        else
            snprintf(buf, len, "%lld to %lld", (long long)p->min, (long long)p->max);
        break;
    case GT_P_BOOL:
        snprintf(buf, len, "on or off");
        break;
    }
    return buf;
}

int gt_param_check(const gt_param *p, int64_t v, char *err, size_t errlen)
{
    char allowed[256], s[32];

    if (v < p->min || v > p->max) {
        if (p->type == GT_P_SIZE)
            gt_format_size((uint64_t)v, s, sizeof s);
        else
            snprintf(s, sizeof s, "%lld", (long long)v);
        snprintf(err, errlen, "%s: %s is out of range (allowed: %s)", p->name,
                 s, gt_param_allowed(p, allowed, sizeof allowed));
        return -1;
    }
    if (p->type == GT_P_SIZE && p->align > 1 && v % p->align) {
        snprintf(err, errlen, "%s: %lld bytes is not a multiple of %lld bytes",
                 p->name, (long long)v, (long long)p->align);
        return -1;
    }
    return 0;
}

int gt_param_parse(const gt_param *p, const char *text, int64_t *out,
                   char *err, size_t errlen)
{
    char allowed[256], why[200];
    uint64_t sz;
    long long ll;
    char *end;

    switch (p->type) {
    case GT_P_ENUM:
        for (int i = 0; i < p->nchoices; i++)
            if (!strcasecmp(text, p->choices[i])) {
                *out = i;
                return 0;
            }
        snprintf(err, errlen, "%s: '%s' is not a valid value (allowed: %s)",
                 p->name, text, gt_param_allowed(p, allowed, sizeof allowed));
        return -1;
    case GT_P_SIZE:
        if (p->zero_name && !strcasecmp(text, p->zero_name)) {
            *out = 0;
            return 0;
        }
        if (gt_parse_size(text, &sz, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s; allowed: %s", p->name, why,
                     gt_param_allowed(p, allowed, sizeof allowed));
            return -1;
        }
        if (sz > (uint64_t)INT64_MAX)
            sz = (uint64_t)INT64_MAX;
        if (gt_param_check(p, (int64_t)sz, err, errlen))
            return -1;
        *out = (int64_t)sz;
        return 0;
    case GT_P_INT:
        if (p->zero_name && !strcasecmp(text, p->zero_name)) {
            *out = 0;
            return 0;
        }
        errno = 0;
        ll = strtoll(text, &end, 10);
        if (errno || end == text || *end) {
            snprintf(err, errlen, "%s: '%s' is not a whole number (allowed: %s)",
                     p->name, text, gt_param_allowed(p, allowed, sizeof allowed));
            return -1;
        }
        if (gt_param_check(p, ll, err, errlen))
            return -1;
        *out = ll;
        return 0;
    case GT_P_BOOL:
        if (!strcasecmp(text, "on") || !strcasecmp(text, "yes") ||
            !strcasecmp(text, "true") || !strcmp(text, "1")) {
            *out = 1;
            return 0;
        }
        if (!strcasecmp(text, "off") || !strcasecmp(text, "no") ||
            !strcasecmp(text, "false") || !strcmp(text, "0")) {
            *out = 0;
            return 0;
        }
        snprintf(err, errlen, "%s: '%s' is not on or off", p->name, text);
        return -1;
    }
    snprintf(err, errlen, "%s: unknown parameter type", p->name);
    return -1;
}

int64_t gt_param_step(const gt_param *p, int64_t v, int dir)
{
    int64_t n = v;

    switch (p->type) {
    case GT_P_ENUM:
        n = (v + (dir > 0 ? 1 : p->nchoices - 1)) % p->nchoices;
        return n;
    case GT_P_BOOL:
        return !v;
    case GT_P_INT:
    case GT_P_SIZE:
        if (p->step > 0) {
            n = v + (dir > 0 ? p->step : -p->step);
        } else if (dir > 0 && v == 0 && p->zero_name && p->type == GT_P_SIZE) {
            n = 1 << 20;            /* from "auto"/"region" to the first useful size */
        } else if (dir > 0) {
            n = 1;
            while (n <= v && n < INT64_MAX / 2)
                n *= 2;
        } else if (v <= 1) {
            n = p->min;             /* 1 down to 0 ("auto") */
        } else {
            n = 1;
            while (n * 2 < v)
                n *= 2;
        }
        break;
    }
    if (n < p->min)
        n = p->min;
    if (n > p->max)
        n = p->max;
    return n;
}

char *gt_param_format(const gt_param *p, int64_t v, char *buf, size_t len)
{
    static const char *const u = "KMGT";

    switch (p->type) {
    case GT_P_ENUM:
        snprintf(buf, len, "%s", v >= 0 && v < p->nchoices ? p->choices[v] : "?");
        break;
    case GT_P_BOOL:
        snprintf(buf, len, "%s", v ? "on" : "off");
        break;
    case GT_P_INT:
        if (v == 0 && p->zero_name)
            snprintf(buf, len, "%s", p->zero_name);
        else
            snprintf(buf, len, "%lld", (long long)v);
        break;
    case GT_P_SIZE: {
        /* Exact, so that the text parses back to the same value. */
        int i = -1;
        int64_t x = v;
        if (v == 0 && p->zero_name) {
            snprintf(buf, len, "%s", p->zero_name);
            break;
        }
        while (x >= 1024 && x % 1024 == 0 && i < 3) {
            x /= 1024;
            i++;
        }
        if (i < 0)
            snprintf(buf, len, "%lld", (long long)x);
        else
            snprintf(buf, len, "%lld%c", (long long)x, u[i]);
        break;
    }
    }
    return buf;
}

bool gt_param_applies(const gt_param *p, const int64_t *vals, const char **why)
{
    const char *dummy;

    if (!why)
        why = &dummy;
    *why = NULL;
    return !p->applies || p->applies(vals, why);
}
