/* A card's rows (card_rows.h): a new one, the sections the two halves of
 * building a card share, and what the rows add up to (card.h: the exit
 * status, busy). */
#include "card_rows.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char gt_inspect_sec_software[] = "Software";

gt_inspect_row *gt_inspect_add_row(gt_inspect_card *c, const char *section, const char *id,
                                   const char *name)
{
    gt_inspect_row *r;

    if (c->nrows == GT_INSPECT_ROWS)
        return &c->row[GT_INSPECT_ROWS - 1];       /* never: the rows are counted */
    r = &c->row[c->nrows++];
    memset(r, 0, sizeof *r);
    r->section = section;
    snprintf(r->id, sizeof r->id, "%s", id);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->value = NAN;
    r->unit = "";
    r->verdict = GT_IV_CANNOT;
    r->peer = -1;
    return r;
}

int gt_inspect_status(const gt_inspect_card *c)
{
    int worst = GT_INSPECT_EXIT_PASS;

    for (int i = 0; i < c->nrows; i++) {
        if (c->row[i].verdict == GT_IV_FAIL)
            return GT_INSPECT_EXIT_FAIL;
        if (c->row[i].verdict == GT_IV_BUSY)
            worst = GT_INSPECT_EXIT_BUSY;
        else if (c->row[i].verdict == GT_IV_WARN && worst != GT_INSPECT_EXIT_BUSY)
            worst = GT_INSPECT_EXIT_WARN;
    }
    return worst;
}

bool gt_inspect_busy(const gt_inspect_card *c)
{
    for (int i = 0; i < c->nrows; i++)
        if (c->row[i].verdict == GT_IV_BUSY)
            return true;
    return false;
}
