/* vmm_gpu_peer.h - the VMM experiment's op=peer (vmm_gpu_peer.c), as
 * vmm_gpu.c calls it: set-up after the range is mapped and patterned, one
 * timed iteration, and the teardown of what the peer holds (safe when it
 * holds nothing). With ro, its write from the peer is tried as
 * vmm_gpu_ro.h says. */
#ifndef GPUTUI_GPU_VMM_PEER_H
#define GPUTUI_GPU_VMM_PEER_H

#include "vmm_gpu_range.h"

int gt_vmm_peer_setup(vm *z, gt_setup_info *info, gt_err *err);
int gt_vmm_peer_run(vm *z, gt_sample *out, gt_err *err);
void gt_vmm_peer_teardown(vm *z);

#endif
