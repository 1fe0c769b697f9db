/* The registry: one entry per line of experiments/all.h, in its order, each
 * row named as its line, found by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "gputui/experiments/registry.h"

static const char *const names[] = {
#define GT_EXP(name) #name,
#include "experiments/all.h"
};

static void one_entry_per_line_in_order(void **state)
{
    (void)state;
    assert_int_equal(gt_nexperiments, (int)(sizeof names / sizeof names[0]));
    assert_int_equal(GT_NEXPERIMENTS, gt_nexperiments);     /* the constant arrays use */
    for (int i = 0; i < gt_nexperiments; i++)
        assert_string_equal(gt_experiments[i]->name, names[i]);
    assert_string_equal(gt_experiments[0]->name, "transfer");      /* the default */
}

static void found_by_name_and_only_so(void **state)
{
    (void)state;
    for (int i = 0; i < gt_nexperiments; i++) {
        assert_ptr_equal(gt_experiment_find(names[i]), gt_experiments[i]);
        for (int j = 0; j < i; j++)
            assert_ptr_not_equal(gt_experiments[i], gt_experiments[j]);
    }
    assert_null(gt_experiment_find("nosuch"));
    assert_null(gt_experiment_find(""));
    assert_null(gt_experiment_find("Transfer"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_entry_per_line_in_order),
        cmocka_unit_test(found_by_name_and_only_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
