// The reference probe's memory hierarchy: the pointer chase, the L2 mix
// and the stencil (usage: refprobe.cu).
#include "refprobe.h"

// Pointer chase: every slot holds the address of the next one.
__global__ void chase_kernel(void **start, size_t warm, size_t loads, unsigned long long *ns,
                             void **sink)
{
    void **p = start;
    for (size_t i = 0; i < warm; i++)
        p = (void **)*p;
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0) : "l"(p));
    for (size_t i = 0; i < loads; i++)
        p = (void **)*p;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1) : "l"(p));
    *ns = t1 - t0;
    *sink = p;
}

// One random cycle of 128-byte slots over the bytes at d (each slot holds
// the next one's address), built on the host and copied there; returns
// the first slot.
void *random_chain(char *d, size_t bytes, size_t slot)
{
    size_t n = bytes / slot;
    std::vector<size_t> order(n);
    std::vector<char> host(bytes);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    srand(12345);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)rand() % i;
        std::swap(order[i], order[j]);
    }
    for (size_t i = 0; i < n; i++) {
        void *next = d + order[(i + 1) % n] * slot;
        memcpy(&host[order[i] * slot], &next, sizeof next);
    }
    CK(cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice));
    return d + order[0] * slot;
}

void chase(int argc, char **argv)
{
    const size_t slot = 128, loads = 16384;
    for (int a = 0; a < argc; a++) {
        size_t bytes = (size_t)atol(argv[a]) << 10, n = bytes / slot;
        char *d;
        unsigned long long *dns, hns;
        void **dsink;
        CK(cudaMalloc(&d, bytes));
        CK(cudaMalloc(&dns, sizeof *dns));
        CK(cudaMalloc(&dsink, sizeof *dsink));
        std::vector<double> v;
        void *at = random_chain(d, bytes, slot);
        // Each kernel goes on where the last one stopped, after a walk that
        // warms the caches and the TLB: of the whole chain up to 32 MiB,
        // every kernel (the next may run on another SM, its L1 cold); past
        // it the first kernel alone walks ahead, the L2 being shared: the
        // whole chain up to 64 MiB, 2^18 loads of a larger one, which
        // misses the L2 anyway (0.16 s on an H200 at 512 MiB: nine times
        // that was most of a run).
        size_t every = n <= (1u << 18) ? n : 0, first = n <= (1u << 19) ? n : 1u << 18;
        for (int r = 0; r < 9; r++) {
            chase_kernel<<<1, 1>>>((void **)at, r ? every : first, loads, dns, dsink);
            CK(cudaGetLastError());
            CK(cudaMemcpy(&hns, dns, sizeof hns, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(&at, dsink, sizeof at, cudaMemcpyDeviceToHost));
            v.push_back((double)hns / loads);
        }
        char extra[96];
        snprintf(extra, sizeof extra, ",\"KiB\":%zu,\"unit\":\"ns per load\"", bytes >> 10);
        dist("chase", v, extra);
        CK(cudaFree(d));
        CK(cudaFree(dns));
        CK(cudaFree(dsink));
    }
}

// Every 128-byte line of n bytes: read (w = 0), written (1), or written
// then dropped from the L2 without a write-back (2, discard.global.L2).
__global__ void lines_kernel(char *p, size_t n, int w, unsigned long long *sink)
{
    unsigned long long acc = 0;
    for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 128; i < n;
         i += (size_t)gridDim.x * blockDim.x * 128) {
        if (w == 0) {
            acc += *(volatile unsigned long long *)(p + i);
        } else {
            *(unsigned long long *)(p + i) = i;
#if __CUDA_ARCH__ >= 800
            if (w == 2)
                asm volatile("discard.global.L2 [%0], 128;" ::"l"(p + i) : "memory");
#endif
        }
    }
    if (acc == 42)
        *sink = acc;
}

