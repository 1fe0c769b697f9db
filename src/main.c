/* gputui entry point: parse the command line, then hand over to batch
 * mode, the device list or the TUI, on a GPU or on a recording. The engine
 * is started before the terminal is touched, so "no device" is one plain
 * line on stderr; without a device the TUI falls back to the bundled
 * recording unless --no-fallback says otherwise. */
#define _POSIX_C_SOURCE 200809L
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/batch.h"
#include "gputui/bundle.h"
#include "gputui/cli.h"
#include "gputui/cuda_backend.h"
#include "gputui/engine.h"
#include "gputui/record.h"
#include "gputui/replay.h"
#include "gputui/report.h"
#include "gputui/signals.h"
#include "gputui/ui.h"

static int list_devices(const gt_backend *be)
{
    gt_err err;
    int n;

    gt_err_clear(&err);
    if (be->device_count(&n, &err)) {
        fprintf(stderr, "gputui: %s\n", err.msg);
        return GT_EXIT_FAIL;
    }
    for (int i = 0; i < n; i++) {
        gt_devprops p;
        if (be->query(i, &p, &err)) {
            fprintf(stderr, "gputui: device %d: %s\n", i, err.msg);
            continue;
        }
        gt_report_device_line(stdout, &p);
    }
    be->close();
    return GT_EXIT_OK;
}

/* The directory of the running binary, for the bundled recordings. */
static const char *exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    char *slash;

    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    if ((slash = strrchr(buf, '/')))
        *slash = '\0';
    return buf;
}

/* "cudaErrorNoDevice" out of a longer message, for the banner. */
static void short_reason(const char *msg, char *out, size_t len)
{
    const char *p = strstr(msg, "cudaError");
    size_t n = 0;

    if (!p) {
        snprintf(out, len, "no usable device");
        return;
    }
    while (p[n] && (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')))
        n++;
    snprintf(out, len, "%.*s", (int)n, p);
}

static int replay(const gt_cli *cli, gt_recording *rec, const char *banner)
{
    gt_engine *eng;
    gt_err err;
    int rc;

    gt_err_clear(&err);
    if (gt_engine_start(&eng, gt_replay_backend(rec), 0, &err)) {
        fprintf(stderr, "gputui: %s\n", err.msg);
        return GT_EXIT_FAIL;
    }
    rc = gt_ui_run(cli, eng, rec, banner);
    gt_engine_stop(eng);
    return rc;
}

int main(int argc, char **argv)
{
    const gt_backend *be = &gt_cuda_backend;
    gt_engine *eng;
    gt_recording rec;
    gt_bundle bundle;
    gt_cli cli;
    gt_err err;
    char banner[512], path[PATH_MAX + 32], reason[200];
    int rc;

    setlocale(LC_ALL, "");
    gt_err_clear(&err);
    if (gt_cli_parse(argc, argv, &cli, &err)) {
        fprintf(stderr, "gputui: %s\n", err.msg);
        return err.code;
    }
    switch (cli.mode) {
    case GT_MODE_HELP:
        gt_cli_usage(stdout);
        return GT_EXIT_OK;
    case GT_MODE_VERSION:
        printf("gputui %s (recording format %d.%d)\n", GT_VERSION, GT_REC_MAJOR, GT_REC_MINOR);
        return GT_EXIT_OK;
    case GT_MODE_LIST:
        return list_devices(be);
    default:
        break;
    }
    gt_signals_install();

    if (cli.replay) {
        if (gt_recording_load(&rec, cli.replay, &err)) {
            fprintf(stderr, "gputui: %s\n", err.msg);
            return GT_EXIT_FAIL;
        }
        if (cli.mode == GT_MODE_BATCH) {
            rc = gt_batch_replay(&cli, &rec);
        } else {
            snprintf(banner, sizeof banner, "REPLAY of %s: %s, recorded %s", cli.replay,
                     rec.props.name, rec.created);
            rc = replay(&cli, &rec, banner);
        }
        gt_recording_free(&rec);
        return rc;
    }

    if (gt_engine_start(&eng, be, cli.device, &err)) {
        bool fallback = cli.mode == GT_MODE_TUI && !cli.no_fallback && !cli.record &&
                        err.code != GT_EXIT_USAGE;
        gt_err lerr;
        if (!fallback) {
            fprintf(stderr, "gputui: %s\n", err.msg);
            return err.code ? err.code : GT_EXIT_FAIL;
        }
        gt_err_clear(&lerr);
        if (!gt_bundle_find(&bundle, exe_dir(path, sizeof path))) {
            fprintf(stderr, "gputui: %s\n", err.msg);
            fprintf(stderr, "gputui: and no bundled recording to replay instead (none in %s)\n",
                    bundle.dir[0] ? bundle.dir : "share/gputui");
            return GT_EXIT_FAIL;
        }
        if (cli.device >= bundle.n) {
            fprintf(stderr, "gputui: %s\n", err.msg);
            fprintf(stderr, "gputui: --device %d: the bundled recordings hold devices 0 to %d (%s)\n",
                    cli.device, bundle.n - 1, gt_bundle_models(&bundle, reason, sizeof reason));
            return GT_EXIT_USAGE;
        }
        if (gt_recording_load(&rec, bundle.path[cli.device], &lerr)) {
            fprintf(stderr, "gputui: %s\n", err.msg);
            fprintf(stderr, "gputui: and the bundled recording does not load: %s\n", lerr.msg);
            return GT_EXIT_FAIL;
        }
        short_reason(err.msg, reason, sizeof reason);
        snprintf(banner, sizeof banner, "no CUDA device here (%s) %s replaying %s, recorded %s",
                 reason, strcmp(nl_langinfo(CODESET), "UTF-8") ? "--" : "\u2014",
                 rec.props.name, rec.created);
        rc = replay(&cli, &rec, banner);
        gt_recording_free(&rec);
        return rc;
    }
    rc = cli.mode == GT_MODE_BATCH ? gt_batch_run(&cli, eng) : gt_ui_run(&cli, eng, NULL, NULL);
    gt_engine_stop(eng);
    return rc;
}
