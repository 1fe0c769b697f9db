/* lesson_batch.h - --lesson NAME --batch: every step of a lesson measured
 * in turn (live, or on a replay engine), its verdict printed as text or
 * JSON. The TUI runs the same steps on screen (ui/lesson_view.c). */
#ifndef GPUTUI_LESSON_BATCH_H
#define GPUTUI_LESSON_BATCH_H

#include "gputui/input/cli.h"
#include "gputui/engine/engine.h"
#include "gputui/lesson/lesson.h"
#include "gputui/record/record.h"

/* rec: the recording the engine replays, NULL when live. Returns the exit
 * status: 0 when every step has a verdict, GT_EXIT_FAIL when a step could
 * not run, GT_EXIT_VERIFY when a sample failed verification. */
int gt_lesson_batch(const gt_cli *cli, gt_engine *eng, const gt_lesson *l,
                    const gt_recording *rec);
/* --list-lessons */
void gt_lessons_print(FILE *f, const gt_lesson *l, int n);

#endif
