/* The CUDA back-end: device discovery and properties, plus the table that
 * maps experiment names to their operations.
 *
 * No -lcuda and no -lnvidia-ml: the static cudart loads the driver at run
 * time, driver API functions come from cudaGetDriverEntryPointByVersion and
 * NVML from dlopen, so the binary starts (and says why it cannot measure)
 * on a machine with no NVIDIA driver. */
#define _GNU_SOURCE
#include <cuda.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gputui/base/port.h"
#include "gputui/kernels.h"
#include "gpu.h"

static int opened = -1;        /* the device open_device made current */

const int gt_cuda_runtime_version = CUDART_VERSION;

static void query_mps(gt_devprops *p);

static void query_vmm(int ordinal, gt_devprops *p)
{
    gt_err err;
    const gt_cu_api *d = gt_cu(&err);
    CUdevice dev;
    int vmm = 0, comp = 0;
    size_t g;
    CUmemAllocationProp prop;

    if (!d || d->cuDeviceGet(&dev, ordinal) != CUDA_SUCCESS)
        return;
    if (d->cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                dev) != CUDA_SUCCESS)
        return;
    gt_dp_set(p, GT_DP_VMM, vmm);
    if (!vmm)
        return;
    if (d->cuDeviceGetAttribute(&comp, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, dev) ==
        CUDA_SUCCESS)
        gt_dp_set(p, GT_DP_COMPRESSION, comp);
    if (d->cuDeviceGetAttribute(&comp, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED,
                                dev) == CUDA_SUCCESS)
        gt_dp_set(p, GT_DP_VMM_RDMA, comp);
#if CUDA_VERSION >= 12090   /* the attribute came with CUDA 12.9; older drivers do not say */
    if (d->cuDeviceGetAttribute(&comp, CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                dev) == CUDA_SUCCESS)
        gt_dp_set(p, GT_DP_HOST_NUMA_VMM, comp);
#endif
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = ordinal;
    if (d->cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) ==
        CUDA_SUCCESS)
        gt_dp_set(p, GT_DP_GRAN_MIN, (int64_t)g);
    if (d->cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) ==
        CUDA_SUCCESS)
        gt_dp_set(p, GT_DP_GRAN_REC, (int64_t)g);
}

/* ---- back-end table ---- */

/* Kernels load when the context is made, not at their first launch: a
 * lazy load inside a gated timed region (gate.c) waits for the spin
 * kernel, which waits for the host, and the gate times out. A user's own
 * CUDA_MODULE_LOADING stands. */
static void eager_modules(void)
{
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
}

static int device_count(int *n, gt_err *err)
{
    eager_modules();
    *n = 0;
    if (GT_CUDA(err, cudaGetDeviceCount(n))) {
        gt_diagnose_no_device(err);
        return -1;
    }
    if (*n == 0) {
        gt_err_set(err, GT_EXIT_FAIL, "no usable CUDA device: cudaGetDeviceCount() found 0 devices");
        return -1;
    }
    return 0;
}

static void refresh(gt_devprops *p)
{
    size_t fr, tot, lim;

    if (cudaMemGetInfo(&fr, &tot) == cudaSuccess)
        gt_dp_set(p, GT_DP_MEM_FREE, (int64_t)fr);
    else
        cudaGetLastError();
    if (cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize) == cudaSuccess)
        gt_dp_set(p, GT_DP_PERSIST_LIMIT, (int64_t)lim);
    else
        cudaGetLastError();
}

