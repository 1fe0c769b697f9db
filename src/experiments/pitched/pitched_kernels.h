/* pitched_kernels.h - the launchers of the pitched experiment's kernels
 * (pitched_kernels.cu), for its GPU side (pitched_gpu.c). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_PITCHED_KERNELS_H
#define GPUTUI_PITCHED_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* p[r * pitch + c] += 1 for every row r < rows and byte c < width; a
 * block of 256 threads per row, 32-bit accesses when width, pitch and p
 * are multiples of 4, byte accesses otherwise. */
cudaError_t gt_k_rows_add1(uint8_t *p, size_t pitch, size_t width, size_t rows, int blocks,
                           cudaStream_t stream);
/* p[i] = gt_pi_byte(i, seed) (patterns.h) for i < n. */
cudaError_t gt_k_pi_fill(uint8_t *p, size_t n, uint32_t seed, int blocks, cudaStream_t stream);
/* *bad += bytes c < width of rows r < rows at p + r * pitch (device or
 * host-mapped memory) that differ from gt_pi_byte(r * width + c, seed) +
 * add. */
cudaError_t gt_k_pi_check(const uint8_t *p, size_t pitch, size_t width, size_t rows,
                          uint32_t seed, uint8_t add, unsigned long long *bad, int blocks,
                          cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
