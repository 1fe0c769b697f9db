/* lesson.h - lessons: short sequences of steps that each set a
 * configuration (or two, one after the other), say what to look at and
 * what the textbook expects, and give a verdict computed from the medians
 * measured (or replayed) for it.
 *
 * A lesson is a JSON file, one per lesson, in DATA/lessons/NAME.json
 * (DATA: $GPUTUI_DATA or $GPUTUI_DATA_DIR, else share/gputui beside the binary):
 *
 *   {"lesson": "pinned", "title": "...", "about": "one line for the list",
 *    "steps": [
 *      {"title": "...", "experiment": "transfer",
 *       "configs": [{"host": "pageable"}, {"host": "pinned"}],   1 or 2
 *       "say": ["what to look at", "what the textbook expects"],
 *       "expect": {"a": {"config": 2, "series": "H2D", "label": "pinned"},
 *                  "b": {"config": 1, "series": "H2D", "label": "pageable"},
 *                  "metric": "bandwidth", "above": 1.5},
 *       "otherwise": "why it may not hold on some machines"}]}
 *
 * Values in a config are parameter values as on the command line; the
 * rest are the experiment's defaults. "config" counts from 1 (default 1).
 * An expectation is one relation between medians ("metric": "bandwidth"
 * or "time"):
 *   a and b, "above" X / "below" X / "between" [lo, hi]: the ratio a / b;
 *   a alone, "ceiling_above" X / "ceiling_below" X: a's median bandwidth
 *   as a share of its physical ceiling (experiment.h);
 *   a alone, "note_has" TEXT: a yes-or-no claim, read from a's set-up
 *   note (what the device answered), once a has its samples;
 *   a alone, "marked_above" X: at least the share X (0 to 1) of a's
 *   samples marked disturbed by another program (gputui saw it);
 * A ratio or a ceiling is taken from the clean samples: those another
 * program disturbed are left out, and a step with too few clean ones
 * says "the GPU was busy: cannot tell";
 * plus optional "samples" (per series, default 20) and "peers" (the step
 * needs that many other GPUs with peer access).
 *
 * What the claim needs of the device, and what it becomes on another kind
 * of device, are conditions on a device property (its key in the
 * properties' JSON, devprops.h):
 *   "requires": [{"property": "compute_capability", "at_least": 80,
 *                 "why": "L2 persistence needs compute capability 8.0"}]
 *     (or "at_most", or "equals"; a number, true/false, or a size "32M"):
 *     a device that fails one gets "not on this machine" with the why and
 *     its own value, and nothing is measured; a property the device does
 *     not report is no objection;
 *   "variants": [{"if": {"property": "integrated", "equals": true},
 *                 "say": [...], "expect": {...}, "otherwise": "..."}]:
 *     the first whose condition holds replaces the step's words and claim.
 * Every error names FILE:LINE. */
#ifndef GPUTUI_LESSON_H
#define GPUTUI_LESSON_H

#include "gputui/base/common.h"
#include "gputui/measure/experiment.h"
#include "gputui/measure/run.h"

#define GT_LESSON_STEPS 12
#define GT_LESSON_CONFIGS 2
#define GT_LESSON_SAY 4
#define GT_LESSON_MAX 32
#define GT_LESSON_SAMPLES 20
#define GT_LESSON_CONDS 3
#define GT_LESSON_VARIANTS 2

/* The ratio a / b above, below or between bounds; a's share of its
 * ceiling; (note_has) a's set-up note holding a text: what the device
 * answered, for a claim that is yes or no; or (marked_above) the share of
 * a's samples marked disturbed. */
typedef enum { GT_REL_ABOVE, GT_REL_BELOW, GT_REL_BETWEEN,
               GT_REL_CEIL_ABOVE, GT_REL_CEIL_BELOW, GT_REL_NOTE, GT_REL_MARKED } gt_relation;

typedef struct gt_lesson_ref {
    int config;                 /* 0-based */
    char series[48];
    char label[48];             /* how the verdict names it; the series if "" */
} gt_lesson_ref;

typedef struct gt_lesson_expect {
    gt_relation rel;
    gt_lesson_ref a, b;         /* b unused for the ceiling relations */
    bool time;                  /* metric: time (else bandwidth) */
    double lo, hi;              /* the bound(s); above/below use lo */
    char note[120];             /* note_has: the text a's set-up note must hold */
    int samples;
    int peers;
} gt_lesson_expect;

/* A condition on one property of the device. */
typedef enum { GT_COND_AT_LEAST, GT_COND_AT_MOST, GT_COND_EQUALS } gt_cond_op;
typedef struct gt_lesson_cond {
    gt_dp_id prop;
    gt_cond_op op;
    int64_t value;
    char why[160];              /* "requires": why the claim needs it */
} gt_lesson_cond;

