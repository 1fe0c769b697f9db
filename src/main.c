/* gputui entry point: parse the command line, then hand over to batch
 * mode, the device list or the TUI, on a GPU or on a recording. The engine
 * is started before the terminal is touched, so "no device" is one plain
 * line on stderr; without a device the TUI falls back to the bundled
 * recording unless --no-fallback says otherwise.
 *
 * This is the one file that knows which build it is: GT_WITH_CUDA=1 has
 * the GPU back-end (src/gpu/); the replay viewer (0) has none, answers
 * whatever needs a GPU with NO_CUDA and exit 64, and falls back to the
 * bundled recordings as a machine without a GPU does. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/base/port.h"
#include "gputui/base/out.h"
#include "gputui/report/batch.h"
#include "gputui/record/bundle.h"
#include "gputui/input/cli.h"
#include "gputui/input/options.h"
#include "gputui/experiments/registry.h"
#include "gputui/report/compare.h"
#if GT_WITH_CUDA
#include "gputui/cuda_backend.h"
#endif
#ifndef GT_CUDART_LINK
#define GT_CUDART_LINK "static"
#endif
#include "gputui/engine/engine.h"
#include "gputui/inspect/card.h"
#include "gputui/inspect/fleet.h"
#include "gputui/inspect/inspect_run.h"
#include "gputui/inspect/node.h"
#include "gputui/lesson/lesson_batch.h"
#include "gputui/record/follow.h"
#include "gputui/record/record.h"
#include "gputui/record/replay.h"
#include "gputui/report/report.h"
#include "gputui/base/signals.h"
#include "ui/ui.h"
#include "sources.h"

#define NO_CUDA "this gputui was built without the CUDA toolkit: it can replay, compare and " \
                "run lessons from recordings (rebuild it with the toolkit for live measurements)"

/* What does work without a GPU, for the request that needed one: "gputui
 * --batch --replay h200 reports the bundled NVIDIA H200's recording". */
static const char *without_gpu(const gt_cli *cli, const gt_bundle *b)
{
    static char buf[300];
    const char *m = b && b->n ? b->model[0] : "h200";

    if (cli->inspect)
        snprintf(buf, sizeof buf, "gputui --batch --inspect --replay %s prints the bundled %s "
                 "card", m, m);
    else if (cli->pairs)
        snprintf(buf, sizeof buf, "gputui --batch --replay 2xh200 -e peer replays two GPUs' "
                 "peer copies");
    else if (cli->mode == GT_MODE_LIST)
        snprintf(buf, sizeof buf, "gputui --version lists the bundled recordings, and gputui "
                 "--replay %s replays one", m);
    else if (cli->lesson)
        snprintf(buf, sizeof buf, "gputui --batch --lesson %s%s runs it on the bundled %s "
                 "recording", cli->lesson, cli->no_fallback ? ", without --no-fallback," : "",
                 m);
    else if (cli->mode == GT_MODE_BATCH)
        snprintf(buf, sizeof buf, "gputui --batch --replay %s reports the bundled %s "
                 "recording", m, m);
    else
        snprintf(buf, sizeof buf, "gputui --replay %s replays the bundled %s recording", m, m);
    return buf;
}

/* --version: the build and where the data is. */
static int version(void)
{
    char path[PATH_MAX + 32], models[200];
    gt_bundle b;
    const char *var = NULL, *env = gt_bundle_env(&var);

    fprintf(gt_stdout(), "gputui %s (recording format %d.%d)\n", GT_VERSION, GT_REC_MAJOR, GT_REC_MINOR);
#if GT_WITH_CUDA
    fprintf(gt_stdout(), "build: GPU back-end, CUDA runtime %d.%d (%s), kernels for sm %s and PTX\n",
           gt_cuda_runtime_version / 1000, gt_cuda_runtime_version % 1000 / 10, GT_CUDART_LINK,
           GT_GPU_ARCH);
    fprintf(gt_stdout(), "other programs on the GPU: NVML's process list and per-process utilisation; "
           "their copies from NVML PCIe throughput (nvmlDeviceGetPcieThroughput, 20 ms a "
           "direction) in quiet windows; GPM is not read (on an H200 its PCIe and DRAM "
           "metrics read 0 over 1-20 ms)\n");
#else
    fprintf(gt_stdout(), "build: replay viewer, built without the CUDA toolkit (recordings, compare, "
           "lessons)\n");
    fprintf(gt_stdout(), "other programs on the GPU: not looked for (no GPU here)\n");
#endif
    gt_bundle_find(&b, gt_port_exe_dir(path, sizeof path));
    if (b.n)
        fprintf(gt_stdout(), "data: %s (%s): recordings of %s\n", b.dir, env ? var :
               "beside the binary", gt_bundle_models(&b, models, sizeof models));
    else
        fprintf(gt_stdout(), "data: no recordings found in %s (%s)\n", b.dir[0] ? b.dir : "BIN/../share/gputui",
               env ? var : "beside the binary; GPUTUI_DATA=DIR "
               "names another place");
    return GT_EXIT_OK;
}

