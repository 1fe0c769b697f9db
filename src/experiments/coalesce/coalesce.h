/* coalesce.h - parameter indices, series and address arithmetic of the
 * coalescing experiment (thread i of a copy kernel reads or writes element
 * i * stride + offset), shared by its table row (core) and its back-end
 * (gpu). */
#ifndef GPUTUI_EXP_COALESCE_H
#define GPUTUI_EXP_COALESCE_H

#include <stdint.h>

#include "gputui/device/devprops.h"
#include "gputui/measure/experiment.h"

enum { GT_CO_MEMORY, GT_CO_OP, GT_CO_WIDTH, GT_CO_STRIDE, GT_CO_OFFSET, GT_CO_SIZE,
       GT_CO_BUFFER, GT_CO_WARMUP, GT_CO_NPARAMS };
/* Where the buffer(s) walked with the stride live: device memory, or
 * mapped pinned host memory (the other side stays on the device). */
enum { GT_CO_DEVICE, GT_CO_MAPPED };
/* read: out[i] = in[i * stride + offset]; write: out[i * stride + offset]
 * = in[i]; both: out[i * stride + offset] = in[i * stride + offset]. */
enum { GT_CO_READ, GT_CO_WRITE, GT_CO_BOTH };
enum { GT_CO_FLOAT, GT_CO_FLOAT2, GT_CO_FLOAT4 };
enum {
    GT_CO_S_STRIDED,    /* the kernel at the stride and offset asked for */
    GT_CO_S_COALESCED,  /* the same kernel at stride 1, offset 0, same memory and bytes */
    GT_CO_S_COPY,       /* cudaMemcpyAsync of the same bytes: the ceiling */
    GT_CO_NSERIES
};

/* Mapped host memory the strided buffers may take, all told. */
#define GT_CO_MAPPED_MAX (4ull << 30)
/* What a gap between written elements holds (never written by a kernel). */
#define GT_CO_POISON 0xA5A5A5A5u

extern const gt_experiment gt_exp_coalesce;

/* The access of configuration v, in elements of 'width' bytes: thread
 * i < n reads in[i * in_stride + in_offset] and writes
 * out[i * out_stride + out_offset]; in_len and out_len are the elements
 * each buffer spans (the buffer parameter, when set, in its place: a
 * check has made sure the access fits). */
typedef struct gt_co_shape {
    uint64_t n;
    unsigned width;
    uint32_t in_stride, in_offset, out_stride, out_offset;
    uint64_t in_len, out_len;
} gt_co_shape;
void gt_co_shape_of(const int64_t *v, gt_co_shape *s);
unsigned gt_co_width(int64_t width_choice);     /* 4, 8 or 16 bytes */

/* The distinct 32-byte sectors one warp's request touches when lane l
 * accesses element (32 k + l) * stride + offset of 'width' bytes (the
 * same for every warp k: a warp starts 32 x stride x width bytes after
 * the one before, a whole number of sectors). The fewest: width. */
int gt_co_sectors(uint32_t stride, uint32_t offset, unsigned width);

#endif
