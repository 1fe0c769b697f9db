#define _POSIX_C_SOURCE 200809L
#include "gputui/base/common.h"

#include <stdio.h>
#include <time.h>

void gt_err_clear(gt_err *e)
{
    e->code = 0;
    e->msg[0] = '\0';
}

void gt_err_set(gt_err *e, int code, const char *fmt, ...)
{
    va_list ap;

    if (!e)
        return;
    e->code = code;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
}

double gt_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t gt_xorshift64(uint64_t *state)
{
    uint64_t x = *state;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}
