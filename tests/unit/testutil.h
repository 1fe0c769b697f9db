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

/* What gputui writes to standard output (gt_stdout) between
 * stdout_capture and stdout_captured, read back into out; for files that
 * include out.h first. */
#ifdef GPUTUI_OUT_H
#include <stdio.h>
#include <unistd.h>
typedef struct stdout_capture_t {
    FILE *f;
    int saved;
} stdout_capture_t;

static inline stdout_capture_t stdout_capture(void)
{
    stdout_capture_t c = {tmpfile(), -1};

    assert_non_null(c.f);
    fflush(gt_stdout());
    c.saved = dup(STDOUT_FILENO);
    assert_true(c.saved >= 0 && dup2(fileno(c.f), STDOUT_FILENO) >= 0);
    return c;
}

static inline void stdout_captured(stdout_capture_t c, char *out, size_t len)
{
    size_t got;

    fflush(gt_stdout());
    dup2(c.saved, STDOUT_FILENO);
    close(c.saved);
    rewind(c.f);
    got = fread(out, 1, len - 1, c.f);
    out[got] = 0;
    fclose(c.f);
}
#endif

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

/* 'times' verified samples of each of series 0..nseries-1 of r, of these
 * durations (series order) and bytes. For files that include run.h first. */
#ifdef GPUTUI_RUN_H
static inline void run_add_each(gt_run *r, uint32_t gen, const double *sec, int nseries,
                                uint64_t bytes, int times)
{
    for (int i = 0; i < times; i++)
        for (int s = 0; s < nseries; s++) {
            gt_sample x = {.gen = gen, .series = (uint8_t)s, .verify = GT_V_FULL,
                           .sec = sec[s], .bytes = bytes};
            gt_run_add(r, &x);
        }
}
#endif

/* e refuses v on p with a message that contains want; for files that
 * include experiment.h first. */
#ifdef GPUTUI_EXPERIMENT_H
#include <string.h>
static inline void assert_refused(const gt_experiment *e, const int64_t *v, const gt_devprops *p,
                                  const char *want)
{
    char msg[512];

    if (!gt_experiment_check(e, v, p, msg, sizeof msg))
        fail_msg("%s: accepted, expected a refusal containing '%s'", e->name, want);
    if (!strstr(msg, want))
        fail_msg("%s: '%s' does not contain '%s'", e->name, msg, want);
}
#endif

#endif
