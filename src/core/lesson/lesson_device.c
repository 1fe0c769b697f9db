/* A lesson on this device (lesson.h): a step's claim where one of its
 * variants' conditions holds, and the first of its requirements the device
 * does not meet. A property the device does not report meets every
 * condition: the step runs and the measurement judges it. */
#include "gputui/lesson/lesson.h"

#include <stdio.h>
#include <string.h>

static bool holds(const gt_lesson_cond *c, const gt_devprops *p)
{
    int64_t v = gt_dp_get(p, c->prop);

    return c->op == GT_COND_AT_LEAST ? v >= c->value : c->op == GT_COND_AT_MOST ? v <= c->value
                                                                                 : v == c->value;
}

const gt_lesson_claim *gt_lesson_claim_for(const gt_lesson_step *st, const gt_devprops *p)
{
    for (int k = 0; k < st->nvariants; k++) {
        const gt_lesson_variant *vt = &st->variant[k];
        if (gt_dp_ok(p, vt->when.prop) && holds(&vt->when, p))
            return &vt->claim;
    }
    return &st->claim;
}

void gt_lesson_step_for(const gt_lesson_step *st, const gt_devprops *p, gt_lesson_step *out)
{
    const gt_lesson_claim *c = gt_lesson_claim_for(st, p);

    if (out != st)
        *out = *st;
    if (c != &st->claim)
        out->claim = *c;
}

const char *gt_lesson_unmet(const gt_lesson_step *st, const gt_devprops *p, char *buf,
                            size_t len)
{
    for (int k = 0; k < st->nrequires; k++) {
        const gt_lesson_cond *c = &st->requires[k];
        char v[48];
        if (!gt_dp_ok(p, c->prop) || holds(c, p))
            continue;
        snprintf(buf, len, "not on this machine: %s (this device: %s %s)", c->why,
                 gt_dp_table[c->prop].key, gt_dp_format(p, c->prop, v, sizeof v));
        return buf;
    }
    return NULL;
}