/* What the step says and claims (on devices a variant's "if" picks, its own). */
typedef struct gt_lesson_claim {
    int nsay;
    char say[GT_LESSON_SAY][240];
    gt_lesson_expect expect;
    char otherwise[240];
} gt_lesson_claim;

typedef struct gt_lesson_variant {
    gt_lesson_cond when;
    gt_lesson_claim claim;
} gt_lesson_variant;

typedef struct gt_lesson_step {
    char title[96];
    const gt_experiment *exp;
    int nconfigs;
    int64_t vals[GT_LESSON_CONFIGS][GT_MAX_PARAMS];
    gt_lesson_claim claim;      /* on a device a variant picks, that variant's */
    int nrequires, nvariants;
    gt_lesson_cond requires[GT_LESSON_CONDS];
    gt_lesson_variant variant[GT_LESSON_VARIANTS];
} gt_lesson_step;

typedef struct gt_lesson {
    char name[32], title[96], about[160];
    char path[600];
    int nsteps;
    gt_lesson_step step[GT_LESSON_STEPS];
} gt_lesson;

/* The claim of the step on device p: that of the first variant whose
 * condition holds, else the step's own. */
const gt_lesson_claim *gt_lesson_claim_for(const gt_lesson_step *st, const gt_devprops *p);
/* The step as it stands on device p: its claim gt_lesson_claim_for's (out
 * may be st). */
void gt_lesson_step_for(const gt_lesson_step *st, const gt_devprops *p, gt_lesson_step *out);
/* NULL when device p meets every requirement of the step (or does not
 * report a property one is about); else buf: "not on this machine: WHY
 * (this device: LABEL VALUE)". */
const char *gt_lesson_unmet(const gt_lesson_step *st, const gt_devprops *p, char *buf,
                            size_t len);

/* Parses a lesson from text ('path' names it in messages). */
int gt_lesson_parse(gt_lesson *l, const char *path, const char *text, gt_err *err);
int gt_lesson_load(gt_lesson *l, const char *path, gt_err *err);
/* Every DIR/NAME.json, in order of file name, into out (at most max). Returns
 * how many, or -1 with err naming the first file that does not load. */
int gt_lessons_load_dir(const char *dir, gt_lesson *out, int max, gt_err *err);
/* The lesson named 'name' among l[0..n), or NULL. */
const gt_lesson *gt_lesson_find(const gt_lesson *l, int n, const char *name);
/* A relation as a lesson file names it ("above", "between", "note_has" ...). */
const char *gt_relation_name(gt_relation r);

typedef enum {
    GT_VERDICT_WAIT,        /* not enough samples yet, or too close so far */
    GT_VERDICT_YES,         /* as expected */
    GT_VERDICT_NO,          /* not on this machine */
    GT_VERDICT_CANNOT,      /* the figures needed do not exist here */
    GT_VERDICT_CLOSE        /* the interval still holds the threshold */
} gt_verdict_kind;

typedef struct gt_verdict {
    gt_verdict_kind kind;
    bool more;              /* WAIT because too close: more samples may decide */
    double ratio, lo, hi;   /* the figure judged and its 95% interval (NaN: none) */
    char text[400];
} gt_verdict;

/* Live, a step is first judged on GT_LESSON_FIRST samples a series (or
 * its "samples", if fewer): a case clear by more than its interval's
 * width needs no more (fewer samples than "samples", the verdict asks
 * that room of any interval while more are to come). Then it is measured
 * in rounds of its samples, its configurations in turn (A B A B ...), until
 * the interval clears the threshold or this many rounds have been taken.
 * A recording's samples are judged once. */
#define GT_LESSON_FIRST 5
#define GT_LESSON_ROUNDS 4

const char *gt_verdict_name(gt_verdict_kind k);   /* "as expected" ... */
/* The verdict of step st from runs[i] = the run of its config i (NULL
 * while a config has not run). 'need' samples per series are enough to
 * judge (the caller lowers it to what a recording holds).
 *
 * The figure judged is the ratio of the medians (or a's median against
 * its ceiling), with a 95% interval from a bootstrap of the samples
 * (deterministic: the same samples give the same interval). A verdict is
 * given only when the whole interval lies on one side of the threshold;
 * while it holds the threshold the step is WAIT with more set, and, once
 * 'final' says no more samples will come (the last round, or a
 * recording's samples used up), CLOSE: "too close to call here", with
 * both figures. */
void gt_lesson_verdict(const gt_lesson_step *st, gt_run *const *runs, const gt_devprops *p,
                       uint64_t need, bool final, gt_verdict *v);

struct gt_recording;
/* Samples per series that make step st's verdict: its "samples", or fewer
 * when a recording (rec, NULL when live) holds fewer of a config's series;
 * replay loops the recorded ones, which would add nothing. */
uint64_t gt_lesson_need(const gt_lesson_step *st, const struct gt_recording *rec);

#endif
