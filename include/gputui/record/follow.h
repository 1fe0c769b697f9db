/* follow.h - a recording read while its writer is still writing it
 * (gputui --replay FILE --follow; --replay - --follow reads a pipe): a
 * class follows the teacher's gputui --record on the GPU server.
 *
 * The follower adds each complete line to a gt_recording as it arrives
 * (record.h's line reader), holding rec->lock meanwhile, so that the
 * replay back-end (replay.h), which reads the recording from the engine's
 * thread, takes the same lock. Only the thread that polls adds lines: it
 * reads the recording without the lock.
 *
 * What arrives goes on; what is wrong is said once and skipped:
 *   - a line that is not JSON, or not a recording's (garbage on the pipe):
 *     skipped, "PATH:LINE: ...; skipped";
 *   - a writer that restarted (a header line after the first, also glued
 *     to the cut-off end of the line before it; a new FILE.partial; the file
 *     cut shorter): its configurations follow the earlier ones;
 *   - a stream that closes without the "end" line, or in the middle of a
 *     line: what arrived stays, and the status says the stream stopped;
 *   - corrupt compressed data: reading stops there.
 * A plain or gzip recording is told apart by its first bytes, as the
 * reader of files does. */
#ifndef GPUTUI_FOLLOW_H
#define GPUTUI_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "gputui/base/common.h"
#include "gputui/record/record.h"

/* A file is read again this often (a pipe wakes poll() itself). */
#define GT_FOLLOW_PERIOD 0.1

typedef struct gt_follow gt_follow;

/* Follows PATH, or standard input for "-" (the caller gives the keyboard
 * another descriptor). For a file, PATH.partial is read while it exists
 * (the writer is at work), else PATH; when neither exists yet, poll waits
 * for one. rec is begun here and grows as lines arrive; free it with
 * gt_recording_free after gt_follow_close. -1 with err (a directory that
 * does not exist, a name too long, out of memory). */
int gt_follow_open(gt_follow **out, const char *path, gt_recording *rec, gt_err *err);
/* Reads what has arrived without blocking; true when a line was added or
 * the status changed. */
bool gt_follow_poll(gt_follow *f);
/* Whether the last poll stopped with more to read at once (a follower
 * that joined late, or fell behind): poll again without waiting. Each
 * poll reads for at most a few ms. */
bool gt_follow_behind(const gt_follow *f);
/* A descriptor that poll() wakes on (a pipe), or -1: poll again within
 * GT_FOLLOW_PERIOD. */
int gt_follow_fd(const gt_follow *f);
/* Nothing more will come: the "end" line was read, the stream closed, or
 * reading stopped on an error. */
bool gt_follow_stopped(const gt_follow *f);
/* When the last sample line arrived (gt_now), 0 if none yet. */
double gt_follow_last_sample(const gt_follow *f);
/* One line for the screen: "following: last sample 0.4 s ago", "the
 * recording ended (the writer closed it)", "waiting for ...", "the
 * stream stopped: ...". */
const char *gt_follow_status(const gt_follow *f, double now, char *buf, size_t len);
/* The latest message not yet taken (a skipped line, a restart), with
 * whether it is an error; false if none. */
bool gt_follow_take_msg(gt_follow *f, char *buf, size_t len, bool *err);
void gt_follow_close(gt_follow *f);

#endif
