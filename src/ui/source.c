/* Where the samples come from: a replay placed on the configuration asked
 * for (or the nearest recorded one), the banner that says what is shown
 * and from where, and 'd', which restarts the engine on the next GPU or
 * the next bundled recording. */
#include <string.h>

#include "gputui/record/replay.h"
#include "ui_priv.h"

/* The banner over a replay or a comparison: what is shown, from where. */
void ui_make_banner(ui *u)
{
    const gt_ui_source *src = u->src;
    size_t off = 0;

    u->rp.banner[0] = '\0';
    if (src->follow)            /* the line leads with the follower's status */
        off += (size_t)snprintf(u->rp.banner, sizeof u->rp.banner, "%s", src->why);
    else if (src->why && u->rp.rec)
        off += (size_t)snprintf(u->rp.banner, sizeof u->rp.banner, "%s %s, recorded %s", src->why,
                                u->rp.rec->props.name, u->rp.rec->when);
    else if (u->cmp.rec)
        off += (size_t)snprintf(u->rp.banner, sizeof u->rp.banner, "COMPARE A: %s (this GPU, live)",
                                u->props.name);
    if (u->cmp.rec && off < sizeof u->rp.banner) {
        const char *base = strrchr(u->cmp.rec->path, '/');
        snprintf(u->rp.banner + off, sizeof u->rp.banner - off, " | B (ghost, %s): %s, recorded %s",
                 base ? base + 1 : u->cmp.rec->path, u->cmp.rec->props.name, u->cmp.rec->when);
    }
}

/* Replaying: the configuration asked for (u->exp, u->vals) if it was
 * recorded, else the experiment's first recorded one, else the first of
 * all. Returns false when it had to leave the configuration asked for. */
bool ui_place_on_recording(ui *u)
{
    const gt_recording *rec = u->rp.rec;
    bool found = gt_recording_find(rec, u->exp, u->vals) >= 0;
    int idx = gt_recording_place(rec, u->exp, u->vals);

    if (idx < 0)
        idx = 0;                /* this experiment was not recorded */
    u->exp = rec->cfg[idx].exp;
    for (int i = 0; i < gt_nexperiments; i++)
        if (gt_experiments[i] == u->exp)
            u->exp_idx = i;
    u->rp.cfg_idx = idx;
    memcpy(u->vals, rec->cfg[idx].vals, sizeof u->vals);
    return found;
}

bool ui_elsewhere(const ui *u)
{
    const gt_ui_source *src = u->src;

    return u->rp.rec && src->bundle && src->bundle->n > 1 && !src->live && !u->cmp.rec &&
           !u->recd.w && !src->follow && !(u->rp.nowhere & (1ull << u->exp_idx)) &&
           !gt_recording_unread(u->rp.rec, u->exp, u->vals) &&
           gt_recording_find(u->rp.rec, u->exp, u->vals) < 0;
}

/* The next bundled recording after the one replayed that holds the
 * configuration on screen, or else its experiment, read up to it into
 * *rec and *rd: its index, or -1 (none does; err says why when one could
 * not be read). What each one lacks is kept, so that it is read once. */
static int seek_recording(ui *u, gt_recording *rec, gt_rec_reader **rd, gt_err *err)
{
    const gt_bundle *b = u->src->bundle;

    for (int pass = 0; pass < 2; pass++)
        for (int k = 1; k < b->n; k++) {
            int i = (u->src->bundle_idx + k) % b->n;
            bool holds;
            if (u->rp.lacks[i] & (1ull << u->exp_idx))
                continue;
            ui_set_msg(u, false, "%s is not in the recorded %s: reading the recorded %s ...",
                       u->exp->name, b->model[u->src->bundle_idx], b->model[i]);
            ui_draw(u);
            if (gt_rec_reader_start(rd, rec, b->path[i], u->exp, u->vals, err))
                return -1;
            /* first the configuration itself; then its experiment at all */
            holds = pass ? gt_recording_place(rec, u->exp, u->vals) >= 0
                         : gt_recording_find(rec, u->exp, u->vals) >= 0;
            if (holds)
                return i;
            if (gt_recording_place(rec, u->exp, u->vals) < 0 && gt_rec_reader_step(*rd, 0) == 1 &&
                gt_recording_place(rec, u->exp, u->vals) < 0)
                u->rp.lacks[i] |= 1ull << u->exp_idx;
            gt_rec_reader_close(*rd);
            gt_recording_free(rec);
            *rd = NULL;
        }
    return -1;
}

