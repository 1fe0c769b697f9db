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
/* sums[b] (b < the grid of at most 'blocks' blocks that gt_k_vmm_read
 * launches for n words): block b's fold of the data's words, as the read
 * folds them (each thread's words in the order it reads them). Computed
 * from gt_vmm_data_word, not from memory: once, after the fill. */
cudaError_t gt_k_vmm_expect(size_t n, int kind, uint32_t seed, uint32_t *sums, int blocks,
                            cudaStream_t stream);
/* The read of op=read: every word of p[0 .. n) (16 bytes a load, four
 * loads in flight a thread; p 16-byte aligned) folded, the fold checked
 * against sums (gt_k_vmm_expect with the same n, kind, seed and blocks);
 * a block whose fold differs compares its words one by one: res[0] += the
 * words that differ, res[1] = min(res[1], the first). */
cudaError_t gt_k_vmm_read(const uint32_t *p, size_t n, int kind, uint32_t seed,
                          const uint32_t *sums, unsigned long long *res, int blocks,
                          cudaStream_t stream);
/* Every word of p[0 .. n) compared with the data, into res as above: the
 * check of every copy. */
cudaError_t gt_k_vmm_check(const uint32_t *p, size_t n, int kind, uint32_t seed,
                           unsigned long long *res, int blocks, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
