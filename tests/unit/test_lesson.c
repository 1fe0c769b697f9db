/* Lessons: the parser (good files, and each kind of bad one with its
 * FILE:LINE), the shipped lessons, and verdicts on synthetic medians. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/transfer/transfer.h"
#include "gputui/lesson/lesson.h"
#include "testutil.h"

static const char *good =
    "{\n"
    "  \"lesson\": \"pinned\",\n"
    "  \"title\": \"Pinned\",\n"
    "  \"steps\": [\n"
    "    {\n"
    "      \"title\": \"H2D\",\n"
    "      \"experiment\": \"transfer\",\n"
    "      \"configs\": [{\"host\": \"pageable\"}, {\"host\": \"pinned\"}],\n"
    "      \"say\": [\"look\"],\n"
    "      \"expect\": {\"a\": {\"config\": 2, \"series\": \"H2D\", \"label\": \"pinned\"},\n"
    "                 \"b\": {\"config\": 1, \"series\": \"H2D\", \"label\": \"pageable\"},\n"
    "                 \"metric\": \"bandwidth\", \"above\": 1.5},\n"
    "      \"otherwise\": \"a VM\"\n"
    "    },\n"
    "    {\n"
    "      \"title\": \"ceiling\",\n"
    "      \"experiment\": \"transfer\",\n"
    "      \"configs\": [{\"host\": \"pinned\", \"size\": \"256M\"}],\n"
    "      \"say\": [\"look\", \"again\"],\n"
    "      \"expect\": {\"a\": {\"series\": \"H2D\"}, \"ceiling_above\": 0.7, \"samples\": 5}\n"
    "    }\n"
    "  ]\n"
    "}\n";

static void parse_ok(gt_lesson *l, const char *text)
{
    gt_err err;
    gt_err_clear(&err);
    if (gt_lesson_parse(l, "t.json", text, &err))
        fail_msg("%s", err.msg);
}

static void test_parse_good(void **s)
{
    static gt_lesson l;
    (void)s;
    parse_ok(&l, good);
    assert_string_equal(l.name, "pinned");
    assert_int_equal(l.nsteps, 2);
    assert_int_equal(l.step[0].nconfigs, 2);
    assert_int_equal(l.step[0].vals[0][GT_TR_HOST], GT_HOST_PAGEABLE);
    assert_int_equal(l.step[0].vals[1][GT_TR_HOST], GT_HOST_PINNED);
    assert_int_equal(l.step[0].vals[1][GT_TR_SIZE], 64ll << 20);   /* the default */
    assert_int_equal(l.step[0].claim.expect.rel, GT_REL_ABOVE);
    assert_int_equal(l.step[0].claim.expect.a.config, 1);
    assert_int_equal(l.step[0].claim.expect.samples, GT_LESSON_SAMPLES);
    assert_string_equal(l.step[0].claim.otherwise, "a VM");
    assert_int_equal(l.step[1].claim.expect.rel, GT_REL_CEIL_ABOVE);
    assert_int_equal(l.step[1].claim.expect.samples, 5);
    assert_string_equal(l.step[1].claim.expect.a.label, "H2D");   /* the series when no label */
    assert_int_equal(l.step[1].vals[0][GT_TR_SIZE], 256ll << 20);
}

/* good with 'from' replaced by 'to'; the error must start with want. */
static void bad(const char *from, const char *to, const char *want)
{
    static gt_lesson l;
    char text[4096];
    const char *at = strstr(good, from);
    gt_err err;

    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    gt_err_clear(&err);
    assert_int_equal(gt_lesson_parse(&l, "t.json", text, &err), -1);
    if (strncmp(err.msg, want, strlen(want)))
        fail_msg("got '%s', wanted it to start with '%s'", err.msg, want);
}

