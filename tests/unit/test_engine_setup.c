/* The engine keeps a set-up whose change needs none (gt_param.iteration):
 * for transfer's copies per sample and warm-up, and for every experiment's
 * warm-up, against the scripted back-end that counts set-ups; and the
 * device opened in the background (gt_engine_begin, gt_engine_wait_open). */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_engine.h"
#include "gputui/experiments/registry.h"

/* A change of copies per sample or of the warm-up keeps the set-up: no
 * teardown, no set-up, no warm-up, the set-up times say "kept"; a change
 * of size, a retune refused or the same values again set it up anew. */
static void iteration_change_keeps_the_setup(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_run r;
    int64_t v[GT_MAX_PARAMS];
    char t[32];
    (void)state;
    reset();
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_engine_start(&e, &fake, 0, &err), 0);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_int_equal(setups, 1);
    assert_false(st.info.kept);

    v[GT_TR_ITERS] = 4;
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_true(gt_run_count(&r) >= 10);
    assert_int_equal(setups, 1);
    assert_int_equal(teardowns, 0);
    assert_int_equal(retunes, 1);
    assert_int_equal(iters_now, 4);
    assert_int_equal(st.warmup_total, 0);
    assert_true(st.info.kept);
    assert_int_equal(st.info.ntimes, 1);
    assert_string_equal(st.info.times[0].label, "set-up kept: only copies per sample changed");
    assert_string_equal(gt_setup_time_text(&st.info, 0, t, sizeof t), "kept");

    v[GT_TR_WARMUP] = 5;        /* the engine's own: no retune needed */
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_int_equal(setups, 1);
    assert_string_equal(st.info.times[0].label, "set-up kept: only warm-up copies changed");

    gt_run_free(&r);
    configure(e, v, &r);        /* the same values again ('r'): a new set-up */
    collect(e, &r, 10, &st);
    assert_int_equal(setups, 2);
    assert_false(st.info.kept);
    assert_int_equal(st.warmup_done, 5);

    fail_retune = 1;            /* refused: torn down and set up */
    v[GT_TR_ITERS] = 2;
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_int_equal(setups, 3);
    assert_false(st.info.kept);

    fail_retune = 0;
    v[GT_TR_SIZE] = 128ll << 20;    /* size: a new set-up */
    gt_run_free(&r);
    configure(e, v, &r);
    collect(e, &r, 10, &st);
    assert_int_equal(setups, 4);
    assert_false(st.info.kept);
    gt_engine_stop(e);
    gt_run_free(&r);
    assert_int_equal(setups, teardowns);
}

/* Every experiment on a back-end that counts set-ups: a new warm-up count
 * keeps its set-up, a new value of a parameter that shapes it does not. */
static const gt_exp_ops *all_ops(const char *n)
{
    (void)n;
    return &fops;
}
static const gt_backend fake_all = {.name = "fake", .device_count = f_count, .query = f_query,
                                    .open = f_open, .refresh = f_refresh, .close = f_close,
                                    .ops = all_ops};

/* Waits (bounded) until configuration gen has run two iterations. */
static bool ran(gt_engine *e, uint32_t gen, gt_status *st)
{
    gt_sample buf[64];
    for (int i = 0; i < 2000; i++) {
        struct pollfd pfd = {gt_engine_fd(e), POLLIN, 0};
        poll(&pfd, 1, 5);
        while (gt_engine_drain(e, buf, 64) > 0)
            ;
        gt_engine_status(e, st);
        if (st->gen == gen && (st->state == GT_ST_ERROR || st->iterations >= 2))
            return st->state != GT_ST_ERROR;
    }
    return false;
}

static void every_experiment_keeps_its_setup(void **state)
{
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_devprops p;
    int kept = 0;
    (void)state;
    reset();
    assert_int_equal(gt_engine_start(&e, &fake_all, 0, &err), 0);
    gt_engine_props(e, &p);
    for (int x = 0; x < gt_nexperiments; x++) {
        const gt_experiment *ex = gt_experiments[x];
        int64_t v[GT_MAX_PARAMS];
        char msg[300];
        int other = -1;
        gt_experiment_defaults(ex, v);
        if (ex->warmup_param < 0 || gt_experiment_check(ex, v, &p, msg, sizeof msg))
            continue;       /* e.g. two GPUs: not on the fake one */
        for (int i = 0; i < ex->nparams && other < 0; i++)
            if (!ex->params[i].iteration && gt_param_applies(&ex->params[i], v, NULL) &&
                gt_param_step(&ex->params[i], v[i], 1) != v[i])
                other = i;
        assert_true(ran(e, gt_engine_configure(e, ex, v), &st));
        int before = setups;
        v[ex->warmup_param] = v[ex->warmup_param] + 1;
        assert_true(ran(e, gt_engine_configure(e, ex, v), &st));
        assert_int_equal(setups, before);
        assert_true(st.info.kept);
        if (other >= 0) {
            int64_t was = v[other];
            v[other] = gt_param_step(&ex->params[other], was, 1);
            if (!gt_experiment_check(ex, v, &p, msg, sizeof msg)) {
                assert_true(ran(e, gt_engine_configure(e, ex, v), &st));
                assert_int_equal(setups, before + 1);
                assert_false(st.info.kept);
            }
        }
        kept++;
    }
    assert_true(kept >= 8);
    gt_engine_stop(e);
    assert_int_equal(setups, teardowns);
}

/* The device opened behind the caller's back: the fd turns readable when
 * it is, and a failure frees the engine. */
static void open_in_the_background(void **state)
{
    gt_engine *e;
    gt_err err;
    (void)state;
    reset();
    assert_int_equal(gt_engine_begin(&e, &fake, 0, &err), 0);
    struct pollfd pfd = {gt_engine_fd(e), POLLIN, 0};
    assert_int_equal(poll(&pfd, 1, 5000), 1);
    assert_int_equal(gt_engine_wait_open(&e, 0, &err), 1);
    assert_non_null(e);
    gt_engine_stop(e);
    fail_open = 1;
    assert_int_equal(gt_engine_begin(&e, &fake, 0, &err), 0);
    assert_int_equal(gt_engine_wait_open(&e, -1, &err), -1);
    assert_null(e);
    assert_non_null(strstr(err.msg, "no usable CUDA device"));
    fail_open = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(iteration_change_keeps_the_setup),
        cmocka_unit_test(every_experiment_keeps_its_setup),
        cmocka_unit_test(open_in_the_background),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
