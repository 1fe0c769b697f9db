/* cuda_backend.h - the CUDA implementation of backend.h (src/gpu/). */
#ifndef GPUTUI_CUDA_BACKEND_H
#define GPUTUI_CUDA_BACKEND_H

#include "gputui/backend.h"

extern const gt_backend gt_cuda_backend;

#endif
