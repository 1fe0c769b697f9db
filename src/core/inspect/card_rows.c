/* A card's rows (card_rows.h): a new one, and the sections the two
 * halves of building a card share. */
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
