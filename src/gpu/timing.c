/* What a timed experiment holds (gpu.h's gt_timing): its stream, the
 * events it records around each piece of work, and the timing gate; and
 * the one reading of two events' elapsed time. */
#define _GNU_SOURCE
#include "gpu.h"

int gt_timing_init(gt_timing *t, int nev, gt_err *err)
{
    if (nev > GT_TIMING_EVENTS) {
        gt_err_set(err, GT_EXIT_FAIL, "gt_timing_init: %d events, at most %d", nev,
                   GT_TIMING_EVENTS);
        return -1;
    }
    t->nev = nev;
    if (GT_CUDA(err, cudaStreamCreateWithFlags(&t->s, cudaStreamNonBlocking)))
        return -1;
    for (int i = 0; i < nev; i++)
        if (GT_CUDA(err, cudaEventCreate(&t->e[i])))
            return -1;
    return gt_gate_init(&t->gate, true, true, err);
}

void gt_timing_free(gt_timing *t)
{
    gt_gate_free(&t->gate);
    gt_gpu_quiesce();
    for (int i = 0; i < GT_TIMING_EVENTS; i++)
        gt_destroy_event(&t->e[i]);
    gt_destroy_stream(&t->s);
}

int gt_event_ms(float *ms, cudaEvent_t a, cudaEvent_t b, gt_err *err)
{
    return GT_CUDA(err, cudaEventElapsedTime(ms, a, b));
}
