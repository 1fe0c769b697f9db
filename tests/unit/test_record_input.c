/* A recording's reader against every way a file can be wrong: text that
 * is not a recording or breaks the format (refused with FILE:LINE),
 * text from a later writer (read), and files no reader should take
 * (devices, FIFOs, directories, a line past GT_REC_MAX_LINE). */
#define _DEFAULT_SOURCE      /* mkstemps */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "experiments/transfer/transfer.h"
#include "gputui/measure/run.h"
#include "gputui/measure/trace.h"
#include "gputui/record/record.h"

static char path[64];

/* A fresh temporary file name ending in suffix ("" or ".gz"). */
static void temp_path(const char *suffix)
{
    snprintf(path, sizeof path, "/tmp/gputui-test-XXXXXX%s", suffix);
    close(mkstemps(path, (int)strlen(suffix)));
}

/* Parses text; on failure returns the message. */
static int parse_text(const char *text, gt_recording *rec, gt_err *err)
{
    gt_err_clear(err);
    return gt_recording_parse(rec, "t.gtr", text, strlen(text), err);
}

#define HDR "{\"type\":\"header\",\"format\":[1,0],\"version\":\"0.1.0\",\"created\":\"x\",\"device\":{\"name\":\"G\"}}\n"
#define CFG "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"values\":{\"size\":\"8M\"}}\n"
#define SMP "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":0,\"verify\":\"full\",\"sec\":0.001,\"bytes\":8388608}\n"

/* The writer's spelling of a sample (read without jansson) and the same
 * sample spelt otherwise (read with it) give the same sample. */
static void sample_spellings(void **state)
{
    static const char *const text =
        HDR CFG SMP
        "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":0,\"verify\":\"sampled\",\"sec\":0.001,\"bytes\":8388608,\"disturbed\":true}\r\n"
        "{\"gen\":1,\"type\":\"sample\",\"t\":0.5,\"series\":0,\"verify\":\"full\",\"sec\":1e-3,\"bytes\":8388608}\n"
        "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":0,\"verify\":\"full\",\"sec\":0.001,\"bytes\":8388608,\"later\":1}\n";
    gt_recording rec;
    gt_err err;

    (void)state;
    assert_int_equal(parse_text(text, &rec, &err), 0);
    assert_int_equal(rec.ncfg, 1);
    assert_int_equal(rec.cfg[0].n, 4);
    assert_int_equal(rec.lines, 6);      /* the header and the config count too */
    for (int i = 0; i < 4; i++) {
        assert_int_equal(rec.cfg[0].s[i].bytes, 8388608);
        assert_true(rec.cfg[0].s[i].sec == 0.001);
        assert_true(rec.cfg[0].t[i] == 0.5);
        assert_int_equal(rec.cfg[0].s[i].disturbed, i == 1);
        assert_int_equal(rec.cfg[0].s[i].verify, i == 1 ? GT_V_SAMPLED : GT_V_FULL);
    }
    gt_recording_free(&rec);
}

/* The numbers of a sample line, read without strtod where they are short
 * (Clinger's fast path), are the doubles strtod gives them, bit for bit:
 * every digit count from 1 to 20, 1 to 5 of them before the point, and
 * exponents from E+1 to e-25; bytes of 18 and 19 digits. */
static void sample_numbers(void **state)
{
    enum { N = 400 };
    char *text = malloc(N * 160 + 512), num[N][32];
    size_t len;
    gt_recording rec;
    gt_err err;
    unsigned seed = 12345;

    (void)state;
    assert_non_null(text);
    len = (size_t)sprintf(text, "%s%s", HDR, CFG);
    for (int i = 0; i < N; i++) {
        int digits = 1 + i % 20, point = 1 + (i / 20) % 5, k = 0;   /* under 1e6 s */
        for (int d = 0; d < digits; d++) {
            if (d == point)
                num[i][k++] = '.';
            seed = seed * 1103515245u + 12345u;
            num[i][k++] = (char)('0' + (seed >> 16) % 10);
        }
        if (i % 3 == 0)
            k += sprintf(num[i] + k, "e-%d", 1 + i % 25);
        else if (i % 11 == 0)
            k += sprintf(num[i] + k, "E+1");
        num[i][k] = '\0';
        len += (size_t)sprintf(text + len, "{\"type\":\"sample\",\"gen\":1,\"t\":%s,\"series\":0,"
                               "\"verify\":\"full\",\"sec\":%s,\"bytes\":%s}\n", num[i],
                               num[i], i % 2 ? "123456789012345678" : "1234567890123456789");
    }
    assert_int_equal(parse_text(text, &rec, &err), 0);
    assert_int_equal(rec.cfg[0].n, N);
    for (int i = 0; i < N; i++) {
        double want = strtod(num[i], NULL);
        assert_memory_equal(&rec.cfg[0].s[i].sec, &want, sizeof want);
        assert_memory_equal(&rec.cfg[0].t[i], &want, sizeof want);
        assert_true(rec.cfg[0].s[i].bytes == (i % 2 ? 123456789012345678ull : 1234567890123456789ull));
    }
    gt_recording_free(&rec);
    free(text);
}

