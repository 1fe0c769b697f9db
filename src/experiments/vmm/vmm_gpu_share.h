/* vmm_gpu_share.h - the VMM experiment's op=share (vmm_gpu_share.c), as
 * vmm_gpu.c calls it: set-up (a second gputui process started, its stdin
 * a Unix socket), one sample (memory made exportable, its file descriptor
 * passed over the socket, the other process's import, map and access
 * timed and its writes checked here), the teardown (the child ends with
 * its socket, or is killed); and the child's side ("share DEVICE"). */
#ifndef GPUTUI_GPU_VMM_SHARE_H
#define GPUTUI_GPU_VMM_SHARE_H

#include "vmm_gpu_range.h"

int gt_vmm_share_setup(vm *z, gt_setup_info *info, gt_err *err);
int gt_vmm_share_run(vm *z, gt_sample *out, gt_err *err);
void gt_vmm_share_teardown(vm *z);
int gt_vmm_share_child(int device);

#endif
