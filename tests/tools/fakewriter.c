/* fakewriter - a teacher's gputui --record without a GPU, for the tests
 * of --replay --follow: the engine runs on a fake back-end (the replay of
 * a real GPU's recording, REC) and what it gives is written with the
 * recorder, as the TUI's loop writes it. Commands on standard input, one
 * a line:
 *   cfg N     configuration N (0-based) of REC, until the next command
 *   next      REC's next configuration of the same experiment
 *   quit      close cleanly: the "end" line, OUT.partial renamed OUT
 *   crash     stop without closing, as a killed gputui (OUT.partial stays)
 * and on standard output, when a configuration's first sample is on disk:
 *   shown GEN MONO    (MONO: CLOCK_MONOTONIC seconds)
 *
 *   fakewriter REC OUT */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/engine/engine.h"
#include "gputui/record/record.h"
#include "gputui/record/replay.h"

int main(int argc, char **argv)
{
    gt_recording rec;
    gt_recorder *w;
    gt_engine *eng;
    gt_err err;
    gt_devprops props;
    gt_sample buf[256];
    char line[128];
    size_t have = 0;
    int idx = -1;
    uint32_t gen = 0;
    bool configured = false, quit = false;

    if (argc != 3) {
        fprintf(stderr, "usage: fakewriter REC OUT\n");
        return 64;
    }
    gt_err_clear(&err);
    if (gt_recording_load(&rec, argv[1], &err) ||
        gt_engine_start(&eng, gt_replay_backend(&rec), 0, &err)) {
        fprintf(stderr, "fakewriter: %s\n", err.msg);
        return 1;
    }
    gt_engine_props(eng, &props);
    if (gt_recorder_open(&w, argv[2], true, &props, &err)) {
        fprintf(stderr, "fakewriter: %s\n", err.msg);
        return 1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (!quit) {
        struct pollfd pfd[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = gt_engine_fd(eng), .events = POLLIN}};
        size_t n;

        poll(pfd, 2, 100);
        while ((n = gt_engine_drain(eng, buf, GT_ARRAY_LEN(buf))) > 0)
            for (size_t i = 0; i < n; i++) {
                if (buf[i].gen != gen)
                    continue;
                if (!configured) {
                    gt_status st;
                    gt_engine_status(eng, &st);
                    gt_recorder_config(w, rec.cfg[idx].exp, rec.cfg[idx].vals, gen, &st.info,
                                       "", "");
                    configured = true;
                    gt_recorder_sample(w, &buf[i]);
                    printf("shown %u %.6f\n", gen, gt_now());
                    continue;
                }
                gt_recorder_sample(w, &buf[i]);
            }
        gt_recorder_tick(w);
        if (!(pfd[0].revents & (POLLIN | POLLHUP)))
            continue;
        ssize_t r = read(STDIN_FILENO, line + have, sizeof line - 1 - have);
        if (r <= 0) {
            quit = true;
            break;
        }
        have += (size_t)r;
        line[have] = '\0';
        char *nl;
        while ((nl = strchr(line, '\n'))) {
            *nl = '\0';
            if (!strncmp(line, "cfg ", 4) || !strcmp(line, "next")) {
                int want = line[0] == 'c' ? atoi(line + 4) : idx < 0 ? 0 : idx;
                if (line[0] == 'n' && idx >= 0)
                    for (size_t k = 1; k <= rec.ncfg; k++) {
                        size_t j = ((size_t)idx + k) % rec.ncfg;
                        if (rec.cfg[j].exp == rec.cfg[idx].exp) {
                            want = (int)j;
                            break;
                        }
                    }
                if (want < 0 || (size_t)want >= rec.ncfg) {
                    fprintf(stderr, "fakewriter: no configuration %d (0 to %zu)\n", want,
                            rec.ncfg - 1);
                } else {
                    idx = want;
                    gen = gt_engine_configure(eng, rec.cfg[idx].exp, rec.cfg[idx].vals);
                    configured = false;
                }
            } else if (!strcmp(line, "quit")) {
                quit = true;
            } else if (!strcmp(line, "crash")) {
                _exit(0);
            } else if (line[0]) {
                fprintf(stderr, "fakewriter: unknown command '%s' (cfg N, next, quit, crash)\n",
                        line);
            }
            have -= (size_t)(nl + 1 - line);
            memmove(line, nl + 1, have + 1);
        }
    }
    gt_engine_stop(eng);
    if (gt_recorder_close(w, &err)) {
        fprintf(stderr, "fakewriter: %s\n", err.msg);
        return 1;
    }
    gt_recording_free(&rec);
    return 0;
}
