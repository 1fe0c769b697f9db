// refprobe's plain program of the stream-ordered allocator (usage:
// refprobe.cu): N buffers of S bytes allocated and freed by cudaMalloc,
// by cudaMallocAsync on the default pool, and through
// cudaMallocFromPoolAsync on a pool that keeps everything; each buffer set
// with cudaMemsetAsync between the two (untimed); the host's clock around
// the allocations and the frees, each async half with its stream
// synchronised. Then cudaFree and cudaFreeAsync, each called while a 1 ms
// kernel runs. 32 rounds; the first two are left out.
#include "refprobe.h"

namespace {

// Runs for ns of the GPU's global timer.
__global__ void busy(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

}  // namespace

void pool(int n, size_t bytes)
{
    int dev;
    cudaStream_t s;
    cudaMemPool_t own;
    cudaMemPoolProps props = {};
    unsigned long long keep = ~0ull;       // cuuint64_t, the attribute's type
    std::vector<void *> p(n);
    std::vector<double> t[3], tf[2];

    CK(cudaGetDevice(&dev));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    CK(cudaMemPoolCreate(&own, &props));
    CK(cudaMemPoolSetAttribute(own, cudaMemPoolAttrReleaseThreshold, &keep));
    for (int r = 0; r < 32; r++) {
        for (int k = 0; k < 3; k++) {
            double t0 = now();
            for (int i = 0; i < n; i++) {
                if (k == 0)
                    CK(cudaMalloc(&p[i], bytes));
                else if (k == 1)
                    CK(cudaMallocAsync(&p[i], bytes, s));
                else
                    CK(cudaMallocFromPoolAsync(&p[i], bytes, own, s));
            }
            if (k)
                CK(cudaStreamSynchronize(s));
            double t1 = now();
            for (int i = 0; i < n; i++)
                CK(cudaMemsetAsync(p[i], i & 0xff, bytes, s));
            CK(cudaStreamSynchronize(s));
            double t2 = now();
            for (int i = 0; i < n; i++) {
                if (k == 0)
                    CK(cudaFree(p[i]));
                else
                    CK(cudaFreeAsync(p[i], s));
            }
            if (k)
                CK(cudaStreamSynchronize(s));
            double t3 = now();
            if (r >= 2)
                t[k].push_back(((t1 - t0) + (t3 - t2)) * 1e3);
        }
        // a free while a 1 ms kernel runs on s
        void *x, *y;
        CK(cudaMalloc(&x, bytes));
        CK(cudaMallocAsync(&y, bytes, s));
        CK(cudaStreamSynchronize(s));
        busy<<<1, 1, 0, s>>>(1000000ull);
        double t0 = now();
        CK(cudaFree(x));
        double t1 = now();
        CK(cudaStreamSynchronize(s));
        busy<<<1, 1, 0, s>>>(1000000ull);
        double t2 = now();
        CK(cudaFreeAsync(y, s));
        double t3 = now();
        CK(cudaStreamSynchronize(s));
        if (r >= 2) {
            tf[0].push_back((t1 - t0) * 1e3);
            tf[1].push_back((t3 - t2) * 1e3);
        }
    }
    dist("pool_malloc", t[0]);
    dist("pool_default", t[1]);
    dist("pool_own_keep", t[2]);
    dist("pool_cudafree_busy", tf[0]);
    dist("pool_cudafreeasync_busy", tf[1]);
    CK(cudaMemPoolTrimTo(own, 0));
    CK(cudaMemPoolDestroy(own));
    CK(cudaStreamDestroy(s));
}
