/* files.h - opening the files gputui reads and writes, safely: it reads
 * only regular files (a device, FIFO or directory named where a recording
 * or a lesson belongs is refused, not read forever or waited on), and it
 * creates files only where none exists, never through a symbolic link. */
#ifndef GPUTUI_FILES_H
#define GPUTUI_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "gputui/base/common.h"

/* A read-only descriptor of the regular file at path (close it), or -1
 * with "PATH: <reason>" in err: the open's error, or "not a regular file
 * (a character device); <what> must be a regular file". A FIFO is not
 * waited on. */
int gt_open_regular(const char *path, const char *what, gt_err *err);

/* A new file at path, created for writing with mode 0644 only if nothing
 * is there (a symbolic link there counts), or -1 with errno set. */
int gt_create_new(const char *path);

#endif