/* The banner's reason: the first clause of a diagnosis that names the GPU
 * ("NVIDIA A100-PCIE-40GB: driver 535.54 runs CUDA 12.2, older than ...",
 * up to its ';'), true; else "cudaErrorNoDevice" out of a longer message. */
static bool short_reason(const char *msg, char *out, size_t len)
{
    const char *p = strstr(msg, "cudaError"), *semi = strchr(msg, ';');
    size_t n = 0;

    if (strncmp(msg, "no usable CUDA device", 21) && semi) {
        snprintf(out, len, "%.*s", (int)(semi - msg), msg);
        return true;
    }
    if (strstr(msg, "driver not found (libcuda.so.1)")) {
        /* As the batch message says it: no driver at all. */
        snprintf(out, len, "driver not found (libcuda.so.1)");
        return false;
    }
    if (!p) {
        snprintf(out, len, "no usable device");
        return false;
    }
    while (p[n] && (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
        n++;
    snprintf(out, len, "%.*s", (int)n, p);
    return false;
}

/* What follows the reason a device cannot be used: what works meanwhile. */
static const char *meanwhile(const char *msg)
{
    char r[200];
    return short_reason(msg, r, sizeof r) ? "until then" : "without a GPU";
}

static int list_devices(const gt_backend *be)
{
    gt_err err;
    int n;

    gt_err_clear(&err);
    if (!be) {
        fprintf(gt_stderr(), "gputui: --list-devices: %s; here, %s\n", NO_CUDA,
                without_gpu(&(gt_cli){.mode = GT_MODE_LIST}, NULL));
        return GT_EXIT_USAGE;
    }
    if (be->device_count(&n, &err)) {
        fprintf(gt_stderr(), "gputui: %s; %s, %s\n", err.msg, meanwhile(err.msg),
                without_gpu(&(gt_cli){.mode = GT_MODE_LIST}, NULL));
        return GT_EXIT_FAIL;
    }
    for (int i = 0; i < n; i++) {
        gt_devprops p;
        if (be->query(i, &p, &err)) {
            fprintf(gt_stderr(), "gputui: device %d: %s\n", i, err.msg);
            continue;
        }
        gt_report_device_line(gt_stdout(), &p);
        if (i == n - 1 && n > 1) {
            gt_topo_line lines[GT_MAX_DEVICES * GT_MAX_DEVICES + 12];
            int k = gt_topo_lines(&p.topo, -1, lines, (int)GT_ARRAY_LEN(lines));
            fprintf(gt_stdout(), "topology:\n");
            for (int l = 0; l < k; l++)
                fprintf(gt_stdout(), "%s\n", lines[l]);
        }
    }
    be->close();
    return GT_EXIT_OK;
}

/* --fleet: the cards as one table; 3 when there is an outlier, else 4
 * when a card is busy. */
static int fleet(const gt_cli *cli)
{
    gt_fleet_card *cards;
    gt_err err;
    int n, outliers, rc;

    gt_err_clear(&err);
    if (gt_fleet_load(cli->fleet, cli->nfleet, &cards, &n, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return GT_INSPECT_EXIT_NORUN;
    }
    outliers = gt_fleet_judge(cards, n);
    rc = gt_fleet_print(gt_stdout(), cli->format, cards, n) || fflush(gt_stdout()) ? GT_INSPECT_EXIT_NORUN
         : outliers ? GT_INSPECT_EXIT_FAIL : gt_fleet_busy(cards, n) ? GT_INSPECT_EXIT_BUSY
         : GT_INSPECT_EXIT_PASS;
    if (rc == GT_INSPECT_EXIT_NORUN)
        fprintf(gt_stderr(), "gputui: --fleet: cannot write the table\n");
    free(cards);
    return rc;
}

/* The TUI on a recording (A), with B as the ghost in compare mode; or
 * --lesson --batch on it. */
static int replay(const gt_cli *cli, gt_ui_source *src)
{
    gt_err err;
    int rc;

    gt_err_clear(&err);
    if (gt_engine_start(&src->eng, gt_replay_backend(src->rec), 0, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return GT_EXIT_FAIL;
    }
    if (cli->mode == GT_MODE_BATCH)
        rc = gt_lesson_batch(cli, src->eng, src->start, src->rec);
    else if (!(rc = sources_terminal(cli, true)))
        rc = gt_ui_run(cli, src);
    gt_engine_stop(src->eng);
    return rc;
}

/* --replay FILE --follow: the TUI on a recording that is still being
 * written, once its first configuration has arrived. With "-" the
 * recording comes on standard input, and the keys from the terminal. */
static int follow(const gt_cli *cli, gt_ui_source *src, gt_recording *rec)
{
    static char why[700];
    char status[700], shown[700] = "";
    gt_follow *f;
    gt_err err;
    int rc = GT_EXIT_FAIL, tty;

    gt_err_clear(&err);
    if (!strcmp(cli->replay, "-") && isatty(STDIN_FILENO)) {
        fprintf(gt_stderr(), "gputui: --replay -: standard input is a terminal; pipe the recording "
                "into it (ssh SERVER tail -c +1 -F FILE.partial | gputui --replay - --follow)\n");
        return GT_EXIT_USAGE;
    }
    if (gt_follow_open(&f, cli->replay, rec, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return err.code;
    }
    if ((rc = sources_terminal(cli, true)))
        goto out;
    rc = GT_EXIT_FAIL;
    if (!strcmp(cli->replay, "-")) {
        if ((tty = open("/dev/tty", O_RDWR)) < 0 || dup2(tty, STDIN_FILENO) < 0) {
            fprintf(gt_stderr(), "gputui: --replay - --follow reads the keys from /dev/tty: %s\n",
                    strerror(errno));
            goto out;
        }
        close(tty);
    }
    while (!gt_signal_caught) {
        struct pollfd pfd = {.fd = gt_follow_fd(f), .events = POLLIN};
        gt_follow_poll(f);
        if (rec->ncfg)
            break;
        if (gt_follow_stopped(f)) {
            gt_ui_term_close();
            fprintf(gt_stderr(), "gputui: --replay %s: %s, before its first configuration\n",
                    cli->replay, gt_follow_status(f, gt_now(), status, sizeof status));
            goto out;
        }
        snprintf(status, sizeof status, "%s (following): %s; Ctrl-C stops", cli->replay,
                 rec->lines ? "waiting for its first configuration"
                            : gt_follow_status(f, gt_now(), why, sizeof why));
        if (strcmp(status, shown) && !sources_terminal(cli, false))
            gt_ui_loading(status);
        snprintf(shown, sizeof shown, "%s", status);
        poll(&pfd, 1, gt_follow_behind(f) ? 0 : (int)(GT_FOLLOW_PERIOD * 1e3));
    }
    if (gt_signal_caught) {
        gt_ui_term_close();
        fprintf(gt_stderr(), "gputui: stopped by signal %d\n", (int)gt_signal_caught);
        rc = 128 + (int)gt_signal_caught;
        goto out;
    }
    snprintf(why, sizeof why, "FOLLOWING %s", !strcmp(cli->replay, "-") ? "standard input"
                                                                         : cli->replay);
    src->rec = rec;
    src->why = why;
    src->follow = f;
    rc = replay(cli, src);
out:
    gt_follow_close(f);
    return rc;
}

/* The lessons in DATA/lessons; --lesson NAME must be one of them. */
static gt_lesson *lessons_load(const gt_cli *cli, const gt_bundle *b, gt_ui_source *src,
                               int *rc)
{
    static char why[700];
    char dir[600], names[400];
    gt_lesson *l = calloc(GT_LESSON_MAX, sizeof *l);
    gt_err err;
    int n;

    *rc = 0;
    gt_err_clear(&err);
    snprintf(dir, sizeof dir, "%s/lessons", b->dir[0] ? b->dir : "share/gputui");
    if (!l) {
        snprintf(why, sizeof why, "out of memory for the lessons");
        n = -1;
    } else if ((n = gt_lessons_load_dir(dir, l, GT_LESSON_MAX, &err)) < 0) {
        snprintf(why, sizeof why, "%s", err.msg);
    }
    src->lessons_why = why;
    if (n >= 0) {
        src->lessons = l;
        src->nlessons = n;
    }
    if ((cli->lesson || cli->mode == GT_MODE_LESSONS) && n < 0) {
        fprintf(gt_stderr(), "gputui: %s\n", why);
        *rc = GT_EXIT_FAIL;
    } else if (cli->lesson && !(src->start = gt_lesson_find(l, n, cli->lesson))) {
        size_t off = 0;
        names[0] = '\0';
        for (int i = 0; i < n; i++)
            off += (size_t)snprintf(names + off, off < sizeof names ? sizeof names - off : 0,
                                    "%s%s", i ? ", " : "", l[i].name);
        fprintf(gt_stderr(), "gputui: --lesson: unknown lesson '%s' (allowed: %s)\n", cli->lesson,
                names);
        *rc = GT_EXIT_USAGE;
    }
    return l;
}

int main(int argc, char **argv)
{
#if GT_WITH_CUDA
    const gt_backend *be = &gt_cuda_backend;
#else
    const gt_backend *be = NULL;
#endif
    gt_recording rec, cmp;
    gt_bundle bundle;
    gt_lesson *lessons;
    gt_ui_source src;
    gt_cli cli;
    gt_err err;
    char why[700], path[PATH_MAX + 32], reason[200], warn[700], note[600] = "";
    int rc;

#if GT_WITH_CUDA
    double t_main = gt_now();   /* first: the runtime experiment's child reports it */

    if (argc >= 2 && !strcmp(argv[1], GT_CHILD_ARG))
        return gt_cuda_child(argc, argv, t_main);
#endif
    gt_port_set_argv0(argv[0]);
    setlocale(LC_ALL, "");
    gt_err_clear(&err);
    memset(&src, 0, sizeof src);
    if (gt_cli_parse(argc, argv, &cli, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return err.code;
    }
    gt_out_set_kind(cli.format == GT_FMT_JSON ? GT_OUT_JSON : GT_OUT_TEXT);
    switch (cli.mode) {
    case GT_MODE_HELP:
        if (cli.help && !strcmp(cli.help, "all"))
            gt_options_usage(gt_stdout());
        else if (cli.help)
            gt_options_experiment(gt_stdout(), gt_experiment_find(cli.help));
        else {
            gt_options_brief(gt_stdout());
            if (cli.exp_given)      /* -e NAME --help: its parameters too */
                gt_options_experiment(gt_stdout(), cli.exp);
        }
        return GT_EXIT_OK;
    case GT_MODE_VERSION:
        return version();
    case GT_MODE_LIST:
        return list_devices(be);
    case GT_MODE_FLEET:
        return fleet(&cli);
    default:
        break;
    }
    gt_signals_install();
    if (cli.mode == GT_MODE_TUI && sources_trace_unusable(&cli, &err)) {
        fprintf(gt_stderr(), "gputui: %s\n", err.msg);
        return err.code;
    }
    gt_bundle_find(&bundle, gt_port_exe_dir(path, sizeof path));
    src.data = &bundle;
    src.inspect = cli.inspect;
    lessons = lessons_load(&cli, &bundle, &src, &rc);
    if (rc || cli.mode == GT_MODE_LESSONS) {
        if (!rc)
            gt_lessons_print(gt_stdout(), src.lessons, src.nlessons);
        free(lessons);
        return rc;
    }

    /* Compare mode: B is a recording; A is one too, or this machine. */
    bool tui = cli.mode == GT_MODE_TUI;
    if (cli.ncompare) {
        if ((rc = sources_load_named(&bundle, "--compare", cli.compare[cli.ncompare - 1], true, false,
                             &cmp, tui ? &src.cmp_reader : NULL, &cli, &src)))
            goto done;
        if (gt_recording_warning(&cmp, warn, sizeof warn)[0])
            fprintf(gt_stderr(), "gputui: %s\n", warn);
        src.compare = &cmp;
        if (cli.ncompare == 2) {
            if ((rc = sources_load_named(&bundle, "--compare", cli.compare[0], true, tui, &rec,
                                 tui ? &src.reader : NULL, &cli, &src))) {
                sources_drop(&cmp, &src.cmp_reader);
                goto done;
            }
            if (cli.mode == GT_MODE_BATCH) {
                rc = gt_compare_report(gt_stdout(), cli.format, &rec, &cmp) ? GT_EXIT_FAIL : GT_EXIT_OK;
                if (rc)
                    fprintf(gt_stderr(), "gputui: cannot write the comparison\n");
            } else {
                snprintf(why, sizeof why, "COMPARE A (%s):", cli.compare[0]);
                src.rec = &rec;
                src.why = why;
                rc = replay(&cli, &src);
            }
            sources_drop(&rec, &src.reader);
            sources_drop(&cmp, &src.cmp_reader);
            goto done;
        }
    }

    if (cli.replay && cli.follow) {
        rc = follow(&cli, &src, &rec);
        gt_recording_free(&rec);
        goto out;
    }
    if (cli.replay) {
        if ((rc = sources_load_named(&bundle, "--replay", cli.replay, false, tui, &rec,
                             tui ? &src.reader : NULL, &cli, &src)))
            goto done;
        if (cli.device_given && cli.device != (rec.props.ordinal > 0 ? rec.props.ordinal : 0)) {
            gt_ui_term_close();
            fprintf(gt_stderr(), "gputui: --device %d: %s is a recording of device %d (%s): "
                    "allowed: %d; -d chooses a GPU to measure, or without --replay a bundled "
                    "recording\n", cli.device, rec.path, rec.props.ordinal > 0 ?
                    rec.props.ordinal : 0, rec.props.name, rec.props.ordinal > 0 ?
                    rec.props.ordinal : 0);
            sources_drop(&rec, &src.reader);
            rc = GT_EXIT_USAGE;
            goto done;
        }
        sources_hint_elsewhere(&cli, &src, &bundle, &rec, note, sizeof note);
        if (note[0] && cli.mode == GT_MODE_BATCH)
            fprintf(gt_stderr(), "gputui: %s\n", note);
        src.note = note[0] ? note : NULL;
        if (cli.mode == GT_MODE_BATCH && cli.inspect) {
            rc = gt_inspect_batch_replay(&cli, &rec, &bundle);
        } else if (sources_only_inspection(&rec)) {
            rc = GT_EXIT_FAIL;
        } else if (cli.mode == GT_MODE_BATCH && !cli.lesson) {
            rc = gt_batch_replay(&cli, &rec);
        } else {
            snprintf(why, sizeof why, "REPLAY of %s:", cli.replay);
            src.rec = &rec;
            src.why = why;
            rc = replay(&cli, &src);
        }
        sources_drop(&rec, &src.reader);
        goto done;
    }

    if ((cli.pairs || cli.all_devices) && be) {  /* every GPU: --pairs all, --inspect -d all */
        int n;
        if (be->device_count(&n, &err)) {      /* no GPU: say what works without one */
            fprintf(gt_stderr(), "gputui: %s; %s, %s\n", err.msg, meanwhile(err.msg),
                    without_gpu(&cli, &bundle));
            rc = GT_EXIT_FAIL;
            goto out;
        }
        rc = cli.all_devices ? gt_inspect_node(&cli, be, &bundle) : gt_batch_pairs(&cli, be);
        goto out;
    }
    if (!be)
        gt_err_set(&err, GT_EXIT_USAGE, "%s", NO_CUDA);
    if (cli.mode == GT_MODE_TUI && be && (rc = sources_terminal(&cli, true)))
        goto out;
    /* The TUI draws its first frame while the context starts. */
    int started = !be ? -1
                : cli.mode == GT_MODE_TUI ? gt_ui_starting(&cli, be, &src.eng, &err)
                                          : gt_engine_start(&src.eng, be, cli.device, &err);
    if (started == 1) {         /* quit before the GPU was up */
        if (gt_signal_caught)
            fprintf(gt_stderr(), "gputui: stopped by signal %d\n", (int)gt_signal_caught);
        rc = gt_signal_caught ? 128 + (int)gt_signal_caught : GT_EXIT_OK;
        goto out;
    }
    if (started) {
        /* The TUI, and a lesson in batch mode, replay the bundled recording. */
        bool lesson = cli.mode == GT_MODE_BATCH && cli.lesson;
        bool fallback = (cli.mode == GT_MODE_TUI || lesson) && !cli.no_fallback &&
                        !cli.record && (!be || err.code != GT_EXIT_USAGE);
        gt_err lerr;
        if (!fallback) {
            gt_ui_term_close();
            if (err.code != GT_EXIT_USAGE || !be)
                fprintf(gt_stderr(), "gputui: %s; %s, %s\n", err.msg, be ? meanwhile(err.msg) : "here",
                        without_gpu(&cli, &bundle));
            else
                fprintf(gt_stderr(), "gputui: %s\n", err.msg);
            rc = cli.inspect ? GT_INSPECT_EXIT_NORUN : err.code ? err.code : GT_EXIT_FAIL;
            goto out;
        }
        gt_err_clear(&lerr);
        rc = GT_EXIT_FAIL;
        if (bundle.n == 0) {
            gt_ui_term_close();
            fprintf(gt_stderr(), "gputui: %s\n", err.msg);
            fprintf(gt_stderr(), "gputui: and no bundled recording to replay instead (none in %s)\n",
                    bundle.dir[0] ? bundle.dir : "share/gputui");
            goto out;
        }
        if (cli.device >= bundle.n) {
            gt_ui_term_close();
            fprintf(gt_stderr(), "gputui: %s\n", err.msg);
            fprintf(gt_stderr(), "gputui: --device %d: the bundled recordings hold devices 0 to %d (%s)\n",
                    cli.device, bundle.n - 1, gt_bundle_models(&bundle, reason, sizeof reason));
            rc = GT_EXIT_USAGE;
            goto out;
        }
        int idx = sources_pick_bundled(&cli, &src, &bundle, &rec, note, sizeof note, &lerr);
        if (idx < 0) {
            gt_ui_term_close();
            fprintf(gt_stderr(), "gputui: %s\n", err.msg);
            fprintf(gt_stderr(), "gputui: and the bundled recording does not load: %s\n", lerr.msg);
            goto out;
        }
        bool named = short_reason(err.msg, reason, sizeof reason);
        if (lesson)
            fprintf(gt_stderr(), "gputui: %s: lesson %s runs on the bundled %s recording (%s); "
                    "--no-fallback refuses instead\n", be ? reason : "built without the CUDA "
                    "toolkit", cli.lesson, bundle.model[idx], bundle.path[idx]);
        if (note[0] && cli.mode == GT_MODE_BATCH)
            fprintf(gt_stderr(), "gputui: %s\n", note);
        if (be)
            snprintf(why, sizeof why, named ? "%s %s replaying" : "no CUDA device here: %s %s "
                     "replaying", reason,
                     strcmp(nl_langinfo(CODESET), "UTF-8") ? "--" : "\u2014");
        else
            snprintf(why, sizeof why, "this gputui was built without the CUDA toolkit %s "
                     "replaying", strcmp(nl_langinfo(CODESET), "UTF-8") ? "--" : "\u2014");
        src.rec = &rec;
        src.why = why;
        src.bundle = &bundle;
        src.bundle_idx = idx;
        src.note = note[0] ? note : NULL;
        rc = replay(&cli, &src);
        sources_drop(&rec, &src.reader);
        goto out;
    }
    src.live = be;
    src.share_off = cli.no_share_lock;
    gt_engine_set_share(src.eng, !cli.no_share_lock, NULL, 0);
    if (cli.mode == GT_MODE_BATCH && cli.inspect)
        rc = gt_inspect_batch(&cli, src.eng, be, &bundle);
    else if (cli.mode == GT_MODE_BATCH)
        rc = cli.lesson ? gt_lesson_batch(&cli, src.eng, src.start, NULL)
                        : gt_batch_run(&cli, src.eng);
    else
        rc = gt_ui_run(&cli, &src);
    gt_engine_stop(src.eng);
out:
    if (src.compare)
        sources_drop(&cmp, &src.cmp_reader);
done:
    free(lessons);
    return rc;
}
