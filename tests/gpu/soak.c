/* make soak (GPU): N changes (default 1000) across every experiment and
 * every value of its choices, through the engine the TUI uses
 * (tests/tools/soak_run.h). Before and after, with the engine released:
 * the device's free memory, the process's locked and pinned host memory
 * (VmLck, VmPin), its open file descriptors, its child processes and the
 * persisting-L2 limit. The experiments that start a second process
 * (sharing, runtime's init and jit, VMM's peer probe) start GPUTUI, the
 * gputui binary beside this one unless named.
 * Usage: soak [CHANGES] [SEED] [GPUTUI] */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "gputui/cuda_backend.h"
#include "gputui/engine/engine.h"
#include "gputui/record/record.h"
#include "../tools/soak_run.h"

static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);

    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ':')
            v = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return v;
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;

    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n - 1;       /* the directory's own descriptor */
}

/* Processes whose parent is this one, alive or not yet reaped. */
static int children(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int n = 0, self = (int)getpid();

    while (d && (e = readdir(d))) {
        char path[300], buf[512], *close_paren;
        FILE *f;
        int ppid;
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        /* pid (comm) state ppid ...: comm may hold spaces and parentheses */
        if (fgets(buf, sizeof buf, f) && (close_paren = strrchr(buf, ')')) &&
            sscanf(close_paren + 1, " %*c %d", &ppid) == 1 && ppid == self)
            n++;
        fclose(f);
    }
    if (d)
        closedir(d);
    return n;
}

/* The engine is released: these calls share its context. */
static void measure(soak_figures *f, void *ctx)
{
    size_t free_b = 0, total = 0, persist = 0;

    (void)ctx;
    cudaDeviceSynchronize();
    cudaMemGetInfo(&free_b, &total);
    cudaDeviceGetLimit(&persist, cudaLimitPersistingL2CacheSize);
    f->dev_free = (int64_t)free_b;
    f->persist = (int64_t)persist;
    f->vmlck_kb = status_kb("VmLck");
    f->vmpin_kb = status_kb("VmPin");
    f->fds = open_fds();
    f->children = children();
}

int main(int argc, char **argv)
{
    char gputui[PATH_MAX], rec_path[PATH_MAX];
    gt_devprops props;
    gt_recording rec;
    soak_opts o;
    soak_result r;
    gt_engine *e;
    gt_err err;
    int rc;

    soak_opts_init(&o);
    if (argc > 1)
        o.changes = atoi(argv[1]);
    if (argc > 2)
        o.seed = strtoull(argv[2], NULL, 0);
    if (argc > 3) {
        snprintf(gputui, sizeof gputui, "%s", argv[3]);
    } else {    /* the gputui beside this binary */
        const char *slash = strrchr(argv[0], '/');
        snprintf(gputui, sizeof gputui, "%.*sgputui", slash ? (int)(slash - argv[0] + 1) : 0,
                 argv[0]);
    }
    if (access(gputui, X_OK)) {
        printf("soak: %s: not an executable gputui; the experiments that start a second "
               "process need one (soak CHANGES SEED PATH-TO-GPUTUI)\n", gputui);
        return 2;
    }
    gt_cuda_set_child_program(gputui);
    o.measure = measure;
    snprintf(rec_path, sizeof rec_path, "%s/gputui-soak-%d.gtr",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    o.log = stdout;
    gt_err_clear(&err);
    if (gt_engine_start(&e, &gt_cuda_backend, 0, &err)) {
        printf("soak: no device: %s\n", err.msg);
        return 1;
    }
    /* Recorded as the TUI's --record does, flushed every second. */
    gt_engine_props(e, &props);
    if (gt_recorder_open(&o.record, rec_path, true, &props, &err)) {
        printf("soak: --record: %s\n", err.msg);
        gt_engine_stop(e);
        return 1;
    }
    printf("soak: %d changes, seed %llu, second processes from %s, recorded to %s\n",
           o.changes, (unsigned long long)o.seed, gputui, rec_path);
    fflush(stdout);
    rc = soak_run(e, &o, &r);
    soak_print(stdout, &r);
    gt_engine_stop(e);
    if (gt_recorder_close(o.record, &err) || gt_recording_load(&rec, rec_path, &err)) {
        printf("soak: FAIL --record: %s\n", err.msg);
        rc = 1;
    } else {
        printf("soak: --record: %zu configurations, %zu lines, read back whole (end line: %s)\n",
               rec.ncfg, rec.lines, rec.ended ? "yes" : "NO");
        rc |= !rec.ended;
        gt_recording_free(&rec);
    }
    unlink(rec_path);
    return rc ? 1 : 0;
}
