/* The stream-overlap experiment on the GPU: the same chunks go H2D, through
 * the lcg kernel and back D2H, first all on one stream (serial), then dealt
 * round robin to S streams. Both runs are timed with events from a start
 * event that every stream waits for to an end event that waits for every
 * stream; each operation's events make the timeline. The CPU checks every
 * output word against the closed form of the kernel's map. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streams.h"
#include "streams_kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

#define EV_PER_CHUNK 4      /* before H2D, after H2D, after the kernel, after D2H */

typedef struct st {
    int nchunks, nstreams, blocks;
    size_t chunk, words;            /* bytes and words per chunk */
    uint32_t work, seed, runs;
    uint32_t ak, sk;                /* work steps: x -> ak * x + sk * c */
    bool pinned, legacy;
    int alloc;                      /* GT_STR_ALLOC_* between chunks */
    void *between[256];             /* those allocations, freed after each run */
    int nbetween;
    uint32_t *h_in, *h_out;         /* nchunks * chunk bytes each */
    uint32_t *d[GT_TL_MAX_STREAMS]; /* one chunk buffer per stream */
    gt_timing t;                    /* a run is its one piece; stream 0 is t.s */
    cudaStream_t s[GT_TL_MAX_STREAMS];
    cudaEvent_t *ev;                /* EV_PER_CHUNK per chunk */
    cudaEvent_t fin[GT_TL_MAX_STREAMS];
    int ns;                         /* this run's streams */
    uint32_t c;                     /* this run's additive constant */
    gt_timeline tl;
    bool have_tl;
} st;

/* The allocations made between chunks; after the run, outside its timing. */
static void free_between(st *z)
{
    for (int i = 0; i < z->nbetween; i++)
        if (z->alloc == GT_STR_ALLOC_HOST)
            gt_free_pinned(&z->between[i]);
        else
            gt_free_device(&z->between[i]);
    z->nbetween = 0;
}

static void teardown(void *state)
{
    st *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    free_between(z);
    if (z->pinned) {
        gt_free_pinned(&z->h_in);
        gt_free_pinned(&z->h_out);
    } else {
        free(z->h_in);
        free(z->h_out);
    }
    for (int i = 0; i < GT_TL_MAX_STREAMS; i++) {
        gt_free_device(&z->d[i]);
        if (i)
            gt_destroy_stream(&z->s[i]);
        gt_destroy_event(&z->fin[i]);
    }
    for (int i = 0; z->ev && i < EV_PER_CHUNK * z->nchunks; i++)
        gt_destroy_event(&z->ev[i]);
    free(z->ev);
    free(z);
}

static float elapsed_ms(cudaEvent_t a, cudaEvent_t b, gt_err *err)
{
    float ms = 0;

    if (gt_event_ms(&ms, a, b, err))
        return -1;
    return ms;
}

/* Median of three timings of one chunk's H2D copy and of its kernel at
 * 'work' steps, on stream 0 (auto work). */
