/* The harness for timed work (gpu.h's gt_timing and gt_timed): what a
 * timed experiment holds (its stream, the events around each piece of
 * work, the timing gate, the mismatch counters, the L2 flush), one sample
 * of its pieces, and the one reading of two events' elapsed time. */
#define _GNU_SOURCE
#include "gputui/kernels.h"
#include "gpu.h"

int gt_timing_init(gt_timing *t, const gt_timing_spec *spec, gt_err *err)
{
    int n = spec->pieces;

    if (n < 1 || n > GT_TIMING_PIECES) {
        gt_err_set(err, GT_EXIT_FAIL, "gt_timing_init: %d pieces (allowed: 1 to %d)", n,
                   GT_TIMING_PIECES);
        return -1;
    }
    if (spec->streams < 0 || spec->streams > GT_TIMING_STREAMS) {
        gt_err_set(err, GT_EXIT_FAIL, "gt_timing_init: %d more streams (allowed: 0 to %d)",
                   spec->streams, GT_TIMING_STREAMS);
        return -1;
    }
    t->pieces = n;
    unsigned flags = spec->blocking ? cudaStreamDefault : cudaStreamNonBlocking;
    if (GT_CUDA(err, cudaStreamCreateWithFlags(&t->s, flags)))
        return -1;
    for (int i = 0; i < spec->streams; i++)
        if (GT_CUDA(err, cudaStreamCreateWithFlags(&t->side[i], flags)))
            return -1;
    for (int i = 0; i < 2 * n; i++)
        if (GT_CUDA(err, cudaEventCreate(&t->e[i])))
            return -1;
    if (GT_CUDA(err, cudaEventCreateWithFlags(&t->done, spec->sleep ? cudaEventBlockingSync |
                                              cudaEventDisableTiming : cudaEventDisableTiming)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&t->dbad, 2 * (size_t)n * sizeof *t->dbad)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&t->hbad, 2 * (size_t)n * sizeof *t->hbad)))
        return -1;
    if (spec->flush_bytes) {
        t->flush_bytes = spec->flush_bytes;
        if (GT_CUDA_ALLOC(err, cudaMalloc(&t->flush, t->flush_bytes)) ||
            GT_CUDA_ALLOC(err, cudaMalloc((void **)&t->sink, sizeof *t->sink)) ||
            GT_CUDA(err, cudaMemsetAsync(t->flush, 0, t->flush_bytes, t->s)) ||
            GT_CUDA(err, cudaStreamSynchronize(t->s)))
            return -1;
    }
    return gt_gate_init(&t->gate, !spec->ungated, true, err);
}

size_t gt_l2_flush_size(const gt_devprops *p)
{
    return gt_dp_ok(p, GT_DP_L2) && gt_dp_get(p, GT_DP_L2) > 0 ? 2 * (size_t)gt_dp_get(p, GT_DP_L2)
                                                                : 0;
}

void gt_timing_free(gt_timing *t)
{
    gt_gate_free(&t->gate);
    gt_gpu_quiesce();
    for (int i = 0; i < 2 * GT_TIMING_PIECES; i++)
        gt_destroy_event(&t->e[i]);
    gt_destroy_event(&t->done);
    gt_free_device(&t->dbad);
    gt_free_pinned(&t->hbad);
    gt_free_device(&t->flush);
    gt_free_device(&t->sink);
    for (int i = 0; i < GT_TIMING_STREAMS; i++)
        gt_destroy_stream(&t->side[i]);
    gt_destroy_stream(&t->s);
}

