#define _POSIX_C_SOURCE 200809L
#include "gputui/report/batch.h"
#include "gputui/base/out.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/report/report.h"
#include "gputui/measure/run.h"
#include "gputui/base/signals.h"

/* Every series the device can produce has its samples. */
static bool enough(const gt_run *r, const gt_setup_info *info, int64_t want)
{
    for (int i = 0; i < r->nseries; i++)
        if (!(info->skipped & (1u << i)) && (int64_t)(r->s[i].lat.count + r->s[i].failed) < want)
            return false;
    return true;
}

static uint64_t failed(gt_run *runs, int n)
{
    uint64_t f = 0;

    for (int i = 0; i < n; i++)
        f += gt_run_failed(&runs[i]);
    return f;
}

/* Whether a configuration has been measured long enough: --samples per
 * series, and when recording, --record-samples per series or
 * --record-seconds since its first sample, whichever comes first. */
static bool measured(const gt_cli *cli, int64_t want, const gt_run *run,
                     const gt_setup_info *info, bool recording, double t_first)
{
    if (!enough(run, info, want))
        return false;
    return !recording || enough(run, info, cli->record_samples) ||
           (t_first > 0 && gt_now() - t_first >= cli->record_seconds);
}

int gt_batch_measure(const gt_cli *cli, gt_engine *eng, const gt_experiment *exp,
                   const int64_t *vals, int64_t want, gt_run *run, gt_recorder *rec)
{
    gt_sample buf[256];
    gt_status st;
    uint32_t gen = gt_engine_configure(eng, exp, vals);
    bool config_written = false;
    double t_first = 0;
    char others[300];

    gt_run_init(run, exp, vals, gen);
    for (;;) {
        struct pollfd pfd = {gt_engine_fd(eng), POLLIN, 0};
        size_t n;

        if (gt_signal_caught) {
            fprintf(gt_stderr(), "gputui: stopped by signal %d\n", (int)gt_signal_caught);
            return 128 + (int)gt_signal_caught;
        }
        if (poll(&pfd, 1, 100) < 0 && errno != EINTR) {
            fprintf(gt_stderr(), "gputui: poll: %s\n", strerror(errno));
            return GT_EXIT_FAIL;
        }
        gt_engine_status(eng, &st);
        gt_recorder_tick(rec);
        while ((n = gt_engine_drain(eng, buf, GT_ARRAY_LEN(buf))) > 0)
            for (size_t i = 0; i < n; i++) {
                if (buf[i].gen != gen)
                    continue;
                if (!config_written) {
                    gt_recorder_config(rec, exp, vals, gen, &st.info, st.share.traffic_source,
                                       gt_share_others_text(&st.share, others, sizeof others));
                    config_written = true;
                    t_first = gt_now();
                }
                gt_recorder_sample(rec, &buf[i]);
                gt_run_add(run, &buf[i]);
            }
        if (st.gen == gen && st.state == GT_ST_DONE) {
            fprintf(gt_stderr(), "gputui: the recording holds no more samples of this configuration\n");
            return GT_EXIT_FAIL;
        }
        if (st.gen == gen && st.state == GT_ST_ERROR) {
            if (!config_written)
                gt_recorder_config(rec, exp, vals, gen, &st.info, st.share.traffic_source,
                                       gt_share_others_text(&st.share, others, sizeof others));
            gt_recorder_error(rec, gen, st.msg);
            fprintf(gt_stderr(), "gputui: %s\n", st.msg);
            return GT_EXIT_FAIL;
        }
        if (st.gen == gen && st.state != GT_ST_SETUP &&
            measured(cli, want, run, &st.info, rec != NULL, t_first)) {
            gt_timeline *tl = malloc(sizeof *tl);
            uint32_t seq = 0;
            run->info = st.info;
            if (st.share.on && (st.share.others > 0 || st.share.timeouts))
                fprintf(gt_stderr(), "gputui: GPU shared with %d other gputui process%s: waited "
                        "%.2f ms an iteration for the turn; %llu iterations ran without it "
                        "(samples marked disturbed)\n", st.share.others,
                        st.share.others == 1 ? "" : "es",
                        st.share.turns ? st.share.waited / (double)st.share.turns * 1e3 : 0.0,
                        (unsigned long long)st.share.timeouts);
            if (st.share.foreign) {
                char doing[96];
                fprintf(gt_stderr(), "gputui: GPU also used by %s (%s%s%s); %llu iterations marked "
                        "disturbed for it\n", st.share.foreign_text,
                        gt_share_foreign_doing(&st.share, doing, sizeof doing),
                        st.share.traffic_source[0] ? ": " : "", st.share.traffic_source,
                        (unsigned long long)st.share.foreign_disturbed);
            }
            else if (!st.share.users_known && st.share.users_note[0])
                fprintf(gt_stderr(), "gputui: cannot tell whether the GPU is shared (%s)\n",
                        st.share.users_note);
            if (tl && gt_engine_timeline(eng, tl, &seq)) {
                gt_recorder_timeline(rec, tl);
                if (gt_run_set_timeline(run, tl))
                    fprintf(gt_stderr(), "gputui: out of memory for the timeline\n");
            }
            free(tl);
            /* Its teardown completes its calls; recordings keep them. */
            if (cli->trace_calls || rec) {
                gt_trace *tr = malloc(sizeof *tr);
                gt_engine_release(eng);
                if (tr && gt_engine_trace(eng, gen, tr)) {
                    gt_recorder_trace(rec, gen, tr);
                    if (cli->trace_calls && gt_run_set_trace(run, tr))
                        fprintf(gt_stderr(), "gputui: out of memory for the call trace\n");
                }
                free(tr);
            }
            return 0;
        }
    }
}

