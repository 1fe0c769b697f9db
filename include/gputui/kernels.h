/* kernels.h - plain-C launchers for the __global__ functions in kernels/.
 * Each launches on 'stream' and returns the launch status; none of them
 * synchronizes. Patterns are 32-bit words: word i = (uint32)i * K ^ seed,
 * computed the same way on the CPU (gt_pattern_word, gputui/base/pattern.h). */
#ifndef GPUTUI_KERNELS_H
#define GPUTUI_KERNELS_H

#include <driver_types.h>
#include <stddef.h>
#include <stdint.h>

#include "gputui/base/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* p[i] = gt_pattern_word(i, seed) for i < nwords. */
cudaError_t gt_k_fill_pattern(uint32_t *p, size_t nwords, uint32_t seed,
                              int blocks, cudaStream_t stream);
/* p[i] = gt_pattern_word(i, seed) for first <= i < first + n: a piece of
 * a longer patterned buffer. */
cudaError_t gt_k_fill_pattern_at(uint32_t *p, size_t first, size_t n, uint32_t seed,
                                 int blocks, cudaStream_t stream);
/* p[i] = value (poison). */
cudaError_t gt_k_fill_word(uint32_t *p, size_t nwords, uint32_t value,
                           int blocks, cudaStream_t stream);
/* res[0] += number of words != pattern; res[1] = min(res[1], first bad
 * index). The caller sets res to {0, ~0} first. */
cudaError_t gt_k_verify_pattern(const uint32_t *p, size_t nwords,
                                uint32_t seed, unsigned long long *res,
                                int blocks, cudaStream_t stream);
/* Copies 'bytes' (a multiple of 4, pointers 16-byte aligned) with loads
 * and stores on the SMs. */
cudaError_t gt_k_copy(void *dst, const void *src, size_t bytes, int blocks,
                      cudaStream_t stream);
/* One thread spinning until *flag >= want (a host-mapped int the host
 * writes), or timeout_ns of the GPU's global timer; on a timeout it sets
 * *timed_out = 1. The gate (src/gpu/gate.c) holds a stream with it. */
cudaError_t gt_k_gate_wait(const int *flag, int want, unsigned long long timeout_ns,
                           int *timed_out, cudaStream_t stream);
/* Whether this binary has code the current device runs: the gate's kernel
 * asked for its attributes, which loads it (cudaErrorNoKernelImageForDevice
 * when no cubin or PTX of the build fits the device). */
cudaError_t gt_k_image_check(void);
/* p[i] = (i + step) % n: a chain whose every link jumps 'step' words. */
cudaError_t gt_k_chain_init(uint32_t *p, size_t n, uint32_t step, int blocks,
                            cudaStream_t stream);
/* One thread: j = start, then 'hops' times j = p[j]; *out = j. Each read's
 * address depends on the one before, so the time is hops x one read. The
 * grid has 'blocks' blocks of one thread and only block 'target' walks:
 * stepping the target spreads the walks over the SMs, whose distances to
 * the memory differ (nvbandwidth's method). */
cudaError_t gt_k_chase(const uint32_t *p, uint32_t start, unsigned long long hops,
                       uint32_t *out, int blocks, int target, cudaStream_t stream);
/* Reads 'bytes' (a multiple of 16) at p, so that the L2 holds these clean
 * lines and nothing of what came before; *sink is written only if the
 * words read add up to a value they never do. */
/* Every one of 'blocks' blocks (one thread each) spins for ns of the GPU's
 * global timer; then block 0 sets marks[id] = id + 1. */
cudaError_t gt_k_spin(unsigned long long ns, uint32_t id, uint32_t *marks, int blocks,
                      cudaStream_t stream);
cudaError_t gt_k_l2_flush(const void *p, size_t bytes, unsigned *sink, int blocks,
                          cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
