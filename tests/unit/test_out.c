/* Where text leaves gputui: the escaping rule, its streams and CSV cells. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/base/out.h"

static void text_rule(void **state)
{
    static const struct { const char *in, *text, *json; } c[] = {
        {"H200", "H200", "H200"},
        {"\x1b]0;pwned\x07H200\x1b[2J", "\\x1b]0;pwned\\x07H200\\x1b[2J",
         "\\u001b]0;pwned\\u0007H200\\u001b[2J"},
        {"a\tb\nc\rd", "a\tb\nc\\x0dd", "a\\u0009b\nc\\u000dd"},
        {"del\x7f", "del\\x7f", "del\\u007f"},
        {"csi \xc2\x9b" "2J", "csi \\x9b2J", "csi \\u009b2J"},    /* U+009B, C1 */
        {"nbsp\xc2\xa0\xe2\x80\x94 ok", "nbsp\xc2\xa0\xe2\x80\x94 ok", "nbsp\xc2\xa0\xe2\x80\x94 ok"},
        {"lone \x9b byte", "lone \\x9b byte", "lone \\u009b byte"},  /* not UTF-8 */
        {"cut \xe2\x80", "cut \\xe2\\x80", "cut \\u00e2\\u0080"},
        {"overlong \xc0\xaf", "overlong \\xc0\\xaf", "overlong \\u00c0\\u00af"},
        {"surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80", "surrogate \\u00ed\\u00a0\\u0080"},
        {"emoji \xf0\x9f\x98\x80", "emoji \xf0\x9f\x98\x80", "emoji \xf0\x9f\x98\x80"},
    };
    char buf[256];
    (void)state;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        assert_string_equal(gt_out_escape(GT_OUT_TEXT, c[i].in, buf, sizeof buf), c[i].text);
        assert_string_equal(gt_out_escape(GT_OUT_JSON, c[i].in, buf, sizeof buf), c[i].json);
    }
    /* Cut short at a whole escape, never in the middle of one. */
    assert_string_equal(gt_out_escape(GT_OUT_TEXT, "ab\x1b", buf, 5), "ab");
    assert_string_equal(gt_out_escape(GT_OUT_TEXT, "ab\x1b", buf, 7), "ab\\x1b");
    assert_string_equal(gt_out_escape(GT_OUT_TEXT, "\xe2\x80\x94", buf, 3), "");
}

/* What a stream writes to a pipe, once closed. */
static char *through(gt_out_kind kind, const char *const *writes, size_t n)
{
    static char got[4096];
    int fd[2];
    FILE *f;
    ssize_t k;
    size_t have = 0;

    assert_int_equal(pipe(fd), 0);
    assert_non_null(f = gt_out_open(fd[1], kind));
    for (size_t i = 0; i < n; i++) {
        fputs(writes[i], f);
        fflush(f);              /* each write reaches the sink by itself */
    }
    assert_int_equal(gt_out_close(f), 0);
    close(fd[1]);
    while ((k = read(fd[0], got + have, sizeof got - 1 - have)) > 0)
        have += (size_t)k;
    close(fd[0]);
    got[have] = '\0';
    return got;
}

static void streams(void **state)
{
    /* A character split between two writes is judged whole. */
    const char *const split[] = {"dash \xe2", "\x80\x94 and C1 \xc2", "\x9b" "2J\n"};
    const char *const cut[] = {"ends in \xe2\x80"};
    const char *const json[] = {"{\"name\": \"\x1b[2J\x7f\"}\n"};
    (void)state;
    assert_string_equal(through(GT_OUT_TEXT, split, 3), "dash \xe2\x80\x94 and C1 \\x9b2J\n");
    assert_string_equal(through(GT_OUT_TEXT, cut, 1), "ends in \\xe2\\x80");
    assert_string_equal(through(GT_OUT_JSON, json, 1), "{\"name\": \"\\u001b[2J\\u007f\"}\n");
}

/* A large write (past the sink's piece) comes through whole. */
static void large(void **state)
{
    size_t n = 100000;
    char *big = malloc(n + 1);
    int fd[2];
    FILE *f, *r;
    size_t esc = 0, plain = 0;
    int c;
    (void)state;
    for (size_t i = 0; i < n; i++)
        big[i] = i % 97 == 0 ? '\x1b' : (char)('a' + i % 26);
    big[n] = '\0';
    assert_int_equal(pipe(fd), 0);
    assert_non_null(r = fdopen(fd[0], "r"));
    if (fork() == 0) {
        close(fd[0]);
        f = gt_out_open(fd[1], GT_OUT_TEXT);
        fwrite(big, 1, n, f);
        _exit(gt_out_close(f) ? 1 : 0);
    }
    close(fd[1]);
    while ((c = fgetc(r)) != EOF) {
        assert_true(c != 0x1b);
        esc += c == '\\';
        plain++;
    }
    fclose(r);
    assert_int_equal(esc, (n + 96) / 97);
    assert_int_equal(plain, n + 3 * esc);
    free(big);
}

/* A write that fails (the reader gone) is an error at the close. */
static void failed_write(void **state)
{
    int fd[2];
    FILE *f;
    (void)state;
    assert_int_equal(pipe(fd), 0);
    close(fd[0]);
    signal(SIGPIPE, SIG_IGN);
    assert_non_null(f = gt_out_open(fd[1], GT_OUT_TEXT));
    fputs("nobody reads this\n", f);
    assert_int_equal(gt_out_close(f), -1);
    close(fd[1]);
}

static char *csv(const char *s, bool quoted)
{
    static char buf[256];
    FILE *f;
    memset(buf, 0, sizeof buf);
    f = fmemopen(buf, sizeof buf, "w");
    gt_csv_cell(f, s, quoted);
    fclose(f);
    return buf;
}

static void csv_cells(void **state)
{
    (void)state;
    assert_string_equal(csv("h2d", false), "h2d");
    assert_string_equal(csv("h2d", true), "\"h2d\"");
    assert_string_equal(csv("a,b", false), "\"a,b\"");
    assert_string_equal(csv("say \"hi\"", false), "\"say \"\"hi\"\"\"");
    assert_string_equal(csv("=HYPERLINK(\"x\")", false), "\"'=HYPERLINK(\"\"x\"\")\"");
    assert_string_equal(csv("+1", false), "\"'+1\"");
    assert_string_equal(csv("-2+3", true), "\"'-2+3\"");
    assert_string_equal(csv("@SUM(A1)", false), "\"'@SUM(A1)\"");
    assert_string_equal(csv("", false), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_rule),
        cmocka_unit_test(streams),
        cmocka_unit_test(large),
        cmocka_unit_test(failed_write),
        cmocka_unit_test(csv_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
