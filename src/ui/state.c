/* The changes of the UI state that the main loop, keys, lessons, the
 * inspection and sweeps all make: the status line's message, another
 * experiment's configuration put on screen, and a new configuration
 * handed to the engine (the run on screen becomes "before"). Calls
 * nothing else in src/ui/. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui_priv.h"

void ui_set_msg(ui *u, bool err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(u->msg, sizeof u->msg, fmt, ap);
    va_end(ap);
    u->msg_err = err;
}

bool ui_recorded_all(const ui *u)
{
    return u->rec && u->cfg_idx >= 0 && (size_t)u->cfg_idx < u->rec->ncfg &&
           u->drained >= u->rec->cfg[u->cfg_idx].n;
}

void ui_show_config(ui *u, const gt_experiment *e, const int64_t *vals)
{
    memcpy(u->saved[u->exp_idx], u->vals, sizeof u->vals);
    for (int i = 0; i < gt_nexperiments && i < MAX_EXPS; i++)
        if (gt_experiments[i] == e)
            u->exp_idx = i;
    if (e != u->exp)
        u->sel = 0;
    u->exp = e;
    memcpy(u->vals, vals, sizeof u->vals);
    if (u->rec) {
        int idx = gt_recording_find(u->rec, e, vals);
        if (idx >= 0)
            u->cfg_idx = idx;
    }
}

/* Compare mode: B follows A to the same configuration, with all its
 * samples, once B has them (B may still be being read). */
void ui_cmp_take(ui *u)
{
    int j = gt_recording_find(u->cmp, u->exp, u->vals);

    gt_run_free(&u->cmp_run);
    u->cmp_have = j >= 0 && u->cmp->cfg[j].n > 0 &&
                  !(u->cmp->loading && (size_t)j + 1 == u->cmp->ncfg);
    if (u->cmp_have && gt_rec_config_run(&u->cmp->cfg[j], &u->cmp_run))
        ui_set_msg(u, true, "out of memory for B's timeline");
}

/* tkey: when the key that caused this was read (for --trace). A replay
 * whose configuration is not read yet waits for it (apply_waiting: the
 * loop applies it once it is read, or once the whole file is). */
void ui_apply(ui *u, bool restart, double tkey)
{
    uint32_t gen;

    u->apply_waiting = gt_recording_unread(u->rec, u->exp, u->vals);
    if (u->apply_waiting) {
        u->apply_restart = restart;
        u->apply_t = tkey;
        return;
    }
    if (gt_run_count(&u->cur) || !u->prev.exp || restart)
        gt_run_move(&u->prev, &u->cur);
    else
        gt_run_free(&u->cur);
    gen = gt_engine_configure(u->eng, u->exp, u->vals);
    gt_run_init(&u->cur, u->exp, u->vals, gen);
    if (u->strip)
        gt_strip_reset(u->strip, gen);
    u->drained = 0;
    if (u->cmp)
        ui_cmp_take(u);
    u->trace_t0 = tkey;
    u->trace_gen = gen;
}
