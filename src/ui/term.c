/* The terminal, opened once and closed once: by the first frame, which may
 * come before the GPU is up (starting.c), or else by the main loop. */
#include <langinfo.h>
#include <string.h>

#include "ui_priv.h"

static bool up;

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