static int time_chunk(st *z, uint32_t work, double *h2d, double *kern, gt_err *err)
{
    double t[2][3];

    for (int r = 0; r < 4; r++) {       /* the first round is a warm-up */
        float a, b;
        if (GT_CUDA(err, cudaEventRecord(z->ev[0], z->s[0])) ||
            GT_CUDA(err, cudaMemcpyAsync(z->d[0], z->h_in, z->chunk, cudaMemcpyHostToDevice,
                                         z->s[0])) ||
            GT_CUDA(err, cudaEventRecord(z->ev[1], z->s[0])) ||
            GT_CUDA(err, gt_k_lcg(z->d[0], z->words, work, 1, z->blocks, z->s[0])) ||
            GT_CUDA(err, cudaEventRecord(z->ev[2], z->s[0])) ||
            GT_CUDA(err, cudaEventSynchronize(z->ev[2])) ||
            (a = elapsed_ms(z->ev[0], z->ev[1], err)) < 0 ||
            (b = elapsed_ms(z->ev[1], z->ev[2], err)) < 0)
            return -1;
        if (r) {
            t[0][r - 1] = a * 1e-3;
            t[1][r - 1] = b * 1e-3;
        }
    }
    for (int k = 0; k < 2; k++) {
        double *v = t[k], m = v[0] + v[1] + v[2];
        double lo = v[0] < v[1] ? (v[0] < v[2] ? v[0] : v[2]) : (v[1] < v[2] ? v[1] : v[2]);
        double hi = v[0] > v[1] ? (v[0] > v[2] ? v[0] : v[2]) : (v[1] > v[2] ? v[1] : v[2]);
        *(k ? kern : h2d) = m - lo - hi;
    }
    return 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    st *z = calloc(1, sizeof *z);
    size_t total;
    char a[32], b[32];
    double t0;
    int flags;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->nchunks = (int)v[GT_STR_CHUNKS];
    z->nstreams = (int)v[GT_STR_STREAMS];
    z->chunk = (size_t)v[GT_STR_CHUNK];
    z->words = z->chunk / sizeof(uint32_t);
    z->pinned = v[GT_STR_HOST] == GT_STR_HOST_PINNED;
    z->legacy = v[GT_STR_LEGACY] != 0;
    z->alloc = (int)v[GT_STR_ALLOC];
    z->blocks = gt_gpu_sms() * 8;
    flags = v[GT_STR_FLAGS] == GT_STR_FLAGS_NONBLOCKING ? cudaStreamNonBlocking : cudaStreamDefault;
    total = z->chunk * (size_t)z->nchunks;

    t0 = gt_now();
    if (z->pinned) {
        if (GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->h_in, total)) ||
            GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->h_out, total)))
            goto fail;
    } else if (!(z->h_in = malloc(total)) || !(z->h_out = malloc(total))) {
        gt_err_set(err, GT_EXIT_FAIL, "malloc of 2 x %s of host memory failed",
                   gt_format_size(total, a, sizeof a));
        goto fail;
    }
    gt_setup_info_time(info, gt_now() - t0, "%s 2 x %s", z->pinned ? "cudaMallocHost" : "malloc",
                       gt_format_size(total, a, sizeof a));
    t0 = gt_now();
    for (int i = 0; i < z->nstreams; i++)
        if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->d[i], z->chunk)))
            goto fail;
    gt_setup_info_time(info, gt_now() - t0, "cudaMalloc %d x %s", z->nstreams,
                       gt_format_size(z->chunk, a, sizeof a));
    if (!(z->ev = calloc((size_t)z->nchunks * EV_PER_CHUNK, sizeof *z->ev))) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        goto fail;
    }
    /* No gate: allocations between chunks wait for the GPU inside the call. */
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 1, .ungated = true, .sleep = true,
                                                .blocking = flags == cudaStreamDefault},
                       err))
        goto fail;
    z->s[0] = z->t.s;
    for (int i = 0; i < z->nstreams; i++)
        if ((i && GT_CUDA(err, cudaStreamCreateWithFlags(&z->s[i], (unsigned)flags))) ||
            GT_CUDA(err, cudaEventCreateWithFlags(&z->fin[i], cudaEventDisableTiming)))
            goto fail;
    for (int i = 0; i < z->nchunks * EV_PER_CHUNK; i++)
        if (GT_CUDA(err, cudaEventCreate(&z->ev[i])))
            goto fail;

    z->seed = (uint32_t)(gt_now() * 1e6);
    for (size_t i = 0; i < total / sizeof(uint32_t); i++)
        z->h_in[i] = gt_pattern_word(i, z->seed);
    memset(z->h_out, 0, total);         /* pages exist before the first run */

    if (v[GT_STR_WORK]) {
        z->work = (uint32_t)v[GT_STR_WORK];
        snprintf(info->note, sizeof info->note, "every output word, on the CPU; kernel: %u "
                 "multiply-adds per word", z->work);
    } else {
        /* The kernel's time is not proportional to its work at small work
         * (memory and launch), so scale and measure again until it holds. */
        double h2d = 0, kt = 0;
        z->work = 64;
        for (int round = 0; round < 4; round++) {
            uint32_t next;
            if (time_chunk(z, z->work, &h2d, &kt, err))
                goto fail;
            double w = kt > 0 ? z->work * h2d / kt : 1;
            next = w < 1 ? 1 : w > (1 << 20) ? 1u << 20 : (uint32_t)(w + 0.5);
            if (next == z->work || (next > z->work ? next - z->work : z->work - next) * 50 < z->work)
                break;
            z->work = next;
        }
        snprintf(info->note, sizeof info->note, "every output word, on the CPU; kernel: %u "
                 "multiply-adds per word (auto: as long as one chunk's H2D, %s)", z->work,
                 gt_format_seconds(h2d, b, sizeof b));
    }
    gt_str_map(z->work, &z->ak, &z->sk);
    z->tl.nstreams = z->nstreams;
    gt_setup_info_timing(info, "events on the GPU from the first chunk's copy to the last "
                         "one's");
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* Every chunk over the run's first z->ns streams, forked from the run's
 * start on stream 0 and joined back, with additive constant z->c; the
 * host's allocations between chunks where asked. */
