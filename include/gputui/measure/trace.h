/* trace.h - the CUDA calls behind one configuration: its set-up, one timed
 * iteration and its teardown, each call with readable arguments, its
 * result and its duration.
 *
 * Capture is per thread. The engine's worker points it at a gt_trace for a
 * phase (gt_trace_capture) and stops it (NULL) around everything else, so
 * the timed iterations after the first pay one thread-local load per call.
 * The gpu/ layer's checked-call macros report every call here; a replay
 * back-end adds the calls a recording holds. */
#ifndef GPUTUI_TRACE_H
#define GPUTUI_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum { GT_TR_SETUP, GT_TR_RUN, GT_TR_TEARDOWN, GT_TR_NPHASES } gt_trace_phase;

#define GT_TRACE_PER_PHASE 40   /* calls kept per phase; the rest are counted */
#define GT_TRACE_CALL 120
#define GT_TRACE_RESULT 40

typedef struct gt_trace_call {
    unsigned char phase;        /* gt_trace_phase */
    bool ok;
    unsigned count;             /* identical calls in a row folded into one */
    double sec;                 /* their total duration */
    char call[GT_TRACE_CALL];   /* "cudaHostAlloc(64 MiB, cudaHostAllocMapped)" */
    char result[GT_TRACE_RESULT];
} gt_trace_call;

typedef struct gt_trace {
    int n;
    int kept[GT_TR_NPHASES];          /* of the n calls, per phase */
    gt_trace_call c[GT_TRACE_PER_PHASE * GT_TR_NPHASES];
    unsigned more[GT_TR_NPHASES];     /* calls not kept, per phase */
    double more_sec[GT_TR_NPHASES];
} gt_trace;

const char *gt_trace_phase_name(int phase);   /* "set-up", "one iteration", "teardown" */
int gt_trace_phase_parse(const char *name);   /* the inverse, -1 if unknown */

void gt_trace_clear(gt_trace *t);
/* Calls made on this thread from now on go to t under 'phase'; t NULL stops. */
void gt_trace_capture(gt_trace *t, gt_trace_phase phase);
bool gt_trace_capturing(void);
/* Readable arguments for the next call reported on this thread, which
 * replace the source text between its parentheses. */
void gt_trace_args(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A call made on this thread: 'expr' is its source text. Nothing happens
 * when no capture is on. */
void gt_trace_call_done(const char *expr, const char *result, bool ok, double sec);
/* The result of a call a fresh set-up would make that was not made: what
 * it gave is kept from an earlier configuration. Shown without a time. */
#define GT_TRACE_KEPT "kept"
/* A set-up kept whole: t keeps only its set-up calls, each marked kept. */
void gt_trace_keep_setup(gt_trace *t);
/* A call not made on this thread because its result was kept ("cudaMalloc(64
 * MiB)"); nothing happens when no capture is on. */
void gt_trace_kept(const char *call);
/* Appends one call to t as it is (a recording's); folds repeats. */
void gt_trace_add(gt_trace *t, int phase, const char *call, const char *result, bool ok,
                  unsigned count, double sec);
/* A recorded trace into the capture on this thread, each call under its
 * own phase (a replay's set-up). */
void gt_trace_replay(const gt_trace *t);
/* "cudaMalloc(64 MiB) -> cudaSuccess  1.2 ms" (with " x16" for folded calls). */
char *gt_trace_format(const gt_trace_call *c, char *buf, size_t len);
/* The calls phase by phase, each line indented by 'indent' spaces. */
void gt_trace_print(FILE *f, const gt_trace *t, int indent);
/* Calls of one phase, kept and not kept. */
unsigned gt_trace_count(const gt_trace *t, int phase);

struct json_t;
/* The calls as a JSON array, as recordings ("sec") and reports ("seconds")
 * write them: {phase, call, result, ok, count, SEC_KEY}, and per phase
 * {phase, more, SEC_KEY} for the calls not kept. */
struct json_t *gt_trace_json(const gt_trace *t, const char *sec_key);
/* The inverse, with SEC_KEY "sec", into t (cleared first): 0, or -1 with
 * why names the call that is not valid. */
int gt_trace_read(struct json_t *calls, gt_trace *t, char *why, size_t n);
/* One recorded call into t as a recording's reader takes it (gt_trace_read,
 * and the reader of the writer's own spelling): with more above 0, the
 * count of a phase's calls not kept; NULL, or what breaks the format. */
const char *gt_trace_take(gt_trace *t, int phase, const char *call, const char *result,
                          bool ok, long long count, long long more, double sec);

#endif
