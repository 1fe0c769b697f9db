/* Every input a fuzzer ever crashed (tests/fuzz/regressions*), and the
 * corpus of hostile recordings (tests/fuzz/corpus: terminal escapes in
 * every text, headers and times that cannot be, runs of lines that carry
 * nothing, bytes after a gzip member, a series past what a reader keeps),
 * fed again through the fuzzers' own entry points: each must now be loaded
 * or refused with a message, under ASan and UBSan, and nothing written of
 * it may hold a control character (fuzz_report aborts on one). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define LLVMFuzzerTestOneInput fuzz_record_one
#include "../fuzz/fuzz_record.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_report_one
#include "../fuzz/fuzz_report.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_cli_one
#include "../fuzz/fuzz_cli.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_lesson_one
#include "../fuzz/fuzz_lesson.c"
#undef LLVMFuzzerTestOneInput

/* Feeds every file of dir but its README to one; returns how many. */
static int replay(const char *dir, int (*one)(const uint8_t *, size_t))
{
    char cmd[256], name[512];
    int n = 0;
    FILE *ls;

    snprintf(cmd, sizeof cmd, "ls %s/* 2>/dev/null | grep -v README", dir);
    ls = popen(cmd, "r");
    while (ls && fgets(name, sizeof name, ls)) {
        FILE *f;
        uint8_t *buf = malloc(1 << 22);
        size_t len;
        name[strcspn(name, "\n")] = '\0';
        assert_non_null(buf);
        assert_non_null(f = fopen(name, "rb"));
        len = fread(buf, 1, 1 << 22, f);
        fclose(f);
        one(buf, len);
        free(buf);
        n++;
    }
    if (ls)
        pclose(ls);
    print_message("%s: %d regression inputs\n", dir, n);
    return n;
}

static void recordings(void **state)
{
    (void)state;
    replay("tests/fuzz/regressions", fuzz_record_one);
    replay("tests/fuzz/regressions-report", fuzz_report_one);
}

static void hostile_corpus(void **state)
{
    (void)state;
    assert_true(replay("tests/fuzz/corpus", fuzz_record_one) >= 14);
    assert_true(replay("tests/fuzz/corpus", fuzz_report_one) >= 14);
}

static void command_lines(void **state)
{
    (void)state;
    replay("tests/fuzz/regressions-cli", fuzz_cli_one);
}

static void lessons(void **state)
{
    (void)state;
    replay("tests/fuzz/regressions-lesson", fuzz_lesson_one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recordings),
        cmocka_unit_test(hostile_corpus),
        cmocka_unit_test(command_lines),
        cmocka_unit_test(lessons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