/* 'd': the engine moves to the next device, a GPU or (replaying the
 * bundled recordings) another recorded GPU; the configuration stays where
 * the new device allows. With seek, the next recording that holds the
 * configuration on screen (ui_elsewhere). Returns false when gputui
 * cannot go on. */
bool ui_switch_device(ui *u, bool seek, double now)
{
    gt_ui_source *src = u->src;
    gt_recording next_rec;
    gt_rec_reader *next_rd = NULL;
    gt_err err;
    char models[200], msg[400], was[32] = "";
    int n = 0, next;

    gt_err_clear(&err);
    if (u->cmp.rec) {
        ui_set_msg(u, true, "d: compare mode keeps A and B (gputui --compare A B names them)");
        return true;
    }
    if (u->recd.w) {
        ui_set_msg(u, true, "d: not while recording (--record holds one device)");
        return true;
    }
    if (src->live) {
        if (src->live->device_count(&n, &err) || n < 2) {
            ui_set_msg(u, true, "d: this machine has one CUDA device");
            return true;
        }
        next = (u->props.ordinal + 1) % n;
    } else if (seek && src->bundle && src->bundle->n > 1) {
        snprintf(was, sizeof was, "%s", src->bundle->model[src->bundle_idx]);
        if ((next = seek_recording(u, &next_rec, &next_rd, &err)) < 0) {
            /* In none: said, and the recording shows what it holds. */
            u->rp.nowhere |= 1ull << u->exp_idx;
            if (err.msg[0])
                ui_set_msg(u, true, "%s", err.msg);
            else
                ui_set_msg(u, true, "%s is in none of the bundled recordings (%s)", u->exp->name,
                           gt_bundle_models(src->bundle, models, sizeof models));
            ui_place_on_recording(u);
            ui_apply(u, false, now);
            return true;
        }
    } else if (src->bundle && src->bundle->n > 1) {
        next = (src->bundle_idx + 1) % src->bundle->n;
        ui_set_msg(u, false, "reading the recorded %s ...", src->bundle->model[next]);
        ui_draw(u);
        /* up to this configuration; the rest behind the screen */
        if (gt_rec_reader_start(&next_rd, &next_rec, src->bundle->path[next], u->exp, u->vals,
                                &err)) {
            ui_set_msg(u, true, "d: %s", err.msg);
            return true;
        }
    } else {
        ui_set_msg(u, true, "d: this recording holds one device (the bundled ones: %s)",
                   src->bundle ? gt_bundle_models(src->bundle, models, sizeof models) : "none");
        return true;
    }
    ui_sweep_stop(u, true);
    gt_engine_stop(src->eng);
    src->eng = u->eng = NULL;
    if (!src->live) {
        gt_rec_reader_close(src->reader);
        gt_recording_free(src->rec);
        *src->rec = next_rec;
        gt_rec_reader_moved(next_rd, src->rec);
        src->reader = next_rd;
        src->bundle_idx = next;
    }
    if (gt_engine_start(&src->eng, src->live ? src->live : gt_replay_backend(src->rec),
                        src->live ? next : 0, &err)) {
        snprintf(u->msg.fatal, sizeof u->msg.fatal, "d: %s", err.msg);
        return false;
    }
    if (src->live)
        gt_engine_set_share(src->eng, !src->share_off, NULL, 0);
    u->eng = src->eng;
    u->sync.tl_seq = 0;
    gt_engine_props(u->eng, &u->props);
    /* Runs of another device are no "before" here. */
    ui_inspect_free(u);      /* the card was another GPU's */
    u->ins.card_rec = NULL;
    u->ins.note[0] = '\0';
    gt_run_free(&u->cur);
    gt_run_free(&u->prev);
    for (int i = 0; i < MAX_EXPS; i++)
        gt_run_free(&u->kept[i]);
    if (u->rp.rec) {
        ui_place_on_recording(u);
        ui_make_banner(u);
    } else if (gt_experiment_check(u->exp, u->vals, &u->props, msg, sizeof msg)) {
        gt_experiment_defaults(u->exp, u->vals);
    }
    if (was[0])
        ui_set_msg(u, false, "%s is not in the recorded %s: replaying the recorded %s, which "
                   "holds it (d: the next recording)", u->exp->name, was,
                   src->bundle->model[next]);
    else
        ui_set_msg(u, false, "device %d of %d: %s", next + 1, src->live ? n : src->bundle->n,
                   u->props.name);
    ui_apply(u, false, now);
    return true;
}
