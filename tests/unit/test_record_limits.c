/* What a recording's reader keeps of any file (record.h, gt_rec_limits):
 * a bundled recording whole; past a series' limit, the samples'
 * budget or the extras' budget, counted and said, never kept; past the
 * configurations' budget or a run of lines that carry nothing, refused.
 * Configurations are found through the index exactly as a scan finds
 * them. gzip: members one after another read, bytes after the last one
 * refused. */
#define _DEFAULT_SOURCE      /* mkstemps */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "gputui/measure/run.h"
#include "gputui/record/record.h"
#include "gputui/report/report.h"

#define HDR "{\"type\":\"header\",\"format\":[1,5],\"device\":{\"name\":\"G\"}}\n"
#define CFG(g, size) "{\"type\":\"config\",\"gen\":" #g ",\"experiment\":\"transfer\"," \
                     "\"values\":{\"size\":\"" size "\"}}\n"

static char path[64];

static void temp_path(const char *suffix)
{
    snprintf(path, sizeof path, "/tmp/gputui-limits-XXXXXX%s", suffix);
    close(mkstemps(path, (int)strlen(suffix)));
}

/* A text of n sample lines of configuration gen, series s. */
static char *samples(char *out, int gen, int s, int n)
{
    for (int i = 0; i < n; i++)
        out += sprintf(out, "{\"type\":\"sample\",\"gen\":%d,\"t\":%d.5,\"series\":%d,"
                       "\"verify\":\"full\",\"sec\":0.001,\"bytes\":4096}\n", gen, i, s);
    return out;
}

static int parse(const char *text, gt_recording *rec, gt_err *err)
{
    gt_err_clear(err);
    return gt_recording_parse(rec, "t.gtr", text, strlen(text), err);
}

/* The bundled H200's recording (the two-GPU one under ThreadSanitizer,
 * which this test needs not and which takes ten times as long to read):
 * it fits whole (nothing left out, every series under its limit, every
 * distribution exact; tests/e2e/bombs.sh checks every bundled one), and
 * the index finds what a scan of every configuration finds: the first
 * with those values, or for a followed recording the newest. */
#if defined(__SANITIZE_THREAD__)
#define BUNDLED "share/gputui/2xh200.gtr.gz"
#else
#define BUNDLED "share/gputui/h200.gtr.gz"
#endif
static void bundled_whole_and_indexed(void **state)
{
    gt_recording rec;
    gt_err err = {0};
    uint32_t most = 0;
    (void)state;
    assert_int_equal(gt_recording_load(&rec, BUNDLED, &err), 0);
    assert_int_equal(rec.samples_unkept, 0);
    assert_int_equal(rec.extras_unkept, 0);
    for (size_t i = 0; i < rec.ncfg; i++)
        for (int s = 0; s < GT_MAX_SERIES; s++)
            most = rec.cfg[i].kept[s] > most ? rec.cfg[i].kept[s] : most;
    assert_true(most < rec.limits.per_series && most <= GT_DIST_KEEP);
    assert_true(rec.held_samples <= rec.limits.samples / 2);
    assert_true(rec.held_extras <= rec.limits.extras / 2);
    assert_true(rec.held_configs <= rec.limits.configs / 8);
    print_message("%s: %zu configurations, %llu samples, the most of a series %u; "
                  "%zu + %zu + %zu KiB held\n", BUNDLED, rec.ncfg,
                  (unsigned long long)rec.samples_read, most, rec.held_samples >> 10,
                  rec.held_extras >> 10, rec.held_configs >> 10);
    for (int followed = 0; followed < 2; followed++) {
        rec.followed = followed;
        for (size_t i = 0; i < rec.ncfg; i++) {
            const gt_rec_config *c = &rec.cfg[i];
            int want = -1;
            for (size_t j = 0; j < rec.ncfg; j++)
                if (gt_rec_config_is(&rec.cfg[j], c->exp, c->vals) && (want < 0 || followed))
                    want = (int)j;
            assert_int_equal(gt_recording_find(&rec, c->exp, c->vals), want);
        }
    }
    rec.followed = false;
    gt_recording_free(&rec);
}

