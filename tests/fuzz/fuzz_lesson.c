/* libFuzzer target: the lesson reader must load or refuse any input, never
 * crash or read out of bounds: from memory, and from a file (the bounded
 * loader). */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputui/lesson/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static gt_lesson l;
    gt_err err;
    char *text = malloc(size + 1);
    FILE *f;

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    gt_err_clear(&err);
    gt_lesson_parse(&l, "fuzz.json", text, &err);
    free(text);
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/gputui-fuzz-%d.json", (int)getpid());
    if (!(f = fopen(path, "wb")))
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    gt_err_clear(&err);
    gt_lesson_load(&l, path, &err);
    return 0;
}
