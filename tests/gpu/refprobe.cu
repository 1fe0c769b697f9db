// refprobe: independent reference timings that the GPU suite and make bench
// set beside gputui's figures in the same run. It shares no code with gputui.
//
//   refprobe zc [N]          the zero-copy program of the "CUDA zero-copy
//                            mapped memory" article: c = a + b over N floats
//                            (default 1,000,000), 32 x 1024 threads, timed
//                            with events as the average of 10 back-to-back
//                            repeats; then the same one iteration at a time
//                            under several host-side conditions, to find
//                            what widens a per-iteration distribution.
//   refprobe zc-article [N]  the article's two figures alone (the GPU
//                            suite's fidelity check).
//   refprobe pageable [MiB [REPS]]  pageable H2D and D2H: cudaMemcpy timed
//                            on the CPU (as bandwidthTest does) against events
//                            on the stream around cudaMemcpyAsync, with a hot
//                            and a cold source; REPS copies of each (21).
//   refprobe chase KiB...    one walker on a random chain of 128-byte
//                            slots (64-bit pointers, built on the host),
//                            which walks the whole chain (up to 2^18
//                            loads), then times 16384 loads in the same
//                            kernel; 9 kernels a size, each going on where
//                            the last stopped; ns per load.
//   refprobe load SECONDS    a foreign load for the sharing tests: pinned
//                            64 MiB H2D copies and a kernel that reads
//                            256 MiB, back to back, for SECONDS.
//                            Says "ready" on stderr after its first round.
//   refprobe idle SECONDS    a context holding 64 MiB that does nothing:
//                            does another process's mere context change a
//                            measurement? (on an H200: no) Says "ready" on
//                            stderr once it holds them.
//   refprobe stencil W H [N] a plain 5-point stencil over a W x H float
//                            image, row by row, edges clamped, N kernels
//                            (default 30), each after twice the L2 was
//                            written and behind a 50 us spin; ms.
//   refprobe l2mix [MiB]     a 16 MiB chase, its chain read by the whole
//                            grid before each walk, after MiB (default 48)
//                            of other data was read or written, with and
//                            without a scratch buffer of twice the L2
//                            written and discarded (discard.global.L2)
//                            between; ns per load.
//
// Output: one JSON object per line, figures in ms or GB/s.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <ctime>
#include <vector>

#include <cuda_runtime.h>

