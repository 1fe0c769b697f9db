/* The command line's general options and --help (options.h). */
#include "gputui/input/options.h"

#include <stdio.h>
#include <string.h>

#include "gputui/experiments/registry.h"
#include "gputui/measure/param.h"

const gt_option gt_options[] = {
    {.id = GT_OPT_EXPERIMENT, .name = "--experiment", .alias = "-e", .arg = "NAME",
     .value = true, .help = "experiment to run (default: the first listed below)",
     .brief = "experiment to run (the list below; default transfer)"},
    {.id = GT_OPT_DEVICE, .name = "--device", .alias = "-d", .arg = "N", .value = true,
     .help = "CUDA device ordinal (default 0); with --batch --inspect, all: every GPU of the "
             "machine, its links judged and its cards as one table (not csv)",
     .brief = "CUDA device, or bundled recording, N (default 0)"},
    {.id = GT_OPT_BATCH, .name = "--batch",
     .help = "run without the TUI and print statistics",
     .brief = "no TUI: measure, print statistics, exit"},
    {.id = GT_OPT_FORMAT, .name = "--format", .arg = "F", .value = true,
     .help = "batch output: text, json, csv or html (one page, its histograms as SVG, "
             "runs, replays, lessons, inspections, compares and fleets; default text); "
             "prometheus with --inspect",
     .brief = "batch output: text, json, csv, html; prometheus"},
    {.id = GT_OPT_SAMPLES, .name = "--samples", .arg = "N", .value = true,
     .help = "batch: samples per series, 1 to 1000000 (default 50)",
     .brief = "batch: samples per series (default 50)"},
    {.id = GT_OPT_NO_COLOR, .name = "--no-color",
     .help = "monochrome TUI (also NO_COLOR=1)",
     .brief = "monochrome TUI (also NO_COLOR=1)"},
    {.id = GT_OPT_NO_MOUSE, .name = "--no-mouse",
     .help = "the TUI leaves clicks and the wheel to the terminal",
     .brief = "the TUI leaves clicks and the wheel alone"},
    {.id = GT_OPT_TRACE, .name = "--trace", .arg = "FILE", .value = true,
     .help = "log key-press to first-sample latency: a line per configuration, its "
             "generation, the milliseconds, and the CLOCK_MONOTONIC second it was drawn",
     .brief = "TUI: log key-press to first-sample latency"},
    {.id = GT_OPT_RECORD, .name = "--record", .arg = "FILE", .value = true,
     .help = "write every configuration and sample to FILE (.gtr; a name ending in .gz is "
             "written compressed); it is written as FILE.partial, renamed FILE when closed "
             "cleanly: after a crash FILE.partial is a readable recording of all but its last "
             "second",
     .brief = "write every configuration and sample to FILE"},
    {.id = GT_OPT_FORCE, .name = "--force",
     .help = "--record and --trace may replace an existing FILE",
     .brief = "--record and --trace may replace FILE"},
    {.id = GT_OPT_RECORD_SAMPLES, .name = "--record-samples", .arg = "N", .value = true,
     .help = "record at least N samples per series of each configuration, 1 to 1000000 "
             "(default 300) ...",
     .brief = "record N samples a series (default 300) ..."},
    {.id = GT_OPT_RECORD_SECONDS, .name = "--record-seconds", .arg = "S", .value = true,
     .help = "... or S seconds of them, the sooner; 0.01 to 3600 (default 2)",
     .brief = "... or S seconds of them (default 2)"},
    {.id = GT_OPT_REPLAY, .name = "--replay", .arg = "FILE", .value = true,
     .help = "play a recording back (TUI), or report it (--batch); FILE may be a bundled "
             "model (h200, h100, 2xh200)",
     .brief = "play a recording back, or report it (--batch)"},
    {.id = GT_OPT_FOLLOW, .name = "--follow",
     .help = "with --replay FILE (TUI): follow a recording while gputui --record FILE still "
             "writes it, each new configuration on screen as it arrives, until the recording "
             "ends; --replay - reads it from standard input (ssh SERVER tail -c +1 -F "
             "FILE.partial | gputui --replay - --follow); --compare B adds B's ghost",
     .brief = "follow a recording still being written"},
    {.id = GT_OPT_COMPARE, .name = "--compare", .arg = "[A] B", .value = true,
     .help = "A as now and B as the ghost, same configuration, ratio A/B: A and B are "
             "recordings or bundled models (h200, h100); without A, A is this GPU (or the "
             "bundled recording); --batch needs both and prints a table",
     .brief = "A against B, B drawn as the ghost"},
    {.id = GT_OPT_TRACE_CALLS, .name = "--trace-calls",
     .help = "batch: list each configuration's CUDA calls (set-up, the first iteration, "
             "teardown) in the report",
     .brief = "batch: each configuration's CUDA calls"},
    {.id = GT_OPT_LESSON, .name = "--lesson", .arg = "NAME", .value = true,
     .help = "start in a lesson (TUI), or run its steps and print each verdict (--batch; "
             "with --replay FILE from a recording, and with no GPU from the bundled one)",
     .brief = "start in a lesson, or run it (--batch)"},
    {.id = GT_OPT_LIST_LESSONS, .name = "--list-lessons",
     .help = "list the lessons and exit",
     .brief = "list the lessons and exit"},
    {.id = GT_OPT_NO_FALLBACK, .name = "--no-fallback",
     .help = "with no CUDA device, fail instead of replaying the bundled recording (the "
             "TUI, --batch --lesson)",
     .brief = "no GPU: fail instead of replaying"},
    {.id = GT_OPT_NO_SHARE_LOCK, .name = "--no-share-lock",
     .help = "do not take turns on the GPU with other gputui processes (see the raw "
             "contention; the lock is a file in $GPUTUI_LOCK_DIR, /dev/shm or /tmp)",
     .brief = "no turns with other gputui processes"},
    {.id = GT_OPT_INSPECT, .name = "--inspect",
     .help = "a health card of the GPU in a few seconds, a verdict a row (PCIe, NUMA, "
             "memory, clocks and power, peers, software): the TUI opens on it ('I'); --batch "
             "prints it and exits 0 pass, 2 warn, 3 fail, 4 busy (another program's work "
             "disturbed a figure, so it was not judged; no row failed), 1 not run (--format "
             "text, json, csv or prometheus); --record FILE keeps it, --replay FILE shows a "
             "recorded one",
     .brief = "a health card of the GPU, a verdict a row"},
    {.id = GT_OPT_WAIT_QUIET, .name = "--wait-quiet", .arg = "S", .value = true,
     .help = "--batch --inspect: before each step, wait up to S seconds (0 to 3600) for other "
             "programs' work on the GPU to stop, saying so while it waits; a step still "
             "disturbed after that is busy",
     .brief = "--inspect: wait for other programs' work"},
    {.id = GT_OPT_FLEET, .name = "--fleet", .arg = "DIR|FILE...",
     .help = "many --inspect JSON cards as one table, grouped by GPU model, each figure "
             "against the model's median; busy cards are listed on their own, never as "
             "outliers; exit 3 if a card failed a row, is 5% off its median or is no card, "
             "else 4 if a card is busy; --format text, json or html",
     .brief = "many --inspect cards as one table"},
    {.id = GT_OPT_PAIRS, .name = "--pairs", .arg = "all", .value = true,
     .help = "batch, -e peer: every ordered pair of GPUs, printed as a matrix (row: the GPU "
             "that copies or reads) and judged: exit 2 where a pair is a tenth slower than "
             "the median of its link type, 3 where NVLink joins a pair without peer access",
     .brief = "batch, -e peer: every pair of GPUs"},
    {.id = GT_OPT_LIST_DEVICES, .name = "--list-devices",
     .help = "list CUDA devices and their links, and exit",
     .brief = "list CUDA devices and their links"},
    {.id = GT_OPT_HELP, .name = "--help", .alias = "-h", .arg = "[EXP|all]",
     .help = "this page; with an experiment's name its parameters, with all every option "
             "and every experiment's parameters",
     .brief = "this page; --help EXPERIMENT or all: more"},
    {.id = GT_OPT_VERSION, .name = "--version", .alias = "-V", .help = "print the version",
     .brief = "the version, the build and where its data is"},
};
const int gt_noptions = (int)(sizeof gt_options / sizeof gt_options[0]);

