/* The parameter pane: the experiment's parameters (greyed where they do
 * not apply; where the pane is short, those folded into one line that
 * names them), the selected one's help, the set-up figures, the
 * experiment's summary lines, verification and warm-up, and its text. */
#include <string.h>

#include "gputui/base/units.h"
#include "gputui/report/why.h"
#include "ui_priv.h"

void ui_draw_params(ui *u, int y, int x, int w, int h)
{
    const gt_experiment *e = u->exp;
    attr_t t = ui_role(u, C_TITLE) | (u->view.pane == PANE_EXP ? A_REVERSE : 0);
    int row = y + 1, end = y + h, nsum;
    char v[64], tbuf[32];
    gt_summary_line sum[GT_SUMMARY_LINES];

    w--;        /* a column to spare: text that reaches the edge was cut, and says so */
    ui_putf(y, x, w, t, " Experiment: %s", e->title);
    /* The summary's lines, once a frame: the help below the parameters
     * leaves them room, and a short pane folds what does not apply (as
     * does 'y', which wants the rows for the headline's steps). */
    bool decomposing = u->view.why && u->view.why <= u->cur.nseries;
    nsum = e->summary && !decomposing
         ? e->summary(&u->cur, &u->props, sum, GT_SUMMARY_LINES) : 0;
    int below = u->st.info.ntimes + nsum + (u->st.info.note[0] != 0) +
                (u->st.info.timing[0] != 0) + (u->st.warmup_total != 0);
    bool fold = decomposing || e->nparams + 1 + below > end - row;
    char folded[200] = "";
    size_t fo = 0;
    u->mouse.par_y = row;
    u->mouse.par_x = x;
    u->mouse.par_w = w;
    u->mouse.par_n = 0;
    for (int i = 0; i < e->nparams && row < end; i++) {
        const gt_param *p = &e->params[i];
        const char *why;
        bool ok = gt_param_applies(p, u->vals, &why);
        bool sel = i == u->view.sel && u->view.pane == PANE_EXP;

        if (fold && !ok && i != u->view.sel) {
            const char *label = p->label + strspn(p->label, " ");
            if (fo < sizeof folded)
                fo += (size_t)snprintf(folded + fo, sizeof folded - fo, "%s%s", fo ? ", " : "",
                                       label);
            continue;
        }
        u->mouse.par_idx[u->mouse.par_n++] = i;
        attr_t a = (ok ? A_NORMAL : ui_role(u, C_GHOST)) | (sel ? A_REVERSE : 0);

        gt_param_format(p, u->vals[i], v, sizeof v);
        if (p->type == GT_P_SIZE && !(p->zero_name && u->vals[i] == 0)) {
            char pretty[32];
            snprintf(v, sizeof v, "%s", gt_format_size((uint64_t)u->vals[i], pretty, sizeof pretty));
        }
        if (p->type == GT_P_BOOL)
            snprintf(v, sizeof v, "%s", u->vals[i] ? "[x]" : "[ ]");
        ui_putf(row, x, w, a, " %-21s %s%s%s", p->label, p->type == GT_P_ENUM ? "< " : "",
             v, p->type == GT_P_ENUM ? " >" : "");
        if (!ok && w > 54)
            ui_putf(row, x + 42, w - 42, ui_role(u, C_GHOST), "(%s)", why);
        row++;
    }
    if (fo && row < end)
        ui_putf(row++, x, w, ui_role(u, C_GHOST), " not with these values: %s", folded);
    if (row < end && e->params[u->view.sel].help) {
        /* Up to three lines, as long as the figures below keep theirs. */
        char help[600];
        int lines = end - row - below;
        snprintf(help, sizeof help, "%s: %s", e->params[u->view.sel].name, e->params[u->view.sel].help);
        lines = lines > 3 ? 3 : lines < 1 ? 1 : lines;
        row += ui_wrap(row, x + 1, w - 2, lines, ui_role(u, C_GHOST), help);
    }
    if (decomposing) {
        /* 'y': the selected series' headline decomposed, in place of the
         * set-up figures, the summary and the text below */
        gt_summary_line lines[12];
        int n = gt_why(&u->cur, u->view.why - 1, &u->props, lines, 12);
        for (int i = 0; i < n && row < end; i++)
            row += ui_wrap(row, x + 1, w - 2, end - row, i ? A_NORMAL : ui_role(u, C_TITLE),
                           lines[i]);
        while (row < end)
            ui_put(row++, x, w, A_NORMAL, "");
        return;
    }
    /* Set-up figures: allocation and registration times. */
    for (int i = 0; i < u->st.info.ntimes && row < end; i++)
        ui_putf(row++, x, w, A_NORMAL, " %-44s %s", u->st.info.times[i].label,
             gt_setup_time_text(&u->st.info, i, tbuf, sizeof tbuf));
    for (int i = 0; i < nsum && row < end; i++)
        ui_putf(row++, x, w, ui_role(u, C_TITLE), " %s", sum[i]);
    if (row < end && u->st.info.note[0])
        ui_putf(row++, x, w, strncmp(u->st.info.note, "SAMPLED", 7) ? A_NORMAL : ui_role(u, C_WARN),
             " verify: %s", u->st.info.note);
    if (row < end && u->st.info.timing[0])
        ui_putf(row++, x, w, A_NORMAL, " timed:  %s", u->st.info.timing);
    if (row < end && u->st.warmup_total)
        ui_putf(row++, x, w, ui_role(u, C_GHOST), " warm-up: %d of %d iterations done, not in the histograms",
             u->st.warmup_done, u->st.warmup_total);
    if (row < end - 1) {
        row++;
        row += ui_wrap(row, x + 1, w - 2, end - row, ui_role(u, C_GHOST), e->explain);
    }
    while (row < end)
        ui_put(row++, x, w, A_NORMAL, "");
}
