/* gputui entry point: parse the command line, then hand over to batch
 * mode, the device list or the TUI. The engine is started before the
 * terminal is touched, so "no device" is one plain line on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <stdio.h>

#include "gputui/batch.h"
#include "gputui/cli.h"
#include "gputui/engine.h"
#include "gputui/report.h"
#include "gputui/signals.h"
#include "gputui/ui.h"
#include "gputui/cuda_backend.h"

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

int main(int argc, char **argv)
{
    const gt_backend *be = &gt_cuda_backend;
    gt_engine *eng;
    gt_cli cli;
    gt_err err;
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
        printf("gputui %s\n", GT_VERSION);
        return GT_EXIT_OK;
    case GT_MODE_LIST:
        return list_devices(be);
    default:
        break;
    }
    gt_signals_install();
    if (gt_engine_start(&eng, be, cli.device, &err)) {
        fprintf(stderr, "gputui: %s\n", err.msg);
        return err.code ? err.code : GT_EXIT_FAIL;
    }
    rc = cli.mode == GT_MODE_BATCH ? gt_batch_run(&cli, eng) : gt_ui_run(&cli, eng);
    gt_engine_stop(eng);
    return rc;
}