const gt_option *gt_option_find(const char *name)
{
    for (int i = 0; i < gt_noptions; i++)
        if (!strcmp(name, gt_options[i].name) ||
            (gt_options[i].alias && !strcmp(name, gt_options[i].alias)))
            return &gt_options[i];
    return NULL;
}

#define HELP_COL 26
#define HELP_WIDTH 80

/* Prints text from column HELP_COL (the cursor is at column 'at'),
 * wrapped at spaces to HELP_WIDTH. */
static void wrapped(FILE *f, int at, const char *text)
{
    while (*text) {
        size_t room = HELP_WIDTH - HELP_COL, n = strlen(text);
        if (at > HELP_COL - 1) {
            fprintf(f, "\n");
            at = 0;
        }
        fprintf(f, "%*s", HELP_COL - at, "");
        if (n > room) {
            n = room;
            while (n > 0 && text[n] != ' ')
                n--;
            if (n == 0)
                n = room;
        }
        fprintf(f, "%.*s\n", (int)n, text);
        text += n;
        while (*text == ' ')
            text++;
        at = 0;
    }
}

/* One experiment's parameters, with their allowed values and defaults. */
void gt_options_experiment(FILE *f, const gt_experiment *x)
{
    char allowed[256];

    fprintf(f, "\nexperiment '%s' (%s):\n", x->name, x->title);
    for (int i = 0; i < x->nparams; i++) {
        const gt_param *p = &x->params[i];
        char def[48];
        fprintf(f, "  --%-16s %s%s\n", p->name, p->help,
                p->iteration ? " (a change keeps the set-up)" : "");
        if (p->type == GT_P_BOOL)
            fprintf(f, "  %-18s a switch: --%s or --%s=on, --%s=off; default %s\n", "",
                    p->name, p->name, p->name, gt_param_format(p, p->def, def, sizeof def));
        else
            fprintf(f, "  %-18s allowed: %s; default %s\n", "",
                    gt_param_allowed(p, allowed, sizeof allowed),
                    gt_param_format(p, p->def, def, sizeof def));
    }
}

