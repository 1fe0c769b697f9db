// refprobe_cu.h - refprobe's checked driver API call, for the files that
// call the driver (refprobe_vmm.cu, refprobe_vmm_share.cu).
#ifndef GPUTUI_REFPROBE_CU_H
#define GPUTUI_REFPROBE_CU_H

#include <cuda.h>
#include <cstdio>
#include <cstdlib>

#define CU(x)                                                                        \
    do {                                                                             \
        CUresult rc_ = (x);                                                          \
        if (rc_ != CUDA_SUCCESS) {                                                   \
            const char *s_ = "?";                                                    \
            cuGetErrorName(rc_, &s_);                                                \
            fprintf(stderr, "refprobe: %s: %s (%s:%d)\n", #x, s_, __FILE__, __LINE__); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

#endif
