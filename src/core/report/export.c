/* 'x' exports (export.h). */
#define _POSIX_C_SOURCE 200809L
#include "gputui/report/export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gputui/base/files.h"
#include "gputui/base/out.h"
#include "gputui/report/report.h"

#define NOUT 3
static const char *const ext[NOUT] = {"json", "csv", "html"};
static const gt_format fmt[NOUT] = {GT_FMT_JSON, GT_FMT_CSV, GT_FMT_HTML};

/* $XDG_STATE_HOME/gputui or ~/.local/state/gputui, made if missing
 * (mkdir -p; a failure shows when the files are created there); "" when
 * neither can be named. */
static void state_dir(char *out, size_t n)
{
    const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

    if (x && x[0] == '/')
        snprintf(out, n, "%s/gputui", x);
    else if (home && home[0])
        snprintf(out, n, "%s/.local/state/gputui", home);
    else {
        out[0] = '\0';
        return;
    }
    for (char *c = out + 1; *c; c++)
        if (*c == '/') {
            *c = '\0';
            mkdir(out, 0700);
            *c = '/';
        }
    mkdir(out, 0700);
}

/* All NOUT files of the set in dir ("" for the working directory), created
 * exclusively, the first free suffix; 0, or -1 with errno of the failure
 * that is not a taken name. */
static int create_set(const char *dir, const char *stamp, int fd[NOUT], char path[NOUT][700])
{
    for (int k = 1; k <= 100; k++) {
        char sfx[8] = "";
        int i;
        if (k > 1)
            snprintf(sfx, sizeof sfx, "-%d", k);
        for (i = 0; i < NOUT; i++) {
            snprintf(path[i], sizeof path[0], "%s%sgputui-%s%s.%s", dir, dir[0] ? "/" : "", stamp,
                     sfx, ext[i]);
            if ((fd[i] = gt_create_new(path[i])) < 0)
                break;
        }
        if (i == NOUT)
            return 0;
        int e = errno;
        for (int j = 0; j < i; j++) {   /* not part of a set */
            close(fd[j]);
            unlink(path[j]);
        }
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

int gt_export(const char *dir, const char *stamp, const gt_devprops *p, gt_run *runs, int n,
              const struct gt_recording *rec, char *msg, size_t msglen)
{
    char path[NOUT][700], alt[600], why[300] = "";
    const char *where = dir ? dir : "";     /* "": the working directory */
    int fd[NOUT];

    if (create_set(where, stamp, fd, path)) {
        snprintf(why, sizeof why, "cannot write in %s (%s)", dir ? dir : "the working directory",
                 strerror(errno));
        state_dir(alt, sizeof alt);
        if (!alt[0] || create_set(alt, stamp, fd, path)) {
            snprintf(msg, msglen, "export failed: %s%s%s%s", why, alt[0] ? ", nor in " : "",
                     alt, alt[0] ? "" : "; no $XDG_STATE_HOME or $HOME to fall back to");
            return -1;
        }
    }
    for (int i = 0; i < NOUT; i++) {
        FILE *f = gt_out_open(fd[i], fmt[i] == GT_FMT_JSON ? GT_OUT_JSON : GT_OUT_TEXT);
        int bad = !f || gt_report(f, fmt[i], p, runs, n, rec) != 0;
        int e = errno;
        if (f && gt_out_close(f) != 0)
            bad = 1, e = errno;
        if (close(fd[i]) != 0 && !bad)
            bad = 1, e = errno;
        if (bad) {
            for (int j = 0; j < NOUT; j++)
                unlink(path[j]);
            for (int j = i + 1; j < NOUT; j++)
                close(fd[j]);
            snprintf(msg, msglen, "export failed: cannot write %s (%s); nothing was kept",
                     path[i], strerror(e));
            return -1;
        }
    }
    snprintf(msg, msglen, "exported %d run%s: %s, .%s and .%s%s%s", n, n > 1 ? "s" : "", path[0],
             ext[1], ext[2], why[0] ? " (" : "", why[0] ? why : "");
    if (why[0])
        snprintf(msg + strlen(msg), msglen - strlen(msg), ")");
    return 0;
}