/* Past a series' limit: counted, not kept, and said in the warning, the
 * run, the text and the JSON report. */
static void series_limit(void **state)
{
    gt_rec_limits l = gt_rec_default_limits;
    char *text = malloc(1 << 16), *p = text, warn[900];
    gt_recording rec;
    gt_err err;
    gt_run r;
    char *out;
    size_t len;
    FILE *f;
    (void)state;
    l.per_series = 10;
    gt_recording_test_limits(&l);
    p += sprintf(p, HDR CFG(1, "8M"));
    p = samples(p, 1, 0, 25);
    samples(p, 1, 0, 5);
    assert_int_equal(parse(text, &rec, &err), 0);
    assert_int_equal(rec.cfg[0].n, 10);
    assert_int_equal(rec.cfg[0].kept[0], 10);
    assert_int_equal(rec.cfg[0].unkept, 20);
    assert_int_equal(rec.samples_read, 30);
    assert_int_equal(rec.samples_unkept, 20);
    /* the first ones are the ones kept, in order */
    assert_true(rec.cfg[0].t[9] == 9.5);
    assert_non_null(strstr(gt_recording_warning(&rec, warn, sizeof warn),
                           "t.gtr: 20 of its 30 samples were not kept (a reader keeps 10 of a "
                           "series of a configuration"));
    assert_int_equal(gt_rec_config_run(&rec.cfg[0], &r), 0);
    assert_int_equal(r.unkept, 20);
    for (int fmt = 0; fmt < 2; fmt++) {
        assert_non_null(f = open_memstream(&out, &len));
        assert_int_equal(gt_report(f, fmt ? GT_FMT_JSON : GT_FMT_TEXT, &rec.props, &r, 1, &rec), 0);
        fclose(f);
        if (fmt) {
            assert_non_null(strstr(out, "\"truncated\": true,\n      \"samples_kept\": 10,\n"
                                        "      \"samples_read\": 30"));
            assert_non_null(strstr(out, "\"samples_read\": 30,\n    \"samples_kept\": 10"));
        } else {
            assert_non_null(strstr(out, "recording: 20 more samples of this configuration were "
                                        "read and not kept"));
        }
        free(out);
    }
    gt_run_free(&r);
    gt_recording_free(&rec);
    gt_recording_test_limits(NULL);
    free(text);
}

/* The samples' budget spans configurations; the extras' budget keeps the
 * first timelines; the configurations' budget refuses the file. */
static void budgets(void **state)
{
    gt_rec_limits l = gt_rec_default_limits;
    char *text = malloc(1 << 16), *p, warn[900];
    gt_recording rec;
    gt_err err;
    (void)state;
    /* room for 16 samples' arrays (8 each at first) */
    l.samples = 16 * (sizeof(gt_sample) + sizeof(double));
    gt_recording_test_limits(&l);
    p = text + sprintf(text, HDR CFG(1, "8M") CFG(2, "16M") CFG(3, "32M"));
    for (int g = 1; g <= 3; g++)
        p = samples(p, g, 0, 6);
    assert_int_equal(parse(text, &rec, &err), 0);
    assert_int_equal(rec.cfg[0].n + rec.cfg[1].n + rec.cfg[2].n, 12);
    assert_int_equal(rec.cfg[2].n, 0);
    assert_int_equal(rec.samples_unkept, 6);
    assert_true(rec.held_samples <= l.samples);
    gt_recording_free(&rec);

    l = gt_rec_default_limits;
    l.extras = sizeof(gt_timeline);
    gt_recording_test_limits(&l);
    p = text + sprintf(text, HDR CFG(1, "8M") CFG(2, "16M"));
    for (int g = 1; g <= 2; g++)
        p += sprintf(p, "{\"type\":\"timeline\",\"gen\":%d,\"streams\":1,\"total\":[1,1],"
                     "\"sum\":[1,1,1],\"ops\":[[0,0,0,0,0.0,0.5]]}\n", g);
    samples(p, 1, 0, 1);
    assert_int_equal(parse(text, &rec, &err), 0);
    assert_non_null(rec.cfg[0].tl);
    assert_null(rec.cfg[1].tl);
    assert_int_equal(rec.extras_unkept, 1);
    assert_non_null(strstr(gt_recording_warning(&rec, warn, sizeof warn),
                           "1 timelines, call traces or inspections were not kept"));
    gt_recording_free(&rec);

    l = gt_rec_default_limits;
    l.configs = 16 * sizeof(gt_rec_config) + 4096;  /* the first 16 and their index, not 32 */
    gt_recording_test_limits(&l);
    p = text + sprintf(text, HDR);
    for (int g = 1; g <= 20; g++)
        p += sprintf(p, "{\"type\":\"config\",\"gen\":%d,\"experiment\":\"transfer\","
                     "\"values\":{\"size\":\"%dM\"}}\n", g, g);
    assert_int_equal(parse(text, &rec, &err), -1);
    assert_non_null(strstr(err.msg, "t.gtr:18: the recording's configurations take more than 0 "
                                    "MiB (16 read so far): more than gputui keeps of one "
                                    "recording"));
    gt_recording_test_limits(NULL);
    free(text);
}

