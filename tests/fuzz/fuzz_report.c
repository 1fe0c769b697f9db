/* libFuzzer target: what gputui writes of a recording from a stranger.
 * The input is read as a recording (from memory, or through zlib when it
 * is gzip); what loads is written
 * by every renderer through the stream of out.h that stands for standard
 * output: the report as text, JSON, CSV and HTML, the comparison with
 * itself in the same four, and a recorded inspection's card in all five;
 * a refusal's message through standard error's. No output may hold a
 * control character (C0 but the newline and the tab, DEL, C1) or a byte
 * that is not UTF-8: the target aborts on the first. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gputui/base/out.h"
#include "gputui/inspect/card.h"
#include "gputui/inspect/inspection.h"
#include "gputui/measure/run.h"
#include "gputui/record/record.h"
#include "gputui/report/compare.h"
#include "gputui/report/report.h"

/* At most this many configurations are written: the renderers, not the
 * size of the report, are what is fuzzed. */
#define MAX_RUNS 8

static int out_fd = -1;

/* Whether bytes b[0..n) are clean UTF-8 text (json: no tab either). */
static void must_be_clean(const unsigned char *b, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        unsigned c = b[i];
        size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        bool bad = len == 0 || i + len > n || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ||
                   (c == 0xc2 && i + 1 < n && b[i + 1] < 0xa0);
        for (size_t k = 1; !bad && k < len; k++)
            bad = (b[i + k] & 0xc0) != 0x80;
        if (bad) {
            fprintf(stderr, "fuzz_report: %s: byte 0x%02x at %zu reached the output\n", what, c, i);
            abort();
        }
        i += len ? len - 1 : 0;
    }
}

/* A stream as standard output would be for this kind, to a scratch file. */
static FILE *open_out(gt_out_kind kind)
{
    if (out_fd < 0) {
        char path[] = "/tmp/gputui-fuzz-report-XXXXXX";
        out_fd = mkstemp(path);
        if (out_fd < 0)
            abort();
        unlink(path);
    }
    if (ftruncate(out_fd, 0) || lseek(out_fd, 0, SEEK_SET))
        abort();
    return gt_out_open(out_fd, kind);
}

static void check_out(FILE *f, const char *what)
{
    struct stat st;
    unsigned char *buf;

    gt_out_close(f);
    if (fstat(out_fd, &st) || !(buf = malloc((size_t)st.st_size + 1)) ||
        pread(out_fd, buf, (size_t)st.st_size, 0) != st.st_size)
        abort();
    must_be_clean(buf, (size_t)st.st_size, what);
    free(buf);
}

static const gt_format formats[] = {GT_FMT_TEXT, GT_FMT_JSON, GT_FMT_CSV, GT_FMT_HTML};

static void reports(const gt_recording *rec)
{
    gt_run runs[MAX_RUNS];
    int n = 0;

    for (size_t i = 0; i < rec->ncfg && n < MAX_RUNS; i++)
        if (rec->cfg[i].n && gt_rec_config_run(&rec->cfg[i], &runs[n]) == 0)
            n++;
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        gt_out_kind kind = formats[k] == GT_FMT_JSON ? GT_OUT_JSON : GT_OUT_TEXT;
        FILE *f = open_out(kind);
        gt_report(f, formats[k], &rec->props, runs, n, rec);
        check_out(f, "report");
        f = open_out(kind);
        if (rec->ncfg <= 64)    /* the comparison is of every configuration */
            gt_compare_report(f, formats[k], rec, rec);
        check_out(f, "compare");
    }
    for (int i = 0; i < n; i++)
        gt_run_free(&runs[i]);
}

static void card(const gt_recording *rec)
{
    static gt_thresholds th;
    static int loaded;
    gt_inspect_card c;
    gt_err err = {0};
    FILE *f;

    if (!loaded)
        loaded = gt_thresholds_load(&th, "share/gputui/inspect.json", &err) ? -1 : 1;
    if (loaded < 0 || !rec->inspection || gt_inspection_replay(rec->inspection, &th, &c, &err))
        return;
    f = open_out(GT_OUT_TEXT);
    gt_inspect_print_text(f, &c);
    gt_inspect_print_csv(f, &c);
    gt_inspect_print_html(f, &c);
    gt_inspect_print_prometheus(f, &c);
    check_out(f, "card");
    f = open_out(GT_OUT_JSON);
    gt_inspect_print_json(f, &c);
    check_out(f, "card as JSON");
}

/* gzip input (the large files of bigfiles.py) is read as a file is. */
static int load_gzip(const uint8_t *data, size_t size, gt_recording *rec, gt_err *err)
{
    char path[] = "/tmp/gputui-fuzz-gz-XXXXXX";
    int fd = mkstemp(path), rc;

    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    close(fd);
    rc = gt_recording_load(rec, path, err);
    unlink(path);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_recording rec;
    gt_err err;
    FILE *f;

    gt_err_clear(&err);
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b ? load_gzip(data, size, &rec, &err)
        : gt_recording_parse(&rec, "fuzz", (const char *)data, size, &err)) {
        f = open_out(GT_OUT_TEXT);
        fprintf(f, "gputui: %s\n", err.msg);
        check_out(f, "message");
        return 0;
    }
    reports(&rec);
    card(&rec);
    gt_recording_free(&rec);
    return 0;
}
