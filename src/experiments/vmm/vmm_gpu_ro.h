/* vmm_gpu_ro.h - what a write into read-only VMM memory does
 * (vmm_gpu_ro.c), for op=peer (a peer's read-only access) and op=read
 * with access=ro (this GPU's own read-only mapping). Such a write faults,
 * and a fault ends every CUDA context of its process, so it is tried in a
 * child process (gt_exp_ops.child, "SELF WRITER"): VMM memory of its own
 * on SELF, read-only for WRITER (SELF itself: this GPU's own mapping); a
 * kernel on WRITER writes one word; the child prints the answer and
 * exits. */
#ifndef GPUTUI_GPU_VMM_RO_H
#define GPUTUI_GPU_VMM_RO_H

#include "vmm_gpu_range.h"

/* Runs the child for writer and puts its answer in info->note. */
void gt_vmm_try_ro_write(vm *z, int writer, gt_setup_info *info);
int gt_vmm_ro_child(int argc, char **argv);

#endif