/* Pieces [first, first + n) behind one gate, then their checks; waits. */
static int timed(gt_timing *t, const gt_timed *w, void *z, int first, int n, gt_err *err)
{
    bool gated = t->gate.on && !w->ungated;
    cudaStream_t s[GT_TIMING_PIECES];
    int last = first + n;

    for (int i = first; i < last; i++)
        s[i] = w->stream ? w->stream(z, i) : t->s;
    if (GT_CUDA(err, cudaMemsetAsync(t->dbad + 2 * first, 0, 2 * (size_t)n * sizeof *t->dbad,
                                     t->s)))
        return -1;
    for (int i = first; i < last; i++)
        if (w->prepare && w->prepare(z, i, s[i], err))
            return -1;
    /* Without the gate, the work starts from an idle stream. */
    for (int i = first; i < last && !gated; i++)
        if (GT_CUDA(err, cudaStreamSynchronize(s[i])))
            return -1;
    for (int i = first; i < last && gated; i++) {
        bool held = false;
        for (int j = first; j < i; j++)
            held |= s[j] == s[i];
        if (!held && gt_gate_hold(&t->gate, s[i], err)) {
            gt_gate_open(&t->gate);
            return -1;
        }
    }
    for (int i = first; i < last; i++)
        if ((t->flush && GT_CUDA(err, gt_k_l2_flush(t->flush, t->flush_bytes, t->sink,
                                                    gt_gpu_sms() * 8, s[i]))) ||
            GT_CUDA(err, cudaEventRecord(t->e[2 * i], s[i])) ||
            w->work(z, i, s[i], err) ||
            GT_CUDA(err, cudaEventRecord(t->e[2 * i + 1], s[i]))) {
            if (gated)
                gt_gate_open(&t->gate);
            return -1;
        }
    if (gated)
        gt_gate_open(&t->gate);
    for (int i = first; i < last; i++)
        if ((s[i] != t->s && GT_CUDA(err, cudaStreamWaitEvent(t->s, t->e[2 * i + 1], 0))) ||
            (w->check && w->check(z, i, t->dbad + 2 * i, t->s, err)))
            return -1;
    if (GT_CUDA(err, cudaMemcpyAsync(t->hbad + 2 * first, t->dbad + 2 * first,
                                     2 * (size_t)n * sizeof *t->hbad, cudaMemcpyDeviceToHost,
                                     t->s)) ||
        GT_CUDA(err, cudaEventRecord(t->done, t->s)) ||
        GT_CUDA(err, cudaEventSynchronize(t->done)))
        return -1;
    return gated ? gt_gate_check(&t->gate, err) : 0;
}

int gt_timed_sample(gt_timing *t, const gt_timed *w, void *z, double *sec, uint64_t *bad,
                    gt_err *err)
{
    if (w->pieces < 1 || w->pieces > t->pieces) {
        gt_err_set(err, GT_EXIT_FAIL, "gt_timed_sample: %d pieces, the timing holds %d",
                   w->pieces, t->pieces);
        return -1;
    }
    for (int i = 0; i < w->pieces; i += w->apart ? 1 : w->pieces)
        if (timed(t, w, z, i, w->apart ? 1 : w->pieces, err))
            return -1;
    for (int i = 0; i < w->pieces; i++) {
        float ms = 0;
        if (gt_event_ms(&ms, t->e[2 * i], t->e[2 * i + 1], err))
            return -1;
        if (!(ms > 0)) {
            gt_err_set(err, GT_EXIT_FAIL, "internal error: piece %d of a sample timed %g ms "
                       "between two events on one stream", i, (double)ms);
            return -1;
        }
        sec[i] = ms * 1e-3;
        bad[i] = t->hbad[2 * i];
    }
    return 0;
}

cudaEvent_t gt_timed_start(const gt_timing *t, int i)
{
    return t->e[2 * i];
}

int gt_timed_samples(gt_timing *t, const gt_timed *w, void *z, uint64_t bytes, gt_sample *out,
                     gt_err *err)
{
    double sec[GT_TIMING_PIECES];
    uint64_t bad[GT_TIMING_PIECES];

    if (gt_timed_sample(t, w, z, sec, bad, err))
        return -1;
    for (int i = 0; i < w->pieces; i++)
        out[i] = (gt_sample){.series = (uint8_t)i, .verify = bad[i] ? GT_V_FAILED : GT_V_FULL,
                             .sec = sec[i], .bytes = bytes};
    return w->pieces;
}

int gt_event_ms(float *ms, cudaEvent_t a, cudaEvent_t b, gt_err *err)
{
    return GT_CUDA(err, cudaEventElapsedTime(ms, a, b));
}
