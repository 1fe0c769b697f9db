/* crash.c - a crash while the TUI holds the terminal (SIGSEGV, SIGBUS,
 * SIGFPE, SIGABRT) still gives the terminal back: the handler, on its own
 * stack, writes what ncurses' endwin would (attributes off, cursor on,
 * keypad off, the main screen back), restores the terminal modes saved
 * before initscr, prints one line asking for a bug report, and re-raises
 * the signal with its default action, so a core dump still happens. Only
 * write, tcsetattr and raise run in the handler: everything it writes is
 * prepared when the TUI starts. A second SIGTERM that ends gputui at once
 * (signals.h) gives the terminal back the same way first. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700  /* sigaltstack, SA_ONSTACK (X/Open) */
#endif
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "gputui/base/signals.h"
#include "ui_priv.h"

static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
#define NSIGS ((int)(sizeof sigs / sizeof sigs[0]))

static struct termios saved;
static bool have_saved;
static char restore[256];
static size_t restore_len;
static char line[NSIGS][200];
static char altstack[64 * 1024];

/* What endwin would write, and the terminal modes saved before initscr:
 * write and tcsetattr alone, from a handler (a crash's, or a second
 * SIGTERM's: gt_signals_last_words). */
static void give_back_terminal(void)
{
    ssize_t rc = write(STDOUT_FILENO, restore, restore_len);

    (void)rc;
    if (have_saved)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
}

static void on_crash(int sig)
{
    ssize_t rc = 0;

    give_back_terminal();
    for (int i = 0; i < NSIGS; i++)
        if (sigs[i] == sig)
            rc = write(STDERR_FILENO, line[i], strlen(line[i]));
    (void)rc;
    raise(sig);     /* SA_RESETHAND: the default action now, a core dump */
}

void ui_crash_save_tty(void)
{
    have_saved = tcgetattr(STDIN_FILENO, &saved) == 0;
}

/* Appends terminfo capability cap, if the terminal has it. */
static void add_cap(const char *cap)
{
    const char *s = tigetstr(cap);
    size_t n;

    if (!s || s == (const char *)-1)
        return;
    n = strlen(s);
    if (restore_len + n < sizeof restore) {
        memcpy(restore + restore_len, s, n);
        restore_len += n;
    }
}

void ui_crash_arm(void)
{
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    struct sigaction sa;

    restore_len = 0;
    add_cap("sgr0");
    add_cap("cnorm");
    add_cap("rmkx");
    add_cap("rmcup");
    add_cap("cr");
    if (restore_len + 1 < sizeof restore)
        restore[restore_len++] = '\n';
    for (int i = 0; i < NSIGS; i++)
        snprintf(line[i], sizeof line[i], "gputui %s crashed (%s). This is a bug: please report "
                 "it with this line and what you did just before.\n", GT_VERSION,
                 strsignal(sigs[i]));
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSIGS; i++)
        sigaction(sigs[i], &sa, NULL);
    gt_signals_last_words(give_back_terminal);
}

void ui_crash_disarm(void)
{
    gt_signals_last_words(NULL);
    for (int i = 0; i < NSIGS; i++)
        signal(sigs[i], SIG_DFL);
}
