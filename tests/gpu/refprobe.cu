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
//   refprobe pageable [MiB [REPS [cold]]]  pageable H2D and D2H: cudaMemcpy
//                            timed on the CPU (as bandwidthTest does) against
//                            events on the stream around cudaMemcpyAsync, with
//                            a hot and a cold source; REPS copies of each (21);
//                            'cold': the cold CPU-timed copies alone (the
//                            GPU suite's fidelity check).
//   refprobe chase KiB...    one walker on a random chain of 128-byte
//                            slots (64-bit pointers, built on the host);
//                            9 kernels a size, each timing 16384 loads and
//                            going on where the last stopped, after a walk
//                            of the whole chain (past 32 MiB the first
//                            kernel alone, and 2^18 loads past 64 MiB); ns
//                            per load.
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
//   refprobe coalesce WIDTH STRIDE[,STRIDE...] OFFSET [MiB]  y[i] = x[i * STRIDE +
//                            OFFSET] over MiB (default 64) of float, float2 or float4, 256
//                            threads a block, one element each, after twice
//                            the L2 was read; ms.
//   refprobe banks STRIDE... every lane l of SMs x 4 blocks of 256 threads
//                            adds 4096 volatile shared-memory floats at
//                            l * STRIDE + (r mod 8) * 32; ms a kernel.
//   refprobe transpose N     the article's copy, naive, tiled and padded
//                            transposes of N x N floats (32 x 32 tiles, 8
//                            rows a block), each result checked; ms.
//   refprobe vmm-read on|off DATA,... [MiB [device|host-numa]]
//   refprobe vmm-share [MiB [N]]
//                            MiB (default 256) of cuMemCreate memory,
//                            compressible (on) or not, filled with zeros,
//                            constant, pattern or random, read whole by a
//                            kernel that compares each word, after twice
//                            the L2 was read; ms.
//   refprobe pool [N [KiB]]  N buffers (default 64) of KiB (default 1024)
//                            allocated and freed by cudaMalloc, cudaMallocAsync
//                            and a pool that keeps everything; then cudaFree and
//                            cudaFreeAsync while a 1 ms kernel runs; ms.
//   refprobe l2mix [MiB]     a 16 MiB chase, its chain read by the whole
//                            grid before each walk, after MiB (default 48)
//                            of other data was read or written, with and
//                            without a scratch buffer of twice the L2
//                            written and discarded (discard.global.L2)
//                            between; ns per load.
//
// Output: one JSON object per line, figures in ms or GB/s.
#include "refprobe.h"

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

void dist(const char *what, const std::vector<double> &v, const char *extra)
{
    printf("{\"probe\":\"%s\",\"n\":%zu,\"p10\":%.4f,\"p50\":%.4f,\"p90\":%.4f,\"p99\":%.4f,"
           "\"max\":%.4f%s}\n", what, v.size(), pct(v, 0.1), pct(v, 0.5), pct(v, 0.9),
           pct(v, 0.99), pct(v, 1.0), extra);
    fflush(stdout);
}

