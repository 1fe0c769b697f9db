/* common.h - error record and small helpers shared by every layer.
 *
 * A gt_err carries one human-readable message up to whoever can show it
 * (status line, stderr). Nothing below main() exits the process. */
#ifndef GPUTUI_COMMON_H
#define GPUTUI_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define GT_VERSION "0.1.0"

/* Process exit statuses (documented in the man page). */
enum {
    GT_EXIT_OK = 0,
    GT_EXIT_FAIL = 1,      /* CUDA error, no device, I/O error */
    GT_EXIT_WARN = 2,      /* a figure a verdict warns of (--pairs all's odd link) */
    GT_EXIT_VERIFY = 3,    /* a sample failed verification, or a verdict failed */
    GT_EXIT_USAGE = 64     /* bad option or value (EX_USAGE) */
};

typedef struct gt_err {
    int code;              /* 0 = no error; otherwise a GT_EXIT_* value */
    char msg[512];
} gt_err;

void gt_err_clear(gt_err *e);
/* printf-style; keeps the first error if one is already set and keep != 0. */
void gt_err_set(gt_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* CLOCK_MONOTONIC in seconds. */
double gt_now(void);

/* xorshift64: a small, fast generator for sampling decisions (reservoir,
 * which blocks to check); not for anything that needs good randomness.
 * The state must not be 0. */
uint64_t gt_xorshift64(uint64_t *state);

#define GT_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
