/* vmm.h - parameter indices and series of the Virtual Memory
 * Management experiment, shared by its table row (core) and its back-end
 * (gpu). */
#ifndef GPUTUI_EXP_VMM_H
#define GPUTUI_EXP_VMM_H

#include "gputui/measure/experiment.h"
#include "gputui/base/pattern.h"

enum { GT_VMM_OP, GT_VMM_GRAN, GT_VMM_SIZE, GT_VMM_DIR, GT_VMM_START, GT_VMM_END, GT_VMM_STEP,
       GT_VMM_PEER, GT_VMM_COMP, GT_VMM_DATA, GT_VMM_ACCESS, GT_VMM_LOC, GT_VMM_NUMA, GT_VMM_RDMA,
       GT_VMM_WARMUP,
       GT_VMM_NPARAMS };
enum { GT_VMM_OP_ALLOC, GT_VMM_OP_BANDWIDTH, GT_VMM_OP_GROW, GT_VMM_OP_PEER, GT_VMM_OP_READ,
       GT_VMM_OP_SHARE };
enum { GT_VMM_COMP_OFF, GT_VMM_COMP_ON };
enum { GT_VMM_ACCESS_RW, GT_VMM_ACCESS_RO };
/* Where cuMemCreate puts the memory: this GPU, the host, one host NUMA node. */
enum { GT_VMM_LOC_DEVICE, GT_VMM_LOC_HOST, GT_VMM_LOC_HOST_NUMA };
/* What the memory holds for op=bandwidth and op=read (gt_vmm_data_word). */
enum { GT_VMM_DATA_PATTERN, GT_VMM_DATA_RANDOM, GT_VMM_DATA_ZEROS, GT_VMM_DATA_CONSTANT };
enum { GT_VMM_GRAN_MIN, GT_VMM_GRAN_REC };
enum { GT_VMM_H2D, GT_VMM_D2H, GT_VMM_D2D };
enum { GT_VMM_PEER_OFF, GT_VMM_PEER_RW, GT_VMM_PEER_RO };

/* op=alloc: one series per call, VMM then the runtime's. */
enum { GT_VMM_S_RESERVE, GT_VMM_S_CREATE, GT_VMM_S_MAP, GT_VMM_S_ACCESS, GT_VMM_S_UNMAP,
       GT_VMM_S_RELEASE, GT_VMM_S_ADDRFREE, GT_VMM_S_MALLOC, GT_VMM_S_FREE,
       GT_VMM_S_MALLOC_ASYNC, GT_VMM_S_FREE_ASYNC, GT_VMM_S_ACCESS_PEERS, GT_VMM_NALLOC_SERIES };
/* op=alloc without peer access has no GT_VMM_S_ACCESS_PEERS series. */
/* op=bandwidth, op=read and op=grow: VMM memory against cudaMalloc memory;
 * op=read with the VMM memory on the host, mapped pinned memory too. */
enum { GT_VMM_S_VMM, GT_VMM_S_RUNTIME, GT_VMM_S_MAPPED };
/* op=share: the memory exported as a file descriptor, and another process
 * importing, mapping and opening it. */
enum { GT_VMM_S_EXPORT, GT_VMM_S_IMPORT, GT_VMM_S_SHARE_MAP, GT_VMM_S_SHARE_ACCESS };
/* op=peer: a kernel on the peer reads the VMM memory, then (rw) writes it. */
enum { GT_VMM_S_PEER_READ, GT_VMM_S_PEER_WRITE };

extern const gt_experiment gt_exp_vmm;

/* Word i of the data 'kind' (GT_VMM_DATA_*): gputui's pattern (word i =
 * i x K ^ seed, a rule from word to word, as every experiment writes), words
 * that share nothing (the pattern through a 32-bit mixing function), all
 * zeros, or one word repeated (1.0f). Compressible memory may keep the
 * last two, and perhaps the first, in less room than they take. */
static inline GT_HOST_DEVICE uint32_t gt_vmm_data_word(int kind, size_t i, uint32_t seed)
{
    uint32_t x;

    switch (kind) {
    case GT_VMM_DATA_ZEROS:
        return 0;
    case GT_VMM_DATA_CONSTANT:
        return 0x3F800000u;
    case GT_VMM_DATA_RANDOM:
        x = gt_pattern_word(i, seed);
        x ^= x >> 16;
        x *= 0x7FEB352Du;
        x ^= x >> 15;
        x *= 0x846CA68Bu;
        return x ^ (x >> 16);
    default:
        return gt_pattern_word(i, seed);
    }
}

/* bytes rounded up to a multiple of gran (gran > 0). */
static inline uint64_t gt_vmm_round(uint64_t bytes, uint64_t gran)
{
    return (bytes + gran - 1) / gran * gran;
}

/* The granularity the values ask for, 0 when the device did not say. */
uint64_t gt_vmm_granularity(const int64_t *vals, const gt_devprops *p);

#endif