/* A trace line as the writer spells it (read without jansson) and the same
 * calls spelt otherwise, with their keys in another order or a string with
 * an escape (read with it), give the same trace: its calls, folded
 * repeats, failures and the calls not kept. */
static void trace_spellings(void **state)
{
#define CALLS(a, b) "[{\"phase\":\"set-up\",\"call\":\"cudaMalloc(64 MiB)\",\"result\":\"cudaSuccess\"," \
    "\"ok\":true,\"count\":2,\"sec\":0.000208846},{\"phase\":\"set-up\",\"call\":\"cudaMalloc(64 MiB)\"," \
    "\"result\":\"cudaSuccess\",\"ok\":true,\"count\":1,\"sec\":" a "},{\"phase\":\"one iteration\"," \
    "\"call\":\"" b "\",\"result\":\"cudaErrorInvalidValue\",\"ok\":false,\"count\":1," \
    "\"sec\":3.45500001e-06},{\"phase\":\"teardown\",\"more\":58,\"sec\":8.47160001e-05}]"
    static const char *const text =
        HDR CFG "{\"type\":\"config\",\"gen\":2,\"experiment\":\"transfer\",\"values\":{\"size\":\"4M\"}}\n"
        "{\"type\":\"config\",\"gen\":3,\"experiment\":\"transfer\",\"values\":{\"size\":\"2M\"}}\n"
        "{\"type\":\"trace\",\"gen\":1,\"t\":932.481588,\"calls\":" CALLS("7.8182e-05", "cudaMemcpy(a, b)") "}\n"
        "{\"gen\":2,\"type\":\"trace\",\"t\":932.481588,\"calls\":" CALLS("7.8182e-05", "cudaMemcpy(a, b)") "}\r\n"
        "{\"type\":\"trace\",\"gen\":3,\"t\":1,\"calls\":" CALLS("0.000078182", "cudaMemcpy(a,\\u0020b)") "}\n";
#undef CALLS
    gt_recording rec;
    gt_err err;

    (void)state;
    assert_int_equal(parse_text(text, &rec, &err), 0);
    assert_int_equal(rec.ncfg, 3);
    assert_int_equal(rec.lines, 7);
    const gt_trace *t = rec.cfg[0].trace;
    assert_non_null(t);
    assert_int_equal(t->n, 2);
    assert_int_equal(t->c[0].count, 3);             /* the repeat folded into the first */
    assert_true(t->c[0].sec == 0.000208846 + 7.8182e-05);
    assert_string_equal(t->c[1].call, "cudaMemcpy(a, b)");
    assert_string_equal(t->c[1].result, "cudaErrorInvalidValue");
    assert_false(t->c[1].ok);
    assert_int_equal(t->more[GT_TR_TEARDOWN], 58);
    assert_true(t->more_sec[GT_TR_TEARDOWN] == 8.47160001e-05);
    for (int i = 1; i < 3; i++) {
        assert_non_null(rec.cfg[i].trace);
        assert_memory_equal(rec.cfg[i].trace, t, sizeof *t);
    }
    gt_recording_free(&rec);
}

