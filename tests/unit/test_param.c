/* Parameter stepping, formatting, applicability and device checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "experiments/transfer/transfer.h"
#include "experiments/hostalloc/hostalloc.h"
#include "experiments/zerocopy/zerocopy.h"
#include "gputui/experiments/registry.h"
#include "gputui/measure/run.h"

static const gt_param *P(int i) { return &gt_exp_transfer.params[i]; }

/* Which changes need no new set-up: the warm-up always; copies per sample
 * only where the back-end can retune; anything else, or nothing, never. */
static void iteration_only_changes(void **state)
{
    int64_t a[GT_MAX_PARAMS], b[GT_MAX_PARAMS];
    char what[96];
    (void)state;
    gt_experiment_defaults(&gt_exp_transfer, a);
    memcpy(b, a, sizeof b);
    assert_false(gt_experiment_iteration_only(&gt_exp_transfer, a, b, true, what, sizeof what));
    b[GT_TR_WARMUP] = 7;
    assert_true(gt_experiment_iteration_only(&gt_exp_transfer, a, b, false, what, sizeof what));
    assert_string_equal(what, "warm-up copies");
    b[GT_TR_ITERS] = 3;
    assert_false(gt_experiment_iteration_only(&gt_exp_transfer, a, b, false, what, sizeof what));
    assert_true(gt_experiment_iteration_only(&gt_exp_transfer, a, b, true, what, sizeof what));
    assert_string_equal(what, "copies per sample, warm-up copies");
    b[GT_TR_SIZE] = a[GT_TR_SIZE] / 2;
    assert_false(gt_experiment_iteration_only(&gt_exp_transfer, a, b, true, what, sizeof what));
    /* every experiment's warm-up count is one */
    for (int i = 0; i < gt_nexperiments; i++) {
        const gt_experiment *e = gt_experiments[i];
        if (e->warmup_param >= 0)
            assert_true(e->params[e->warmup_param].iteration);
    }
}

static void size_steps_powers_of_two(void **state)
{
    (void)state;
    assert_int_equal(gt_param_step(P(GT_TR_SIZE), 64ll << 20, 1), 128ll << 20);
    assert_int_equal(gt_param_step(P(GT_TR_SIZE), 64ll << 20, -1), 32ll << 20);
    assert_int_equal(gt_param_step(P(GT_TR_SIZE), 3ll << 29, 1), 2ll << 30);   /* 1.5G up */
    assert_int_equal(gt_param_step(P(GT_TR_SIZE), 3ll << 29, -1), 1ll << 30);  /* 1.5G down */
    assert_int_equal(gt_param_step(P(GT_TR_SIZE), 4096, -1), 4096);            /* clamps */
    assert_int_equal(gt_param_step(P(GT_TR_SIZE), 4ll << 30, 1), 4ll << 30);
}

static void enums_wrap_ints_clamp(void **state)
{
    (void)state;
    assert_int_equal(gt_param_step(P(GT_TR_DIR), GT_DIR_BIDIR, 1), GT_DIR_H2D);
    assert_int_equal(gt_param_step(P(GT_TR_DIR), GT_DIR_H2D, -1), GT_DIR_BIDIR);
    assert_int_equal(gt_param_step(P(GT_TR_ITERS), 1, -1), 1);
    assert_int_equal(gt_param_step(P(GT_TR_ITERS), 5, 1), 6);
    assert_int_equal(gt_param_step(P(GT_TR_WC), 0, 1), 1);
    assert_int_equal(gt_param_step(P(GT_TR_WC), 1, -1), 0);
}

/* What the editor shows parses back to the same value, for every param. */
static void format_round_trips(void **state)
{
    const int64_t sizes[] = {4096, 12288, 64ll << 20, 3ll << 29, 4ll << 30, 1000000};
    char buf[64], err[256];
    int64_t v;
    (void)state;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        gt_param_format(P(GT_TR_SIZE), sizes[i], buf, sizeof buf);
        assert_int_equal(gt_param_parse(P(GT_TR_SIZE), buf, &v, err, sizeof err), 0);
        assert_int_equal(v, sizes[i]);
    }
    for (int i = 0; i < gt_exp_transfer.nparams; i++) {
        const gt_param *p = P(i);
        for (int64_t x = p->min; x <= p->max && x <= p->min + 4; x++) {
            if (p->type == GT_P_SIZE)
                break;
            gt_param_format(p, x, buf, sizeof buf);
            assert_int_equal(gt_param_parse(p, buf, &v, err, sizeof err), 0);
            assert_int_equal(v, x);
        }
    }
}

