/* gputui --batch --inspect (inspect_run.h): the inspection's steps
 * measured one after another, the card written out, and a recorded
 * inspection's card. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/inspect_run.h"
#include "gputui/base/out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gputui/base/signals.h"
#include "gputui/inspect/card.h"
#include "gputui/inspect/inspect_json.h"
#include "gputui/inspect/inspection.h"
#include "gputui/measure/run.h"
#include "gputui/report/batch.h"

static int print_card(const gt_cli *cli, const gt_inspect_card *c)
{
    int rc;

    switch (cli->format) {
    case GT_FMT_JSON: rc = gt_inspect_print_json(gt_stdout(), c); break;
    case GT_FMT_CSV: rc = gt_inspect_print_csv(gt_stdout(), c); break;
    case GT_FMT_PROMETHEUS: rc = gt_inspect_print_prometheus(gt_stdout(), c); break;
    case GT_FMT_HTML: rc = gt_inspect_print_html(gt_stdout(), c); break;
    default: rc = gt_inspect_print_text(gt_stdout(), c); break;
    }
    if (fflush(gt_stdout()) || rc) {
        fprintf(gt_stderr(), "gputui: --inspect: cannot write the card\n");
        return GT_INSPECT_EXIT_NORUN;
    }
    return gt_inspect_status(c);
}

/* --record: the recording, opened before the first step. */
static int open_recorder(const gt_cli *cli, gt_engine *eng, gt_recorder **rec)
{
    gt_devprops p;
    gt_err err;

    *rec = NULL;
    if (!cli->record)
        return 0;
    gt_err_clear(&err);
    gt_engine_props(eng, &p);
    if (gt_recorder_open(rec, cli->record, cli->force, &p, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return err.code == GT_EXIT_USAGE ? GT_EXIT_USAGE : GT_INSPECT_EXIT_NORUN;
    }
    return 0;
}

static int close_recorder(gt_recorder *rec)
{
    gt_err err;

    gt_err_clear(&err);
    if (gt_recorder_close(rec, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Half a second, in slices that notice a signal: true when one came. */
static bool nap(void)
{
    struct timespec ts = {0, 50 * 1000 * 1000};

    for (int i = 0; i < 10 && !gt_signal_caught; i++)
        nanosleep(&ts, NULL);
    return gt_signal_caught != 0;
}

/* Whether another program's work disturbed more than GT_DISTURBED_SHARE
 * of a series' samples. */
static bool disturbed(const gt_run *run)
{
    for (int s = 0; s < run->nseries; s++)
        if (gt_series_disturbed(&run->s[s]))
            return true;
    return false;
}

/* One step's samples, into run, and the engine's status after it. With
 * --wait-quiet S, a step whose samples another program disturbed is
 * measured again, half a second apart, until its samples are clean or S
 * seconds have passed; stderr says what it waits for. */
static int measure_step(const gt_cli *cli, gt_engine *eng, const gt_experiment *exp,
                        const int64_t *vals, const char *what, gt_recorder *rec, gt_run *run,
                        gt_status *st)
{
    double t0 = gt_now(), said = -1;
    char doing[64];
    int rc;

    for (;;) {
        rc = gt_batch_measure(cli, eng, exp, vals, GT_INSPECT_SAMPLES, run, rec);
        gt_engine_status(eng, st);
        if (rc || !(cli->wait_quiet > 0) || !disturbed(run) || gt_now() - t0 >= cli->wait_quiet)
            return rc;
        if (gt_now() - said >= 5) {
            said = gt_now();
            fprintf(gt_stderr(), "gputui: --inspect: waiting for the GPU to go quiet before %s: "
                    "%s, %s (%.0f s of %g)\n", what, st->share.foreign_text[0] ?
                    st->share.foreign_text : "another program",
                    gt_share_foreign_doing(&st->share, doing, sizeof doing), gt_now() - t0,
                    cli->wait_quiet);
        }
        gt_run_free(run);
        if (nap()) {
            gt_run_init(run, exp, vals, 0);
            fprintf(gt_stderr(), "gputui: stopped by signal %d\n", (int)gt_signal_caught);
            return 128 + (int)gt_signal_caught;
        }
    }
}

int gt_inspect_measure(const gt_cli *cli, gt_engine *eng, const gt_backend *be,
                       const gt_bundle *bundle, gt_recorder *rec, gt_inspect_facts *f,
                       gt_inspect_card *c)
{
    gt_inspection *in;
    const gt_experiment *exp;
    int64_t vals[GT_MAX_PARAMS];
    const char *what;
    gt_devprops p;
    gt_status st;
    gt_err err;
    int rc = 0, i, n;

    memset(&st, 0, sizeof st);
    gt_err_clear(&err);
    gt_engine_props(eng, &p);
    if (gt_inspection_start(&in, be, &p, bundle, &err)) {
        fprintf(gt_stderr(), "gputui: --inspect: %s\n", err.msg);
        return GT_INSPECT_EXIT_NORUN;
    }
    while (gt_inspection_next(in, &exp, vals, &what, &i, &n)) {
        gt_run run;
        if (!cli->format)
            fprintf(gt_stderr(), "gputui: --inspect: %s (%d of %d) ...\n", what, i + 1, n);
        rc = measure_step(cli, eng, exp, vals, what, rec, &run, &st);
        if (rc > 128) {
            gt_run_free(&run);
            break;
        }
        rc = gt_inspection_take(in, rc ? NULL : &run, rc ? st.msg : NULL, &st);
        gt_run_free(&run);
        if (rc)
            break;
    }
    if (rc) {
        gt_inspection_free(in);
        fprintf(gt_stderr(), "gputui: --inspect: the measurements did not run (see above)\n");
        return rc > 128 ? rc : GT_INSPECT_EXIT_NORUN;
    }
    gt_engine_status(eng, &st);
    gt_inspection_finish(in, &st, f, c);
    gt_inspection_free(in);
    return 0;
}

int gt_inspect_batch(const gt_cli *cli, gt_engine *eng, const gt_backend *be,
                     const gt_bundle *bundle)
{
    gt_recorder *rec;
    gt_inspect_facts f;
    gt_inspect_card c;
    char *json;
    int rc;

    if ((rc = open_recorder(cli, eng, &rec)))
        return rc;
    if ((rc = gt_inspect_measure(cli, eng, be, bundle, rec, &f, &c))) {
        close_recorder(rec);
        return rc;
    }
    if (rec) {
        if (!(json = gt_inspect_json_write(&f, &c))) {
            fprintf(gt_stderr(), "gputui: --inspect: out of memory\n");
            close_recorder(rec);
            return GT_INSPECT_EXIT_NORUN;
        }
        gt_recorder_inspection(rec, json);
        free(json);
        if (close_recorder(rec))
            return GT_INSPECT_EXIT_NORUN;
    }
    return print_card(cli, &c);
}

int gt_inspect_batch_replay(const gt_cli *cli, const gt_recording *rec, const gt_bundle *bundle)
{
    gt_thresholds th;
    gt_inspect_card c;
    gt_err err;

    gt_err_clear(&err);
    if (!rec->inspection) {
        fprintf(gt_stderr(), "gputui: --inspect: %s holds no inspection (it was recorded %s)\n",
                rec->path, rec->major == 1 && rec->minor < 4 ? "before format 1.4"
                : "without --inspect");
        return GT_INSPECT_EXIT_NORUN;
    }
    if (gt_inspection_thresholds(&th, bundle, &err) ||
        gt_inspection_replay(rec->inspection, &th, &c, &err)) {
        fprintf(gt_stderr(), "gputui: --inspect: %s: %s\n", rec->path, err.msg);
        return GT_INSPECT_EXIT_NORUN;
    }
    return print_card(cli, &c);
}
