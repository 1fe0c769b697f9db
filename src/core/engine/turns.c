/* One iteration of the engine's worker (worker.c): in this process's turn
 * on the GPU (share.h), after a look at the GPU's other programs, traced
 * when it is a configuration's first, its samples marked when the GPU may
 * have been shared. */
#define _POSIX_C_SOURCE 200809L
#include "engine_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/base/units.h"

/* One iteration; the first of a configuration is traced (timed
 * iterations after it make no trace calls beyond a thread-local check). */
static int run_traced(const gt_exp_ops *ops, void *state, gt_sample *buf, gt_err *err,
                      gt_trace *tr, bool *traced_run)
{
    int rc;

    if (*traced_run || !tr)
        return ops->run(state, buf, err);
    gt_trace_capture(tr, GT_TR_RUN);
    rc = ops->run(state, buf, err);
    gt_trace_capture(NULL, GT_TR_RUN);
    *traced_run = rc != 0 || (ops->replayed);
    return rc;
}


typedef struct turn_ctx {
    gt_engine *e;
    uint32_t gen;
} turn_ctx;

static bool turn_cancelled(void *ctx)
{
    turn_ctx *c = ctx;
    bool r;

    pthread_mutex_lock(&c->e->mu);
    r = cancelled(c->e, c->gen);
    pthread_mutex_unlock(&c->e->mu);
    return r;
}

static void turn_waiting(void *ctx, const gt_share_holder *h, double waited)
{
    gt_engine *e = ((turn_ctx *)ctx)->e;

    (void)waited;
    pthread_mutex_lock(&e->mu);
    e->st.share.waiting = true;
    e->st.share.holder_pid = h->pid;
    e->st.share.holder_uid = h->uid;
    e->st.share.holder_since = h->since;
    notify(e);
    pthread_mutex_unlock(&e->mu);
}

/* Opens the GPU's lock file once, for the first live configuration. */
void gt_engine_share_open(gt_engine *e, const gt_devprops *p)
{
    char why[600], dir[sizeof e->share_dir];
    bool on, off;

    pthread_mutex_lock(&e->mu);
    off = e->share_off;
    e->share_wait_w = e->share_wait;
    memcpy(dir, e->share_dir, sizeof dir);
    pthread_mutex_unlock(&e->mu);
    e->share_tried = true;
    e->share.fd = -1;
    if (off)
        snprintf(why, sizeof why, "not taking turns with other gputui processes "
                 "(--no-share-lock)");
    else if (gt_share_open(&e->share, dir[0] ? dir : gt_share_default_dir(), p->uuid, why,
                           sizeof why))
        snprintf(why + strlen(why), sizeof why - strlen(why), ": not taking turns");
    else
        snprintf(why, sizeof why, "%s", e->share.path);
    on = e->share.fd >= 0;
    pthread_mutex_lock(&e->mu);
    e->st.share.on = on;
    snprintf(e->st.share.note, sizeof e->st.share.note, "%s", why);
    e->st.share.others = on ? gt_share_others(&e->share) : 0;
    pthread_mutex_unlock(&e->mu);
    e->share_counted = gt_now();
}

/* Another program holds a context, and neither NVML's activity samples
 * nor the link's counters can say what it does: its samples cannot be
 * called clean. */
static bool shared_unknown(const gt_engine *e)
{
    return e->foreign_n > 0 && !e->activity_known && !e->traffic_known;
}

/* A quiet window (engine.h): with nothing of this process's on the GPU,
 * and the turn held, what crosses the link is another program's. */
static void quiet_window(gt_engine *e, uint32_t gen)
{
    gt_link_traffic t;

    memset(&t, 0, sizeof t);
    e->be->traffic(&t);
    e->quiet_at = gt_now();
    e->quiet_gen = gen;
    e->traffic_known = t.known;
    e->foreign_moving = t.known && t.rx_Bps + t.tx_Bps > GT_FOREIGN_FLOOR_BPS;
    pthread_mutex_lock(&e->mu);
    snprintf(e->st.share.traffic_source, sizeof e->st.share.traffic_source, "%s",
             t.known ? t.source : "");
    e->st.share.foreign_Bps = t.known ? t.rx_Bps + t.tx_Bps : -1;
    e->st.share.foreign_moving = e->foreign_moving;
    e->st.share.cannot_tell = shared_unknown(e);
    pthread_mutex_unlock(&e->mu);
}

/* Looks at the GPU's other programs (the back-end's users()) at most four
 * times a second, leaving out the gputui processes that take turns with
 * this one; the status names them. */
