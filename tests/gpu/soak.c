/* make soak (GPU): N random valid parameter changes (default 1000) across
 * every experiment, through the engine the TUI uses, a few samples each.
 * Before and after (the engine idle, what it kept released): the device's
 * free memory, the process's locked and pinned host memory (VmLck, VmPin),
 * its open file descriptors and the persisting-L2 limit must be back where
 * they started; no sample may fail its verification, and the only errors
 * allowed are the refusals a configuration check gives before set-up.
 * Prints one line per figure and "soak: ok" or "soak: FAIL".
 * Usage: soak [CHANGES] [SEED] */
#define _GNU_SOURCE
#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gputui/cuda_backend.h"
#include "gputui/engine/engine.h"
#include "gputui/measure/experiment.h"
#include "gputui/base/units.h"
#include "gputui/experiments/registry.h"

#define SAMPLES 3           /* timed iterations per change */
#define TIMEOUT 30.0        /* seconds a change may take before it counts as hung */

typedef struct figures {
    size_t free_dev;
    long vmlck_kb, vmpin_kb;
    int fds;
    size_t persist;
} figures;

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

/* The engine must be idle (released): these calls share its context. */
static void measure(figures *f)
{
    size_t total = 0;

    cudaDeviceSynchronize();
    cudaMemGetInfo(&f->free_dev, &total);
    cudaDeviceGetLimit(&f->persist, cudaLimitPersistingL2CacheSize);
    f->vmlck_kb = status_kb("VmLck");
    f->vmpin_kb = status_kb("VmPin");
    f->fds = open_fds();
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int64_t pick(int64_t lo, int64_t hi)
{
    return hi <= lo ? lo : lo + (int64_t)(next() % (uint64_t)(hi - lo + 1));
}

/* A random value of p, kept to sizes and counts that run in well under a
 * second (64 MiB, 16 steps or 16x the least): the soak is about changes,
 * not sizes (a first version allowed 64 chunks of 256 MiB: 16 GiB pinned). */
static int64_t random_value(const gt_param *p)
{
    int64_t hi = p->max;

    switch (p->type) {
    case GT_P_ENUM:
    case GT_P_BOOL:
        return pick(p->min, p->max);
    case GT_P_SIZE:
        if (hi > (64ll << 20))
            hi = 64ll << 20;
        break;
    case GT_P_INT:
        if (p->step > 0) {
            int64_t steps = (hi - p->min) / p->step;
            return p->min + p->step * pick(0, steps < 16 ? steps : 16);
        }
        if (hi > (p->min > 0 ? p->min * 16 : 16))
            hi = p->min > 0 ? p->min * 16 : 16;
        break;
    }
    if (p->step > 0) {      /* a stepped size */
        int64_t steps = (hi - p->min) / p->step;
        return p->min + p->step * pick(0, steps);
    }
    /* Powers of two from min (or 1) up to hi, aligned. */
    {
        int64_t v = p->min > 0 ? p->min : 1, top = v;
        int n = 0;
        while (top * 2 <= hi) {
            top *= 2;
            n++;
        }
        v <<= pick(0, n);
        if (p->align > 1 && v % p->align)
            v = (v / p->align + 1) * p->align;
        return v < p->min ? p->min : v > p->max ? p->max : v;
    }
}

/* Runs the configuration until SAMPLES timed iterations, an error or the
 * time-out: 0 sampled, 1 refused or failed at set-up (*msg), -1 hung. */
static int run_change(gt_engine *e, const gt_experiment *x, const int64_t *v, long *failed,
                      char *msg, size_t msglen)
{
    uint32_t gen = gt_engine_configure(e, x, v);
    double t0 = gt_now();
    gt_sample buf[256];
    gt_status st;

    for (;;) {
        struct pollfd pfd = {gt_engine_fd(e), POLLIN, 0};
        size_t n;

        poll(&pfd, 1, 100);
        while ((n = gt_engine_drain(e, buf, 256)) > 0)
            for (size_t i = 0; i < n; i++)
                *failed += buf[i].gen == gen && buf[i].verify == GT_V_FAILED;
        gt_engine_status(e, &st);
        if (st.gen == gen && st.state == GT_ST_ERROR) {
            snprintf(msg, msglen, "%s", st.msg);
            return 1;
        }
        if (st.gen == gen && st.iterations >= SAMPLES)
            return 0;
        if (gt_now() - t0 > TIMEOUT) {
            snprintf(msg, msglen, "no %d samples in %.0f s (state %s)", SAMPLES, TIMEOUT,
                     gt_state_name(st.state));
            return -1;
        }
    }
}

int main(int argc, char **argv)
{
    int changes = argc > 1 ? atoi(argv[1]) : 1000, sampled = 0, refused = 0, errors = 0;
    long failed = 0, per_exp[64] = {0};
    gt_engine *e;
    gt_devprops p;
    gt_err err;
    figures before, after;
    double t0;
    bool ok;

    if (argc > 2)
        rng = strtoull(argv[2], NULL, 0) | 1;
    gt_err_clear(&err);
    if (gt_engine_start(&e, &gt_cuda_backend, 0, &err)) {
        printf("soak: no device: %s\n", err.msg);
        return 1;
    }
    gt_engine_props(e, &p);
    /* Each experiment's default once first: the driver's first-use
     * allocations (modules, pools) are not what this looks for. */
    for (int i = 0; i < gt_nexperiments; i++) {
        const gt_experiment *x = gt_experiments[i];
        int64_t v[GT_MAX_PARAMS];
        char msg[512];
        gt_experiment_defaults(x, v);
        if (gt_experiment_check(x, v, &p, msg, sizeof msg) == 0)
            run_change(e, x, v, &failed, msg, sizeof msg);
    }
    gt_engine_release(e);
    measure(&before);
    t0 = gt_now();
    for (int c = 0; c < changes; c++) {
        const gt_experiment *x;
        int64_t v[GT_MAX_PARAMS];
        char msg[512], desc[512];
        int xi, tries = 0, rc;

        /* A valid configuration: draws the configuration check refuses
         * here (two-GPU parts on one GPU, sizes over a limit) are the
         * expected refusals, counted and drawn again. */
        do {
            xi = (int)pick(0, gt_nexperiments - 1);
            x = gt_experiments[xi];
            gt_experiment_defaults(x, v);
            for (int k = 0; k < x->nparams; k++)
                if (k != x->warmup_param)
                    v[k] = random_value(&x->params[k]);
            if (x->warmup_param >= 0)
                v[x->warmup_param] = x->params[x->warmup_param].min;
            rc = gt_experiment_check(x, v, &p, msg, sizeof msg);
            refused += rc != 0;
        } while (rc && ++tries < 50);
        if (rc)
            continue;
        rc = run_change(e, x, v, &failed, msg, sizeof msg);
        per_exp[xi]++;
        if (rc == 0) {
            sampled++;
        } else {
            errors++;
            gt_experiment_describe(x, v, desc, sizeof desc);
            printf("soak: change %d, -e %s %s: %s\n", c + 1, x->name, desc, msg);
            if (rc < 0)
                break;
        }
    }
    gt_engine_release(e);
    measure(&after);
    printf("soak: %d changes in %.0f s: %d sampled (%d timed iterations each), %d errors, %d "
           "draws refused by the configuration check (drawn again), %ld samples failed "
           "verification\n", sampled + errors, gt_now() - t0, sampled, SAMPLES, errors, refused,
           failed);
    printf("soak: changes per experiment:");
    for (int i = 0; i < gt_nexperiments; i++)
        printf(" %s %ld", gt_experiments[i]->name, per_exp[i]);
    printf("\n");
    printf("soak: device free memory  %zu -> %zu bytes\n", before.free_dev, after.free_dev);
    printf("soak: VmLck               %ld -> %ld kB\n", before.vmlck_kb, after.vmlck_kb);
    printf("soak: VmPin               %ld -> %ld kB\n", before.vmpin_kb, after.vmpin_kb);
    printf("soak: open descriptors    %d -> %d\n", before.fds, after.fds);
    printf("soak: persisting L2 limit %zu -> %zu bytes\n", before.persist, after.persist);
    ok = errors == 0 && failed == 0 && after.free_dev >= before.free_dev &&
         after.vmlck_kb == before.vmlck_kb && after.vmpin_kb == before.vmpin_kb &&
         after.fds == before.fds && after.persist == before.persist;
    gt_engine_stop(e);
    printf("soak: %s\n", ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