static int issue(void *state, int piece, cudaStream_t s0, gt_err *err)
{
    st *z = state;
    int ns = z->ns;

    (void)piece;
    for (int i = 1; i < ns; i++)
        if (GT_CUDA(err, cudaStreamWaitEvent(z->s[i], gt_timed_start(&z->t, 0), 0)))
            return -1;
    for (int ch = 0; ch < z->nchunks; ch++) {
        int k = ch % ns;
        cudaStream_t s = k ? z->s[k] : s0;
        cudaEvent_t *e = &z->ev[EV_PER_CHUNK * ch];
        uint32_t *h_in = z->h_in + (size_t)ch * z->words, *h_out = z->h_out + (size_t)ch * z->words;

        if (GT_CUDA(err, cudaEventRecord(e[0], s)) ||
            GT_CUDA(err, cudaMemcpyAsync(z->d[k], h_in, z->chunk, cudaMemcpyHostToDevice, s)) ||
            GT_CUDA(err, cudaEventRecord(e[1], s)) ||
            GT_CUDA(err, gt_k_lcg(z->d[k], z->words, z->work, z->c, z->blocks, s)) ||
            GT_CUDA(err, cudaEventRecord(e[2], s)) ||
            GT_CUDA(err, cudaMemcpyAsync(h_out, z->d[k], z->chunk, cudaMemcpyDeviceToHost, s)) ||
            GT_CUDA(err, cudaEventRecord(e[3], s)))
            return -1;
        if (z->legacy && GT_CUDA(err, gt_k_empty(cudaStreamLegacy)))
            return -1;
        if (z->alloc != GT_STR_ALLOC_NONE && ch + 1 < z->nchunks &&
            (z->alloc == GT_STR_ALLOC_HOST
                 ? GT_CUDA_ALLOC(err, cudaMallocHost(&z->between[z->nbetween], GT_STR_ALLOC_BYTES))
                 : GT_CUDA_ALLOC(err, cudaMalloc(&z->between[z->nbetween], GT_STR_ALLOC_BYTES))))
            return -1;
        z->nbetween += z->alloc != GT_STR_ALLOC_NONE && ch + 1 < z->nchunks;
    }
    for (int i = 1; i < ns; i++)
        if (GT_CUDA(err, cudaEventRecord(z->fin[i], z->s[i])) ||
            GT_CUDA(err, cudaStreamWaitEvent(s0, z->fin[i], 0)))
            return -1;
    return 0;
}

