/* The device panel: every property of the device (or the recorded one),
 * as gt_devprops_lines gives them (N/A where unknown, n/a where it does not
 * apply), scrolled with Up/Down when it has the focus. */
#include <stdlib.h>
#include <string.h>

#include "gputui/inspect/inspect_json.h"
#include "ui_priv.h"

/* ECC as the recording's inspection read it from NVML, where the
 * recording's device does not say (a recording made before gputui read
 * it): 1 on, 0 off, GT_ECC_NONE, -1 unknown. Read once per inspection. */
static int recorded_ecc(ui *u)
{
    gt_inspect_facts *f;
    gt_inspect_card *c;
    gt_err err;

    if (!u->rp.rec || !u->rp.rec->inspection)
        return -1;
    if (u->ins.ecc_of == u->rp.rec->inspection)
        return u->ins.ecc_recorded;
    u->ins.ecc_of = u->rp.rec->inspection;
    u->ins.ecc_recorded = -1;
    f = malloc(sizeof *f);
    c = malloc(sizeof *c);
    gt_err_clear(&err);
    if (f && c && gt_inspect_json_read(u->rp.rec->inspection, f, c, &err) == 0)
        u->ins.ecc_recorded = f->before.ecc_on;
    free(f);
    free(c);
    return u->ins.ecc_recorded;
}

void ui_draw_device(ui *u, int y, int x, int w, int h)
{
    gt_dp_line lines[128];
    int n = gt_devprops_lines(&u->props, lines, 128), ecc;

    for (int k = 0; k < n; k++)
        if (!strcmp(lines[k].label, "ECC") && lines[k].unknown && (ecc = recorded_ecc(u)) != -1) {
            snprintf(lines[k].value, sizeof lines[k].value, "%s (inspection)",
                     ecc == 1 ? "on" : ecc == 0 ? "off" : "none on this board");
            lines[k].unknown = false;
        }
    attr_t t = ui_role(u, C_TITLE) | (u->view.pane == PANE_DEV ? A_REVERSE : 0);

    u->view.dev_lines = n;
    if (u->view.dev_scroll > n - (h - 1))
        u->view.dev_scroll = n - (h - 1) > 0 ? n - (h - 1) : 0;
    ui_putf(y, x, w, t, " Device%s", n > h - 1 ? "  (Tab, Up/Down: scroll)" : "");
    for (int i = 0; i < h - 1; i++) {
        int k = i + u->view.dev_scroll;
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