static int query(int ordinal, gt_devprops *p, gt_err *err)
{
    struct cudaDeviceProp prop;
    int n, v;
    static const struct { enum cudaDeviceAttr a; gt_dp_id id; } attrs[] = {
        {.a = cudaDevAttrMultiProcessorCount, .id = GT_DP_SMS},
        {.a = cudaDevAttrGlobalMemoryBusWidth, .id = GT_DP_BUS_WIDTH},
        {.a = cudaDevAttrMemoryClockRate, .id = GT_DP_MEM_CLOCK},
        {.a = cudaDevAttrL2CacheSize, .id = GT_DP_L2},
        {.a = cudaDevAttrMaxPersistingL2CacheSize, .id = GT_DP_PERSIST_MAX},
        {.a = cudaDevAttrMaxAccessPolicyWindowSize, .id = GT_DP_WINDOW_MAX},
        {.a = cudaDevAttrCanMapHostMemory, .id = GT_DP_CAN_MAP},
        {.a = cudaDevAttrHostNativeAtomicSupported, .id = GT_DP_HOST_ATOMIC},
        {.a = cudaDevAttrIntegrated, .id = GT_DP_INTEGRATED},
        {.a = cudaDevAttrUnifiedAddressing, .id = GT_DP_UVA},
        {.a = cudaDevAttrPageableMemoryAccess, .id = GT_DP_PAGEABLE},
        {.a = cudaDevAttrConcurrentManagedAccess, .id = GT_DP_CONC_MANAGED},
        {.a = cudaDevAttrAsyncEngineCount, .id = GT_DP_ASYNC_ENGINES},
        {.a = cudaDevAttrConcurrentKernels, .id = GT_DP_CONC_KERNELS},
        {.a = cudaDevAttrEccEnabled, .id = GT_DP_ECC},
        {.a = cudaDevAttrPageableMemoryAccessUsesHostPageTables, .id = GT_DP_HOST_PAGE_TABLES},
        {.a = cudaDevAttrMaxTexture2DWidth, .id = GT_DP_TEX2D_W},
        {.a = cudaDevAttrMaxTexture2DHeight, .id = GT_DP_TEX2D_H},
        {.a = cudaDevAttrMaxSharedMemoryPerMultiprocessor, .id = GT_DP_SMEM_SM},
        {.a = cudaDevAttrMaxSharedMemoryPerBlockOptin, .id = GT_DP_SMEM_BLOCK},
        {.a = cudaDevAttrHostRegisterReadOnlySupported, .id = GT_DP_HOST_REG_RO},
    };

    gt_devprops_init(p);
    if (device_count(&n, err))
        return -1;
    if (ordinal >= n) {
        gt_err_set(err, GT_EXIT_USAGE, "--device: %d is out of range (allowed: 0 to %d)",
                   ordinal, n - 1);
        return -1;
    }
    if (GT_CUDA(err, cudaGetDeviceProperties(&prop, ordinal)) ||
        GT_CUDA(err, cudaSetDevice(ordinal)))
        return -1;
    p->ordinal = ordinal;
    snprintf(p->name, sizeof p->name, "%s", prop.name);
    {
        const unsigned char *u = (const unsigned char *)prop.uuid.bytes;
        snprintf(p->uuid, sizeof p->uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                 "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
                 u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    }
    gt_dp_set(p, GT_DP_CC, prop.major * 10 + prop.minor);
    gt_dp_set(p, GT_DP_MEM_TOTAL, (int64_t)prop.totalGlobalMem);
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        if (cudaDeviceGetAttribute(&v, attrs[i].a, ordinal) == cudaSuccess)
            gt_dp_set(p, attrs[i].id, v);
        else
            cudaGetLastError();
    }
    /* 0 means "not reported" for these, not a real zero. */
    if (gt_dp_get(p, GT_DP_MEM_CLOCK) == 0)
        p->valid &= ~(1ull << GT_DP_MEM_CLOCK);
    if (gt_dp_get(p, GT_DP_BUS_WIDTH) == 0)
        p->valid &= ~(1ull << GT_DP_BUS_WIDTH);
    if (cudaDriverGetVersion(&v) == cudaSuccess && v)
        gt_dp_set(p, GT_DP_DRIVER_CUDA, v);
    if (cudaRuntimeGetVersion(&v) == cudaSuccess)
        gt_dp_set(p, GT_DP_RUNTIME, v);
    gt_dp_set(p, GT_DP_BUILD_CUDA, CUDART_VERSION);
    if (cudaDeviceGetPCIBusId(p->pci_bus_id, sizeof p->pci_bus_id, ordinal) != cudaSuccess) {
        cudaGetLastError();
        p->pci_bus_id[0] = '\0';
    }
    refresh(p);
    query_vmm(ordinal, p);
    int64_t nodes = gt_port_numa_nodes();     /* read from sysfs once */
    if (nodes > 0)
        gt_dp_set(p, GT_DP_HOST_NODES, nodes);
    {
        int peers = 0, can;
        for (int o = 0; o < n; o++)
            if (o != ordinal && cudaDeviceCanAccessPeer(&can, o, ordinal) == cudaSuccess && can)
                peers++;
        cudaGetLastError();
        gt_dp_set(p, GT_DP_PEERS, peers);
    }
    gt_nvml_device(p);
    gt_query_topology(&p->topo, n);
    query_mps(p);
    gt_devprops_derive(p);
    return 0;
}

/* Max_Payload_Size from the GPU's PCI Express capability (Device Control
 * bits 7:5, 128 << n bytes), read from sysfs. Past the first 64 bytes the
 * configuration space needs root: otherwise the field stays N/A. */
