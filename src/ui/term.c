/* The terminal: checked before anything is drawn, then opened once and
 * closed once: by the first frame, which may come before the GPU is up
 * (starting.c), or else by the main loop. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui_priv.h"
#include <term.h>               /* last: its macros name common words */

static bool up;

int gt_ui_check_terminal(bool keys_from_stdin, gt_err *err)
{
    const char *term = getenv("TERM");
    int e = 0, fd;
    bool moves;

    if (!isatty(STDOUT_FILENO)) {
        gt_err_set(err, GT_EXIT_USAGE, "the TUI draws on a terminal, and standard output is not "
                   "one (a file or a pipe): gputui --batch writes a report there");
        return -1;
    }
    if (keys_from_stdin && !isatty(STDIN_FILENO)) {
        /* Keys from the terminal itself, whatever standard input is. */
        if ((fd = open("/dev/tty", O_RDWR | O_NOCTTY)) < 0) {
            gt_err_set(err, GT_EXIT_USAGE, "the TUI reads keys from a terminal, and standard "
                       "input is not one, nor is there a /dev/tty (%s): gputui --batch needs "
                       "no keys", strerror(errno));
            return -1;
        }
        if (dup2(fd, STDIN_FILENO) < 0) {
            gt_err_set(err, GT_EXIT_FAIL, "cannot read keys from /dev/tty: %s", strerror(errno));
            close(fd);
            return -1;
        }
        close(fd);
    }
    if (!term || !term[0] || setupterm(NULL, STDOUT_FILENO, &e) != OK) {
        gt_err_set(err, GT_EXIT_USAGE, "TERM=%s: %s: the TUI needs a terminal it knows "
                   "(TERM=xterm-256color, for one); gputui --batch prints a report",
                   term ? term : "", !term || !term[0] ? "not set" : "not in the terminfo "
                   "database");
        return -1;
    }
    moves = tigetstr("cup") && tigetstr("cup") != (char *)-1;
    del_curterm(cur_term);
    if (!moves) {
        gt_err_set(err, GT_EXIT_USAGE, "TERM=%s cannot move the cursor, and the TUI draws "
                   "its screen in place: use a terminal that can (TERM=xterm-256color, for "
                   "one), or gputui --batch for a report", term);
        return -1;
    }
    return 0;
}

bool ui_term_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);

    return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

bool ui_term_open(void)
{
    if (up)
        return true;
    ui_screen_init(ui_term_utf8());
    ui_crash_save_tty();
    if (!initscr())
        return false;
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    ui_crash_arm();
    up = true;
    return true;
}

void gt_ui_term_close(void)
{
    if (!up)
        return;
    ui_crash_disarm();
    endwin();
    up = false;
}
