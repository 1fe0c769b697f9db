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
    vsnprintf(u->msg.text, sizeof u->msg.text, fmt, ap);
    va_end(ap);
    u->msg.err = err;
}

bool ui_recorded_all(const ui *u)
{
    return u->rp.rec && u->rp.cfg_idx >= 0 && (size_t)u->rp.cfg_idx < u->rp.rec->ncfg &&
           u->sync.drained >= u->rp.rec->cfg[u->rp.cfg_idx].n;
}

void ui_show_config(ui *u, const gt_experiment *e, const int64_t *vals)
{
    memcpy(u->saved[u->exp_idx], u->vals, sizeof u->vals);
    for (int i = 0; i < gt_nexperiments && i < MAX_EXPS; i++)
        if (gt_experiments[i] == e)
            u->exp_idx = i;
    if (e != u->exp)
        u->view.sel = 0;
    u->exp = e;
    memcpy(u->vals, vals, sizeof u->vals);
    if (u->rp.rec) {
        int idx = gt_recording_find(u->rp.rec, e, vals);
        if (idx >= 0)
            u->rp.cfg_idx = idx;
    }
}

/* Compare mode: B follows A to the same configuration, with all its
 * samples, once B has them (B may still be being read). */
void ui_cmp_take(ui *u)
{
    int j = gt_recording_find(u->cmp.rec, u->exp, u->vals);

    gt_run_free(&u->cmp.run);
    u->cmp.have = j >= 0 && u->cmp.rec->cfg[j].n > 0 &&
                  !(u->cmp.rec->loading && (size_t)j + 1 == u->cmp.rec->ncfg);
    if (u->cmp.have && gt_rec_config_run(&u->cmp.rec->cfg[j], &u->cmp.run))
        ui_set_msg(u, true, "out of memory for B's timeline");
}

/* tkey: when the key that caused this was read (for --trace). A replay
 * whose configuration is not read yet waits for it (apply_waiting: the
 * loop applies it once it is read, or once the whole file is). */
void ui_apply(ui *u, bool restart, double tkey)
{
    uint32_t gen;

    u->sync.waiting = gt_recording_unread(u->rp.rec, u->exp, u->vals);
    if (u->sync.waiting) {
        u->sync.restart = restart;
        u->sync.t = tkey;
        return;
    }
    if (gt_run_count(&u->cur) || !u->prev.exp || restart)
        gt_run_move(&u->prev, &u->cur);
    else
        gt_run_free(&u->cur);
    gen = gt_engine_configure(u->eng, u->exp, u->vals);
    gt_run_init(&u->cur, u->exp, u->vals, gen);
    if (u->strip.s)
        gt_strip_reset(u->strip.s, gen);
    u->sync.drained = 0;
    if (u->cmp.rec)
        ui_cmp_take(u);
    u->keylog.t0 = tkey;
    u->keylog.gen = gen;
}
