/* A recording's samples as its reader takes them (rec_sample.h). */
#include "rec_sample.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rec_index.h"

const char *const gt_verify_names[3] = {"full", "sampled", "failed"};

/* A sample's "verify" by its name; a name this gputui does not know
 * counts as failed. */
uint8_t rec_verify_of(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, gt_verify_names[i]))
            return (uint8_t)i;
    return GT_V_FAILED;
}

/* Bytes of budget 'held' that may grow by n within 'limit'. */
bool rec_charge(size_t *held, size_t limit, size_t n)
{
    if (n > limit || *held > limit - n)
        return false;
    *held += n;
    return true;
}

/* Keeps a sample within the limits: 0 kept, 1 counted and not kept (the
 * series is full, or the samples' budget spent), -1 out of memory. */
int rec_sample_add(gt_recording *r, gt_rec_config *c, const gt_sample *s, double t)
{
    const size_t each = sizeof *c->s + sizeof *c->t;

    r->samples_read++;
    if (c->kept[s->series] >= r->limits.per_series)
        goto unkept;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        if (!rec_charge(&r->held_samples, r->limits.samples, (cap - c->cap) * each))
            goto unkept;
        gt_sample *ns = realloc(c->s, cap * sizeof *ns);
        if (!ns)
            return -1;
        c->s = ns;
        double *nt = realloc(c->t, cap * sizeof *nt);
        if (!nt)
            return -1;
        c->t = nt;
        c->cap = cap;
    }
    c->s[c->n] = *s;
    c->t[c->n++] = t;
    c->kept[s->series]++;
    return 0;
unkept:
    c->unkept++;
    r->samples_unkept++;
    return 1;
}

/* A sample line exactly as the writer spells it (recorder.c), read without
 * jansson: most of a recording's lines, and what its reading costs. p
 * moves past what it reads; false at the first thing unexpected. */
static bool lit(const char **p, const char *s)
{
    size_t k = strlen(s);

    if (strncmp(*p, s, k))
        return false;
    *p += k;
    return true;
}

static bool int_at(const char **p, long long *v)
{
    char *end;

    if (!isdigit((unsigned char)**p) && !(**p == '-' && isdigit((unsigned char)(*p)[1])))
        return false;
    errno = 0;
    *v = strtoll(*p, &end, 10);
    if (errno || (*end != ',' && *end != '}'))
        return false;
    *p = end;
    return true;
}

static bool num_at(const char **p, double *v)
{
    char *end;

    if (!isdigit((unsigned char)**p) && **p != '-')
        return false;
    *v = strtod(*p, &end);      /* another locale's decimal comma stops it: jansson then */
    if (*end != ',' && *end != '}')
        return false;
    *p = end;
    return true;
}

/* 1 when the line was such a sample and is taken, 0 when jansson must
 * read it (anything else, or anything wrong: it says what). */
int rec_sample_fast(gt_recording *r, const char *line, size_t n)
{
    char buf[256], verify[16];
    const char *p = buf, *names[GT_MAX_SERIES];
    long long gen, series, bytes;
    double t, sec;
    gt_rec_config *c;
    size_t k;

    if (n >= sizeof buf || n < 20 || memcmp(line, "{\"type\":\"sample\",", 17))
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
    if (strcmp(p, "}") || gen < 0 || gen > (long long)(UINT32_MAX - r->gen_offset) ||
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

