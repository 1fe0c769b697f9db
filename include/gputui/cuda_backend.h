/* cuda_backend.h - the CUDA implementation of backend.h (src/gpu/). */
#ifndef GPUTUI_CUDA_BACKEND_H
#define GPUTUI_CUDA_BACKEND_H

#include "gputui/engine/backend.h"

extern const gt_backend gt_cuda_backend;
/* The CUDA runtime gputui was built against: 13000 for 13.0. */
extern const int gt_cuda_runtime_version;

/* The hidden first argument that makes gputui an experiment's child
 * process: "gputui GT_CHILD_ARG NAME ARGS..." runs experiment NAME's child
 * (gt_exp_ops.child, backend.h) with ARGS and exits with its status. */
#define GT_CHILD_ARG "--internal"
int gt_cuda_child(int argc, char **argv, double t_main);

/* The gputui binary that the experiments' child processes run (sharing's
 * second process, runtime's init and jit, VMM's peer probe): by default
 * this binary itself; a program that is not gputui but drives the
 * back-end (make soak, the unwind test) names one. NULL or "": this one. */
void gt_cuda_set_child_program(const char *path);

#endif
