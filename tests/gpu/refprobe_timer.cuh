// refprobe_timer.cuh - how refprobe times one kernel (refprobe_warp.cu,
// refprobe_onchip.cu, refprobe_vmm.cu): events around it, behind a 50 us
// spin so that they bracket it alone, and with 'flush' after a read of
// twice the L2 that leaves it holding nothing of what came before; 32
// times, the first two left out. Each file that includes it gets its own copy.
#ifndef GPUTUI_REFPROBE_TIMER_CUH
#define GPUTUI_REFPROBE_TIMER_CUH

#include "refprobe.h"

namespace {

__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

// Reads the whole scratch buffer: what the L2 held before is gone, and
// what it holds now is clean.
__global__ void evict(const float4 *p, size_t n, float *sink)
{
    float acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        acc += p[i].x + p[i].w;
    if (acc == 1.5f)
        *sink = acc;
}

struct Timer {
    cudaStream_t s;
    cudaEvent_t a, b;
    long long spin_cycles;
    float4 *scratch = nullptr;
    size_t scratch_n = 0;
    float *sink;
    Timer(bool flush)
    {
        int dev, rate, l2;
        CK(cudaGetDevice(&dev));
        CK(cudaDeviceGetAttribute(&rate, cudaDevAttrClockRate, dev));    // kHz
        CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
        spin_cycles = 50LL * rate / 1000;
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        CK(cudaMalloc(&sink, 4));
        if (flush) {
            scratch_n = 2 * (size_t)l2 / 16;
            CK(cudaMalloc(&scratch, scratch_n * 16));
            CK(cudaMemset(scratch, 0, scratch_n * 16));
        }
    }
    ~Timer()
    {
        cudaFree(scratch);
        cudaFree(sink);
        cudaEventDestroy(a);
        cudaEventDestroy(b);
        cudaStreamDestroy(s);
    }
    template <typename F> std::vector<double> time(F launch, int reps = 32)
    {
        std::vector<double> ms;
        for (int i = 0; i < reps; i++) {
            if (scratch)
                evict<<<1024, 256, 0, s>>>(scratch, scratch_n, sink);
            spin<<<1, 1, 0, s>>>(spin_cycles);
            CK(cudaEventRecord(a, s));
            launch(s);
            CK(cudaEventRecord(b, s));
            CK(cudaStreamSynchronize(s));
            CK(cudaGetLastError());
            float t;
            CK(cudaEventElapsedTime(&t, a, b));
            if (i >= 2)
                ms.push_back(t);
        }
        return ms;
    }
};

}  // namespace

#endif