static void test_parse_bad(void **s)
{
    (void)s;
    bad("\"title\": \"Pinned\",\n", "", "t.json:1: missing field \"title\"");
    bad("\"experiment\": \"transfer\",\n      \"configs\": [{\"host\": \"pageable\"}",
        "\"experiment\": \"tranfser\",\n      \"configs\": [{\"host\": \"pageable\"}",
        "t.json:7: unknown experiment \"tranfser\" (allowed: transfer, ");
    bad("{\"host\": \"pageable\"}", "{\"hots\": \"pageable\"}",
        "t.json:8: unknown parameter \"hots\" of experiment transfer");
    bad("{\"host\": \"pageable\"}", "{\"host\": \"pagable\"}", "t.json:8: host: 'pagable'");
    bad("\"metric\": \"bandwidth\", \"above\": 1.5", "\"metric\": \"bandwidth\", \"above\": -1",
        "t.json:12: bad relation: \"above\" needs a number above 0");
    bad("\"metric\": \"bandwidth\", \"above\": 1.5",
        "\"metric\": \"bandwidth\", \"above\": 1.5, \"below\": 2",
        "t.json:12: bad relation: both \"above\" and \"below\"");
    bad("\"metric\": \"bandwidth\", \"above\": 1.5", "\"metric\": \"bandwidth\"",
        "t.json:10: bad relation: \"expect\" needs one of above, below");
    bad("\"metric\": \"bandwidth\", \"above\": 1.5", "\"marked_above\": 1.5",
        "t.json:12: bad relation: \"marked_above\" needs a share of the samples, above 0 and "
        "at most 1");
    bad("\"metric\": \"bandwidth\", \"above\": 1.5", "\"metric\": \"speed\", \"above\": 1.5",
        "t.json:12: \"metric\" is \"speed\" (allowed: bandwidth, time)");
    bad("\"series\": \"H2D\", \"label\": \"pinned\"", "\"series\": \"D2H\"",
        "t.json:10: unknown series \"D2H\" of transfer in config 2 (allowed: H2D)");
    bad("{\"config\": 2, \"series\"", "{\"config\": 3, \"series\"",
        "t.json:10: \"config\" must be 1 or 2 (the step has 2)");
    bad("\"say\": [\"look\"],", "\"say\": [],", "t.json:9: \"say\" must be a list of 1 to");
    bad("\"steps\": [", "\"stepz\": [", "t.json:1: \"steps\" must be a list of 1 to");
    bad("  \"title\": \"Pinned\",\n", "  \"title\": \"Pinned\",,\n", "t.json:3: not valid JSON");
    bad("\"lesson\": \"pinned\"", "\"lesson\": \"Pinned Copies\"",
        "t.json:2: \"lesson\" \"Pinned Copies\": a name is lower-case");
}

/* Every lesson shipped with gputui parses (the e2e tests run them). */
static void test_shipped(void **s)
{
    static gt_lesson l[GT_LESSON_MAX];
    gt_err err;
    int n;
    (void)s;
    gt_err_clear(&err);
    n = gt_lessons_load_dir("share/gputui/lessons", l, GT_LESSON_MAX, &err);
    if (n < 0)
        fail_msg("%s", err.msg);
    assert_true(n >= 9);
    assert_non_null(gt_lesson_find(l, n, "overlap"));
    assert_null(gt_lesson_find(l, n, "nope"));
}

/* A transfer run of config c with 'n' H2D samples of 'bytes' in 'sec'. */
static void run_of(gt_run *r, const gt_lesson_step *st, int c, int n, double sec)
{
    gt_run_init(r, st->exp, st->vals[c], 1);
    for (int i = 0; i < n; i++) {
        gt_sample x = {1, 0, GT_V_FULL, sec, 64ull << 20};
        gt_run_add(r, &x);
    }
}

/* ... the first 'bad' of them (of a slow copy) marked disturbed. */
static void run_disturbed(gt_run *r, const gt_lesson_step *st, int c, int n, int bad,
                          double sec)
{
    gt_run_init(r, st->exp, st->vals[c], 1);
    for (int i = 0; i < n; i++) {
        gt_sample x = {1, 0, GT_V_FULL, i < bad ? 4 * sec : sec, 64ull << 20};
        x.disturbed = i < bad;
        gt_run_add(r, &x);
    }
}

static void props(gt_devprops *p)
{
    gt_devprops_init(p);
    gt_dp_set(p, GT_DP_PCIE_GEN_MAX, 5);
    gt_dp_set(p, GT_DP_PCIE_WIDTH_MAX, 16);
    gt_devprops_derive(p);
}

