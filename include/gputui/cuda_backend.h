/* cuda_backend.h - the CUDA implementation of backend.h (src/gpu/). */
#ifndef GPUTUI_CUDA_BACKEND_H
#define GPUTUI_CUDA_BACKEND_H

#include "gputui/engine/backend.h"

extern const gt_backend gt_cuda_backend;
/* The CUDA runtime gputui was built against: 13000 for 13.0. */
extern const int gt_cuda_runtime_version;

/* The hidden first argument that makes gputui the VMM experiment's child
 * (op=peer, peer-access=ro): "gputui ARG SELF PEER" tries one write from
 * PEER into read-only VMM memory of SELF, prints the answer and exits. */
#define GT_VMM_RO_PROBE_ARG "--internal-vmm-ro-write"
int gt_vmm_ro_write_probe(int self, int peer);
/* The runtime experiment's child (src/gpu/runtime_probe.c): gputui
 * GT_RUNTIME_PROBE_ARG OP DEVICE. OP init makes a new process's first
 * calls on DEVICE, resets it and calls again, and prints the clock after
 * each (t_main is the clock read first thing in main); OP jit times
 * loading one module as cubins and as PTX. */
#define GT_RUNTIME_PROBE_ARG "--internal-runtime"
int gt_runtime_probe(const char *op, int device, double t_main);
/* The sharing experiment's second process (src/gpu/sharing.c): gputui
 * GT_SHARING_LOAD_ARG DEVICE KIND (kernels or copies) loads DEVICE while
 * its stdin says 'g' (go) until 's' (stop), acknowledging each on stdout,
 * and exits at 'q' or the end of its input. */
#define GT_SHARING_LOAD_ARG "--internal-load"
int gt_sharing_load(int device, const char *kind);

/* The gputui binary that the experiments' child processes run (sharing's
 * second process, runtime's init and jit, VMM's peer probe): by default
 * this binary itself; a program that is not gputui but drives the
 * back-end (make soak, the unwind test) names one. NULL or "": this one. */
void gt_cuda_set_child_program(const char *path);

#endif
