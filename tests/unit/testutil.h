/* Helpers shared by the unit tests. */
#ifndef GPUTUI_TESTUTIL_H
#define GPUTUI_TESTUTIL_H

#include <math.h>

/* |a - b| <= eps, in double precision; NaN never passes. */
#define assert_near(a, b, eps)                                               \
    do {                                                                     \
        double a_ = (a), b_ = (b), e_ = (eps);                               \
        if (!(fabs(a_ - b_) <= e_))                                          \
            fail_msg("%s = %.17g, expected %.17g +/- %g", #a, a_, b_, e_);   \
    } while (0)

/* The row of an inspection card with this id (the first), failing the
 * test when there is none; for files that include card.h first. */
#ifdef GPUTUI_CARD_H
#include <string.h>
static inline const gt_inspect_row *card_row(const gt_inspect_card *c, const char *id)
{
    for (int i = 0; i < c->nrows; i++)
        if (!strcmp(c->row[i].id, id))
            return &c->row[i];
    fail_msg("no row %s", id);
    return NULL;
}
#endif

/* The properties of the device a bundled recording was made on (the
 * fake back-ends' devices); -1 with the reason on stderr when it does not
 * load. For files that include record.h first. */
#ifdef GPUTUI_RECORD_H
#include <stdio.h>
static inline int recording_props(const char *path, gt_devprops *p)
{
    gt_recording rec;
    gt_err err;
    gt_err_clear(&err);
    if (gt_recording_load(&rec, path, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    *p = rec.props;
    gt_recording_free(&rec);
    return 0;
}
#endif

#endif