/* The run's operations into the timeline, from its start. */
static int collect(st *z, int run, double sec, gt_err *err)
{
    z->tl.total[run] = sec;
    for (int ch = 0; ch < z->nchunks && z->tl.nops + GT_TL_KINDS <= GT_TL_MAX_OPS; ch++) {
        float t[EV_PER_CHUNK];
        for (int i = 0; i < EV_PER_CHUNK; i++)
            if ((t[i] = elapsed_ms(gt_timed_start(&z->t, 0), z->ev[EV_PER_CHUNK * ch + i],
                                   err)) < 0)
                return -1;
        for (int k = 0; k < GT_TL_KINDS; k++) {
            gt_tl_op *op = &z->tl.ops[z->tl.nops++];
            *op = (gt_tl_op){(uint8_t)run, (uint8_t)(ch % z->ns), (uint8_t)k, (uint16_t)ch,
                             t[k] * 1e-3f, t[k + 1] * 1e-3f};
            if (run == GT_TL_SERIAL)
                z->tl.sum[k] += (double)(t[k + 1] - t[k]) * 1e-3;
        }
    }
    return 0;
}

/* The check of the output, split over CHECK_THREADS threads: one core
 * reads 128 MiB of pinned memory in 20-25 ms, which held the default
 * configuration near 10 samples a second. */
#define CHECK_THREADS 4

typedef struct check_part {
    const st *z;
    size_t lo, hi;
    uint32_t add, bad;
} check_part;

static void *check_range(void *arg)
{
    check_part *c = arg;
    uint32_t bad = 0;

    for (size_t i = c->lo; i < c->hi; i++)
        bad |= c->z->h_out[i] ^ (c->z->ak * gt_pattern_word(i, c->z->seed) + c->add);
    c->bad = bad;
    return NULL;
}

static bool check_out(const st *z, uint32_t c)
{
    size_t n = z->words * (size_t)z->nchunks;
    check_part part[CHECK_THREADS];
    pthread_t th[CHECK_THREADS];
    bool started[CHECK_THREADS] = {false};
    uint32_t bad = 0;

    for (int t = 0; t < CHECK_THREADS; t++) {
        part[t] = (check_part){z, n * (size_t)t / CHECK_THREADS,
                               n * (size_t)(t + 1) / CHECK_THREADS, z->sk * c, 0};
        /* thread 0's part runs here, and any part whose thread did not start */
        started[t] = t > 0 && pthread_create(&th[t], NULL, check_range, &part[t]) == 0;
    }
    for (int t = 0; t < CHECK_THREADS; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            check_range(&part[t]);
        bad |= part[t].bad;
    }
    return bad == 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    st *z = state;
    int nrun[2] = {1, z->nstreams};

    z->have_tl = false;
    z->tl.nops = 0;
    memset(z->tl.sum, 0, sizeof z->tl.sum);
    for (int r = 0; r < 2; r++) {
        static const gt_timed w = {.pieces = 1, .work = issue};
        uint64_t unused;
        int rc;

        /* A new additive constant each run: a stale output word fails. */
        z->c = 2 * ++z->runs + 1;
        z->ns = nrun[r];
        rc = gt_timed_sample(&z->t, &w, z, &out[r].sec, &unused, err);
        free_between(z);
        if (rc || collect(z, r, out[r].sec, err))
            return -1;
        out[r].series = (uint8_t)r;
        out[r].bytes = 2 * (uint64_t)z->chunk * (uint64_t)z->nchunks;
        out[r].verify = check_out(z, z->c) ? GT_V_FULL : GT_V_FAILED;
    }
    z->have_tl = true;
    return 2;
}

static bool timeline(void *state, gt_timeline *tl)
{
    st *z = state;

    if (!z->have_tl)
        return false;
    *tl = z->tl;
    return true;
}

GT_GPU_OPS(streams) = {.setup = setup, .run = run, .teardown = teardown,
                                   .timeline = timeline};
