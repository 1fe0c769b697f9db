// The gate's spin kernel behind include/gputui/kernels.h.
#include "gputui/kernels.h"

namespace {

__device__ unsigned long long globaltimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Waits until the host writes a value >= want into *flag, or timeout_ns
// passes; then *timed_out = 1 records that the host never opened it.
__global__ void gate_wait(const volatile int *flag, int want, unsigned long long timeout_ns,
                          int *timed_out)
{
    unsigned long long t0 = globaltimer();
    while (*flag < want) {
        if (globaltimer() - t0 > timeout_ns) {
            *timed_out = 1;
            return;
        }
    }
}

}  // namespace

extern "C" cudaError_t gt_k_gate_wait(const int *flag, int want, unsigned long long timeout_ns,
                                      int *timed_out, cudaStream_t s)
{
    gate_wait<<<1, 1, 0, s>>>(flag, want, timeout_ns, timed_out);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_image_check(void)
{
    cudaFuncAttributes a;
    return cudaFuncGetAttributes(&a, gate_wait);
}