namespace {

__global__ void add(float *c, const float *a, const float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

}  // namespace

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
// cold_sync_only: the cold CPU-timed copies alone (the suite's figure).
void pageable(size_t mib, int reps, bool cold_sync_only)
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
        for (int cold = cold_sync_only; cold < 2; cold++) {
            std::vector<double> cpu, ev, call;
            for (int r = 0; r < reps + 2; r++) {
                char *hp = h + (cold ? (size_t)(r % slices) * bytes : 0);
                double t0 = now();
                if (dir == 0)
                    CK(cudaMemcpy(d, hp, bytes, cudaMemcpyHostToDevice));
                else
                    CK(cudaMemcpy(hp, d, bytes, cudaMemcpyDeviceToHost));
                double t1 = now();
                if (cold_sync_only) {
                    if (r >= 2)
                        cpu.push_back(bytes / (t1 - t0) * 1e-9);
                    continue;
                }
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
            if (cold_sync_only)
                continue;
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: refprobe zc|zc-article [N] | pageable [MiB [REPS [cold]]] | chase KiB... | load SECONDS | idle SECONDS | l2mix [MiB] | stencil W H [N] | coalesce WIDTH STRIDE OFFSET [MiB] | banks STRIDE... | transpose N | pool [N [KiB]] | async STAGES TILE_KIB[,...] WAYS [MiB] | dsmem KiB | cluster BLOCKS KiB READS | atomics K OPS | vmm-read on|off DATA,... [MiB [device|host-numa]] | vmm-share [MiB [N]]\n");
        return 64;
    }
    CK(cudaSetDevice(0));
    CK(cudaFree(0));
    if (!strcmp(argv[1], "zc") || !strcmp(argv[1], "zc-article"))
        zc(argc > 2 ? atoi(argv[2]) : 1000000, !strcmp(argv[1], "zc-article"));
    else if (!strcmp(argv[1], "pageable"))
        pageable(argc > 2 ? (size_t)atoi(argv[2]) : 32, argc > 3 ? atoi(argv[3]) : 21,
                 argc > 4 && !strcmp(argv[4], "cold"));
    else if (!strcmp(argv[1], "chase") && argc > 2)
        chase(argc - 2, argv + 2);
    else if (!strcmp(argv[1], "load") && argc > 2)
        load(atof(argv[2]));
    else if (!strcmp(argv[1], "l2mix"))
        l2mix(argc > 2 ? (size_t)atoi(argv[2]) : 48);
    else if (!strcmp(argv[1], "stencil") && argc > 3)
        stencil(atoi(argv[2]), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 30);
    else if (!strcmp(argv[1], "coalesce") && argc > 4)
        coalesce(argv[2], argv[3], atoi(argv[4]), argc > 5 ? (size_t)atoi(argv[5]) : 64);
    else if (!strcmp(argv[1], "banks") && argc > 2)
        banks(argc - 2, argv + 2);
    else if (!strcmp(argv[1], "transpose") && argc > 2)
        transpose(atoi(argv[2]));
    else if (!strcmp(argv[1], "async") && argc > 4)
        async_copies(atoi(argv[2]), argv[3], argv[4], argc > 5 ? (size_t)atol(argv[5]) : 256);
    else if (!strcmp(argv[1], "dsmem") && argc > 2)
        dsmem(atoi(argv[2]));
    else if (!strcmp(argv[1], "cluster") && argc > 4)
        cluster_reads(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    else if (!strcmp(argv[1], "atomics") && argc > 3)
        atomics((unsigned)atoi(argv[2]), atoi(argv[3]));
    else if (!strcmp(argv[1], "pool"))
        pool(argc > 2 ? atoi(argv[2]) : 64, (argc > 3 ? (size_t)atoi(argv[3]) : 1024) << 10);
    else if (!strcmp(argv[1], "vmm-read") && argc > 3)
        vmm_read(!strcmp(argv[2], "on"), argv[3], argc > 4 ? (size_t)atoi(argv[4]) : 256,
                 argc > 5 ? argv[5] : NULL);
    else if (!strcmp(argv[1], "vmm-share"))
        vmm_share(argc > 2 ? (size_t)atoi(argv[2]) : 64, argc > 3 ? atoi(argv[3]) : 30);
    else if (!strcmp(argv[1], "vmm-share-child"))
        vmm_share_child();
    else if (!strcmp(argv[1], "idle") && argc > 2)
        idle(atof(argv[2]));
    else {
        fprintf(stderr, "refprobe: unknown probe '%s' (allowed: zc, zc-article, pageable, chase KiB..., "
                "load SECONDS, idle SECONDS, l2mix [MiB], stencil W H [N], coalesce WIDTH STRIDE OFFSET [MiB], "
                "banks STRIDE..., transpose N, pool [N [KiB]], vmm-read on|off DATA,... [MiB [device|host-numa]], vmm-share [MiB [N]])\n",
                argv[1]);
        return 64;
    }
    return 0;
}
