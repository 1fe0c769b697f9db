/* The device panel: every property of the device (or the recorded one),
 * N/A where unknown, scrolled with Up/Down when it has the focus. */
#include <string.h>

#include "ui_priv.h"

typedef struct devline { char label[32]; char value[120]; } devline;

static int device_lines(const ui *u, devline *out, int max)
{
    const gt_devprops *p = &u->props;
    int n = 0;
    char a[48], b[48];

#define LINE(l, ...) do { if (n < max) { snprintf(out[n].label, sizeof out[n].label, "%s", l); \
        snprintf(out[n].value, sizeof out[n].value, __VA_ARGS__); n++; } } while (0)
    LINE("Name", "%s", p->name);
    LINE("PCI bus", "%s", p->pci_bus_id[0] ? p->pci_bus_id : "N/A");
    for (int i = 0; i < GT_DP_COUNT; i++) {
        const gt_dp_desc *d = &gt_dp_table[i];
        if (!d->label[0])
            continue;           /* shown with the line before it */
        gt_dp_format(p, (gt_dp_id)i, a, sizeof a);
        if (i + 1 < GT_DP_COUNT && !gt_dp_table[i + 1].label[0])
            LINE(d->label, "%s / %s", a, gt_dp_format(p, (gt_dp_id)(i + 1), b, sizeof b));
        else
            LINE(d->label, "%s", a);
        if (i == GT_DP_DRIVER_CUDA)
            LINE("Driver", "%s", p->driver[0] ? p->driver : "N/A");
    }
    if (p->nvml_note[0])
        LINE("NVML", "%s", p->nvml_note);
    if (p->topo.count > 1) {
        gt_topo_line tl[GT_MAX_DEVICES * GT_MAX_DEVICES + 12];
        int k = gt_topo_lines(&p->topo, p->ordinal, tl, (int)(sizeof tl / sizeof tl[0]));
        LINE("GPUs", "%d (d: the next)", p->topo.count);
        for (int i = 0; i < k; i++)
            LINE("", "%s", tl[i]);
    } else if (p->topo.count == 1) {
        LINE("GPUs", "1 (peer experiments need 2)");
    }
#undef LINE
    return n;
}

void ui_draw_device(ui *u, int y, int x, int w, int h)
{
    devline lines[128];
    int n = device_lines(u, lines, 128);
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
        bool na = !strcmp(lines[k].value, "N/A");
        int lw = lines[k].label[0] ? 21 : 1;    /* topology lines take the width */
        ui_put(y + 1 + i, x, lw, A_NORMAL, lines[k].label);
        ui_put(y + 1 + i, x + lw, w - lw, na ? ui_role(u, C_GHOST) : A_BOLD, lines[k].value);
    }
}
