// refprobe's plain program of the VMM experiment's read (usage:
// refprobe.cu): device memory made by cuMemCreate, compressible or not,
// mapped and opened to this GPU, filled with zeros, one repeated word,
// the pattern i x K ^ seed or random words, then read whole by a kernel
// that compares each word, timed as refprobe_timer.cuh times a kernel
// (after the L2 is emptied). Whether the driver made the memory
// compressible is read back and printed; no code is shared with gputui.
#include <cuda.h>

#include "refprobe.h"
#include "refprobe_timer.cuh"

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

namespace {

enum Data { ZEROS, CONSTANT, PATTERN, RANDOM };

__host__ __device__ unsigned word(int d, size_t i)
{
    unsigned x = (unsigned)i * 0x9E3779B1u ^ 0x1234567u;
    if (d == ZEROS)
        return 0;
    if (d == CONSTANT)
        return 0x3F800000u;
    if (d == RANDOM) {      // a 32-bit mix of the pattern: neighbours share nothing
        x ^= x >> 16;
        x *= 0x7FEB352Du;
        x ^= x >> 15;
        x *= 0x846CA68Bu;
        x ^= x >> 16;
    }
    return x;
}

__global__ void fill(unsigned *p, size_t n, int d)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = word(d, i);
}

// 16 bytes a load; the words that differ from the data counted.
__global__ void read(const uint4 *p, size_t n4, int d, unsigned long long *bad)
{
    unsigned long long b = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v = p[i];
        b += (v.x != word(d, 4 * i)) + (v.y != word(d, 4 * i + 1)) +
             (v.z != word(d, 4 * i + 2)) + (v.w != word(d, 4 * i + 3));
    }
    if (b)
        atomicAdd(bad, b);
}

// The same count with four 16-byte loads in flight a thread, a grid's
// width apart, as gputui's read has them (REFPROBE_READ4=1): which of the
// two ways a difference from gputui's figure comes from.
__global__ void read4(const uint4 *p, size_t n4, int d, unsigned long long *bad)
{
    unsigned long long b = 0;
    size_t n = (size_t)gridDim.x * blockDim.x, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * n < n4; i += 4 * n) {
        uint4 v[4];
        for (int u = 0; u < 4; u++)
            v[u] = p[i + u * n];
        for (int u = 0; u < 4; u++) {
            size_t w = 4 * (i + u * n);
            b += (v[u].x != word(d, w)) + (v[u].y != word(d, w + 1)) +
                 (v[u].z != word(d, w + 2)) + (v[u].w != word(d, w + 3));
        }
    }
    for (; i < n4; i += n) {
        uint4 v = p[i];
        b += (v.x != word(d, 4 * i)) + (v.y != word(d, 4 * i + 1)) +
             (v.z != word(d, 4 * i + 2)) + (v.w != word(d, 4 * i + 3));
    }
    if (b)
        atomicAdd(bad, b);
}

int data_of(const char *s)
{
    static const char *const names[] = {"zeros", "constant", "pattern", "random"};
    for (int d = 0; d < 4; d++)
        if (!strcmp(s, names[d]))
            return d;
    fprintf(stderr, "refprobe: vmm-read: data '%s'; allowed: zeros, constant, pattern, random\n",
            s);
    exit(64);
}

}  // namespace

void vmm_read(bool compress, const char *datas, size_t mib)
{
    int dev, sms;
    CUdevice cd;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CU(cuDeviceGet(&cd, dev));
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    if (compress)
        prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_GENERIC;
    size_t gran, bytes = mib << 20;
    CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    bytes = (bytes + gran - 1) / gran * gran;
    CUmemGenericAllocationHandle h;
    CUdeviceptr va;
    CU(cuMemCreate(&h, bytes, &prop, 0));
    CUmemAllocationProp got;
    memset(&got, 0, sizeof got);
    CU(cuMemGetAllocationPropertiesFromHandle(&got, h));
    fprintf(stderr, "refprobe: vmm-read: compression %s, %s\n", compress ? "asked" : "not asked",
            got.allocFlags.compressionType == CU_MEM_ALLOCATION_COMP_GENERIC ? "granted"
                                                                              : "plain memory");
    CU(cuMemAddressReserve(&va, bytes, 0, 0, 0));
    CU(cuMemMap(va, bytes, 0, h, 0));
    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU(cuMemSetAccess(va, bytes, &acc, 1));
    unsigned long long *bad, hbad;
    CK(cudaMalloc(&bad, sizeof *bad));
    Timer t(true);
    for (const char *p = datas; *p;) {
        char name[16];
        size_t len = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)(len < 15 ? len : 15), p);
        int d = data_of(name);
        fill<<<sms * 4, 512>>>((unsigned *)va, bytes / 4, d);
        CK(cudaMemset(bad, 0, sizeof *bad));
        CK(cudaDeviceSynchronize());
        const char *four = getenv("REFPROBE_READ4");
        bool x4 = four && !strcmp(four, "1");
        auto ms = t.time([&](cudaStream_t s) {
            if (x4)
                read4<<<sms * 4, 512, 0, s>>>((const uint4 *)va, bytes / 16, d, bad);
            else
                read<<<sms * 4, 512, 0, s>>>((const uint4 *)va, bytes / 16, d, bad);
        });
        CK(cudaMemcpy(&hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost));
        if (hbad) {
            fprintf(stderr, "refprobe: vmm-read %s: %llu words wrong\n", name, hbad);
            exit(1);
        }
        char what[64];
        snprintf(what, sizeof what, "vmm_read_%s_%s", compress ? "on" : "off", name);
        dist(what, ms);
        p += len;
        p += *p == ',';
    }
    CK(cudaFree(bad));
    CU(cuMemUnmap(va, bytes));
    CU(cuMemAddressFree(va, bytes));
    CU(cuMemRelease(h));
}
