/* inspect_json.h - an inspection as recordings keep it: the facts the card
 * is built from (card.h) and who it was of, as one JSON object. A replay
 * builds the card again from them, with the thresholds of the gputui that
 * reads it. Unknown members are ignored and missing ones stay unknown, so
 * a newer or older writer's object still reads. */
#ifndef GPUTUI_INSPECT_JSON_H
#define GPUTUI_INSPECT_JSON_H

#include "gputui/base/common.h"
#include "gputui/inspect/card.h"

/* The object's text (malloc'd), or NULL when out of memory. c gives the
 * device, uuid, host, ordinal and wall_s; its rows are not written. */
char *gt_inspect_json_write(const gt_inspect_facts *f, const gt_inspect_card *c);
/* Reads the text back into f and c's device, uuid, host, ordinal and
 * wall_s (c's rows are cleared); -1 with err saying what is wrong. */
int gt_inspect_json_read(const char *text, gt_inspect_facts *f, gt_inspect_card *c,
                         gt_err *err);

#endif
