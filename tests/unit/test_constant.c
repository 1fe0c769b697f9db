/* The __constant__ memory experiment's table row: its parameters and
 * refusals, its series and its summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "experiments/constant/constant.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"
#include "testutil.h"

static void values_and_refusals(void **state)
{
    const gt_experiment *e = gt_experiment_find("constant");
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    gt_devprops p;
    char err[400];
    (void)state;
    assert_ptr_equal(e, &gt_exp_constant);
    gt_devprops_init(&p);
    gt_experiment_defaults(e, v);
    assert_int_equal(v[GT_CO_OP], GT_CO_OP_READ);
    assert_int_equal(v[GT_CO_READS], 4096);
    assert_int_equal(v[GT_CO_SIZE], 1024);
    assert_int_equal(e->series(v, names), 3);
    assert_string_equal(names[GT_CO_S_BROADCAST], "constant, broadcast");
    assert_string_equal(names[GT_CO_S_GLOBAL], "global, a word a thread");
    assert_false(gt_experiment_bandwidth(e, v));
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), 0);
    /* size means nothing to op=read, reads nothing to op=copy */
    assert_int_equal(gt_experiment_validate(e, v, 1ull << GT_CO_SIZE, err, sizeof err), -1);
    assert_non_null(strstr(err, "only with op=copy"));
    v[GT_CO_OP] = GT_CO_OP_COPY;
    assert_int_equal(gt_experiment_validate(e, v, 1ull << GT_CO_READS, err, sizeof err), -1);
    assert_non_null(strstr(err, "only with op=read"));
    e->series(v, names);
    assert_string_equal(names[GT_CO_S_TOSYMBOL], "cudaMemcpyToSymbol");
    assert_string_equal(names[GT_CO_S_FROMSYMBOL], "cudaMemcpyFromSymbol");
    assert_true(gt_experiment_bandwidth(e, v));
    v[GT_CO_SIZE] = 1026;
    assert_int_equal(gt_experiment_check(e, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "allowed: a multiple of 4 bytes, 4 B to 64 KiB"));
    /* the pattern differs between neighbours and between seeds */
    assert_int_not_equal(gt_co_word(0, 1), gt_co_word(1, 1));
    assert_int_not_equal(gt_co_word(5, 1), gt_co_word(5, 3));
}

static void summary(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_summary_line lines[GT_SUMMARY_LINES];
    gt_devprops p;
    gt_run r;
    (void)state;
    gt_devprops_init(&p);
    gt_experiment_defaults(&gt_exp_constant, v);
    gt_run_init(&r, &gt_exp_constant, v, 1);
    run_add_each(&r, 1, (const double[]){10e-6, 160e-6, 20e-6}, 3, 0, 3);
    assert_int_equal(gt_exp_constant.summary(&r, &p, lines, GT_SUMMARY_LINES), 2);
    assert_non_null(strstr(lines[0], "a word a thread: 16.0x the broadcast's time"));
    assert_non_null(strstr(lines[1], "2.00x the constant broadcast's time, 0.12x the constant"));
    gt_run_free(&r);
    v[GT_CO_OP] = GT_CO_OP_COPY;
    gt_run_init(&r, &gt_exp_constant, v, 2);
    run_add_each(&r, 2, (const double[]){12e-6, 8e-6, 10e-6}, 3, 1024, 1);
    assert_int_equal(gt_exp_constant.summary(&r, &p, lines, GT_SUMMARY_LINES), 1);
    assert_non_null(strstr(lines[0], "1 KiB: cudaMemcpyToSymbol 12.0 us, cudaMemcpy 8.0 us "
                                     "(1.50x), cudaMemcpyFromSymbol 10.0 us"));
    gt_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_and_refusals),
        cmocka_unit_test(summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
