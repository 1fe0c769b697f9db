/* What a recording's reader keeps, within its limits (rec_keep.h). */
#include "rec_keep.h"

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

/* The slot's own memory when it has some: the last line of a
 * configuration wins. */
int rec_keep_extra(gt_recording *r, void **slot, const void *tmp, size_t size)
{
    if (!*slot) {
        if (!rec_charge(&r->held_extras, r->limits.extras, size)) {
            r->extras_unkept++;
            return 0;
        }
        if (!(*slot = malloc(size)))
            return -1;
    }
    memcpy(*slot, tmp, size);
    return 0;
}