static void test_verdicts(void **s)
{
    static gt_lesson l;
    gt_run a, b;
    gt_run *runs[2] = {&a, &b};
    gt_devprops p;
    gt_verdict v;
    (void)s;
    parse_ok(&l, good);
    props(&p);
    /* pageable 10 ms, pinned 1.25 ms per 64 MiB: 8x, above 1.5x */
    run_of(&a, &l.step[0], 0, 20, 0.010);
    run_of(&b, &l.step[0], 1, 20, 0.00125);
    gt_lesson_verdict(&l.step[0], runs, &p, 20, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    assert_non_null(strstr(v.text, "as expected: pinned 53.7 GB/s vs pageable 6.7 GB/s, 8.00x "
                                   "(expected above 1.5x)"));
    /* the same speed both ways: not on this machine, with the reason */
    gt_run_free(&b);
    run_of(&b, &l.step[0], 1, 20, 0.010);
    gt_lesson_verdict(&l.step[0], runs, &p, 20, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_NO);
    assert_non_null(strstr(v.text, "not on this machine: pinned 6.7 GB/s vs pageable 6.7 GB/s, "
                               "1.00x (expected above 1.5x); a VM"));
    /* too few samples: measuring */
    gt_run_free(&b);
    run_of(&b, &l.step[0], 1, 7, 0.010);
    gt_lesson_verdict(&l.step[0], runs, &p, 20, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_WAIT);
    assert_non_null(strstr(v.text, "pinned has 7 of 20 samples"));
    /* config 1 not run yet */
    runs[0] = NULL;
    gt_lesson_verdict(&l.step[0], runs, &p, 5, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_WAIT);
    gt_run_free(&a);
    gt_run_free(&b);

    /* the ceiling: 64 MiB in 1.25 ms = 53.7 GB/s of 63.0: 85% > 70% */
    run_of(&a, &l.step[1], 0, 5, 0.00125);
    runs[0] = &a;
    gt_lesson_verdict(&l.step[1], runs, &p, 5, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    assert_non_null(strstr(v.text, "= 85% of PCIe Gen5 x16 (expected above 70%)"));
    /* no link known: cannot tell */
    gt_devprops_init(&p);
    gt_lesson_verdict(&l.step[1], runs, &p, 5, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_CANNOT);
    gt_run_free(&a);
}

/* note_has: a yes-or-no claim read from a's set-up note. */
/* Samples another program disturbed: a ratio is taken from the clean ones
 * and says how many were left out; too few clean ones: the GPU was busy;
 * marked_above judges the marking itself. */
static void test_disturbed(void **s)
{
    static gt_lesson l;
    static const char *marked =
        "{\"lesson\": \"m\", \"title\": \"M\", \"steps\": [{\"title\": \"seen\", "
        "\"experiment\": \"transfer\", \"configs\": [{\"host\": \"pinned\"}], \"say\": [\"x\"], "
        "\"expect\": {\"a\": {\"series\": \"H2D\", \"label\": \"beside\"}, "
        "\"marked_above\": 0.95}, \"otherwise\": \"no counters\"}]}";
    gt_run a, b;
    gt_run *runs[2] = {&a, &b};
    gt_devprops p;
    gt_verdict v;
    (void)s;
    parse_ok(&l, good);
    props(&p);
    run_of(&a, &l.step[0], 0, 20, 0.010);
    run_disturbed(&b, &l.step[0], 1, 30, 8, 0.00125);  /* 8 slow ones beside a neighbour */
    gt_lesson_verdict(&l.step[0], runs, &p, 20, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    assert_non_null(strstr(v.text, "8.00x"));           /* the clean samples alone */
    assert_non_null(strstr(v.text, "8 disturbed by another program left out"));
    gt_run_free(&b);
    run_disturbed(&b, &l.step[0], 1, 30, 25, 0.00125);
    gt_lesson_verdict(&l.step[0], runs, &p, 20, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_CANNOT);
    assert_non_null(strstr(v.text, "the GPU was busy: cannot tell: 25 of 30 samples of pinned"));
    gt_run_free(&b);
    run_disturbed(&b, &l.step[0], 1, 24, 10, 0.00125); /* most clean: more are coming */
    gt_lesson_verdict(&l.step[0], runs, &p, 20, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_WAIT);
    assert_non_null(strstr(v.text, "14 of 20 clean samples"));
    gt_run_free(&a);
    gt_run_free(&b);

    parse_ok(&l, marked);
    run_disturbed(&a, &l.step[0], 0, 40, 39, 0.00125);
    runs[0] = &a;
    gt_lesson_verdict(&l.step[0], runs, &p, 20, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    assert_non_null(strstr(v.text, "39 of 40 samples of beside marked disturbed, 98%"));
    gt_run_free(&a);
    run_disturbed(&a, &l.step[0], 0, 5, 5, 0.00125);    /* a first look: more to come */
    gt_lesson_verdict(&l.step[0], runs, &p, 5, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_WAIT);
    assert_true(v.more);
    gt_run_free(&a);
    run_disturbed(&a, &l.step[0], 0, 40, 30, 0.00125);
    gt_lesson_verdict(&l.step[0], runs, &p, 20, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_NO);
    assert_non_null(strstr(v.text, "(expected at least 95%); no counters"));
    gt_run_free(&a);
}

static void test_note(void **s)
{
    static gt_lesson l;
    static const char *text =
        "{\"lesson\": \"maphost\", \"title\": \"t\", \"steps\": [{\"title\": \"flag\","
        " \"experiment\": \"runtime\", \"configs\": [{}], \"say\": [\"x\"],"
        " \"expect\": {\"a\": {\"series\": \"first calls (context)\"}, \"metric\": \"time\","
        " \"note_has\": \"without the mapped flag: cudaSuccess\", \"samples\": 3},"
        " \"otherwise\": \"the flag is needed here\"}]}";
    gt_run a;
    gt_run *runs[2] = {&a, NULL};
    gt_devprops p;
    gt_verdict v;
    (void)s;
    parse_ok(&l, text);
    assert_int_equal(l.step[0].claim.expect.rel, GT_REL_NOTE);
    props(&p);
    gt_run_init(&a, l.step[0].exp, l.step[0].vals[0], 1);
    for (int i = 0; i < 3; i++) {
        gt_sample x = {1, 1, GT_V_FULL, 0.12, 0};
        gt_run_add(&a, &x);
    }
    snprintf(a.info.note, sizeof a.info.note, "cudaHostGetDevicePointer on memory pinned "
             "without the mapped flag: cudaSuccess (unifiedAddressing 1)");
    gt_lesson_verdict(&l.step[0], runs, &p, 3, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    assert_non_null(strstr(v.text, "as expected: cudaHostGetDevicePointer on memory pinned"));
    snprintf(a.info.note, sizeof a.info.note, "... without the mapped flag: "
             "cudaErrorInvalidValue (unifiedAddressing 0)");
    gt_lesson_verdict(&l.step[0], runs, &p, 3, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_NO);
    assert_non_null(strstr(v.text, "; the flag is needed here"));
    gt_run_free(&a);
    /* an empty text is refused by name */
    {
        static const char *said = "without the mapped flag: cudaSuccess";
        char t2[1024];
        const char *at = strstr(text, said);
        gt_err err;
        snprintf(t2, sizeof t2, "%.*s%s", (int)(at - text), text, at + strlen(said));
        gt_err_clear(&err);
        assert_int_equal(gt_lesson_parse(&l, "t.json", t2, &err), -1);
        assert_non_null(strstr(err.msg, "\"note_has\" needs a text of 1 to 119 characters"));
    }
}

static void test_peers(void **s)
{
    static gt_lesson l;
    gt_devprops p;
    gt_verdict v;
    gt_run *runs[2] = {NULL, NULL};
    char text[4096];
    const char *at = strstr(good, "\"samples\": 5}");
    (void)s;
    snprintf(text, sizeof text, "%.*s\"samples\": 5, \"peers\": 1}%s", (int)(at - good), good,
             at + strlen("\"samples\": 5}"));
    parse_ok(&l, text);
    props(&p);
    gt_dp_set(&p, GT_DP_PEERS, 0);
    gt_lesson_verdict(&l.step[1], runs, &p, 5, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_CANNOT);
    assert_non_null(strstr(v.text, "needs 1 other GPU with peer access; this device has none"));
}

/* A transfer run of config c whose H2D times spread around 'sec': 'n'
 * samples evenly from sec * (1 - spread) to sec * (1 + spread). */
static void spread_of(gt_run *r, const gt_lesson_step *st, int c, int n, double sec,
                      double spread)
{
    gt_run_init(r, st->exp, st->vals[c], 1);
    for (int i = 0; i < n; i++) {
        double k = n > 1 ? 2.0 * i / (n - 1) - 1 : 0;
        gt_sample x = {1, 0, GT_V_FULL, sec * (1 + spread * k), 64ull << 20};
        gt_run_add(r, &x);
    }
}

/* The verdict of step st (config 1 against config 2) on n samples a
 * side, a's around sa and b's around sb seconds, each spread +-spread. */
static void pair_verdict(const gt_lesson_step *st, const gt_devprops *p, int n, double sa,
                         double sb, double spread, uint64_t need, bool final, gt_verdict *v)
{
    gt_run a, b;
    gt_run *runs[2] = {&a, &b};

    spread_of(&a, st, 0, n, sa, spread);
    spread_of(&b, st, 1, n, sb, spread);
    gt_lesson_verdict(st, runs, p, need, final, v);
    gt_run_free(&a);
    gt_run_free(&b);
}

/* Near the threshold: a ratio whose interval holds it is no verdict but
 * "too close so far" (more samples wanted), then, at the end, "too close
 * to call here" with both figures; the same ratio with a tight spread is
 * decided; the same samples give the same interval; a first look decides
 * only with room to spare. */
static void test_verdict_near_threshold(void **s)
{
    static gt_lesson l;
    const gt_lesson_step *st = &l.step[0];
    gt_run a;
    gt_run *runs[2] = {&a, NULL};
    gt_devprops p;
    gt_verdict v, again;
    (void)s;
    parse_ok(&l, good);
    props(&p);
    /* pinned 1.6x pageable (threshold 1.5x), each spread +-30% over 20 samples */
    pair_verdict(st, &p, 20, 0.016, 0.010, 0.3, 20, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_WAIT);
    assert_true(v.more);
    assert_true(v.lo < 1.5 && v.hi > 1.5);
    assert_near(v.ratio, 1.6, 1e-9);
    assert_non_null(strstr(v.text, "measuring: too close so far: pinned 6.7 GB/s vs pageable "
                                   "4.2 GB/s, 1.60x (95%: "));
    assert_non_null(strstr(v.text, "expected above 1.5x; taking more samples"));
    pair_verdict(st, &p, 20, 0.016, 0.010, 0.3, 20, true, &again);
    assert_int_equal(again.kind, GT_VERDICT_CLOSE);
    assert_false(again.more);
    assert_string_equal(gt_verdict_name(again.kind), "too close to call here");
    assert_non_null(strstr(again.text, "too close to call here: pinned 6.7 GB/s vs pageable "
                                       "4.2 GB/s, 1.60x (95%: "));
    assert_true(again.lo == v.lo && again.hi == v.hi);     /* deterministic */
    /* the same 1.6x, spread +-2%: decided at once */
    pair_verdict(st, &p, 20, 0.016, 0.010, 0.02, 20, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    assert_true(v.lo > 1.5);
    /* far below the threshold with the wide spread: decided too (no) */
    pair_verdict(st, &p, 20, 0.010, 0.010, 0.3, 20, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_NO);
    /* more samples narrow the interval: 1.6x with +-30% over 400 each decides */
    pair_verdict(st, &p, 400, 0.016, 0.010, 0.3, 20, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);

    /* a first look (5 of 20 samples, more to come): 1.8x +-8% clears
     * 1.5x, but by less than its interval's width: more samples; the
     * same 5 as the last ones, or spread +-1%, decide */
    pair_verdict(st, &p, 5, 0.018, 0.010, 0.08, 5, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_WAIT);
    assert_true(v.more);
    assert_true(v.lo > 1.5 && v.lo - (v.hi - v.lo) < 1.5);
    assert_non_null(strstr(v.text, "measuring: close on a first look: pinned "));
    pair_verdict(st, &p, 5, 0.018, 0.010, 0.08, 5, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    pair_verdict(st, &p, 5, 0.018, 0.010, 0.01, 5, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);
    /* ... and once the step's 20 samples are in, the +-8% decides */
    pair_verdict(st, &p, 20, 0.018, 0.010, 0.08, 5, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_YES);

    /* the ceiling: 53.7 GB/s of 63.0 = 85% against 70%, spread +-25%:
     * its interval holds 70% */
    spread_of(&a, &l.step[1], 0, 5, 0.00125, 0.25);
    gt_lesson_verdict(&l.step[1], runs, &p, 5, true, &v);
    assert_int_equal(v.kind, GT_VERDICT_CLOSE);
    assert_non_null(strstr(v.text, "too close to call here: H2D 53.7 GB/s = 85% of PCIe Gen5 "
                                   "x16 (95%: "));
    gt_run_free(&a);
}

/* A claim that one side is faster (above 1x) with both sides within 1%
 * of each other, the interval holding 1x or clear of it on either side:
 * not on this machine, the two level, once the step's samples are in (a
 * difference under 1% is no "faster", and a verdict that flips with it
 * flips run to run); the same interval against a threshold of 1.5x, or an
 * interval reaching past 1%, stays too close to call. */
static void test_verdict_level(void **s)
{
    static gt_lesson l, t;
    char text[4096];
    const char *at = strstr(good, "\"above\": 1.5");
    gt_devprops p;
    gt_verdict v;
    (void)s;
    snprintf(text, sizeof text, "%.*s\"above\": 1.0%s", (int)(at - good), good,
             at + strlen("\"above\": 1.5"));
    parse_ok(&l, text);
    parse_ok(&t, good);
    props(&p);
    /* the same time on both sides, +-0.2% over 20 samples */
    pair_verdict(&l.step[0], &p, 20, 0.010, 0.010, 0.002, 20, true, &v);
    assert_true(v.lo < 1.0 && v.hi > 1.0 && v.lo >= 0.99 && v.hi <= 1.01);
    assert_int_equal(v.kind, GT_VERDICT_NO);
    assert_non_null(strstr(v.text, "(expected above 1x); the two within 1% of each other; a VM"));
    /* 0.4% apart, the interval clear of 1x on either side: level too */
    for (int k = 0; k < 2; k++) {
        pair_verdict(&l.step[0], &p, 20, k ? 0.01004 : 0.00996, 0.010, 0.0002, 20, true, &v);
        assert_true(v.lo >= 0.99 && v.hi <= 1.01 && (v.lo > 1.0 || v.hi < 1.0));
        assert_int_equal(v.kind, GT_VERDICT_NO);
        assert_non_null(strstr(v.text, "the two within 1% of each other"));
    }
    /* a first look waits for the rest */
    pair_verdict(&l.step[0], &p, 5, 0.010, 0.010, 0.002, 20, false, &v);
    assert_int_equal(v.kind, GT_VERDICT_WAIT);
    /* spread +-10%: the interval reaches past 1%, no verdict */
    pair_verdict(&l.step[0], &p, 20, 0.010, 0.010, 0.1, 20, true, &v);
    assert_true(v.lo < 0.99 || v.hi > 1.01);
    assert_int_equal(v.kind, GT_VERDICT_CLOSE);
    /* 1.5x against a threshold of 1.5x: on the line, too close to call */
    pair_verdict(&t.step[0], &p, 20, 0.015, 0.010, 0.002, 20, true, &v);
    assert_true(v.lo < 1.5 && v.hi > 1.5);
    assert_int_equal(v.kind, GT_VERDICT_CLOSE);
}

/* A lesson file must be a regular file: a device is refused by name. */
static void test_not_regular(void **state)
{
    gt_lesson l;
    gt_err err = {0};
    (void)state;
    assert_int_equal(gt_lesson_load(&l, "/dev/zero", &err), -1);
    assert_string_equal(err.msg, "/dev/zero: not a regular file (a character device); a lesson "
                                 "must be a regular file");
}

/* Each relation's name is the one a lesson file uses for it (the batch
 * JSON's "expect" gives it): distinct, and read back by the parser. */
static void test_relation_names(void **state)
{
    static gt_lesson l;
    (void)state;
    for (int i = GT_REL_ABOVE; i <= GT_REL_MARKED; i++) {
        assert_string_not_equal(gt_relation_name((gt_relation)i), "?");
        for (int j = GT_REL_ABOVE; j < i; j++)
            assert_string_not_equal(gt_relation_name((gt_relation)i),
                                    gt_relation_name((gt_relation)j));
    }
    assert_string_equal(gt_relation_name((gt_relation)99), "?");
    parse_ok(&l, good);
    assert_string_equal(gt_relation_name(l.step[0].claim.expect.rel), "above");
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_parse_good), cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_shipped), cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_peers), cmocka_unit_test(test_not_regular),
        cmocka_unit_test(test_note), cmocka_unit_test(test_verdict_near_threshold),
        cmocka_unit_test(test_verdict_level),
        cmocka_unit_test(test_disturbed), cmocka_unit_test(test_relation_names),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
