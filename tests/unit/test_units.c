/* Sizes with units. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/base/units.h"

static void good_sizes(void **state)
{
    static const struct { const char *in; uint64_t out; } c[] = {
        {"4096", 4096}, {"4K", 4096}, {"4k", 4096}, {"4KiB", 4096}, {"4KB", 4096},
        {"64M", 64ull << 20}, {"64 MiB", 64ull << 20}, {"1.5G", 3ull << 29},
        {"1.5g", 3ull << 29}, {"4G", 4ull << 30}, {"0.5K", 512}, {"1T", 1ull << 40},
        {" 8M ", 8ull << 20}, {"100B", 100}, {".5M", 512 * 1024},
    };
    char err[256];
    (void)state;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        uint64_t v = 0;
        assert_int_equal(gt_parse_size(c[i].in, &v, err, sizeof err), 0);
        assert_int_equal(v, c[i].out);
    }
}

static void bad_sizes(void **state)
{
    static const char *const bad[] = {"", "M", "abc", "-4K", "12X", "1.1K", "4 K B",
                                      "1e40", "nan", "inf", "64MM", "5 GiBs", "0x10"};
    char err[256];
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 0;
        err[0] = '\0';
        assert_int_equal(gt_parse_size(bad[i], &v, err, sizeof err), -1);
        assert_true(strlen(err) > 10);          /* says why */
    }
}

static void format_sizes(void **state)
{
    char b[32];
    (void)state;
    assert_string_equal(gt_format_size(4096, b, sizeof b), "4 KiB");
    assert_string_equal(gt_format_size(64ull << 20, b, sizeof b), "64 MiB");
    assert_string_equal(gt_format_size(3ull << 29, b, sizeof b), "1.50 GiB");
    assert_string_equal(gt_format_size(1000, b, sizeof b), "1000 B");
    assert_string_equal(gt_format_seconds(1.25e-3, b, sizeof b), "1.25 ms");
    assert_string_equal(gt_format_seconds(812e-9, b, sizeof b), "812 ns");
    assert_string_equal(gt_format_seconds(12.34e-6, b, sizeof b), "12.3 us");
    assert_string_equal(gt_format_seconds(2.5, b, sizeof b), "2.50 s");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_sizes), cmocka_unit_test(bad_sizes),
        cmocka_unit_test(format_sizes),
    };
    return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
