#define _POSIX_C_SOURCE 200809L
#include "gputui/base/signals.h"

#include "gputui/base/port.h"

#include <string.h>

volatile sig_atomic_t gt_signal_caught;

static void on_signal(int sig)
{
    gt_signal_caught = sig;
}

void gt_signals_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    gt_port_ignore_file_size_signal();
}
