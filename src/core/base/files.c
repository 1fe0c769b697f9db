/* Opening files safely (files.h). */
#define _POSIX_C_SOURCE 200809L
#include "gputui/base/files.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind(mode_t m)
{
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a plain file";
}

int gt_open_regular(const char *path, const char *what, gt_err *err)
{
    /* O_NONBLOCK: opening a FIFO with no writer does not wait. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;

    if (fd < 0) {
        gt_err_set(err, GT_EXIT_USAGE, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) < 0) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        gt_err_set(err, GT_EXIT_USAGE, "%s: not a regular file (%s); %s must be a regular file",
                   path, kind(st.st_mode), what);
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

int gt_create_new(const char *path)
{
    /* O_EXCL with O_CREAT fails on any existing name, a symbolic link
     * included, so nothing is overwritten and no link is followed. */
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}
