// refprobe's plain program of the VMM experiment's read (usage:
// refprobe.cu): device memory made by cuMemCreate, compressible or not,
// mapped and opened to this GPU, filled with zeros, one repeated word,
// the pattern i x K ^ seed or random words, then read whole by a kernel
// that folds every word (checked against the data's fold), timed as refprobe_timer.cuh times a kernel
// (after the L2 is emptied). Whether the driver made the memory
// compressible is read back and printed; no code is shared with gputui.
#include <cuda.h>
#include <vector>

#include "refprobe.h"
#include "refprobe_cu.h"
#include "refprobe_timer.cuh"

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

// Each thread reads 16 bytes a load, four loads in flight a grid's width
// apart, and keeps four running values (one per word of a vector): each
// is xored with its word, then turned left one bit. FROM_DATA computes the
// same values from word() instead of memory: what the memory must fold to.
// A block's threads' values are summed into out[block].
template <bool FROM_DATA>
__global__ void folded(const uint4 *p, size_t n4, int d, unsigned *out)
{
    __shared__ unsigned total;
    unsigned h[4] = {0, 0, 0, 0};
    size_t n = (size_t)gridDim.x * blockDim.x, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    auto load = [&](size_t k) {
        if (FROM_DATA)
            return make_uint4(word(d, 4 * k), word(d, 4 * k + 1), word(d, 4 * k + 2),
                              word(d, 4 * k + 3));
        return p[k];
    };
    auto mix = [&](uint4 v) {
        unsigned w[4] = {v.x, v.y, v.z, v.w};
        for (int c = 0; c < 4; c++) {
            unsigned x = h[c] ^ w[c];
            h[c] = x << 1 | x >> 31;
        }
    };
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    for (; i + 3 * n < n4; i += 4 * n) {
        uint4 v[4];
        for (int u = 0; u < 4; u++)
            v[u] = load(i + u * n);
        for (int u = 0; u < 4; u++)
            mix(v[u]);
    }
    for (; i < n4; i += n)
        mix(load(i));
    unsigned t = h[0] + 3 * h[1] + 5 * h[2] + 7 * h[3];
    for (int o = 16; o > 0; o /= 2)
        t += __shfl_down_sync(0xFFFFFFFFu, t, o);
    if (threadIdx.x % 32 == 0)
        atomicAdd(&total, t);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
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

void vmm_read(bool compress, const char *datas, size_t mib, const char *where)
{
    bool host = where && !strcmp(where, "host-numa");
    if (where && !host && strcmp(where, "device")) {
        fprintf(stderr, "refprobe: vmm-read: location '%s'; allowed: device, host-numa\n", where);
        exit(64);
    }
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
    if (host) {     // host memory of NUMA node 0, which the GPU reads over its link
#if CUDA_VERSION >= 12020
        prop.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
        prop.location.id = 0;
#else
        fprintf(stderr, "refprobe: vmm-read host-numa needs CUDA 12.2\n");
        exit(64);
#endif
    }
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
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;   // this GPU's access, wherever it lies
    acc.location.id = dev;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU(cuMemSetAccess(va, bytes, &acc, 1));
    int grid = sms * 4;
    unsigned *fold_d, *want_d;
    std::vector<unsigned> fold(grid), want(grid);
    CK(cudaMalloc(&fold_d, grid * sizeof *fold_d));
    CK(cudaMalloc(&want_d, grid * sizeof *want_d));
    Timer t(true);
    for (const char *p = datas; *p;) {
        char name[16];
        size_t len = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)(len < 15 ? len : 15), p);
        int d = data_of(name);
        fill<<<grid, 512>>>((unsigned *)va, bytes / 4, d);
        folded<true><<<grid, 512>>>(nullptr, bytes / 16, d, want_d);
        CK(cudaDeviceSynchronize());
        auto ms = t.time([&](cudaStream_t s) {
            folded<false><<<grid, 512, 0, s>>>((const uint4 *)va, bytes / 16, d, fold_d);
        });
        CK(cudaMemcpy(fold.data(), fold_d, grid * sizeof *fold_d, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(want.data(), want_d, grid * sizeof *want_d, cudaMemcpyDeviceToHost));
        if (fold != want) {
            fprintf(stderr, "refprobe: vmm-read %s: the memory read is not what was written\n",
                    name);
            exit(1);
        }
        char what[64];
        snprintf(what, sizeof what, "vmm_read_%s_%s", host ? "host" : compress ? "on" : "off",
                 name);
        dist(what, ms);
        p += len;
        p += *p == ',';
    }
    CK(cudaFree(fold_d));
    CK(cudaFree(want_d));
    CU(cuMemUnmap(va, bytes));
    CU(cuMemAddressFree(va, bytes));
    CU(cuMemRelease(h));
}
