/* signals.h - SIGINT, SIGTERM and SIGHUP only set a flag; the main loop
 * sees it, restores the terminal, stops the engine (which frees GPU
 * memory) and exits; a second one while that stop waits (on a kernel that
 * never ends) exits at once, with 128 + the signal, after the last words
 * (the TUI's: the terminal given back). No SA_RESTART, so a blocked
 * poll() returns EINTR.
 * SIGXFSZ is ignored: a write past a file-size limit fails like one to a
 * full disk, and is reported. */
#ifndef GPUTUI_SIGNALS_H
#define GPUTUI_SIGNALS_H

#include <signal.h>

extern volatile sig_atomic_t gt_signal_caught;   /* the signal number, or 0 */

void gt_signals_install(void);
/* fn runs in the handler before a second signal ends the process (NULL:
 * none): write and tcsetattr alone, as in any signal handler. */
void gt_signals_last_words(void (*fn)(void));

#endif