/* "  -e, --experiment NAME" or "      --batch": buf. */
static const char *option_left(const gt_option *o, char *buf, size_t len)
{
    snprintf(buf, len, "  %s%s%s%s%s", o->alias ? o->alias : "    ", o->alias ? ", " : "",
             o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    return buf;
}

static void usage_lines(FILE *f)
{
    fprintf(f, "usage: gputui [options]              the TUI (no GPU: a bundled recording)\n"
               "       gputui --batch [options]      measure, print statistics, exit\n"
               "       gputui --help EXP             experiment EXP's options (--help all: all)\n");
}

static void usage_tail(FILE *f)
{
    fprintf(f, "\nexit status: 0 ok, 1 CUDA or I/O error, 3 a result failed verification,\n"
               "64 bad option or value, 128+N stopped by signal N\n");
}

void gt_options_brief(FILE *f)
{
    int col = 0;

    usage_lines(f);
    fprintf(f, "\n");
    for (int i = 0; i < gt_noptions; i++) {
        char left[64];
        fprintf(f, "%-*s %s\n", HELP_COL - 1, option_left(&gt_options[i], left, sizeof left),
                gt_options[i].brief);
    }
    fprintf(f, "\nexperiments (each with its own options: gputui --help EXPERIMENT):\n ");
    for (int e = 0; e < gt_nexperiments; e++) {
        const char *n = gt_experiments[e]->name;
        if (col + (int)strlen(n) + 1 > HELP_WIDTH - 2) {
            fprintf(f, "\n ");
            col = 0;
        }
        col += fprintf(f, " %s", n);
    }
    fprintf(f, "\n\nIn the TUI, ? lists the keys. Every option, key and exit status, and how "
               "gputui\nmeasures: man gputui.\n");
    usage_tail(f);
}

void gt_options_usage(FILE *f)
{
    usage_lines(f);
    fprintf(f, "\ngeneral options:\n");
    for (int i = 0; i < gt_noptions; i++) {
        char left[64];
        fputs(option_left(&gt_options[i], left, sizeof left), f);
        wrapped(f, (int)strlen(left), gt_options[i].help);
    }
    for (int e = 0; e < gt_nexperiments; e++)
        gt_options_experiment(f, gt_experiments[e]);
    fprintf(f, "\nWith --batch, an experiment option may take a comma-separated list\n"
               "(--size 4M,64M --dir h2d,d2h): every combination is measured.\n");
    /* The bound is engine/keep.h's (test_keep.c holds the two together). */
    fprintf(f, "\nA change of an option marked 'keeps the set-up' runs on the set-up in place,\n"
               "without a warm-up. Transfer buffers are kept across configurations while they\n"
               "fit: up to 1024 MiB each, and all kept together at most a quarter of the free\n"
               "device (or available host) memory.\n");
    usage_tail(f);
}
