/* libFuzzer target: the command line. The input is split at NUL bytes into
 * arguments; any of them must parse or be refused with a message, never
 * crash or read out of bounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/input/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), *argv[34];
    int argc = 0;
    gt_cli cli;
    gt_err err;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[argc++] = "gputui";
    for (size_t i = 0; i <= size && argc < 33;) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    gt_err_clear(&err);
    if (gt_cli_parse(argc, argv, &cli, &err) != 0 && !err.msg[0])
        abort();    /* a refusal must say why */
    free(buf);
    return 0;
}
