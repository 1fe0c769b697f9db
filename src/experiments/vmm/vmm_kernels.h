/* vmm_kernels.h - the launchers of the VMM experiment's kernels
 * (vmm_kernels.cu), for its GPU side; the data they write is
 * gt_vmm_data_word (vmm.h). Each launches on 'stream' and
 * returns the launch status; none of them synchronizes. */
#ifndef GPUTUI_VMM_KERNELS_H
#define GPUTUI_VMM_KERNELS_H

#include "gputui/kernels.h"
#include "vmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Words [first, first + n) of p get the data. */
cudaError_t gt_k_vmm_fill(uint32_t *p, size_t first, size_t n, int kind, uint32_t seed,
                          int blocks, cudaStream_t stream);
/* Reads every word of p[0 .. n) (16 bytes a load, four loads in flight a
 * thread; p 16-byte aligned) and compares it with the data: res[0] +=
 * the words that differ, res[1] = min(res[1], the first). The read of
 * op=read, and the check of every copy. */
cudaError_t gt_k_vmm_read(const uint32_t *p, size_t n, int kind, uint32_t seed,
                          unsigned long long *res, int blocks, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
