// A kernel that spins (include/gputui/kernels.h): every block spins on the
// global timer, then block 0 marks the kernel as run. The concurrent,
// runtime and sharing experiments keep the GPU busy with it.
#include "gputui/kernels.h"

namespace {

__global__ void spin(unsigned long long ns, uint32_t id, uint32_t *marks)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
    if (blockIdx.x == 0)
        marks[id] = id + 1;
}

}  // namespace

extern "C" cudaError_t gt_k_spin(unsigned long long ns, uint32_t id, uint32_t *marks, int blocks,
                                 cudaStream_t s)
{
    spin<<<blocks, 1, 0, s>>>(ns, id, marks);
    return cudaGetLastError();
}
