// refprobe's plain kernels of how a warp touches memory (usage:
// refprobe.cu): a strided read, shared-memory reads at a stride, and the
// four kernels of NVIDIA's "efficient matrix transpose" article with its
// tile of 32 x 32 and 8 rows a block. Each is timed with events around
// one kernel, behind a 50 us spin so that the events bracket it alone,
// 30 times; the first two are left out. The strided read and the
// transposes (matrices larger than the L2, as gputui's are then) start
// each time from an L2 emptied by a read of twice its size.
#include "refprobe.h"
#include "refprobe_timer.cuh"

namespace {

template <typename T>
__global__ void strided_read(T *y, const T *x, size_t n, int stride, int offset)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i * stride + offset];
}

__global__ void shared_reads(float *out, int stride, int reads)
{
    __shared__ float s[8192];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x)
        s[i] = (float)(i & 7);
    __syncthreads();
    volatile float *v = s;
    int lane = threadIdx.x % 32;
    float acc = 0;
    for (int r = 0; r < reads; r += 8) {
#pragma unroll
        for (int k = 0; k < 8; k++)
            acc += v[lane * stride + k * 32];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

constexpr int TILE = 32, ROWS = 8;

__global__ void t_copy(float *o, const float *in, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        o[(size_t)(y + j) * n + x] = in[(size_t)(y + j) * n + x];
}

__global__ void t_naive(float *o, const float *in, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        o[(size_t)x * n + y + j] = in[(size_t)(y + j) * n + x];
}

template <int PAD>
__global__ void t_shared(float *o, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        o[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The input, element i = i mod 1000003 (exact in a float).
__global__ void t_fill(float *in, size_t count)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        in[i] = (float)(i % 1000003);
}

// Every element of o against its source in in (transposed or not): the
// first wrong index, by atomicMin, into *bad (left at ~0 where none is).
__global__ void t_check(const float *o, const float *in, int n, bool tr,
                        unsigned long long *bad)
{
    size_t count = (size_t)n * n;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t r = i / n, c = i % n, src = tr ? c * n + r : i;
        if (o[i] != in[src])
            atomicMin(bad, (unsigned long long)i);
    }
}

template <typename T> void strided_one(size_t mib, int stride, int offset, const char *name)
{
    size_t n = (mib << 20) / sizeof(T), span = (n - 1) * stride + offset + 1;
    T *x, *y;
    CK(cudaMalloc(&x, span * sizeof(T)));
    CK(cudaMalloc(&y, n * sizeof(T)));
    CK(cudaMemset(x, 1, span * sizeof(T)));
    Timer t(true);
    auto ms = t.time([&](cudaStream_t s) {
        strided_read<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(y, x, n, stride, offset);
    });
    char what[64];
    snprintf(what, sizeof what, "coalesce_%s_s%d_o%d", name, stride, offset);
    dist(what, ms);
    cudaFree(x);
    cudaFree(y);
}

}  // namespace

void coalesce(const char *width, const char *strides, int offset, size_t mib)
{
    for (const char *p = strides; *p;) {
        int stride = atoi(p);
        if (stride < 1 || stride > 128) {
            fprintf(stderr, "refprobe: coalesce: stride %d; allowed: 1 to 128\n", stride);
            exit(64);
        }
        if (!strcmp(width, "float4"))
            strided_one<float4>(mib, stride, offset, width);
        else if (!strcmp(width, "float2"))
            strided_one<float2>(mib, stride, offset, width);
        else
            strided_one<float>(mib, stride, offset, "float");
        p += strcspn(p, ",");
        p += *p == ',';
    }
}

void banks(int argc, char **argv)
{
    int dev, sms, reads = 4096;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int blocks = sms * 4;
    float *out;
    std::vector<float> got(32);
    CK(cudaMalloc(&out, (size_t)blocks * 256 * 4));
    Timer t(false);
    for (int a = 0; a < argc; a++) {
        int stride = atoi(argv[a]);
        if (stride < 1 || stride > 64) {
            fprintf(stderr, "refprobe: banks: stride %d; allowed: 1 to 64\n", stride);
            exit(64);
        }
        auto ms = t.time([&](cudaStream_t s) {
            shared_reads<<<blocks, 256, 0, s>>>(out, stride, reads);
        });
        CK(cudaMemcpy(got.data(), out, 32 * 4, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; l++) {
            float want = 0;
            for (int k = 0; k < 8; k++)
                want += (float)((l * stride + k * 32) & 7);
            if (got[l] != want * (reads / 8)) {
                fprintf(stderr, "refprobe: banks: lane %d summed %g, not %g\n", l, got[l],
                        want * (reads / 8));
                exit(1);
            }
        }
        char what[32];
        snprintf(what, sizeof what, "banks_s%d", stride);
        dist(what, ms);
    }
    cudaFree(out);
}

void transpose(int n)
{
    size_t count = (size_t)n * n;
    float *in, *out;
    unsigned long long *dbad, bad;
    CK(cudaMalloc(&in, count * 4));
    CK(cudaMalloc(&out, count * 4));
    CK(cudaMalloc(&dbad, sizeof *dbad));
    t_fill<<<1024, 256>>>(in, count);
    CK(cudaGetLastError());
    Timer t(true);
    dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
    struct { const char *name; void (*k)(float *, const float *, int); bool tr; } ks[] = {
        {"transpose_copy", t_copy, false}, {"transpose_naive", t_naive, true},
        {"transpose_tiled", t_shared<0>, true}, {"transpose_padded", t_shared<1>, true},
    };
    for (auto &k : ks) {
        CK(cudaMemset(out, 0, count * 4));
        auto ms = t.time([&](cudaStream_t s) { k.k<<<grid, block, 0, s>>>(out, in, n); });
        // Every element checked on the GPU (on the host, 64 M of them
        // took longer than all the timing).
        CK(cudaMemset(dbad, 0xff, sizeof *dbad));
        t_check<<<1024, 256>>>(out, in, n, k.tr, dbad);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&bad, dbad, sizeof bad, cudaMemcpyDeviceToHost));
        if (bad != ~0ULL) {
            fprintf(stderr, "refprobe: %s: wrong at %llu\n", k.name, bad);
            exit(1);
        }
        dist(k.name, ms);
    }
    cudaFree(in);
    cudaFree(out);
    cudaFree(dbad);
}