static void applicability(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    const char *why;
    (void)state;
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_true(gt_param_applies(P(GT_TR_HOST), v, &why));
    assert_false(gt_param_applies(P(GT_TR_WC), v, &why));
    assert_non_null(why);
    v[GT_TR_HOST] = GT_HOST_HOSTALLOC;
    assert_true(gt_param_applies(P(GT_TR_WC), v, &why));
    assert_true(gt_param_applies(P(GT_TR_MAPPED), v, &why));
    v[GT_TR_HOST] = GT_HOST_REGISTER;
    assert_false(gt_param_applies(P(GT_TR_WC), v, &why));
    assert_true(gt_param_applies(P(GT_TR_PORTABLE), v, &why));
    assert_true(gt_param_applies(P(GT_TR_RO), v, &why));
    v[GT_TR_DIR] = GT_DIR_D2H;      /* the GPU writes a d2h destination */
    assert_false(gt_param_applies(P(GT_TR_RO), v, &why));
    assert_string_equal(why, "only with host=register and dir=h2d (the GPU only reads it)");
    v[GT_TR_DIR] = GT_DIR_D2D;
    assert_false(gt_param_applies(P(GT_TR_HOST), v, &why));
    assert_false(gt_param_applies(P(GT_TR_PORTABLE), v, &why));
}

static void device_checks(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400];
    (void)state;
    gt_experiment_defaults(&gt_exp_transfer, v);
    gt_devprops_init(&p);
    /* Unknown free memory: no check can be made, none is invented. */
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_MEM_FREE, 100ll << 20);
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), 0);
    v[GT_TR_DIR] = GT_DIR_D2D;      /* two 64 MiB buffers > 100 MiB */
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "128 MiB of device memory"));
    assert_non_null(strstr(err, "100 MiB is free"));
    v[GT_TR_DIR] = GT_DIR_H2D;
    v[GT_TR_METHOD] = GT_METHOD_SM;
    v[GT_TR_HOST] = GT_HOST_PAGEABLE;
    gt_dp_set(&p, GT_DP_PAGEABLE, 0);
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "pageableMemoryAccess"));
    gt_dp_set(&p, GT_DP_PAGEABLE, 1);
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), 0);
    v[GT_TR_METHOD] = GT_METHOD_CE;
    v[GT_TR_HOST] = GT_HOST_HOSTALLOC;
    v[GT_TR_MAPPED] = 1;
    gt_dp_set(&p, GT_DP_CAN_MAP, 0);
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "canMapHostMemory"));
    /* A read-only registration: refused where the device does not take it. */
    v[GT_TR_MAPPED] = 0;
    v[GT_TR_HOST] = GT_HOST_REGISTER;
    v[GT_TR_RO] = 1;
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_HOST_REG_RO, 0);
    assert_int_equal(gt_exp_transfer.check(v, &p, err, sizeof err), -1);
    assert_string_equal(err, "read-only: this device does not take cudaHostRegisterReadOnly "
                             "(hostRegisterReadOnlySupported = 0); allowed here: off");
}

static void ceilings(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char label[64];
    double f;
    (void)state;
    gt_experiment_defaults(&gt_exp_transfer, v);
    gt_devprops_init(&p);
    assert_true(gt_exp_transfer.ceiling(v, 0, &p, &f, label, sizeof label) == 0.0);
    assert_non_null(strstr(label, "N/A"));
    gt_dp_set(&p, GT_DP_PCIE_GEN_MAX, 5);
    gt_dp_set(&p, GT_DP_PCIE_WIDTH_MAX, 16);
    gt_dp_set(&p, GT_DP_MEM_CLOCK, 3201000);
    gt_dp_set(&p, GT_DP_BUS_WIDTH, 6016);
    gt_devprops_derive(&p);
    assert_near(gt_exp_transfer.ceiling(v, 0, &p, &f, label, sizeof label) / 1e9,
                        63.015, 0.01);
    assert_string_equal(label, "PCIe Gen5 x16");
    assert_near(f, 1.0, 0);
    v[GT_TR_DIR] = GT_DIR_D2D;
    assert_near(gt_exp_transfer.ceiling(v, 0, &p, &f, label, sizeof label) / 1e9,
                        4814.3, 0.1);
    assert_near(f, 2.0, 0);
}

/* Zero-copy: "auto" blocks, power-of-two steps, checks and the ratio
 * summary against the explicit variant. */
