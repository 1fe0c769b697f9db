/* libFuzzer target: the recording reader must load or refuse any input,
 * never crash, leak or read out of bounds: from memory, and from a file
 * through zlib (which reads plain and gzip-compressed files alike). */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "gputui/record/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    gt_recording rec;
    gt_err err;
    FILE *f;

    gt_err_clear(&err);
    if (gt_recording_parse(&rec, "fuzz", (const char *)data, size, &err) == 0)
        gt_recording_free(&rec);
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/gputui-fuzz-%d.gtr.gz", (int)getpid());
    f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    gt_err_clear(&err);
    if (gt_recording_load(&rec, path, &err) == 0)
        gt_recording_free(&rec);
    return 0;
}
