/* card_rows.h - what the two halves of building a card share: card.c
 * (the hardware's rows) and card_busy.c (the other programs on the GPU,
 * and the rows they disturbed). */
#ifndef GPUTUI_CARD_ROWS_H
#define GPUTUI_CARD_ROWS_H

#include "gputui/inspect/card.h"

/* The section a row is printed under; rows of one section share the
 * pointer. */
extern const char gt_inspect_sec_software[];

/* A new row of c, "cannot tell" until judged. */
gt_inspect_row *gt_inspect_add_row(gt_inspect_card *c, const char *section, const char *id,
                                   const char *name);

#endif
