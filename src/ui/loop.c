/* The ncurses front end's main loop: it waits on the terminal and the
 * engine, drains samples into the current run, records them (--record),
 * redraws at most FRAME_S apart, and carries out what keys ask for. Key
 * handlers only change UI state and return an outcome (input.c); this
 * loop alone redraws, reconfigures, restarts or quits. */
#include "ui/ui.h"
#include "gputui/base/out.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/report/compare.h"
#include "gputui/base/signals.h"
#include "gputui/base/files.h"
#include "ui_priv.h"

static void init_colors(ui *u, const gt_cli *cli)
{
    const char *nc = getenv("NO_COLOR");

    u->opt.color = !cli->no_color && !(nc && nc[0]) && has_colors();
    if (!u->opt.color)
        return;
    start_color();
    use_default_colors();
    init_pair(C_HEAD, COLOR_BLACK, COLOR_CYAN);
    init_pair(C_BW, COLOR_GREEN, -1);
    init_pair(C_LAT, COLOR_CYAN, -1);
    init_pair(C_GHOST, COLORS >= 16 ? 8 : COLOR_WHITE, -1);
    init_pair(C_ERR, COLOR_RED, -1);
    init_pair(C_WARN, COLOR_YELLOW, -1);
    init_pair(C_OK, COLOR_GREEN, -1);
    init_pair(C_TITLE, COLOR_YELLOW, -1);
    init_pair(C_H2D, COLOR_CYAN, -1);
    init_pair(C_KERNEL, COLOR_YELLOW, -1);
    init_pair(C_D2H, COLOR_MAGENTA, -1);
}

/* --record: a configuration's line goes out with its first sample, when
 * its set-up figures are known; an error once per configuration. */
static void record_samples(ui *u, const gt_sample *buf, size_t n)
{
    if (!u->recd.w)
        return;
    for (size_t i = 0; i < n; i++) {
        if (buf[i].gen != u->cur.gen)
            continue;
        if (u->recd.gen != u->cur.gen) {
            gt_status st;
            char others[300];
            gt_engine_status(u->eng, &st);
            gt_recorder_config(u->recd.w, u->exp, u->vals, u->cur.gen, &st.info,
                               st.share.traffic_source,
                               gt_share_others_text(&st.share, others, sizeof others));
            u->recd.gen = u->cur.gen;
        }
        gt_recorder_sample(u->recd.w, &buf[i]);
    }
}

/* The engine's latest timeline of this configuration, if newer; --record
 * keeps the first one of each configuration (after its config line). */
static void take_timeline(ui *u)
{
    static gt_timeline tl;

    if (!gt_engine_timeline(u->eng, &tl, &u->sync.tl_seq) || tl.gen != u->cur.gen)
        return;
    if (gt_run_set_timeline(&u->cur, &tl))
        ui_set_msg(u, true, "out of memory for the timeline");
    if (u->recd.w && u->recd.gen == u->cur.gen && u->recd.tl_gen != u->cur.gen) {
        gt_recorder_timeline(u->recd.w, &tl);
        u->recd.tl_gen = u->cur.gen;
    }
}

static void record_error(ui *u)
{
    if (!u->recd.w || u->st.state != GT_ST_ERROR || u->st.gen != u->cur.gen ||
        u->recd.error_gen == u->cur.gen)
        return;
    if (u->recd.gen != u->cur.gen) {
        char others[300];
        gt_recorder_config(u->recd.w, u->exp, u->vals, u->cur.gen, &u->st.info,
                           u->st.share.traffic_source,
                           gt_share_others_text(&u->st.share, others, sizeof others));
    }
    u->recd.gen = u->cur.gen;
    gt_recorder_error(u->recd.w, u->cur.gen, u->st.msg);
    u->recd.error_gen = u->cur.gen;
}

/* The configuration on screen to the engine; replaying the bundled
 * recordings, one the recording lacks (a lesson's, an experiment's that
 * only another GPU's recording holds) moves to the recording that has it. */
static void apply(ui *u, bool restart, double tkey, bool *quit)
{
    if (ui_elsewhere(u))
        *quit = !ui_switch_device(u, true, tkey);
    else
        ui_apply(u, restart, tkey);
}

/* What a key asks for, carried out; its outcome (OUT_WAIT: nothing was
 * done, the key waits for more of the recording). */
