/* The first frame, drawn before the GPU is up (gt_ui_starting): the
 * device as NVML names it without a context, and how long the CUDA
 * context has taken so far, until the engine says the device is open. The
 * main loop then draws on the same terminal. */
#include "ui/ui.h"

#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "gputui/base/signals.h"
#include "gputui/base/units.h"
#include "ui_priv.h"

static void draw(const gt_devprops *peek, bool known, int device, double t0)
{
    char line[300], mem[40] = "", sz[32];

    erase();
    ui_put(0, 0, COLS, A_REVERSE, " gputui   starting");
    if (known && gt_dp_ok(peek, GT_DP_MEM_TOTAL))
        snprintf(mem, sizeof mem, ", %s", gt_format_size((uint64_t)gt_dp_get(peek,
                 GT_DP_MEM_TOTAL), sz, sizeof sz));
    if (known)
        snprintf(line, sizeof line, " GPU %d: %s%s   (from NVML, before the CUDA context)",
                 device, peek->name, mem);
    else
        snprintf(line, sizeof line, " GPU %d", device);
    ui_put(2, 0, COLS, A_BOLD, line);
    snprintf(line, sizeof line, " starting the GPU (CUDA context): %.1f s", gt_now() - t0);
    ui_put(4, 0, COLS, A_NORMAL, line);
    ui_put(LINES - 1, 0, COLS, A_REVERSE, " q:quit");
    refresh();
}

int gt_ui_starting(const gt_cli *cli, const gt_backend *be, gt_engine **eng, gt_err *err)
{
    gt_devprops peek;
    bool known = false;
    double t0 = gt_now();
    int r;

    gt_devprops_init(&peek);
    if (gt_engine_begin(eng, be, cli->device, err))
        return -1;
    if (!ui_term_open())        /* the main loop says why */
        return gt_engine_wait_open(eng, -1, err) == 1 ? 0 : -1;
    draw(&peek, false, cli->device, t0);
    known = be->peek && be->peek(cli->device, &peek) == 0;
    while (!(r = gt_engine_wait_open(eng, 0, err))) {
        struct pollfd pfd[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = gt_engine_fd(*eng), .events = POLLIN}};
        int ch;

        draw(&peek, known, cli->device, t0);
        if (poll(pfd, 2, 100) < 0 && !gt_signal_caught)
            continue;
        while ((ch = getch()) != ERR && ch != 'q' && ch != 27 && ch != KEY_F(10))
            ;
        if (ch == 'q' || ch == 27 || ch == KEY_F(10) || gt_signal_caught) {
            gt_ui_term_close();
            gt_engine_stop(*eng);
            *eng = NULL;
            return 1;
        }
    }
    return r > 0 ? 0 : -1;
}

void gt_ui_loading(const char *what)
{
    char line[600];

    if (!ui_term_open())        /* the main loop says why */
        return;
    erase();
    ui_put(0, 0, COLS, A_REVERSE, " gputui   starting");
    snprintf(line, sizeof line, " reading %s", what);
    ui_put(2, 0, COLS, A_NORMAL, line);
    ui_put(LINES - 1, 0, COLS, A_REVERSE, " q:quit once it is read");
    refresh();
}
