/* vmm_gpu_data.h - the VMM experiment's op=bandwidth and op=read
 * (vmm_gpu_data.c), as vmm_gpu.c calls them: set-up once the range's
 * properties are known, and one timed sample; and the set-up note's words
 * on compression, which op=alloc uses too. */
#ifndef GPUTUI_GPU_VMM_DATA_H
#define GPUTUI_GPU_VMM_DATA_H

#include "vmm_gpu_range.h"

/* "; compressible memory: asked and granted ..." or "" (no compression asked). */
const char *gt_vmm_granted_note(vm *z);
int gt_vmm_bandwidth_setup(vm *z, gt_setup_info *info, gt_err *err);
int gt_vmm_bandwidth_run(vm *z, gt_sample *out, gt_err *err);
int gt_vmm_read_setup(vm *z, gt_setup_info *info, gt_err *err);
int gt_vmm_read_run(vm *z, gt_sample *out, gt_err *err);

#endif
