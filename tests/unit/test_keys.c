/* The key table: every key maps to one action; every action has a key
 * and help text; the help overlay's key list comes from the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/input/keys.h"

static void documented_keys(void **state)
{
    static const struct { int key; gt_action a; } c[] = {
        {'q', GT_A_QUIT}, {'?', GT_A_HELP}, {GT_KEY_F1, GT_A_HELP}, {'p', GT_A_PAUSE},
        {'r', GT_A_RESTART}, {'c', GT_A_CLEAR}, {GT_KEY_TAB, GT_A_NEXT_PANE},
        {GT_KEY_UP, GT_A_UP}, {'k', GT_A_UP}, {GT_KEY_DOWN, GT_A_DOWN}, {'j', GT_A_DOWN},
        {GT_KEY_LEFT, GT_A_DEC}, {'h', GT_A_DEC}, {'-', GT_A_DEC},
        {GT_KEY_RIGHT, GT_A_INC}, {'l', GT_A_INC}, {'+', GT_A_INC},
        {GT_KEY_ENTER, GT_A_EDIT}, {' ', GT_A_TOGGLE}, {'x', GT_A_EXPORT}, {'z', GT_A_NONE},
        {0, GT_A_NONE},
        {'<', GT_A_SLOWER}, {'>', GT_A_FASTER}, {'n', GT_A_NEXT_CONFIG}, {'N', GT_A_PREV_CONFIG},
        {'e', GT_A_NEXT_EXP}, {'E', GT_A_PREV_EXP},
    };
    (void)state;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        assert_int_equal(gt_key_action(c[i].key), c[i].a);
}

static void table_is_consistent(void **state)
{
    char buf[128];
    (void)state;
    for (size_t i = 0; i < gt_nkeys; i++)
        for (size_t j = i + 1; j < gt_nkeys; j++)
            assert_int_not_equal(gt_keys[i].key, gt_keys[j].key);
    for (int a = 1; a < GT_A_COUNT; a++) {
        assert_true(strlen(gt_action_help((gt_action)a)) > 5);
        assert_true(strlen(gt_action_keys((gt_action)a, buf, sizeof buf)) > 0);
    }
    assert_string_equal(gt_action_keys(GT_A_HELP, buf, sizeof buf), "? F1");
    assert_string_equal(gt_action_keys(GT_A_UP, buf, sizeof buf), "Up k");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(documented_keys), cmocka_unit_test(table_is_consistent),
    };
    return cmocka_run_group_tests_name("keys", tests, NULL, NULL);
}
