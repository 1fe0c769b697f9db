#define _POSIX_C_SOURCE 200809L
#include "gputui/batch.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>

#include "gputui/report.h"
#include "gputui/run.h"
#include "gputui/signals.h"

static bool enough(const gt_run *r, int64_t want)
{
    for (int i = 0; i < r->nseries; i++)
        if ((int64_t)(r->s[i].lat.count + r->s[i].failed) < want)
            return false;
    return true;
}

int gt_batch_run(const gt_cli *cli, gt_engine *eng)
{
    gt_devprops props;
    gt_status st;
    gt_run run;
    gt_sample buf[256];
    char msg[512];
    uint32_t gen;
    int rc = GT_EXIT_OK;

    gt_engine_props(eng, &props);
    if (cli->exp->check(cli->vals, &props, msg, sizeof msg)) {
        fprintf(stderr, "gputui: --%s\n", msg);
        return GT_EXIT_USAGE;
    }
    gen = gt_engine_configure(eng, cli->exp, cli->vals);
    gt_run_init(&run, cli->exp, cli->vals, gen);
    for (;;) {
        struct pollfd pfd = {gt_engine_fd(eng), POLLIN, 0};
        size_t n;

        if (gt_signal_caught) {
            fprintf(stderr, "gputui: stopped by signal %d\n", (int)gt_signal_caught);
            rc = 128 + (int)gt_signal_caught;
            break;
        }
        if (poll(&pfd, 1, 500) < 0 && errno != EINTR) {
            perror("gputui: poll");
            rc = GT_EXIT_FAIL;
            break;
        }
        while ((n = gt_engine_drain(eng, buf, GT_ARRAY_LEN(buf))) > 0)
            for (size_t i = 0; i < n; i++)
                gt_run_add(&run, &buf[i]);
        gt_engine_status(eng, &st);
        if (st.gen == gen && st.state == GT_ST_ERROR) {
            fprintf(stderr, "gputui: %s\n", st.msg);
            rc = GT_EXIT_FAIL;
            break;
        }
        if (enough(&run, cli->samples))
            break;
    }
    gt_engine_status(eng, &st);
    gt_engine_props(eng, &props);
    run.info = st.info;
    if (rc == GT_EXIT_OK) {
        if (gt_report(stdout, cli->format, &props, &run)) {
            fprintf(stderr, "gputui: cannot write the report\n");
            rc = GT_EXIT_FAIL;
        } else if (gt_run_failed(&run)) {
            fprintf(stderr, "gputui: %llu samples FAILED verification\n",
                    (unsigned long long)gt_run_failed(&run));
            rc = GT_EXIT_VERIFY;
        }
    }
    gt_run_free(&run);
    return rc;
}
