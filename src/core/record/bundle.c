/* The bundled recordings (bundle.h). */
#define _XOPEN_SOURCE 700   /* realpath, which glibc declares for X/Open only */
#include "gputui/record/bundle.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define SUFFIX ".gtr.gz"

/* Names that start with a number sort by it ("9-pitched" before
 * "10-hierarchy"), then by the text. */
static int by_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;

    if (isdigit((unsigned char)x[0]) && isdigit((unsigned char)y[0])) {
        unsigned long nx = strtoul(x, NULL, 10), ny = strtoul(y, NULL, 10);
        if (nx != ny)
            return nx < ny ? -1 : 1;
    }
    return strcmp(x, y);
}

static int by_name_desc(const void *a, const void *b)
{
    return by_name(b, a);
}

int gt_data_files(const char *dir, const char *suffix, bool desc, char **names, int max)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t sl = strlen(suffix);
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len <= sl || e->d_name[0] == '.' || strcmp(e->d_name + len - sl, suffix))
            continue;
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], desc ? by_name_desc : by_name);
    return n;
}

void gt_data_files_free(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
}

/* The recordings in one directory, into b; returns how many. */
static int scan(gt_bundle *b, const char *dir)
{
    char *names[GT_BUNDLE_MAX];
    int n = 0, all;

    snprintf(b->dir, sizeof b->dir, "%s", dir);
    all = gt_data_files(dir, SUFFIX, true, names, GT_BUNDLE_MAX);
    for (int i = 0; i < all; i++) {
        size_t len = strlen(names[i]) - strlen(SUFFIX);
        if (len >= sizeof b->model[0])
            continue;       /* a model name that long is no model */
        snprintf(b->path[n], sizeof b->path[n], "%s/%s", dir, names[i]);
        snprintf(b->model[n], sizeof b->model[n], "%.*s", (int)len, names[i]);
        n++;
    }
    gt_data_files_free(names, all > 0 ? all : 0);
    b->n = n;
    return n;
}

const char *gt_bundle_env(const char **name)
{
    static const char *const names[] = { "GPUTUI_DATA", "GPUTUI_DATA_DIR" };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && v[0]) {
            if (name)
                *name = names[i];
            return v;
        }
    }
    return NULL;
}

int gt_bundle_find(gt_bundle *b, const char *exe_dir)
{
    const char *env = gt_bundle_env(NULL);
    char dir[512];

    memset(b, 0, sizeof *b);
    if (env)
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

    /* A file, or a name that looks like one (its loader then says what is
     * wrong with it): a path, or a recording's suffix. */
    if (access(name, F_OK) == 0 || strchr(name, '/') || strstr(name, ".gtr")) {
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
