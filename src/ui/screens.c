/* The stack of open screens (ui_priv.h): bottom up in scr.at[0..n). */
#include "ui_priv.h"

bool ui_shown(const ui *u, ui_scr s)
{
    for (int i = 0; i < u->scr.n; i++)
        if (u->scr.at[i] == s)
            return true;
    return false;
}

ui_scr ui_top(const ui *u)
{
    return u->scr.n ? u->scr.at[u->scr.n - 1] : SCR_COUNT;
}

void ui_close(ui *u, ui_scr s)
{
    int k = 0;

    for (int i = 0; i < u->scr.n; i++)
        if (u->scr.at[i] != s)
            u->scr.at[k++] = u->scr.at[i];
    u->scr.n = k;
}

void ui_open(ui *u, ui_scr s)
{
    ui_close(u, s);
    u->scr.at[u->scr.n++] = s;
}

bool ui_toggle(ui *u, ui_scr s)
{
    if (ui_shown(u, s)) {
        ui_close(u, s);
        return false;
    }
    ui_open(u, s);
    return true;
}

void ui_set(ui *u, ui_scr s, bool on)
{
    if (!on)
        ui_close(u, s);
    else if (!ui_shown(u, s))
        ui_open(u, s);
}