static void zerocopy_table(void **state)
{
    const gt_param *blocks = &gt_exp_zerocopy.params[GT_ZC_BLOCKS];
    int64_t v[GT_MAX_PARAMS], x;
    char buf[64], err[400];
    gt_devprops p;
    gt_run r;
    gt_summary_line lines[GT_SUMMARY_LINES];
    (void)state;
    assert_int_equal(gt_param_parse(blocks, "auto", &x, err, sizeof err), 0);
    assert_int_equal(x, 0);
    assert_string_equal(gt_param_format(blocks, 0, buf, sizeof buf), "auto");
    assert_int_equal(gt_param_step(blocks, 32, 1), 64);
    assert_int_equal(gt_param_step(blocks, 1, -1), 0);
    assert_non_null(strstr(gt_param_allowed(blocks, buf, sizeof buf), "auto or 1 to 65535"));
    gt_experiment_defaults(&gt_exp_zerocopy, v);
    assert_int_equal(v[GT_ZC_COUNT], 1000000);
    assert_int_equal(v[GT_ZC_BLOCKS], 32);
    assert_int_equal(v[GT_ZC_THREADS], 1024);
    gt_devprops_init(&p);
    gt_dp_set(&p, GT_DP_MEM_FREE, 16 << 20);     /* 2 x 12 MB does not fit */
    assert_int_equal(gt_exp_zerocopy.check(v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "of device memory"));
    gt_dp_set(&p, GT_DP_MEM_FREE, 1ll << 30);
    v[GT_ZC_THREADS] = 100;
    assert_int_equal(gt_exp_zerocopy.check(v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "multiple of 32"));
    v[GT_ZC_THREADS] = 1024;
    gt_run_init(&r, &gt_exp_zerocopy, v, 1);
    assert_int_equal(r.nseries, 4);
    for (int s = 0; s < 4; s++) {
        gt_sample smp = {1, (uint8_t)s, GT_V_FULL, s == 1 ? 0.168e-3 : 0.245e-3, 12000000};
        gt_run_add(&r, &smp);
    }
    assert_int_equal(gt_exp_zerocopy.summary(&r, &p, lines, GT_SUMMARY_LINES), 3);
    assert_non_null(strstr(lines[0], "mapped / explicit: 0.69x"));
    gt_dp_set(&p, GT_DP_INTEGRATED, 1);
    assert_int_equal(gt_exp_zerocopy.summary(&r, &p, lines, GT_SUMMARY_LINES), 4);
    assert_non_null(strstr(lines[3], "same physical memory"));
    gt_run_free(&r);
}

static void hostalloc_table(void **state)
{
    const gt_experiment *e = &gt_exp_hostalloc;
    int64_t v[GT_MAX_PARAMS], x;
    char err[400];
    const char *why;
    const char *names[GT_MAX_SERIES];
    (void)state;
    gt_experiment_defaults(e, v);
    assert_int_equal(e->series(v, names), 2);
    assert_string_equal(names[0], "allocate");
    v[GT_HA_OP] = GT_HA_OP_CPU;
    e->series(v, names);
    assert_string_equal(names[1], "CPU read");
    assert_false(gt_param_applies(&e->params[GT_HA_WC], v, &why));
    v[GT_HA_KIND] = GT_HOST_HOSTALLOC;
    assert_true(gt_param_applies(&e->params[GT_HA_WC], v, &why));
    v[GT_HA_KIND] = GT_HOST_REGISTER;
    assert_false(gt_param_applies(&e->params[GT_HA_WC], v, &why));
    assert_true(gt_param_applies(&e->params[GT_HA_MAPPED], v, &why));
    /* Allocations come in whole pages. */
    assert_int_equal(gt_param_parse(&e->params[GT_HA_SIZE], "6000", &x, err, sizeof err), -1);
    assert_non_null(strstr(err, "multiple of 4096"));
    assert_int_equal(gt_param_parse(&e->params[GT_HA_SIZE], "1G", &x, err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostalloc_table), cmocka_unit_test(iteration_only_changes),
        cmocka_unit_test(zerocopy_table),
        cmocka_unit_test(size_steps_powers_of_two), cmocka_unit_test(enums_wrap_ints_clamp),
        cmocka_unit_test(format_round_trips), cmocka_unit_test(applicability),
        cmocka_unit_test(device_checks), cmocka_unit_test(ceilings),
    };
    return cmocka_run_group_tests_name("param", tests, NULL, NULL);
}