static outcome dispatch(ui *u, int ch, double tkey, bool *quit)
{
    outcome o = ui_handle_key(u, ch);

    switch (o) {
    case OUT_QUIT:
        *quit = true;
        break;
    case OUT_APPLY:
        ui_sweep_stop(u, true);
        apply(u, false, tkey, quit);
        break;
    case OUT_SWEEP:
        if (u->sw.running) {
            ui_sweep_stop(u, false);
            ui_set_msg(u, false, "sweep stopped");
        } else if (ui_sweep_start(u, tkey) == OUT_WAIT) {
            return OUT_WAIT;
        }
        break;
    case OUT_RESTART:
        ui_sweep_stop(u, true);
        apply(u, true, tkey, quit);
        ui_set_msg(u, false, "restarted");
        break;
    case OUT_PAUSE:
        gt_engine_set_paused(u->eng, u->opt.paused);
        break;
    case OUT_DEVICE:
        *quit = !ui_switch_device(u, false, tkey);
        break;
    case OUT_CLEAR:
        gt_run_clear(&u->cur);
        gt_run_free(&u->prev);
        ui_set_msg(u, false, "histograms cleared");
        break;
    default:
        break;
    }
    return o;
}

int gt_ui_run(const gt_cli *cli, gt_ui_source *src)
{
    ui u;
    gt_sample buf[1024];
    double last_draw = 0;
    bool dirty = true, quit = false, rec_failed = false;

    memset(&u, 0, sizeof u);
    u.src = src;
    u.eng = src->eng;
    u.exp = cli->exp;
    u.rp.rec = src->rec;
    u.cmp.rec = src->compare;
    u.recd.samples = cli->record_samples;
    memcpy(u.vals, cli->vals, sizeof u.vals);
    for (int i = 0; i < gt_nexperiments && i < MAX_EXPS; i++) {
        gt_experiment_defaults(gt_experiments[i], u.saved[i]);
        if (gt_experiments[i] == u.exp)
            u.exp_idx = i;
    }
    gt_engine_props(u.eng, &u.props);
    u.follow.idx = -1;
    ui_set(&u, SCR_FOLLOW, src->follow != NULL);
    if (u.rp.rec && !src->follow) {
        char warn[700], models[200];
        const gt_experiment *want = u.exp;
        bool held = false;
        for (size_t i = 0; i < u.rp.rec->ncfg && !held; i++)
            held = u.rp.rec->cfg[i].exp == want;
        if (!ui_place_on_recording(&u) && !held && want != gt_experiments[0])
            ui_set_msg(&u, true, "%s is not in this recording%s%s%s", want->name,
                       src->bundle && src->bundle->n > 1 ? " (d: " : "",
                       src->bundle && src->bundle->n > 1
                           ? gt_bundle_models(src->bundle, models, sizeof models) : "",
                       src->bundle && src->bundle->n > 1 ? ")" : "");
        else if (!u.msg.text[0] && u.exp == want && cli->given &&
                 gt_recording_find(u.rp.rec, want, cli->vals) < 0)
            ui_set_msg(&u, true, "that configuration was not recorded; showing the first recorded one");
        if (!u.msg.text[0] && gt_recording_warning(u.rp.rec, warn, sizeof warn)[0])
            ui_set_msg(&u, true, "%s", warn);
        if (src->note)
            ui_set_msg(&u, false, "%s", src->note);
    }
    if (u.cmp.rec) {
        gt_compare_short_name(u.props.name, u.cmp.name_a, sizeof u.cmp.name_a);
        gt_compare_short_name(u.cmp.rec->props.name, u.cmp.name_b, sizeof u.cmp.name_b);
        if (!strcmp(u.cmp.name_a, u.cmp.name_b)) {      /* the same model twice: A and B */
            snprintf(u.cmp.name_a, sizeof u.cmp.name_a, "A");
            snprintf(u.cmp.name_b, sizeof u.cmp.name_b, "B");
        }
    }
    ui_make_banner(&u);
    if (src->start)
        ui_lesson_start(&u, src->start);
    if (cli->trace) {
        /* A new file, as for --record: an existing one only with --force. */
        int fd = gt_create_new(cli->trace);
        if (fd < 0 && errno == EEXIST && cli->force && unlink(cli->trace) == 0)
            fd = gt_create_new(cli->trace);
        u.keylog.file = fd < 0 ? NULL : fdopen(fd, "w");
        if (!u.keylog.file) {
            int e = errno;
            gt_ui_term_close();     /* up when the first frame came before the GPU */
            fprintf(gt_stderr(), "gputui: --trace %s: %s\n", cli->trace, e == EEXIST ?
                    "the file exists; give --force to replace it, or another name" : strerror(e));
            if (fd >= 0)
                close(fd);
            return GT_EXIT_USAGE;
        }
    }
    if (cli->record) {
        gt_err err;
        gt_err_clear(&err);
        if (gt_recorder_open(&u.recd.w, cli->record, cli->force, &u.props, &err)) {
            gt_ui_term_close();
            fprintf(gt_stderr(), "gputui: %s\n", err.msg);
            if (u.keylog.file)
                fclose(u.keylog.file);
            return err.code ? err.code : GT_EXIT_FAIL;
        }
    }
    if (!u.rp.rec) {
        char msg[400];
        if (gt_experiment_check(u.exp, u.vals, &u.props, msg, sizeof msg)) {
            gt_ui_term_close();
            fprintf(gt_stderr(), "gputui: --%s\n", msg);
            if (u.keylog.file)
                fclose(u.keylog.file);
            gt_recorder_close(u.recd.w, &(gt_err){0});
            return GT_EXIT_USAGE;
        }
    }
    u.opt.utf8 = ui_term_utf8();
    if (!ui_term_open()) {
        fprintf(gt_stderr(), "gputui: cannot initialize the terminal (TERM=%s)\n",
                getenv("TERM") ? getenv("TERM") : "");
        return GT_EXIT_FAIL;
    }
    init_colors(&u, cli);
    u.strip.s = calloc(1, sizeof *u.strip.s);  /* 's' says so if it is missing */
    /* Clicks and the wheel, where the terminal reports them. */
    if (!cli->no_mouse)
        /* every button event: a mask that leaves releases out makes
         * ncurses wait for one after a wheel step (no terminal sends it) */
        u.opt.mouse = mousemask(ALL_MOUSE_EVENTS, NULL) != 0;
    mouseinterval(0);
    if (!ui_follow_tick(&u, gt_now()))     /* --follow: the teacher's newest */
        apply(&u, false, gt_now(), &quit);  /* resets the strip for its generation */
    if (src->inspect && ui_inspect_open(&u) == OUT_WAIT)
        u.sync.keys[u.sync.nkeys++].ch = 'I';     /* once the recording is read */

    while (!quit) {
        struct pollfd pfd[3] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = gt_engine_fd(u.eng), .events = POLLIN},
                                {.fd = -1, .events = POLLIN}};
        double now = gt_now(), wait;
        int timeout = -1, wanted, ch;
        size_t n;

        if (gt_signal_caught)
            break;
        /* The engine's status, once per wake-up. */
        gt_engine_status(u.eng, &u.st);
        /* The run's summary reads its set-up note: the engine publishes it
         * once, when the set-up ends. */
        if (u.st.gen == u.cur.gen && u.sync.info_gen != u.cur.gen && u.st.state != GT_ST_SETUP) {
            u.cur.info = u.st.info;
            u.sync.info_gen = u.cur.gen;
        }
        record_error(&u);
        if (u.sw.running && ui_sweep_tick(&u, now))
            dirty = true;
        if (dirty && now - last_draw >= FRAME_S) {
            gt_engine_props(u.eng, &u.props);
            ui_trace_refresh(&u);       /* these two at most once a frame */
            ui_lesson_tick(&u);
            ui_inspect_tick(&u);
            if (u.strip.s)
                gt_strip_tick(u.strip.s, now);
            ui_draw(&u);
            last_draw = now;
            dirty = false;
            if (u.keylog.file && u.keylog.gen && u.cur.gen == u.keylog.gen && gt_run_count(&u.cur)) {
                double drawn = gt_now();
                fprintf(u.keylog.file, "%u %.3f %.6f\n", u.keylog.gen, (drawn - u.keylog.t0) * 1e3, drawn);
                fflush(u.keylog.file);
                u.keylog.gen = 0;
            }
        }
        if (dirty) {
            /* Frame pending: leave the engine's fd alone until it is due,
             * so a fast sample stream cannot spin this loop; but not while
             * the configuration waits for its first sample, which is drawn
             * as soon as it comes. */
            wait = last_draw + FRAME_S - now;
            timeout = (int)(wait * 1e3) + 1;
            if (u.sync.drained)
                pfd[1].fd = -1;
        } else if (u.st.state == GT_ST_SETUP || u.st.state == GT_ST_WARMUP) {
            timeout = 250;      /* elapsed time on screen */
        }
        /* --record: lines on disk within a second, also when idle; a
         * failed write (a full disk) is said once, in the status line. */
        gt_recorder_tick(u.recd.w);
        if (!u.recd.warned) {
            char rmsg[900];
            if (gt_recorder_failed(u.recd.w, rmsg, sizeof rmsg)) {
                ui_set_msg(&u, true, "%s", rmsg);
                u.recd.warned = dirty = true;
            }
        }
        bool idle_tick = u.recd.w && timeout < 0;
        if (idle_tick)
            timeout = 1000;
        /* --follow: the file is read again, or the pipe wakes the loop. */
        wanted = timeout;
        timeout = ui_follow_timeout(&u, timeout, &pfd[2].fd);
        if (ui_reading(&u))
            timeout = 0;        /* read on at once, keys between slices */
        if (poll(pfd, 3, timeout) < 0 && errno != EINTR)
            break;
        if (timeout > 0 && timeout == wanted && !idle_tick && !pfd[0].revents && !pfd[1].revents)
            dirty = true;
        if (ui_follow_tick(&u, gt_now()))
            dirty = true;
        if (pfd[1].fd >= 0 && pfd[1].revents) {
            bool first = !u.sync.drained;
            /* At most 16 batches a wake-up: a configuration faster than
             * the loop (and --record) keeps the screen and keys live. */
            for (int b = 0; b < 16 && (n = gt_engine_drain(u.eng, buf, GT_ARRAY_LEN(buf))) > 0;
                 b++) {
                double t = gt_now();
                record_samples(&u, buf, n);
                for (size_t i = 0; i < n; i++) {
                    u.sync.drained += buf[i].gen == u.cur.gen;
                    gt_run_add(&u.cur, &buf[i]);
                    if (u.strip.s)
                        gt_strip_add(u.strip.s, &buf[i], t);
                }
            }
            dirty = true;
            if (first && u.sync.drained)
                last_draw = 0;      /* the first sample after a change: show it now */
        }
        take_timeline(&u);
        /* The recording read behind the screen: a slice, then what
         * waited for it (an apply, keys in order). */
        if (ui_reading(&u) && ui_read_tick(&u)) {
            dirty = true;
            if (u.sync.waiting)
                apply(&u, u.sync.restart, u.sync.t, &quit);
            while (!quit && u.sync.nkeys && !u.sync.waiting) {
                u.mouse.ev = u.sync.keys[0].mev;
                if (dispatch(&u, u.sync.keys[0].ch, u.sync.t, &quit) == OUT_WAIT)
                    break;
                u.sync.nkeys--;
                memmove(u.sync.keys, u.sync.keys + 1,
                        (size_t)u.sync.nkeys * sizeof u.sync.keys[0]);
            }
        }
        /* Keys (also KEY_RESIZE after SIGWINCH interrupted poll); behind
         * keys that wait for the recording, in order, but q, F10 and resizes. */
        while (!quit && (ch = getch()) != ERR) {
            double tkey = gt_now();
            int queued = u.sync.nkeys;
            dirty = true;
            if (ch == KEY_MOUSE && getmouse(&u.mouse.ev) != OK)
                continue;
            if (!queued || ch == 'q' || ch == KEY_F(10) || ch == KEY_RESIZE) {
                if (dispatch(&u, ch, tkey, &quit) != OUT_WAIT)
                    continue;
                u.sync.t = tkey;
            }
            if (queued < (int)GT_ARRAY_LEN(u.sync.keys)) {    /* else dropped */
                u.sync.keys[queued].ch = ch;
                u.sync.keys[queued].mev = u.mouse.ev;
                u.sync.nkeys++;
            }
        }
    }
    gt_ui_term_close();
    if (u.keylog.file)
        fclose(u.keylog.file);
    if (u.recd.w && u.recd.gen && !u.msg.fatal[0]) {
        gt_engine_release(u.eng);   /* the last configuration's teardown, for its trace */
        ui_trace_refresh(&u);
    }
    ui_inspect_free(&u);
    free(u.strip.s);
    free(u.calls.now);
    free(u.calls.prev);
    {
        gt_err err;
        gt_err_clear(&err);
        if (gt_recorder_close(u.recd.w, &err)) {
            fprintf(gt_stderr(), "gputui: %s\n", err.msg);
            rec_failed = true;
        }
    }
    gt_run_free(&u.cur);
    gt_run_free(&u.prev);
    gt_run_free(&u.cmp.run);
    for (int i = 0; i < MAX_EXPS; i++)
        gt_run_free(&u.kept[i]);
    if (u.msg.fatal[0]) {
        fprintf(gt_stderr(), "gputui: %s\n", u.msg.fatal);
        return GT_EXIT_FAIL;
    }
    if (gt_signal_caught) {
        fprintf(gt_stderr(), "gputui: stopped by signal %d\n", (int)gt_signal_caught);
        return 128 + (int)gt_signal_caught;
    }
    return rec_failed ? GT_EXIT_FAIL : GT_EXIT_OK;
}
