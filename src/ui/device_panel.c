/* The device panel: every property of the device (or the recorded one),
 * as gt_devprops_lines gives them (N/A where unknown, n/a where it does not
 * apply), scrolled with Up/Down when it has the focus. */
#include <string.h>

#include "ui_priv.h"

void ui_draw_device(ui *u, int y, int x, int w, int h)
{
    gt_dp_line lines[128];
    int n = gt_devprops_lines(&u->props, lines, 128);
    attr_t t = ui_role(u, C_TITLE) | (u->pane == PANE_DEV ? A_REVERSE : 0);

    u->dev_lines = n;
    if (u->dev_scroll > n - (h - 1))
        u->dev_scroll = n - (h - 1) > 0 ? n - (h - 1) : 0;
    ui_putf(y, x, w, t, " Device%s", n > h - 1 ? "  (Tab, Up/Down: scroll)" : "");
    for (int i = 0; i < h - 1; i++) {
        int k = i + u->dev_scroll;
        if (k >= n) {
            ui_put(y + 1 + i, x, w, A_NORMAL, "");
            continue;
        }
        bool na = lines[k].unknown;
        int lw = lines[k].label[0] ? 21 : 1;    /* topology lines take the width */
        ui_put(y + 1 + i, x, lw, A_NORMAL, lines[k].label);
        ui_put(y + 1 + i, x + lw, w - lw, na ? ui_role(u, C_GHOST) : A_BOLD, lines[k].value);
    }
}