int gt_batch_run(const gt_cli *cli, gt_engine *eng)
{
    static int64_t cfgs[GT_MAX_CONFIGS][GT_MAX_PARAMS];
    gt_devprops props;
    gt_recorder *rec = NULL;
    gt_run *runs;
    gt_err err;
    char msg[512], desc[512];
    int ncfg, nrun = 0, nfailed = 0, rc = GT_EXIT_OK;

    gt_err_clear(&err);
    gt_engine_props(eng, &props);
    ncfg = gt_cli_configs(cli, cfgs, GT_MAX_CONFIGS, msg, sizeof msg);
    if (ncfg < 0) {
        fprintf(gt_stderr(), "gputui: %s\n", msg);
        return GT_EXIT_USAGE;
    }
    if (ncfg == 1 && gt_experiment_check(cli->exp, cfgs[0], &props, msg, sizeof msg)) {
        fprintf(gt_stderr(), "gputui: --%s\n", msg);
        return GT_EXIT_USAGE;
    }
    if (cli->record && gt_recorder_open(&rec, cli->record, cli->force, &props, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return err.code ? err.code : GT_EXIT_FAIL;
    }
    runs = calloc((size_t)ncfg, sizeof *runs);
    if (!runs) {
        gt_recorder_close(rec, &err);
        fprintf(gt_stderr(), "gputui: out of memory\n");
        return GT_EXIT_FAIL;
    }
    for (int i = 0; i < ncfg; i++) {
        int r;
        gt_experiment_describe(cli->exp, cfgs[i], desc, sizeof desc);
        gt_engine_props(eng, &props);
        if (gt_experiment_check(cli->exp, cfgs[i], &props, msg, sizeof msg) && i > 0) {
            /* Perhaps refused for the memory the last configuration holds:
             * ask again with it freed. */
            gt_engine_release(eng);
            gt_engine_props(eng, &props);
        }
        if (gt_experiment_check(cli->exp, cfgs[i], &props, msg, sizeof msg)) {
            fprintf(gt_stderr(), "gputui: skipped %s: %s\n", desc, msg);
            continue;
        }
        r = gt_batch_measure(cli, eng, cli->exp, cfgs[i], cli->samples, &runs[nrun], rec);
        if (r == 0) {
            nrun++;
            continue;
        }
        gt_run_free(&runs[nrun]);
        if (r > 128 || ncfg == 1) {
            rc = r;
            break;
        }
        fprintf(gt_stderr(), "gputui: skipped %s after that error\n", desc);
        nfailed++;
    }
    if (gt_recorder_close(rec, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        rc = rc ? rc : GT_EXIT_FAIL;
    }
    if (rc == GT_EXIT_OK && nrun == 0) {
        fprintf(gt_stderr(), "gputui: no configuration could be measured\n");
        rc = GT_EXIT_FAIL;
    }
    if (rc == GT_EXIT_OK) {
        gt_engine_props(eng, &props);
        if (gt_report(gt_stdout(), cli->format, &props, runs, nrun, NULL)) {
            fprintf(gt_stderr(), "gputui: cannot write the report\n");
            rc = GT_EXIT_FAIL;
        } else if (failed(runs, nrun)) {
            fprintf(gt_stderr(), "gputui: %llu samples FAILED verification\n",
                    (unsigned long long)failed(runs, nrun));
            rc = GT_EXIT_VERIFY;
        } else if (nfailed) {
            /* The others are reported; a script still learns of the error. */
            fprintf(gt_stderr(), "gputui: %d of %d configurations failed (said above); the report "
                    "holds the %d measured\n", nfailed, ncfg, nrun);
            rc = GT_EXIT_FAIL;
        }
    }
    for (int i = 0; i < nrun; i++)
        gt_run_free(&runs[i]);
    free(runs);
    return rc;
}

/* With -e or parameters: the recorded configurations among those the
 * same command line would measure live, in its order, each once (pick[]
 * gets their indices); the ones not recorded are named on stderr. Returns
 * how many, or -1 (said why). */
static int select_configs(const gt_cli *cli, const gt_recording *rec, size_t *pick)
{
    static int64_t cfgs[GT_MAX_CONFIGS][GT_MAX_PARAMS];
    char msg[512], desc[512];
    int ncfg = gt_cli_configs(cli, cfgs, GT_MAX_CONFIGS, msg, sizeof msg), n = 0, missing = 0;
    size_t held = 0;

    if (ncfg < 0) {
        fprintf(gt_stderr(), "gputui: %s\n", msg);
        return -1;
    }
    for (int i = 0; i < ncfg; i++) {
        int idx = gt_recording_find(rec, cli->exp, cfgs[i]);
        bool dup = false;
        for (int k = 0; k < n && idx >= 0; k++)
            dup |= pick[k] == (size_t)idx;
        if (idx >= 0 && !dup)
            pick[n++] = (size_t)idx;
        else if (idx < 0 && missing++ < 8)
            fprintf(gt_stderr(), "gputui: %s: not recorded: %s\n", rec->path,
                    gt_experiment_describe(cli->exp, cfgs[i], desc, sizeof desc));
    }
    if (missing > 8)
        fprintf(gt_stderr(), "gputui: %s: ... and %d more not recorded\n", rec->path, missing - 8);
    if (n == 0) {
        for (size_t i = 0; i < rec->ncfg; i++)
            held += rec->cfg[i].exp == cli->exp;
        fprintf(gt_stderr(), "gputui: %s holds none of the %d configuration%s asked for; it holds "
                "%zu of %s (without -e and parameters, --batch --replay reports them all)\n",
                rec->path, ncfg, ncfg == 1 ? "" : "s", held, cli->exp->name);
        return -1;
    }
    if (n < ncfg)
        fprintf(gt_stderr(), "gputui: reporting the %d of %d configurations asked for that %s "
                "holds\n", n, ncfg, rec->path);
    return n;
}

int gt_batch_replay(const gt_cli *cli, const gt_recording *rec)
{
    static const gt_trace none;     /* recorded before format 1.2 */
    size_t *pick = calloc(rec->ncfg ? rec->ncfg : 1, sizeof *pick), npick = rec->ncfg;
    gt_run runs[2];                 /* this one, and the one before (the page's ghost) */
    gt_report_writer *w;
    int nrun = 0, rc = GT_EXIT_OK, sampled = 0;
    uint64_t nfailed = 0;
    char desc[512], warn[900];

    if (!pick) {
        fprintf(gt_stderr(), "gputui: out of memory\n");
        return GT_EXIT_FAIL;
    }
    if (cli->exp_given || cli->given) {
        int n = select_configs(cli, rec, pick);
        if (n < 0) {
            free(pick);
            return GT_EXIT_FAIL;
        }
        npick = (size_t)n;
    } else {
        for (size_t i = 0; i < rec->ncfg; i++)
            pick[i] = i;
    }
    for (size_t j = 0; j < npick; j++) {
        const gt_rec_config *c = &rec->cfg[pick[j]];
        if (c->n)
            sampled++;
        else
            fprintf(gt_stderr(), "gputui: %s: configuration %s has no samples%s%s\n", rec->path,
                    gt_experiment_describe(c->exp, c->vals, desc, sizeof desc),
                    c->error ? "; recorded error: " : "", c->error ? c->error : "");
    }
    if (gt_recording_warning(rec, warn, sizeof warn)[0])
        fprintf(gt_stderr(), "gputui: %s\n", warn);
    /* A run at a time: however many configurations the file holds, the
     * report holds two. */
    w = gt_report_begin(gt_stdout(), cli->format, &rec->props, rec, sampled);
    memset(runs, 0, sizeof runs);
    for (size_t j = 0; w && j < npick && !rc; j++) {
        const gt_rec_config *c = &rec->cfg[pick[j]];
        gt_run *r = &runs[nrun % 2];
        if (c->n == 0)
            continue;
        if (nrun >= 2)
            gt_run_free(r);
        if (gt_rec_config_run(c, r) ||
            (cli->trace_calls && gt_run_set_trace(r, c->trace ? c->trace : &none)))
            fprintf(gt_stderr(), "gputui: out of memory for the timeline or the call trace\n");
        nfailed += gt_run_failed(r);
        nrun++;
        if (gt_report_add(w, r))
            rc = GT_EXIT_FAIL;
    }
    if (gt_report_end(w) || !w || rc || gt_out_flush()) {
        fprintf(gt_stderr(), "gputui: cannot write the report\n");
        rc = GT_EXIT_FAIL;
    } else if (nfailed) {
        rc = GT_EXIT_VERIFY;
    }
    for (int i = 0; i < nrun && i < 2; i++)
        gt_run_free(&runs[i]);
    free(pick);
    return rc;
}
