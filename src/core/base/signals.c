#define _POSIX_C_SOURCE 200809L
#include "gputui/base/signals.h"

#include "gputui/base/port.h"

#include <string.h>
#include <unistd.h>

volatile sig_atomic_t gt_signal_caught;

static const char again[] = "gputui: a second signal: ending now, without waiting for the GPU\n";
static void (*volatile last_words)(void);

void gt_signals_last_words(void (*fn)(void))
{
    last_words = fn;
}

/* The first signal asks the loop to stop; a second, while the stop still
 * waits (on a kernel that does not end, say), ends the process at once:
 * its GPU memory goes back with it, and the terminal first (last_words). */
static void on_signal(int sig)
{
    if (gt_signal_caught) {
        void (*fn)(void) = last_words;
        if (fn)
            fn();
        ssize_t rc = write(STDERR_FILENO, again, sizeof again - 1);
        (void)rc;
        _exit(128 + sig);
    }
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