static void bad_files(void **state)
{
    static const struct { const char *text, *must; } bad[] = {
        {"", "empty file"},
        {"hello\n", "t.gtr:1: not a gputui recording"},
        {"{\"type\":\"config\"}\n", "t.gtr:1: not a gputui recording"},
        {"{\"type\":\"header\",\"format\":[2,0]}\n" CFG, "t.gtr:1: recording format 2.0 is not supported"},
        {HDR CFG "{not json}\n" SMP, "t.gtr:3: not a JSON object"},
        {HDR CFG "[1,2]\n", "t.gtr:3: not a JSON object"},
        {HDR SMP, "t.gtr:2: sample of configuration"},
        {HDR CFG "{\"gen\":1}\n", "t.gtr:3: no \"type\""},
        {HDR "{\"type\":\"config\",\"gen\":1,\"experiment\":\"warp\",\"values\":{}}\n", "unknown experiment 'warp'"},
        {HDR "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"values\":{\"size\":\"9G\"}}\n", "t.gtr:2: config value size"},
        {HDR "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"values\":{\"dir\":3}}\n", "not a string"},
        {HDR CFG CFG, "t.gtr:3: configuration 1 appears twice"},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"series\":5,\"verify\":\"full\",\"sec\":1,\"bytes\":1}\n", "series outside 0..0"},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"series\":0,\"verify\":\"full\",\"sec\":-1,\"bytes\":1}\n", "valid \"sec\""},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"series\":0,\"verify\":\"full\",\"sec\":1,\"bytes\":-4}\n", "valid \"bytes\""},
        /* the writer's own spelling, read without jansson, and wrong: jansson says what */
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":5,\"verify\":\"full\",\"sec\":0.001,\"bytes\":1}\n", "series outside 0..0"},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":0,\"verify\":\"full\",\"sec\":-0.001,\"bytes\":1}\n", "valid \"sec\""},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":0,\"verify\":\"full\",\"sec\":0.001,\"bytes\":1.5}\n", "valid \"bytes\""},
        {HDR CFG "{\"type\":\"sample\",\"gen\":7,\"t\":0.5,\"series\":0,\"verify\":\"full\",\"sec\":0.001,\"bytes\":1}\n", "t.gtr:3: sample of configuration"},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":0,\"verify\":\"full\",\"sec\":0.001,\"bytes\":1}}\n", "t.gtr:3: not a JSON object"},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"series\":0,\"sec\":1,\"bytes\":4}\n", "without \"verify\""},
        {HDR CFG HDR, "a second header"},
        {HDR, "no configuration"},
        {"{\"type\":\"header\",\"format\":[1,0]", "not a gputui recording"},
        /* strict headers: the format, the device, the texts */
        {"{\"type\":\"header\",\"format\":[9223372036854775807,-1],\"device\":{}}\n" CFG,
         "t.gtr:1: format [9223372036854775807, -1] is not a version of the recording format "
         "(two whole numbers from 0 to 9999; this gputui reads 1.0 to 1."},
        {"{\"type\":\"header\",\"format\":[1],\"device\":{}}\n" CFG, "t.gtr:1: not a gputui recording"},
        {"{\"type\":\"header\",\"format\":[1,0,0],\"device\":{}}\n" CFG, "t.gtr:1: not a gputui recording"},
        {"{\"type\":\"header\",\"format\":[1,0],\"device\":[1,2]}\n" CFG,
         "t.gtr:1: the header's \"device\" is not an object: it must be an object of the device's properties"},
        {"{\"type\":\"header\",\"format\":[1,0]}\n" CFG, "t.gtr:1: the header's \"device\" is missing"},
        {"{\"type\":\"header\",\"format\":[1,0],\"device\":{\"ordinal\":99999}}\n" CFG,
         "t.gtr:1: the header's device \"ordinal\" is not a whole number from -1 (unknown) to 4095"},
        {"{\"type\":\"header\",\"format\":[1,0],\"device\":{},\"version\":3}\n" CFG,
         "t.gtr:1: the header's \"version\" is not a string"},
        {"{\"type\":\"header\",\"format\":[1,0],\"device\":{},\"created\":[]}\n" CFG,
         "t.gtr:1: the header's \"created\" is not a string"},
        {"{\"type\":\"header\",\"format\":[1,0],\"device\":{},\"created_last\":7}\n" CFG,
         "t.gtr:1: the header's \"created_last\" is not a string"},
        /* set-up times and sample times from no clock */
        {HDR "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"values\":{},"
         "\"setup\":[{\"what\":\"cudaMalloc\",\"seconds\":-1}]}\n",
         "t.gtr:2: config's set-up time -1 s (\"cudaMalloc\") is outside 0 to 86400 s"},
        {HDR "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"values\":{},"
         "\"setup\":[{\"what\":\"x\",\"seconds\":1e308}]}\n", "is outside 0 to 86400 s"},
        {HDR CFG "{\"type\":\"sample\",\"gen\":1,\"t\":-1,\"series\":0,\"verify\":\"full\",\"sec\":0.001,\"bytes\":1}\n",
         "t.gtr:3: sample with a \"t\" outside 0 to 1e+09 s"},
        {HDR CFG "{\"type\":\"error\",\"gen\":1,\"t\":1e300,\"message\":\"x\"}\n",
         "t.gtr:3: error with a \"t\" outside"},
    };
    gt_recording rec;
    gt_err err;
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = parse_text(bad[i].text, &rec, &err);
        if (rc != -1 || !strstr(err.msg, bad[i].must))
            fail_msg("case %zu: rc %d, message '%s', wanted '%s'", i, rc, err.msg, bad[i].must);
        assert_int_equal(rec.ncfg, 0);      /* freed */
    }
}

