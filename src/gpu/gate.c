/* The gate: a timed region that spans several enqueued operations begins
 * only when all of them are queued, so the host's enqueue jitter stays out
 * of it (nvbandwidth's technique). gt_gate_hold puts a one-thread spin
 * kernel on the stream, waiting on a host-mapped flag; the caller records
 * its start event, enqueues the work and the end event, then
 * gt_gate_open writes the flag and the stream runs them back to back.
 *
 * Nothing between hold and open may wait for the GPU (a synchronous copy,
 * a pageable copy, cudaFree, cudaMallocHost, cudaMemPrefetchAsync, the
 * first launch of a lazily loaded kernel: cuda_backend.c loads them
 * eagerly): it would wait for the spin kernel, which waits for the host.
 * The kernel gives up after one second and gt_gate_check then reports the
 * bug instead of hanging. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "gputui/kernels.h"
#include "gpu.h"

#define GATE_TIMEOUT_NS 1000000000ull

int gt_gate_init(gt_gate *g, bool want, bool safe, gt_err *err)
{
    const char *env = getenv("GPUTUI_GATE");

    memset(g, 0, sizeof *g);
    g->on = safe && (env && (env[0] == '0' || env[0] == '1') && !env[1] ? env[0] == '1' : want);
    if (!g->on)
        return 0;
    if (GT_CUDA_ALLOC(err, cudaHostAlloc((void **)&g->host, 2 * sizeof(int), cudaHostAllocMapped)) ||
        GT_CUDA(err, cudaHostGetDevicePointer((void **)&g->dev, (void *)g->host, 0)))
        return -1;
    g->host[0] = g->host[1] = 0;
    return 0;
}

int gt_gate_hold(gt_gate *g, cudaStream_t s, gt_err *err)
{
    if (!g->on)
        return 0;
    g->open = false;
    return GT_CUDA(err, gt_k_gate_wait(g->dev, ++g->gen, GATE_TIMEOUT_NS, g->dev + 1, s));
}

void gt_gate_open(gt_gate *g)
{
    if (g->on && !g->open) {
        __atomic_store_n(&g->host[0], g->gen, __ATOMIC_RELEASE);
        g->open = true;
    }
}

int gt_gate_check(gt_gate *g, gt_err *err)
{
    if (!g->on || !__atomic_load_n(&g->host[1], __ATOMIC_ACQUIRE))
        return 0;
    gt_err_set(err, GT_EXIT_FAIL, "internal error: the timing gate's spin kernel waited 1 s "
               "for the host: a call between hold and open waited for the GPU (or a kernel "
               "loaded lazily: CUDA_MODULE_LOADING=LAZY). Please report it; GPUTUI_GATE=0 "
               "turns the gate off");
    return -1;
}

void gt_gate_free(gt_gate *g)
{
    if (g->host) {
        /* Opens every gate ever held, so the device drains. */
        __atomic_store_n(&g->host[0], 0x7fffffff, __ATOMIC_RELEASE);
        gt_gpu_quiesce();
    }
    gt_free_pinned(&g->host);
    g->dev = NULL;
    g->on = false;
}
