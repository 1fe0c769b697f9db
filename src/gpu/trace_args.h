/* trace_args.h - private to src/gpu, included by gpu.h: readable
 * arguments for the calls whose source text says little ("z->bytes").
 *
 * Each macro has the name of the runtime function it stands for. Before
 * the call it hands the trace (gputui/measure/trace.h) the arguments as values
 * ("64 MiB", "Mapped|WriteCombined"), then calls the function itself: a
 * macro is not expanded inside its own expansion. Without a capture on,
 * the arguments are not formatted. */
#ifndef GPUTUI_GPU_TRACE_ARGS_H
#define GPUTUI_GPU_TRACE_ARGS_H

#include <stdint.h>

#include "gputui/measure/trace.h"

const char *gt_ta_size(uint64_t bytes, char *buf);      /* buf: GT_TA_BUF bytes; calls.c */
const char *gt_ta_kind(int kind);                        /* cudaMemcpyHostToDevice ... */
const char *gt_ta_hostflags(unsigned flags, int reg, char *buf);   /* hostmem.c */
#define GT_TA_BUF 48

#define GT_TA(...) (gt_trace_capturing() ? gt_trace_args(__VA_ARGS__) : (void)0)
#define GT_TA_S(n) gt_ta_size((uint64_t)(n), (char[GT_TA_BUF]){0})

#define cudaMalloc(p, n) (GT_TA("%s", GT_TA_S(n)), cudaMalloc(p, n))
#define cudaMallocHost(p, n) (GT_TA("%s", GT_TA_S(n)), cudaMallocHost(p, n))
#define cudaMallocAsync(p, n, s) (GT_TA("%s, stream", GT_TA_S(n)), cudaMallocAsync(p, n, s))
#define cudaMallocManaged(p, n, f) \
    (GT_TA("%s, cudaMemAttachGlobal", GT_TA_S(n)), cudaMallocManaged(p, n, f))
#define cudaHostAlloc(p, n, f)                                                        \
    (GT_TA("%s, cudaHostAlloc%s", GT_TA_S(n),                                         \
           gt_ta_hostflags((unsigned)(f), 0, (char[GT_TA_BUF]){0})),                  \
     cudaHostAlloc(p, n, f))
#define cudaHostRegister(p, n, f)                                                     \
    (GT_TA("%s, cudaHostRegister%s", GT_TA_S(n),                                      \
           gt_ta_hostflags((unsigned)(f), 1, (char[GT_TA_BUF]){0})),                  \
     cudaHostRegister(p, n, f))
#define cudaMallocPitch(p, pitch, w, h) \
    (GT_TA("width %zu B, height %zu", (size_t)(w), (size_t)(h)), cudaMallocPitch(p, pitch, w, h))
#define cudaMemcpyPeerAsync(d, dd, s, sd, n, st)                                      \
    (GT_TA("%s, GPU %d -> GPU %d, stream", GT_TA_S(n), (int)(sd), (int)(dd)),         \
     cudaMemcpyPeerAsync(d, dd, s, sd, n, st))
#define cudaMemcpyAsync(d, s, n, k, st) \
    (GT_TA("%s, %s, stream", GT_TA_S(n), gt_ta_kind((int)(k))), cudaMemcpyAsync(d, s, n, k, st))
#define cudaMemsetAsync(d, v, n, st) \
    (GT_TA("%s, value 0x%x, stream", GT_TA_S(n), (unsigned)(v)), cudaMemsetAsync(d, v, n, st))
#define gt_cudaMemPrefetchAsync(p, n, dev, st)                                        \
    (GT_TA("%s, to %s, stream", GT_TA_S(n),                                           \
           (dev) == cudaCpuDeviceId ? "the host" : "the device"),                     \
     gt_cudaMemPrefetchAsync(p, n, dev, st))
#define cudaDeviceSetLimit(l, v)                                                      \
    (GT_TA("%s, %s", (l) == cudaLimitPersistingL2CacheSize ?                          \
                         "cudaLimitPersistingL2CacheSize" : "limit", GT_TA_S(v)),     \
     cudaDeviceSetLimit(l, v))

#endif