static void look_at_users(gt_engine *e)
{
    int skip[GT_SHARE_SLOTS], nskip = 0;
    char text[200] = "", sz[32];
    gt_gpu_users u;
    size_t n;

    if (!e->be->users || gt_now() - e->users_at < 0.25)
        return;
    e->users_at = gt_now();
    if (e->share.fd >= 0 && (nskip = gt_share_pids(&e->share, skip, GT_SHARE_SLOTS)) > GT_SHARE_SLOTS)
        nskip = GT_SHARE_SLOTS;
    e->be->users(&u, skip, nskip);
    /* NVML's activity samples come every fraction of a second: a look
     * without new ones keeps what the last one found. */
    if (!u.known || !u.activity_known || !u.n)
        e->foreign_busy = false;
    else if (u.fresh)
        e->foreign_busy = u.busy;
    e->foreign_n = u.known ? u.n : 0;
    e->activity_known = u.activity_known;
    if (!e->foreign_n)
        e->foreign_moving = false;
    for (int i = 0; i < u.n && i < GT_USERS_MAX; i++) {
        n = strlen(text);
        snprintf(text + n, sizeof text - n, "%spid %d %s%s%s%s", i ? ", " : "", u.p[i].pid,
                 u.p[i].name[0] ? u.p[i].name : "?", u.p[i].mem ? " (" : "",
                 u.p[i].mem ? gt_format_size(u.p[i].mem, sz, sizeof sz) : "",
                 u.p[i].mem ? ")" : "");
    }
    if (u.n > GT_USERS_MAX) {
        n = strlen(text);
        snprintf(text + n, sizeof text - n, " and %d more", u.n - GT_USERS_MAX);
    }
    pthread_mutex_lock(&e->mu);
    e->st.share.users_known = u.known;
    if (u.known && !u.activity_known && u.n)
        snprintf(e->st.share.users_note, sizeof e->st.share.users_note, "the driver does not "
                 "say whether they had work%s%s", u.note[0] ? "; " : "", u.note);
    else
        snprintf(e->st.share.users_note, sizeof e->st.share.users_note, "%s", u.note);
    e->st.share.foreign = u.n;
    e->st.share.foreign_busy = e->foreign_busy;
    e->st.share.foreign_moving = e->foreign_moving;
    e->st.share.cannot_tell = shared_unknown(e);
    snprintf(e->st.share.foreign_text, sizeof e->st.share.foreign_text, "%s", text);
    pthread_mutex_unlock(&e->mu);
}

/* One iteration in this process's turn. A turn is taken (waiting at most
 * share_wait, 2 s unless set; then the iteration runs anyway, its samples
 * marked disturbed) and kept for TURN_S of iterations, each run() ending
 * with its end event complete. When another process had the GPU since
 * this one's last turn, the turn starts with one untimed iteration, whose
 * samples are dropped: the other's work left the caches and TLBs as this
 * process would not have. 0 when the configuration changed meanwhile. */
int gt_engine_iteration(gt_engine *e, uint32_t gen, const gt_exp_ops *ops, void *state,
                        gt_sample *buf, gt_err *err, gt_trace *tr, bool *traced_run)
{
    turn_ctx c = {e, gen};
    gt_share_rc got = GT_SHARE_TAKEN;
    bool sharing = e->share.fd >= 0 && !ops->replayed, rewarm = false;
    double t0 = gt_now(), waited = 0;
    int rc, others = -1;

    memset(buf, 0, GT_MAX_SERIES * sizeof *buf);    /* back-ends set what they know */
    if (!ops->replayed)
        look_at_users(e);
    if (sharing && !e->share.held) {
        got = gt_share_take(&e->share, e->share_wait_w, turn_cancelled, turn_waiting, &c);
        waited = gt_now() - t0;
        if (got == GT_SHARE_CANCELLED)
            return 0;
        e->turn_start = gt_now();
        e->turn_timed_out = got == GT_SHARE_TIMEOUT;
        rewarm = got == GT_SHARE_TAKEN && e->share.switched;
    }
    if (!ops->replayed && e->foreign_n > 0 && e->be->traffic &&
        (e->quiet_gen != gen || gt_now() - e->quiet_at >= GT_QUIET_EVERY_S)) {
        quiet_window(e, gen);
        rewarm = true;      /* the GPU sat idle meanwhile */
    }
    if (rewarm) {
        rc = run_traced(ops, state, buf, err, tr, traced_run);
        memset(buf, 0, GT_MAX_SERIES * sizeof *buf);
        if (rc < 0) {
            gt_engine_turn_end(e);
            return rc;
        }
    }
    rc = run_traced(ops, state, buf, err, tr, traced_run);
    /* A foreign program had work in the last look's window, or moved data
     * in the last quiet window, or holds a context and nothing can say. */
    bool foreign = !ops->replayed && (e->foreign_busy || e->foreign_moving || shared_unknown(e));
    for (int i = 0; foreign && i < rc; i++)
        buf[i].disturbed = 1;
    if (foreign && rc > 0) {
        pthread_mutex_lock(&e->mu);
        e->st.share.foreign_disturbed++;
        pthread_mutex_unlock(&e->mu);
    }
    if (!sharing)
        return rc;
    for (int i = 0; e->turn_timed_out && i < rc; i++)
        buf[i].disturbed = 1;
    if (e->share.held && (rc <= 0 || gt_now() - e->turn_start >= TURN_S))
        gt_share_give(&e->share);
    if (gt_now() - e->share_counted > 1.0) {
        others = gt_share_others(&e->share);
        e->share_counted = gt_now();
    }
    pthread_mutex_lock(&e->mu);
    e->st.share.waiting = false;
    e->st.share.turns++;
    e->st.share.timeouts += e->turn_timed_out;
    e->st.share.rewarms += rewarm;
    e->st.share.waited += waited;
    if (others >= 0)
        e->st.share.others = others;
    pthread_mutex_unlock(&e->mu);
    if (e->turn_timed_out)
        e->turn_timed_out = false;      /* the next iteration asks again */
    return rc;
}

void gt_engine_turn_end(gt_engine *e)
{
    if (e->share.held)
        gt_share_give(&e->share);
}