#define CK(x)                                                                        \
    do {                                                                             \
        cudaError_t rc_ = (x);                                                       \
        if (rc_ != cudaSuccess) {                                                    \
            fprintf(stderr, "refprobe: %s: %s (%s:%d)\n", #x, cudaGetErrorString(rc_), \
                    __FILE__, __LINE__);                                             \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

namespace {

__global__ void add(float *c, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

double now()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

double pct(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v[(size_t)(p * (v.size() - 1) + 0.5)];
}

void dist(const char *what, const std::vector<double> &v, const char *extra = "")
{
    printf("{\"probe\":\"%s\",\"n\":%zu,\"p10\":%.4f,\"p50\":%.4f,\"p90\":%.4f,\"p99\":%.4f,"
           "\"max\":%.4f%s}\n", what, v.size(), pct(v, 0.1), pct(v, 0.5), pct(v, 0.9),
           pct(v, 0.99), pct(v, 1.0), extra);
    fflush(stdout);
}

struct Zc {
    int n;
    size_t bytes;
    float *ha, *hb, *hc, *da, *db, *dc;     // explicit
    float *ma, *mb, *mc, *dma, *dmb, *dmc;  // mapped
    cudaStream_t s;
};

void enqueue(Zc &z, bool mapped)
{
    if (mapped) {
        add<<<32, 1024, 0, z.s>>>(z.dmc, z.dma, z.dmb, z.n);
    } else {
        CK(cudaMemcpyAsync(z.da, z.ha, z.bytes, cudaMemcpyHostToDevice, z.s));
        CK(cudaMemcpyAsync(z.db, z.hb, z.bytes, cudaMemcpyHostToDevice, z.s));
        add<<<32, 1024, 0, z.s>>>(z.dc, z.da, z.db, z.n);
        CK(cudaMemcpyAsync(z.hc, z.dc, z.bytes, cudaMemcpyDeviceToHost, z.s));
    }
}

bool check(const Zc &z, const float *c)
{
    for (int i = 0; i < z.n; i++)
        if (c[i] != z.ha[i] + z.hb[i])
            return false;
    return true;
}

// The article's timing: events around 10 back-to-back repeats, averaged.
void zc_article(Zc &z, bool mapped)
{
    cudaEvent_t e0, e1;
    std::vector<double> v;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int r = 0; r < 3; r++)
        enqueue(z, mapped);
    CK(cudaStreamSynchronize(z.s));
    for (int r = 0; r < 31; r++) {
        float ms;
        CK(cudaEventRecord(e0, z.s));
        for (int k = 0; k < 10; k++)
            enqueue(z, mapped);
        CK(cudaEventRecord(e1, z.s));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        v.push_back(ms / 10);
    }
    if (!check(z, mapped ? z.mc : z.hc)) {
        fprintf(stderr, "refprobe: zc %s: wrong result\n", mapped ? "mapped" : "explicit");
        exit(1);
    }
    dist(mapped ? "zc_article_mapped" : "zc_article_explicit", v);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

// One iteration at a time. Flags: blocking-sync end event, the CPU poisons
// the output before and reads all of it after, the CPU only reads it, a
// gate (spin kernel on a host-mapped flag) holds the stream while the
// iteration is queued. The host-side enqueue time of each is kept too.
enum { BLOCKING = 1, POISON = 2, READ = 4, GATE = 8 };

__global__ void spin(volatile int *flag, int want)
{
    long long t0 = clock64();
    while (*flag < want && clock64() - t0 < 4000000000ll)
        ;
}

void zc_iter(Zc &z, bool mapped, int flags, const char *name, volatile int *hflag,
             int *dflag, int *gen)
{
    cudaEvent_t e0, e1;
    std::vector<double> v, enq;
    float *out = mapped ? z.mc : z.hc;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreateWithFlags(&e1, (flags & BLOCKING) ? cudaEventBlockingSync : 0));
    for (int r = 0; r < 203; r++) {
        float ms;
        if (flags & POISON)
            memset(out, 0xFF, z.bytes);
        CK(cudaStreamSynchronize(z.s));
        if (flags & GATE)
            spin<<<1, 1, 0, z.s>>>(dflag, ++*gen);
        double t0 = now();
        CK(cudaEventRecord(e0, z.s));
        enqueue(z, mapped);
        CK(cudaEventRecord(e1, z.s));
        double t1 = now();
        if (flags & GATE)
            *hflag = *gen;
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if ((flags & (POISON | READ)) && !check(z, out)) {
            fprintf(stderr, "refprobe: zc %s: wrong result\n", name);
            exit(1);
        }
        if (r >= 3) {
            v.push_back(ms);
            enq.push_back((t1 - t0) * 1e3);
        }
    }
    char extra[96];
    snprintf(extra, sizeof extra, ",\"enqueue_p50\":%.4f,\"enqueue_p90\":%.4f", pct(enq, 0.5),
             pct(enq, 0.9));
    dist(name, v, extra);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

void zc(int n, bool article_only)
{
    Zc z;
    z.n = n;
    z.bytes = (size_t)n * sizeof(float);
    CK(cudaMallocHost(&z.ha, z.bytes));
    CK(cudaMallocHost(&z.hb, z.bytes));
    CK(cudaMallocHost(&z.hc, z.bytes));
    CK(cudaMalloc(&z.da, z.bytes));
    CK(cudaMalloc(&z.db, z.bytes));
    CK(cudaMalloc(&z.dc, z.bytes));
    CK(cudaHostAlloc(&z.ma, z.bytes, cudaHostAllocMapped));
    CK(cudaHostAlloc(&z.mb, z.bytes, cudaHostAllocMapped));
    CK(cudaHostAlloc(&z.mc, z.bytes, cudaHostAllocMapped));
    CK(cudaHostGetDevicePointer(&z.dma, z.ma, 0));
    CK(cudaHostGetDevicePointer(&z.dmb, z.mb, 0));
    CK(cudaHostGetDevicePointer(&z.dmc, z.mc, 0));
    for (int i = 0; i < n; i++) {
        z.ha[i] = z.ma[i] = (float)(i & 1023);
        z.hb[i] = z.mb[i] = (float)((i * 7) & 1023);
    }
    CK(cudaStreamCreateWithFlags(&z.s, cudaStreamNonBlocking));
    int *hflag, *dflag, gen = 0;
    CK(cudaHostAlloc(&hflag, sizeof *hflag, cudaHostAllocMapped));
    *hflag = 0;
    CK(cudaHostGetDevicePointer(&dflag, hflag, 0));

    static const struct { int flags; const char *name; } modes[] = {
        {0, "plain"}, {BLOCKING, "blocking"}, {READ, "cpu_read"}, {POISON, "cpu_poison_read"},
        {BLOCKING | POISON, "blocking_cpu_poison_read"}, {GATE, "gate"},
        {GATE | BLOCKING, "gate_blocking"}, {GATE | BLOCKING | POISON, "gate_blocking_cpu_poison_read"},
    };
    for (int m = 0; m < 2; m++) {
        zc_article(z, m == 1);
        for (auto &mode : modes) {
            if (article_only)
                break;
            char name[96];
            snprintf(name, sizeof name, "zc_iter_%s_%s", m ? "mapped" : "explicit", mode.name);
            zc_iter(z, m == 1, mode.flags, name, hflag, dflag, &gen);
        }
    }
}

// Pageable copies: CPU-timed synchronous cudaMemcpy, events around
// cudaMemcpyAsync, and the host time of the cudaMemcpyAsync call alone.
// 'cold': each copy's host side is a different slice of a buffer 8x the
// size (up to 4 GiB), so it is not in the CPU's caches from the last one.
void pageable(size_t mib, int reps)
{
    size_t bytes = mib << 20;
    int slices = (int)std::min<size_t>(8, (4096 / mib));
    if (slices < 1)
        slices = 1;
    char *h = (char *)malloc(bytes * slices);
    void *d;
    cudaStream_t s;
    cudaEvent_t e0, e1;
    memset(h, 1, bytes * slices);
    CK(cudaMalloc(&d, bytes));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int dir = 0; dir < 2; dir++) {
        const char *dn = dir ? "d2h" : "h2d";
        for (int cold = 0; cold < 2; cold++) {
            std::vector<double> cpu, ev, call;
            for (int r = 0; r < reps + 2; r++) {
                char *hp = h + (cold ? (size_t)(r % slices) * bytes : 0);
                double t0 = now();
                if (dir == 0)
                    CK(cudaMemcpy(d, hp, bytes, cudaMemcpyHostToDevice));
                else
                    CK(cudaMemcpy(hp, d, bytes, cudaMemcpyDeviceToHost));
                double t1 = now();
                hp = h + (cold ? (size_t)((r + 3) % slices) * bytes : 0);
                float ms;
                CK(cudaEventRecord(e0, s));
                double t2 = now();
                if (dir == 0)
                    CK(cudaMemcpyAsync(d, hp, bytes, cudaMemcpyHostToDevice, s));
                else
                    CK(cudaMemcpyAsync(hp, d, bytes, cudaMemcpyDeviceToHost, s));
                double t3 = now();
                CK(cudaEventRecord(e1, s));
                CK(cudaEventSynchronize(e1));
                double t4 = now();
                CK(cudaEventElapsedTime(&ms, e0, e1));
                if (r < 2)
                    continue;
                cpu.push_back(bytes / (t1 - t0) * 1e-9);
                ev.push_back(bytes / (ms * 1e-3) * 1e-9);
                call.push_back((t3 - t2) / (t4 - t2));
            }
            char name[96], extra[160];
            snprintf(extra, sizeof extra, ",\"MiB\":%zu,\"unit\":\"GB/s\"", mib);
            snprintf(name, sizeof name, "pageable_%s_%s_cpu_timed_memcpy", dn, cold ? "cold" : "hot");
            dist(name, cpu, extra);
            snprintf(name, sizeof name, "pageable_%s_%s_events_async", dn, cold ? "cold" : "hot");
            dist(name, ev, extra);
            snprintf(extra, sizeof extra, ",\"MiB\":%zu,\"unit\":\"share of the async copy's wall "
                     "time spent inside the cudaMemcpyAsync call\"", mib);
            snprintf(name, sizeof name, "pageable_%s_%s_call_share", dn, cold ? "cold" : "hot");
            dist(name, call, extra);
        }
    }
    CK(cudaFree(d));
    free(h);
}

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
        for (int r = 0; r < 9; r++) {       // each kernel goes on where the last one stopped
            chase_kernel<<<1, 1>>>((void **)at, std::min<size_t>(n, 1 << 18), loads, dns, dsink);
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

}  // namespace

__global__ void load_kernel(const uint4 *p, size_t n, uint4 *sink)
{
    uint4 acc = {0, 0, 0, 0};
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        acc.x ^= p[i].x;
    if (acc.x == 0x5eed5eedu)
        *sink = acc;
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
static void idle(double seconds)
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: refprobe zc|zc-article [N] | pageable [MiB [REPS]] | chase KiB... | load SECONDS | idle SECONDS | l2mix [MiB] | stencil W H [N]\n");
        return 64;
    }
    CK(cudaSetDevice(0));
    CK(cudaFree(0));
    if (!strcmp(argv[1], "zc") || !strcmp(argv[1], "zc-article"))
        zc(argc > 2 ? atoi(argv[2]) : 1000000, !strcmp(argv[1], "zc-article"));
    else if (!strcmp(argv[1], "pageable"))
        pageable(argc > 2 ? (size_t)atoi(argv[2]) : 32, argc > 3 ? atoi(argv[3]) : 21);
    else if (!strcmp(argv[1], "chase") && argc > 2)
        chase(argc - 2, argv + 2);
    else if (!strcmp(argv[1], "load") && argc > 2)
        load(atof(argv[2]));
    else if (!strcmp(argv[1], "l2mix"))
        l2mix(argc > 2 ? (size_t)atoi(argv[2]) : 48);
    else if (!strcmp(argv[1], "stencil") && argc > 3)
        stencil(atoi(argv[2]), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 30);
    else if (!strcmp(argv[1], "idle") && argc > 2)
        idle(atof(argv[2]));
    else {
        fprintf(stderr, "refprobe: unknown probe '%s' (allowed: zc, zc-article, pageable, chase KiB..., "
                "load SECONDS, idle SECONDS, l2mix [MiB], stencil W H [N])\n",
                argv[1]);
        return 64;
    }
    return 0;
}
