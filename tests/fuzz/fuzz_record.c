/* libFuzzer target: the recording reader must load or refuse any input,
 * never crash, leak or read out of bounds. */
#include <stddef.h>
#include <stdint.h>

#include "gputui/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_recording rec;
    gt_err err;

    gt_err_clear(&err);
    if (gt_recording_parse(&rec, "fuzz", (const char *)data, size, &err) == 0)
        gt_recording_free(&rec);
    return 0;
}
