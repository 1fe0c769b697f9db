// The reference probe's neighbours: a foreign load and an idle context
// (usage: refprobe.cu).
#include "refprobe.h"

__global__ void load_kernel(const uint4 *p, size_t n, uint4 *sink)
{
    uint4 acc = {0, 0, 0, 0};
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        acc.x ^= p[i].x;
    if (acc.x == 0x5eed5eedu)
        *sink = acc;
}

/* "ready" on stderr: the set-up is done (idle) or the first round of the
 * load has run (load); the suite waits for it instead of sleeping. */
static void ready(void)
{
    fputs("ready\n", stderr);
    fflush(stderr);
}

void load(double seconds)
{
    size_t copy = 64ull << 20, big = 256ull << 20;
    void *host, *dev, *buf;
    uint4 *sink;
    unsigned long n = 0;
    struct timespec t0, t;

    CK(cudaMallocHost(&host, copy));
    CK(cudaMalloc(&dev, copy));
    CK(cudaMalloc(&buf, big));
    CK(cudaMalloc(&sink, sizeof *sink));
    CK(cudaMemset(buf, 1, big));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        CK(cudaMemcpy(dev, host, copy, cudaMemcpyHostToDevice));
        load_kernel<<<1024, 256>>>((const uint4 *)buf, big / sizeof(uint4), sink);
        CK(cudaDeviceSynchronize());
        if (n++ == 0)
            ready();
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
    printf("{\"probe\":\"load\",\"rounds\":%lu,\"seconds\":%.1f}\n", n, seconds);
    cudaFreeHost(host);
    cudaFree(dev);
    cudaFree(buf);
    cudaFree(sink);
}

/* A context that holds 64 MiB and does nothing for SECONDS: does the mere
 * presence of another process's context change a measurement? */
void idle(double seconds)
{
    void *buf;

    CK(cudaMalloc(&buf, 64u << 20));
    CK(cudaMemset(buf, 0, 64u << 20));
    CK(cudaDeviceSynchronize());
    ready();
    usleep((useconds_t)(seconds * 1e6));
    printf("{\"probe\":\"idle\",\"seconds\":%.1f}\n", seconds);
    cudaFree(buf);
}