static void query_mps(gt_devprops *p)
{
    unsigned char cfg[256];
    long n;
    int at, hops = 0;

    if (!p->pci_bus_id[0] || (n = gt_port_pci_config(p->pci_bus_id, cfg, sizeof cfg)) < 0)
        return;
    if (n < 0x40 || !(cfg[6] & 0x10))         /* no capability list */
        return;
    for (at = cfg[0x34] & 0xfc; at >= 0x40 && at + 10 <= (int)n && hops < 48; hops++) {
        if (cfg[at] == 0x10) {                 /* PCI Express capability */
            int ctl = cfg[at + 8] | cfg[at + 9] << 8;
            gt_dp_set(p, GT_DP_PCIE_MPS, 128 << ((ctl >> 5) & 7));
            return;
        }
        at = cfg[at + 1] & 0xfc;
    }
}

static char opened_bus[32];
static unsigned long long users_ts;    /* NVML's time of the last look at the others */
#define GT_SHARE_SKIP_MAX 64

static int open_device(int ordinal, gt_devprops *p, gt_err *err)
{
    size_t l2_initial;
    cudaError_t rc;
    int v;

    gt_fault_init();
    eager_modules();
    if (query(ordinal, p, err))
        return -1;
    /* Create the context now, so the first experiment's timings do not
     * include it. */
    if (GT_CUDA(err, cudaFree(NULL)))
        return -1;
    if ((rc = gt_k_image_check()) != cudaSuccess) {
        cudaGetLastError();
        gt_diagnose_no_image(rc, p, err);
        return -1;
    }
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, ordinal) != cudaSuccess)
        v = gt_gpu_sms();       /* the count known before stands */
    if (cudaDeviceGetLimit(&l2_initial, cudaLimitPersistingL2CacheSize) != cudaSuccess) {
        cudaGetLastError();
        l2_initial = 0;
    }
    gt_gpu_opened(v, l2_initial);
    refresh(p);
    opened = ordinal;
    snprintf(opened_bus, sizeof opened_bus, "%s", p->pci_bus_id);
    users_ts = 0;
    return 0;
}

/* The open device's other processes: this one and its recent children
 * (the runtime and VMM experiments' probes) are left out too. */
static void users(gt_gpu_users *u, const int *skip, int nskip)
{
    int all[GT_SHARE_SKIP_MAX + 1 + GT_CHILDREN_KEPT];
    struct timespec ts;

    if (nskip > GT_SHARE_SKIP_MAX)
        nskip = GT_SHARE_SKIP_MAX;
    memcpy(all, skip, (size_t)nskip * sizeof *skip);
    all[nskip++] = (int)getpid();
    nskip += gt_child_recent(all + nskip, GT_CHILDREN_KEPT);
    if (!users_ts) {
        /* From a second before the first look (NVML counts microseconds
         * of the realtime clock). */
        clock_gettime(CLOCK_REALTIME, &ts);
        users_ts = (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000 -
                   1000000ull;
    }
    gt_nvml_users(opened_bus, all, nskip, &users_ts, u);
}

static void traffic(gt_link_traffic *t)
{
    gt_nvml_traffic(opened_bus, t);
}

/* The context goes with the device: 'd' (another device) and the end of
 * a run leave nothing of this one behind. */
static void close_device(void)
{
    gt_keep_release();
    if (opened >= 0 && cudaSetDevice(opened) == cudaSuccess)
        GT_CUDA_Q(cudaDeviceReset());
    cudaGetLastError();
    opened = -1;
    gt_nvml_close();
}

/* Each experiment's operations, by the list every part reads. */
#define GT_EXP(name) extern const gt_exp_ops gt_##name##_ops;
#include "experiments/all.h"

static const struct {
    const char *name;
    const gt_exp_ops *ops;
} gpu_ops[] = {
#define GT_EXP(name) {#name, &gt_##name##_ops},
#include "experiments/all.h"
};

static const gt_exp_ops *ops(const char *name)
{
    for (size_t i = 0; i < sizeof gpu_ops / sizeof gpu_ops[0]; i++)
        if (!strcmp(gpu_ops[i].name, name))
            return gpu_ops[i].ops;
    return NULL;
}

int gt_cuda_child(int argc, char **argv, double t_main)
{
    const gt_exp_ops *o = argc >= 3 ? ops(argv[2]) : NULL;

    if (!o || !o->child) {
        fprintf(stderr, "gputui %s: no experiment's child process is named %s\n", GT_CHILD_ARG,
                argc >= 3 ? "so" : "(none given)");
        return 64;
    }
    return o->child(argc - 3, argv + 3, t_main);
}

const gt_backend gt_cuda_backend = {
    .name = "cuda",
    .device_count = device_count,
    .query = query,
    .open = open_device,
    .refresh = refresh,
    .close = close_device,
    .peek = gt_nvml_peek,
    .ops = ops,
    .users = users,
    .traffic = traffic,
    .health = gt_health_read,
    .release = gt_keep_release,
};
