/* The bundled recordings (bundle.h). */
#define _DEFAULT_SOURCE     /* realpath */
#define _POSIX_C_SOURCE 200809L
#include "gputui/bundle.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define SUFFIX ".gtr.gz"

static int by_name_desc(const void *a, const void *b)
{
    return strcmp(*(const char *const *)b, *(const char *const *)a);
}

/* The recordings in one directory, into b; returns how many. */
static int scan(gt_bundle *b, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[GT_BUNDLE_MAX];
    int n = 0;

    snprintf(b->dir, sizeof b->dir, "%s", dir);
    if (!d)
        return 0;
    while ((e = readdir(d)) && n < GT_BUNDLE_MAX) {
        size_t len = strlen(e->d_name), sl = strlen(SUFFIX);
        if (len <= sl || len - sl >= sizeof b->model[0] || strcmp(e->d_name + len - sl, SUFFIX))
            continue;
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name_desc);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]) - strlen(SUFFIX);
        snprintf(b->path[i], sizeof b->path[i], "%s/%s", dir, names[i]);
        snprintf(b->model[i], sizeof b->model[i], "%.*s", (int)len, names[i]);
        free(names[i]);
    }
    b->n = n;
    return n;
}

int gt_bundle_find(gt_bundle *b, const char *exe_dir)
{
    const char *env = getenv("GPUTUI_DATA_DIR");
    char dir[512];

    memset(b, 0, sizeof *b);
    if (env && env[0])
        return scan(b, env);
    if (!exe_dir)
        return 0;
    snprintf(dir, sizeof dir, "%s/../share/gputui", exe_dir);
    {
        char *real = realpath(dir, NULL);   /* "/usr/share/gputui", not "bin/../share" */
        int n = scan(b, real ? real : dir);
        free(real);
        return n;
    }
}

char *gt_bundle_models(const gt_bundle *b, char *buf, size_t len)
{
    size_t off = 0;

    buf[0] = '\0';
    for (int i = 0; i < b->n && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", b->model[i]);
    if (b->n == 0)
        snprintf(buf, len, "none");
    return buf;
}

int gt_bundle_resolve(const gt_bundle *b, const char *name, char *out, size_t len, char *err,
                      size_t errlen)
{
    char models[200];

    if (access(name, F_OK) == 0) {
        snprintf(out, len, "%s", name);
        return 0;
    }
    for (int i = 0; i < b->n; i++)
        if (!strcasecmp(b->model[i], name)) {
            snprintf(out, len, "%s", b->path[i]);
            return 0;
        }
    snprintf(err, errlen, "'%s' is neither a file nor a bundled recording (bundled: %s, in %s)",
             name, gt_bundle_models(b, models, sizeof models), b->dir[0] ? b->dir : "no directory");
    return -1;
}