/* What a replay says of when a header's recording was made. */
static void when_of(const char *created, const char *last, const char *want)
{
    char text[512];
    gt_recording rec;
    gt_err err;

    snprintf(text, sizeof text, "{\"type\":\"header\",\"format\":[1,5],\"device\":{},"
             "\"created\":\"%s\",\"created_last\":\"%s\"}\n" CFG SMP "\n", created, last);
    assert_int_equal(parse_text(text, &rec, &err), 0);
    assert_string_equal(rec.when, want);
    gt_recording_free(&rec);
}

static void tolerant_reading(void **state)
{
    gt_recording rec;
    gt_err err;
    (void)state;
    /* Unknown fields and line types are ignored; a later minor version loads. */
    assert_int_equal(parse_text("{\"type\":\"header\",\"format\":[1,7],\"future\":1,\"device\":{}}\n"
                                "{\"type\":\"comment\",\"text\":\"hi\"}\n"
                                "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"new\":[1],"
                                "\"values\":{\"size\":\"8M\",\"color\":\"red\"}}\n" SMP "\n\n",
                                &rec, &err), 0);
    assert_int_equal(rec.minor, 7);
    {   /* ... and says so, naming both versions */
        char warn[700];
        assert_non_null(strstr(gt_recording_warning(&rec, warn, sizeof warn),
                               "t.gtr: recording format 1.7 is newer than this gputui's 1."));
    }
    assert_int_equal(rec.ncfg, 1);
    assert_int_equal(rec.cfg[0].n, 1);
    assert_int_equal(rec.cfg[0].vals[GT_TR_SIZE], 8 << 20);
    assert_int_equal(rec.cfg[0].vals[GT_TR_HOST], GT_HOST_PINNED);   /* default */
    gt_recording_free(&rec);
    /* A recording merged from parts says on which days the first and the
     * last was made; parts of one day, that day's first time. */
    when_of("2026-11-25T19:52:16Z", "2026-11-28T13:09:29Z", "2026-11-25 to 2026-11-28");
    when_of("2026-11-28T10:00:00Z", "2026-11-28T13:09:29Z", "2026-11-28T10:00:00Z");
    assert_int_equal(parse_text(HDR CFG SMP "\n", &rec, &err), 0);
    assert_string_equal(rec.when, rec.created);
    assert_string_equal(rec.created_last, "");
    gt_recording_free(&rec);
    /* A cut-off last line (no newline) is dropped and counted. */
    assert_int_equal(parse_text(HDR CFG SMP "{\"type\":\"sample\",\"gen\":1,\"t\":0.6,\"ser", &rec, &err), 0);
    assert_int_equal(rec.dropped, 1);
    assert_int_equal(rec.cfg[0].n, 1);
    gt_recording_free(&rec);
    /* ... but a complete last line without a newline loads. */
    assert_int_equal(parse_text(HDR CFG "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":0,"
                                "\"verify\":\"full\",\"sec\":0.001,\"bytes\":8}", &rec, &err), 0);
    assert_int_equal(rec.dropped, 0);
    assert_int_equal(rec.cfg[0].n, 1);
    gt_recording_free(&rec);
}

/* A recording made before a series existed: the series is marked never
 * produced, with why, so that nothing waits for its samples. */
