/* --replay FILE --follow: a student's screen follows the teacher's
 * session. Each wake-up reads what the teacher's gputui --record wrote,
 * moves to each new configuration as it arrives (not while the student
 * has paused or sweeps: then on resuming), and keeps the banner's
 * "following: last sample N s ago" current. Keys that would change the
 * configuration are refused in input.c (ui_shown(u, SCR_FOLLOW)). */
#include <string.h>

#include "gputui/record/follow.h"
#include "ui_priv.h"

/* The newest configuration that arrived, on screen. */
static void show_newest(ui *u, double now)
{
    size_t i = u->rp.rec->ncfg - 1;
    const gt_rec_config *c = &u->rp.rec->cfg[i];

    ui_show_config(u, c->exp, c->vals);
    u->rp.cfg_idx = (int)i;
    u->follow.idx = (int)i;
    ui_apply(u, false, now);
}

bool ui_follow_tick(ui *u, double now)
{
    gt_follow *f = u->src->follow;
    bool changed, err;
    char msg[700], status[sizeof u->follow.line];
    int newest;

    if (!f)
        return false;
    changed = gt_follow_poll(f);
    if (gt_follow_take_msg(f, msg, sizeof msg, &err))
        ui_set_msg(u, err, "%s", msg);
    ui_set(u, SCR_FOLLOW, !gt_follow_stopped(f));
    newest = (int)u->rp.rec->ncfg - 1;
    /* Catching up with a backlog: the first configuration on screen at
     * once, then the newest once all that was written is read. */
    if (gt_follow_behind(f) && u->follow.idx >= 0)
        newest = -1;
    if (newest >= 0 && !u->opt.paused && !u->sw.running &&
        (newest != u->follow.idx || !gt_rec_config_is(&u->rp.rec->cfg[newest], u->exp, u->vals))) {
        show_newest(u, now);
        changed = true;
    }
    gt_follow_status(f, now, status, sizeof status);
    if (strcmp(status, u->follow.line)) {
        snprintf(u->follow.line, sizeof u->follow.line, "%s", status);
        changed = true;
    }
    return changed;
}

/* How long the loop may sleep, in ms, and the descriptor to wake on. */
int ui_follow_timeout(const ui *u, int timeout, int *fd)
{
    int period = (int)(GT_FOLLOW_PERIOD * 1e3);

    *fd = -1;
    if (!u->src->follow)
        return timeout;
    *fd = gt_follow_fd(u->src->follow);
    if (gt_follow_behind(u->src->follow))
        return 0;
    return timeout < 0 || timeout > period ? period : timeout;
}