/* Lines that carry nothing: a run of them past the limit refuses the
 * file; any line that carries something starts the count again. */
static void idle_lines(void **state)
{
    gt_rec_limits l = gt_rec_default_limits;
    char text[4096], *p;
    gt_recording rec;
    gt_err err;
    (void)state;
    l.idle = 5;
    gt_recording_test_limits(&l);
    p = text + sprintf(text, HDR CFG(1, "8M"));
    p += sprintf(p, "\n\r\n{\"type\":\"future\"}\n\n\n");
    p = samples(p, 1, 0, 1);
    sprintf(p, "\n\n\n\n\n" CFG(2, "16M"));
    assert_int_equal(parse(text, &rec, &err), 0);
    assert_int_equal(rec.ncfg, 2);
    gt_recording_free(&rec);
    p = text + sprintf(text, HDR CFG(1, "8M") "\n\n\n{\"type\":\"future\"}\n\n\n");
    samples(p, 1, 0, 1);
    assert_int_equal(parse(text, &rec, &err), -1);
    assert_string_equal(err.msg, "t.gtr:8: 6 lines in a row carry nothing (blank, or of a type "
                                 "this gputui ignores): not a gputui recording, or one that was "
                                 "damaged");
    gt_recording_test_limits(NULL);
}

/* gzip: members one after another are one file; bytes after the last
 * member are refused, not dropped; a member cut off loads what it holds. */
static void gzip_members(void **state)
{
    static const char a[] = HDR CFG(1, "8M"), b[] = CFG(2, "16M");
    gt_recording rec;
    gt_err err = {0};
    gzFile z;
    FILE *f;
    long size;
    char buf[4096];
    (void)state;
    temp_path(".gz");
    assert_non_null(z = gzopen(path, "wb"));
    gzputs(z, a);
    gzclose(z);
    assert_non_null(z = gzopen(path, "ab"));   /* a second member */
    gzputs(z, b);
    gzclose(z);
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_int_equal(rec.ncfg, 2);
    gt_recording_free(&rec);
    assert_non_null(f = fopen(path, "ab"));
    fputs("junk", f);
    fclose(f);
    assert_int_equal(gt_recording_load(&rec, path, &err), -1);
    assert_non_null(strstr(err.msg, ":4: bytes after the last gzip member that are not gzip "
                                    "(4 of them)"));
    /* cut in the middle of the second member */
    assert_non_null(f = fopen(path, "rb"));
    size = (long)fread(buf, 1, sizeof buf, f) - 4 - 12;
    fclose(f);
    assert_non_null(f = fopen(path, "wb"));
    fwrite(buf, 1, (size_t)size, f);
    fclose(f);
    gt_err_clear(&err);
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_non_null(strstr(rec.cut_note, "the compressed data ends early"));
    gt_recording_free(&rec);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bundled_whole_and_indexed),
        cmocka_unit_test(series_limit),
        cmocka_unit_test(budgets),
        cmocka_unit_test(idle_lines),
        cmocka_unit_test(gzip_members),
    };
    return cmocka_run_group_tests_name("record_limits", tests, NULL, NULL);
}
