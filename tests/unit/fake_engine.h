/* fake_engine.h - a scripted back-end for the engine's tests (test_engine.c,
 * test_engine_setup.c): one fake GPU whose transfer counts its set-ups,
 * runs, retunes and teardowns, and whose zerocopy never produces two of
 * its series; and the helpers that configure it and collect its samples.
 * Each test file includes it once; what a file does not use is fine. */
#ifndef GPUTUI_TEST_FAKE_ENGINE_H
#define GPUTUI_TEST_FAKE_ENGINE_H

#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "gputui/engine/engine.h"
#include "experiments/transfer/transfer.h"
#include "experiments/zerocopy/zerocopy.h"
#include "gputui/measure/run.h"

#define FAKE_ENGINE static __attribute__((unused))

/* fail_setup: 1 fails saying why, 2 without a word (a back-end's bug);
 * silent_run: every run fails so; null_runs: runs handed no state. */
static _Atomic int setups, teardowns, runs, fail_setup, fail_open, with_uuid, silent_run,
                   null_runs;
static int64_t last_size;
static _Atomic int64_t fail_size;       /* the transfer size whose set-up fails; 0 none */

FAKE_ENGINE int f_setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                   gt_err *err)
{
    (void)p;
    if (fail_setup == 2)
        return -1;
    if (fail_setup || (fail_size && v[GT_TR_SIZE] == fail_size)) {
        gt_err_set(err, GT_EXIT_FAIL, "cudaMallocHost failed: cudaErrorMemoryAllocation");
        return -1;
    }
    setups++;
    last_size = v[GT_TR_SIZE];
    gt_setup_info_time(info, 0.001, "fake alloc");
    *st = (void *)&setups;
    return 0;
}

FAKE_ENGINE int f_run(void *st, gt_sample *out, gt_err *err)
{
    (void)err;
    if (!st)
        null_runs++;
    if (silent_run)
        return -1;
    runs++;
    out[0].series = 0;
    out[0].verify = GT_V_FULL;
    out[0].sec = 1e-3;
    out[0].bytes = (uint64_t)last_size;
    return 1;
}

FAKE_ENGINE void f_teardown(void *st)
{
    if (st)
        teardowns++;
}

static _Atomic int retunes, fail_retune;
static _Atomic int64_t iters_now;
FAKE_ENGINE int f_retune(void *st, const int64_t *v, gt_err *err)
{
    (void)st;
    retunes++;
    if (fail_retune) {
        gt_err_set(err, GT_EXIT_FAIL, "refused");
        return -1;
    }
    iters_now = v[GT_TR_ITERS];
    return 0;
}

FAKE_ENGINE const gt_exp_ops fops = {.setup = f_setup, .run = f_run, .retune = f_retune,
                                .teardown = f_teardown};

/* zerocopy on a device that can map nothing and prefetch nothing: two of
 * the four series are never produced, and set-up says so. */
FAKE_ENGINE int z_setup(void **st, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                   gt_err *err)
{
    (void)v, (void)p, (void)err;
    info->skipped = 1u << GT_ZC_MAPPED | 1u << GT_ZC_PREFETCH;
    snprintf(info->why_skipped, sizeof info->why_skipped, "canMapHostMemory = 0");
    *st = (void *)&setups;
    return 0;
}

FAKE_ENGINE int z_run(void *st, gt_sample *out, gt_err *err)
{
    (void)st, (void)err;
    out[0] = (gt_sample){0, GT_ZC_EXPLICIT, GT_V_FULL, 1e-3, 1};
    out[1] = (gt_sample){0, GT_ZC_MANAGED, GT_V_FULL, 2e-3, 1};
    return 2;
}

FAKE_ENGINE const gt_exp_ops zops = {.setup = z_setup, .run = z_run, .teardown = f_teardown};
FAKE_ENGINE int f_count(int *n, gt_err *e) { (void)e; *n = 1; return 0; }
FAKE_ENGINE int f_query(int o, gt_devprops *p, gt_err *e) { (void)e; gt_devprops_init(p); p->ordinal = o; return 0; }
FAKE_ENGINE int f_open(int o, gt_devprops *p, gt_err *e)
{
    if (fail_open) {
        gt_err_set(e, GT_EXIT_FAIL, "no usable CUDA device: test");
        return -1;
    }
    f_query(o, p, e);
    snprintf(p->name, sizeof p->name, "Fake GPU");
    if (with_uuid)
        snprintf(p->uuid, sizeof p->uuid, "GPU-00000000-0000-0000-0000-000000000001");
    return 0;
}
FAKE_ENGINE void f_refresh(gt_devprops *p) { (void)p; }
FAKE_ENGINE void f_close(void) {}
FAKE_ENGINE const gt_exp_ops *f_ops(const char *n)
{
    return !strcmp(n, "transfer") ? &fops : !strcmp(n, "zerocopy") ? &zops : NULL;
}
FAKE_ENGINE const gt_backend fake = {.name = "fake", .device_count = f_count, .query = f_query,
                                .open = f_open, .refresh = f_refresh, .close = f_close, .ops = f_ops};

FAKE_ENGINE void reset(void)
{
    setups = teardowns = runs = fail_setup = fail_open = with_uuid = silent_run = null_runs = 0;
    fail_size = 0;
    retunes = fail_retune = 0;
    iters_now = 0;
}

/* A new configuration of transfer with values v; r starts empty for it. */
FAKE_ENGINE void configure(gt_engine *e, const int64_t *v, gt_run *r)
{
    gt_run_init(r, &gt_exp_transfer, v, gt_engine_configure(e, &gt_exp_transfer, v));
}

/* Waits (bounded) until the run has n samples or the state is ERROR. */
FAKE_ENGINE void collect(gt_engine *e, gt_run *r, uint64_t n, gt_status *st)
{
    gt_sample buf[64];
    for (int i = 0; i < 2000; i++) {
        struct pollfd pfd = {gt_engine_fd(e), POLLIN, 0};
        size_t k;
        poll(&pfd, 1, 5);
        while ((k = gt_engine_drain(e, buf, 64)) > 0)
            for (size_t j = 0; j < k; j++)
                gt_run_add(r, &buf[j]);
        gt_engine_status(e, st);
        if (gt_run_count(r) >= n || (st->state == GT_ST_ERROR && st->gen == r->gen))
            return;
    }
}

#endif
