/* async_kernels.h - the launchers of the async experiment's kernels
 * (async_kernels.cu), for its GPU side (async_gpu.c). Each launches on
 * 'stream' and returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_ASYNC_KERNELS_H
#define GPUTUI_ASYNC_KERNELS_H

#include "gputui/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a launch of the async kernel is: its way (GT_AS_*), the bytes a
 * cp.async moves, its stages, a tile's bytes, and the dynamic shared
 * memory a block asks for. */
typedef struct gt_as_shape {
    int way, width, stages;
    uint32_t tile, smem;
} gt_as_shape;

/* Sets the kernel of this shape up for its shared memory, and says how
 * many blocks of GT_AS_THREADS fit an SM (*fit) and its registers a thread
 * (*regs). cudaErrorNotSupported where this build has no such kernel (a
 * bulk or TMA copy before CUDA 12.0). */
cudaError_t gt_k_as_prepare(const gt_as_shape *sh, int *fit, int *regs);
/* The kernel: 'blocks' blocks read ntiles tiles of src (a pattern of
 * 'seed') into shared memory, tile t at byte t x tile (for the TMA, the
 * box of tensor map 'map', 128 bytes, at column (t mod 16) x 64, row
 * (t / 16) x tile / 256); each thread checks its words of every tile,
 * adding the wrong ones to *bad, then makes 'compute' dependent
 * multiply-adds on each. */
cudaError_t gt_k_as_read(const gt_as_shape *sh, const void *src, const void *map,
                         unsigned long long ntiles, uint32_t seed, uint32_t compute,
                         unsigned long long *bad, uint32_t *sink, int blocks,
                         cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