static void older_series(void **state)
{
    gt_recording rec;
    gt_err err;
    gt_run r;
    (void)state;
    /* bidir has two series; this recording holds the first only */
    assert_int_equal(parse_text(HDR "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\","
                                "\"values\":{\"dir\":\"bidir\"}}\n" SMP, &rec, &err), 0);
    assert_int_equal(gt_rec_config_run(&rec.cfg[0], &r), 0);
    assert_int_equal(r.nseries, 2);
    assert_int_equal(r.info.skipped, 2u);
    assert_non_null(strstr(r.info.why_skipped, "the recording has none"));
    gt_run_free(&r);
    gt_recording_free(&rec);
    /* both series there: nothing is marked */
    assert_int_equal(parse_text(HDR "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\","
                                "\"values\":{\"dir\":\"bidir\"}}\n" SMP
                                "{\"type\":\"sample\",\"gen\":1,\"t\":0.5,\"series\":1,"
                                "\"verify\":\"full\",\"sec\":0.001,\"bytes\":8}\n", &rec, &err), 0);
    assert_int_equal(gt_rec_config_run(&rec.cfg[0], &r), 0);
    assert_int_equal(r.info.skipped, 0u);
    gt_run_free(&r);
    gt_recording_free(&rec);
}

/* Files no reader should take: devices, FIFOs (not waited on), a
 * directory; a line over GT_REC_MAX_LINE, plain and compressed, stops the
 * reader with FILE:LINE in bounded memory. */
static void hostile_files(void **state)
{
    static const char *const refused[][2] = {
        {"/dev/zero", "not a regular file (a character device); a recording must be a regular file"},
        {"/dev/null", "(a character device)"},
        {"/tmp", "(a directory)"},
    };
    gt_recording rec;
    gt_err err = {0};
    char fifo[64], head[] = "{\"type\":\"header\",\"format\":[1,2],\"device\":{}}\n";
    char *big = malloc(GT_REC_MAX_LINE + 2);
    FILE *f;
    gzFile z;
    (void)state;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        gt_err_clear(&err);
        assert_int_equal(gt_recording_load(&rec, refused[i][0], &err), -1);
        assert_non_null(strstr(err.msg, refused[i][1]));
    }
    snprintf(fifo, sizeof fifo, "/tmp/gputui-fifo-%d", (int)getpid());
    assert_int_equal(mkfifo(fifo, 0600), 0);
    gt_err_clear(&err);
    assert_int_equal(gt_recording_load(&rec, fifo, &err), -1);
    assert_non_null(strstr(err.msg, "(a FIFO)"));
    unlink(fifo);
    /* The header, then a line of GT_REC_MAX_LINE + 1 bytes. */
    assert_non_null(big);
    memset(big, 'x', GT_REC_MAX_LINE + 1);
    big[GT_REC_MAX_LINE + 1] = '\n';
    temp_path("");
    assert_non_null(f = fopen(path, "w"));
    fputs(head, f);
    fwrite(big, 1, GT_REC_MAX_LINE + 2, f);
    fclose(f);
    gt_err_clear(&err);
    assert_int_equal(gt_recording_load(&rec, path, &err), -1);
    assert_int_equal(strncmp(err.msg, path, strlen(path)), 0);
    assert_non_null(strstr(err.msg, ":2: line longer than 1 MiB"));
    unlink(path);
    /* Compressed, and with no newline at all (as /dev/zero would be). */
    temp_path(".gz");
    assert_non_null(z = gzopen(path, "wb"));
    for (int i = 0; i < 3; i++)
        gzwrite(z, big, GT_REC_MAX_LINE);
    gzclose(z);
    gt_err_clear(&err);
    assert_int_equal(gt_recording_load(&rec, path, &err), -1);
    assert_non_null(strstr(err.msg, ":1: line longer than 1 MiB"));
    unlink(path);
    /* From memory, the same limit. */
    gt_err_clear(&err);
    assert_int_equal(gt_recording_parse(&rec, "m.gtr", big, GT_REC_MAX_LINE + 1, &err), -1);
    assert_string_equal(err.msg, "m.gtr:1: line longer than 1 MiB");
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_files), cmocka_unit_test(sample_spellings), cmocka_unit_test(sample_numbers), cmocka_unit_test(trace_spellings),
        cmocka_unit_test(tolerant_reading),
        cmocka_unit_test(hostile_files), cmocka_unit_test(older_series),
    };
    return cmocka_run_group_tests_name("record_input", tests, NULL, NULL);
}