// A 16 MiB chase after other data went through the L2: does data left
// there by someone else slow it, and does writing then discarding a
// scratch buffer of twice the L2 clear it?
void l2mix(size_t foreign_mib)
{
    const size_t slot = 128, loads = 4096, bytes = 16u << 20;
    int dev, l2 = 0, sms = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    size_t fbytes = foreign_mib << 20, sbytes = 2 * (size_t)l2;
    char *d, *f, *scratch;
    unsigned long long *dns, hns, *sink;
    void **dsink;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMalloc(&f, fbytes));
    CK(cudaMalloc(&scratch, sbytes));
    CK(cudaMalloc(&dns, sizeof *dns));
    CK(cudaMalloc(&sink, sizeof *sink));
    CK(cudaMalloc(&dsink, sizeof *dsink));
    void *at = random_chain(d, bytes, slot);
    auto measure = [&](const char *what) {
        std::vector<double> v;
        for (int r = 0; r < 15; r++) {
            lines_kernel<<<sms * 4, 256>>>(d, bytes, 0, sink);
            chase_kernel<<<1, 1>>>((void **)at, 0, loads, dns, dsink);
            CK(cudaGetLastError());
            CK(cudaMemcpy(&hns, dns, sizeof hns, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(&at, dsink, sizeof at, cudaMemcpyDeviceToHost));
            v.push_back((double)hns / loads);
        }
        char extra[160];
        snprintf(extra, sizeof extra, ",\"after\":\"%s\",\"foreign_MiB\":%zu,\"unit\":\"ns per load\"",
                 what, foreign_mib);
        dist("l2mix", v, extra);
    };
    auto lines = [&](char *p, size_t b, int w) {
        lines_kernel<<<sms * 4, 256>>>(p, b, w, sink);
        CK(cudaDeviceSynchronize());
    };
    measure("nothing");
    lines(f, fbytes, 0);
    measure("foreign read");
    lines(f, fbytes, 1);
    measure("foreign written");
    lines(f, fbytes, 1);
    lines(scratch, sbytes, 2);
    measure("foreign written, scratch written+discarded");
    lines(f, fbytes, 0);
    lines(scratch, sbytes, 2);
    measure("foreign read, scratch written+discarded");
    lines(f, fbytes, 1);
    lines(scratch, sbytes, 0);
    measure("foreign written, scratch read");
    lines(f, fbytes, 1);
    lines(scratch, sbytes, 1);
    measure("foreign written, scratch written");
    CK(cudaFree(d));
    CK(cudaFree(f));
    CK(cudaFree(scratch));
    CK(cudaFree(dns));
    CK(cudaFree(sink));
    CK(cudaFree(dsink));
}

// A plain 5-point stencil over a float image, row by row, the edges
// clamped: the texture experiment's linear-memory figure at access=row,
// written here without its walks, texel types or address modes.
__global__ void stencil_kernel(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1), yu = max(y - 1, 0), yd = min(y + 1, h - 1);
    out[(size_t)y * w + x] = in[(size_t)y * w + x] + in[(size_t)y * w + xl] +
                             in[(size_t)y * w + xr] + in[(size_t)yu * w + x] +
                             in[(size_t)yd * w + x];
}

__global__ void spin_kernel(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

// W x H texels, N kernels, each after a write of twice the L2 (so that
// the image is read from device memory, as in gputui, where other copies
// and kernels run between two of its stencils) and behind a 50 us spin so
// that its events bracket it back to back; ms per kernel. The result is
// checked against the host's stencil.
void stencil(int w, int h, int n)
{
    size_t count = (size_t)w * h;
    std::vector<float> img(count), got(count);
    float *in, *out;
    void *scratch;
    int l2 = 0;
    cudaEvent_t a, b;
    cudaStream_t s;
    std::vector<double> ms;
    int rate = 0, dev = 0;

    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img[(size_t)y * w + x] = (float)((x * 7 + y * 13) & 1023) / 1024.0f;
    CK(cudaMalloc(&in, count * 4));
    CK(cudaMalloc(&out, count * 4));
    CK(cudaMemcpy(in, img.data(), count * 4, cudaMemcpyHostToDevice));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&rate, cudaDevAttrClockRate, dev));  // kHz
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    CK(cudaMalloc(&scratch, 2 * (size_t)l2));
    for (int i = 0; i < n + 2; i++) {
        CK(cudaMemsetAsync(scratch, i & 0xff, 2 * (size_t)l2, s));
        spin_kernel<<<1, 1, 0, s>>>(50LL * rate / 1000);
        CK(cudaEventRecord(a, s));
        stencil_kernel<<<dim3(w / 32, h / 8), dim3(32, 8), 0, s>>>(in, out, w, h);
        CK(cudaEventRecord(b, s));
        CK(cudaStreamSynchronize(s));
        float t;
        CK(cudaEventElapsedTime(&t, a, b));
        if (i >= 2)
            ms.push_back(t);
    }
    CK(cudaMemcpy(got.data(), out, count * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            auto at = [&](int xx, int yy) {
                xx = std::min(std::max(xx, 0), w - 1);
                yy = std::min(std::max(yy, 0), h - 1);
                return img[(size_t)yy * w + xx];
            };
            float e = at(x, y) + at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1);
            if (got[(size_t)y * w + x] != e) {
                fprintf(stderr, "refprobe: stencil: wrong at (%d, %d): %g, not %g\n", x, y,
                        got[(size_t)y * w + x], e);
                exit(1);
            }
        }
    dist("stencil_row", ms);
    cudaFree(scratch);
    cudaFree(in);
    cudaFree(out);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaStreamDestroy(s);
}
