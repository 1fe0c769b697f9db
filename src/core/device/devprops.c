#include "gputui/device/devprops.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "gputui/base/units.h"

const gt_dp_desc gt_dp_table[GT_DP_COUNT] = {
    {.id = GT_DP_CC, .key = "compute_capability", .label = "Compute capability", .kind = GT_DPK_CC},
    {.id = GT_DP_SMS, .key = "sm_count", .label = "SMs", .kind = GT_DPK_INT},
    {.id = GT_DP_MEM_TOTAL, .key = "global_mem_bytes", .label = "Global memory",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_MEM_FREE, .key = "free_mem_bytes", .label = "  free", .kind = GT_DPK_BYTES},
    {.id = GT_DP_BUS_WIDTH, .key = "memory_bus_width_bits", .label = "Memory bus",
     .kind = GT_DPK_BITS},
    {.id = GT_DP_MEM_CLOCK, .key = "memory_clock_khz", .label = "Memory clock", .kind = GT_DPK_KHZ},
    {.id = GT_DP_MEM_PEAK, .key = "memory_peak_bytes_per_s", .label = "  peak bandwidth",
     .kind = GT_DPK_BPS},
    {.id = GT_DP_ECC, .key = "ecc_enabled", .label = "ECC", .kind = GT_DPK_BOOL},
    {.id = GT_DP_L2, .key = "l2_bytes", .label = "L2 cache", .kind = GT_DPK_BYTES},
    {.id = GT_DP_PERSIST_MAX, .key = "persisting_l2_max_bytes", .label = "  persisting max",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_WINDOW_MAX, .key = "access_policy_max_window_bytes",
     .label = "  policy window max",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_PERSIST_LIMIT, .key = "persisting_l2_limit_bytes", .label = "  persisting limit",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_CAN_MAP, .key = "can_map_host_memory", .label = "canMapHostMemory",
     .kind = GT_DPK_BOOL},
    {.id = GT_DP_HOST_ATOMIC, .key = "host_native_atomic_supported",
     .label = "hostNativeAtomic", .kind = GT_DPK_BOOL},
    {.id = GT_DP_INTEGRATED, .key = "integrated", .label = "integrated", .kind = GT_DPK_BOOL},
    {.id = GT_DP_UVA, .key = "unified_addressing", .label = "unifiedAddressing",
     .kind = GT_DPK_BOOL},
    {.id = GT_DP_PAGEABLE, .key = "pageable_memory_access", .label = "pageableMemoryAccess",
     .kind = GT_DPK_BOOL},
    {.id = GT_DP_HOST_PAGE_TABLES, .key = "pageable_uses_host_page_tables",
     .label = "  via host page tables", .kind = GT_DPK_BOOL},
    {.id = GT_DP_CONC_MANAGED, .key = "concurrent_managed_access",
     .label = "concurrentManaged", .kind = GT_DPK_BOOL},
    {.id = GT_DP_ASYNC_ENGINES, .key = "async_engine_count", .label = "asyncEngineCount",
     .kind = GT_DPK_INT},
    {.id = GT_DP_CONC_KERNELS, .key = "concurrent_kernels", .label = "concurrentKernels",
     .kind = GT_DPK_BOOL},
    {.id = GT_DP_VMM, .key = "vmm_supported", .label = "VMM supported", .kind = GT_DPK_BOOL},
    {.id = GT_DP_GRAN_MIN, .key = "vmm_granularity_min_bytes", .label = "  granularity min",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_GRAN_REC, .key = "vmm_granularity_recommended_bytes", .label = "  granularity rec",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_COMPRESSION, .key = "generic_compression_supported", .label = "  compression",
     .kind = GT_DPK_BOOL},
    {.id = GT_DP_HOST_NUMA_VMM, .key = "host_numa_vmm_supported", .label = "  host memory",
     .kind = GT_DPK_BOOL},
    {.id = GT_DP_VMM_RDMA, .key = "vmm_gpudirect_rdma_supported", .label = "  GPUDirect RDMA",
     .kind = GT_DPK_BOOL},
    {.id = GT_DP_HOST_REG_RO, .key = "host_register_read_only_supported",
     .label = "hostRegisterReadOnly", .kind = GT_DPK_BOOL},
    {.id = GT_DP_HOST_NODES, .key = "host_numa_nodes", .label = "Host NUMA nodes",
     .kind = GT_DPK_NODES},
    {.id = GT_DP_TEX2D_W, .key = "max_texture_2d_width", .label = "Texture 2D max",
     .kind = GT_DPK_INT},
    {.id = GT_DP_TEX2D_H, .key = "max_texture_2d_height", .label = "", .kind = GT_DPK_INT},
    {.id = GT_DP_SMEM_SM, .key = "shared_memory_per_sm_bytes", .label = "Shared memory/SM",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_SMEM_BLOCK, .key = "shared_memory_per_block_optin_bytes",
     .label = "  per block (opt-in)", .kind = GT_DPK_BYTES},
    {.id = GT_DP_PEERS, .key = "peer_devices", .label = "Peer GPUs", .kind = GT_DPK_INT},
    {.id = GT_DP_DRIVER_CUDA, .key = "driver_cuda_version", .label = "Driver (CUDA)",
     .kind = GT_DPK_CUDAVER},
    {.id = GT_DP_RUNTIME, .key = "runtime_version", .label = "Runtime", .kind = GT_DPK_CUDAVER},
    {.id = GT_DP_BUILD_CUDA, .key = "build_cuda_version", .label = "  gputui built with",
     .kind = GT_DPK_CUDAVER},
    {.id = GT_DP_PCIE_GEN, .key = "pcie_gen_current", .label = "PCIe gen now/max",
     .kind = GT_DPK_GEN},
    {.id = GT_DP_PCIE_GEN_MAX, .key = "pcie_gen_max", .label = "", .kind = GT_DPK_GEN},
    {.id = GT_DP_PCIE_WIDTH, .key = "pcie_width_current", .label = "PCIe width now/max",
     .kind = GT_DPK_LANES},
    {.id = GT_DP_PCIE_WIDTH_MAX, .key = "pcie_width_max", .label = "", .kind = GT_DPK_LANES},
    {.id = GT_DP_PCIE_BW, .key = "pcie_bytes_per_s", .label = "  link bandwidth",
     .kind = GT_DPK_BPS},
    {.id = GT_DP_PCIE_MPS, .key = "pcie_max_payload_bytes", .label = "  max payload",
     .kind = GT_DPK_BYTES},
    {.id = GT_DP_C2C_BW, .key = "c2c_bytes_per_s", .label = "NVLink-C2C to CPU",
     .kind = GT_DPK_BPS},
};

void gt_devprops_init(gt_devprops *p)
{
    memset(p, 0, sizeof *p);
    p->ordinal = -1;
    gt_topo_init(&p->topo);
}

void gt_dp_set(gt_devprops *p, gt_dp_id id, int64_t v)
{
    p->v[id] = v;
    p->valid |= 1ull << id;
}

bool gt_dp_ok(const gt_devprops *p, gt_dp_id id)
{
    return (p->valid >> id) & 1u;
}

int64_t gt_dp_get(const gt_devprops *p, gt_dp_id id)
{
    return gt_dp_ok(p, id) ? p->v[id] : 0;
}

const char *gt_dp_not_applicable(const gt_devprops *p, gt_dp_id id)
{
    bool integrated = gt_dp_get(p, GT_DP_INTEGRATED) != 0;

    switch (id) {
    case GT_DP_PCIE_GEN: case GT_DP_PCIE_GEN_MAX: case GT_DP_PCIE_WIDTH:
    case GT_DP_PCIE_WIDTH_MAX: case GT_DP_PCIE_BW: case GT_DP_PCIE_MPS:
        return integrated ? "no PCIe link: an integrated GPU shares the host's memory" : NULL;
    case GT_DP_C2C_BW:
        return integrated ? "no link to the CPU: an integrated GPU shares the host's memory"
             : gt_dp_ok(p, id) && !gt_dp_get(p, id) ? "the GPU reaches the CPU over PCIe" : NULL;
    case GT_DP_PERSIST_MAX: case GT_DP_WINDOW_MAX: case GT_DP_PERSIST_LIMIT:
        return gt_dp_ok(p, GT_DP_CC) && gt_dp_get(p, GT_DP_CC) < 80
               ? "L2 persistence needs compute capability 8.0" : NULL;
    case GT_DP_GRAN_MIN: case GT_DP_GRAN_REC: case GT_DP_COMPRESSION: case GT_DP_HOST_NUMA_VMM:
    case GT_DP_VMM_RDMA:
        return gt_dp_ok(p, GT_DP_VMM) && !gt_dp_get(p, GT_DP_VMM)
               ? "no virtual memory management on this device" : NULL;
    case GT_DP_HOST_PAGE_TABLES:
        return gt_dp_ok(p, GT_DP_PAGEABLE) && !gt_dp_get(p, GT_DP_PAGEABLE)
               ? "the GPU does not reach pageable memory" : NULL;
    default:
        return NULL;
    }
}

int gt_dp_need_cuda(const gt_devprops *p, int version, const char *what, const char *call,
                    char *err, size_t errlen)
{
    int64_t build = gt_dp_get(p, GT_DP_BUILD_CUDA), drv = gt_dp_get(p, GT_DP_DRIVER_CUDA);

    if (gt_dp_ok(p, GT_DP_BUILD_CUDA) && build < version) {
        snprintf(err, errlen, "%s needs CUDA %d.%d (%s); this gputui was built with %lld.%lld: "
                 "rebuild it with a %d.%d or newer toolkit (make clean && make CUDA_HOME=...)",
                 what, version / 1000, version % 1000 / 10, call, (long long)build / 1000,
                 (long long)build % 1000 / 10, version / 1000, version % 1000 / 10);
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_DRIVER_CUDA) && drv < version) {
        snprintf(err, errlen, "%s needs CUDA %d.%d (%s); the driver here runs CUDA %lld.%lld: "
                 "update the driver", what, version / 1000, version % 1000 / 10, call,
                 (long long)drv / 1000, (long long)drv % 1000 / 10);
        return -1;
    }
    return 0;
}

void gt_dp_format_nodes(int64_t mask, char *buf, size_t len)
{
    size_t o = 0;

    if (len)
        buf[0] = '\0';
    for (int n = 0; n < 63 && o < len; n++)
        if (mask & ((int64_t)1 << n))
            o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? ", " : "", n);
}

char *gt_dp_format(const gt_devprops *p, gt_dp_id id, char *buf, size_t len)
{
    int64_t v = p->v[id];
    bool na = gt_dp_not_applicable(p, id) != NULL;

    if (na || !gt_dp_ok(p, id)) {
        snprintf(buf, len, "%s", na ? "n/a" : "N/A");
        return buf;
    }
    switch (gt_dp_table[id].kind) {
    case GT_DPK_INT:
        snprintf(buf, len, "%lld", (long long)v);
        break;
    case GT_DPK_BYTES:
        gt_format_size((uint64_t)v, buf, len);
        break;
    case GT_DPK_BOOL:
        snprintf(buf, len, "%s", v ? "yes" : "no");
        break;
    case GT_DPK_KHZ:
        snprintf(buf, len, "%lld MHz", (long long)(v / 1000));
        break;
    case GT_DPK_BPS:
        snprintf(buf, len, "%.1f GB/s", (double)v / 1e9);
        break;
    case GT_DPK_BITS:
        snprintf(buf, len, "%lld-bit", (long long)v);
        break;
    case GT_DPK_CC:
        snprintf(buf, len, "%lld.%lld", (long long)(v / 10), (long long)(v % 10));
        break;
    case GT_DPK_CUDAVER:
        snprintf(buf, len, "%lld.%lld", (long long)(v / 1000),
                 (long long)(v % 1000 / 10));
        break;
    case GT_DPK_GEN:
        snprintf(buf, len, "Gen%lld", (long long)v);
        break;
    case GT_DPK_LANES:
        snprintf(buf, len, "x%lld", (long long)v);
        break;
    case GT_DPK_NODES:
        gt_dp_format_nodes(v, buf, len);
        break;
    }
    return buf;
}

double gt_pcie_bw(int gen, int width)
{
    /* GT/s per lane x encoding efficiency / 8 bits; Gen6 uses FLIT 242/256. */
    static const double lane[] = {0, 2.5 * 0.8, 5.0 * 0.8, 8.0 * 128 / 130,
                                  16.0 * 128 / 130, 32.0 * 128 / 130,
                                  64.0 * 242 / 256};

    if (gen < 1 || gen > 6 || width < 1)
        return 0.0;
    return lane[gen] * 1e9 / 8.0 * width;
}

double gt_host_link(const gt_devprops *p, gt_link_kind *kind, char *label, size_t n)
{
    gt_link_kind k = GT_LINK_UNKNOWN;
    double bw = 0;

    if (gt_dp_get(p, GT_DP_INTEGRATED)) {
        k = GT_LINK_NONE;
        snprintf(label, n, "no link: an integrated GPU shares the host's memory");
    } else if (gt_dp_get(p, GT_DP_C2C_BW) > 0) {
        k = GT_LINK_C2C;
        bw = (double)gt_dp_get(p, GT_DP_C2C_BW);
        snprintf(label, n, "NVLink-C2C");
    } else if (gt_dp_ok(p, GT_DP_PCIE_BW)) {
        k = GT_LINK_PCIE;
        bw = (double)gt_dp_get(p, GT_DP_PCIE_BW);
        if (gt_dp_ok(p, GT_DP_PCIE_GEN_MAX) && gt_dp_ok(p, GT_DP_PCIE_WIDTH_MAX))
            snprintf(label, n, "PCIe Gen%lld x%lld", (long long)gt_dp_get(p, GT_DP_PCIE_GEN_MAX),
                     (long long)gt_dp_get(p, GT_DP_PCIE_WIDTH_MAX));
        else
            snprintf(label, n, "PCIe");
    } else {
        snprintf(label, n, "PCIe link N/A");
    }
    if (kind)
        *kind = k;
    return bw;
}

void gt_devprops_derive(gt_devprops *p)
{
    if (gt_dp_ok(p, GT_DP_MEM_CLOCK) && gt_dp_ok(p, GT_DP_BUS_WIDTH) &&
        p->v[GT_DP_MEM_CLOCK] > 0 && p->v[GT_DP_BUS_WIDTH] > 0)
        gt_dp_set(p, GT_DP_MEM_PEAK, (int64_t)((double)p->v[GT_DP_MEM_CLOCK] *
                                               1e3 * 2.0 *
                                               (double)p->v[GT_DP_BUS_WIDTH] / 8.0));
    /* Compute Data Compression came with Ampere (the A100 whitepaper): a
     * device before it, whose driver or profile does not say, has none. */
    if (!gt_dp_ok(p, GT_DP_COMPRESSION) && gt_dp_ok(p, GT_DP_CC) && p->v[GT_DP_CC] > 0 &&
        p->v[GT_DP_CC] < 80)
        gt_dp_set(p, GT_DP_COMPRESSION, 0);
    if (gt_dp_ok(p, GT_DP_PCIE_GEN_MAX) && gt_dp_ok(p, GT_DP_PCIE_WIDTH_MAX)) {
        double bw = gt_pcie_bw((int)p->v[GT_DP_PCIE_GEN_MAX],
                               (int)p->v[GT_DP_PCIE_WIDTH_MAX]);
        if (bw > 0)
            gt_dp_set(p, GT_DP_PCIE_BW, (int64_t)bw);
    }
}

/* The JSON form of the properties, in reports and recordings; a key this
 * version does not know is ignored, a missing one stays invalid. */
json_t *gt_devprops_json(const gt_devprops *p)
{
    json_t *o = json_object();

    json_object_set_new(o, "ordinal", json_integer(p->ordinal));
    json_object_set_new(o, "name", json_string(p->name));
    json_object_set_new(o, "pci_bus_id", json_string(p->pci_bus_id));
    json_object_set_new(o, "driver_version", p->driver[0] ? json_string(p->driver) : json_null());
    for (int i = 0; i < GT_DP_COUNT; i++)
        json_object_set_new(o, gt_dp_table[i].key,
                            gt_dp_ok(p, (gt_dp_id)i) ? json_integer(p->v[i]) : json_null());
    if (p->topo.count)
        json_object_set_new(o, "topology", gt_topo_json(&p->topo));
    return o;
}

void gt_devprops_read(json_t *d, gt_devprops *p)
{
    json_t *v;

    gt_devprops_init(p);
    if (!json_is_object(d))
        return;
    if (json_is_integer(v = json_object_get(d, "ordinal")))
        p->ordinal = (int)json_integer_value(v);
    if (json_is_string(v = json_object_get(d, "name")))
        snprintf(p->name, sizeof p->name, "%s", json_string_value(v));
    if (json_is_string(v = json_object_get(d, "pci_bus_id")))
        snprintf(p->pci_bus_id, sizeof p->pci_bus_id, "%s", json_string_value(v));
    if (json_is_string(v = json_object_get(d, "driver_version")))
        snprintf(p->driver, sizeof p->driver, "%s", json_string_value(v));
    for (int i = 0; i < GT_DP_COUNT; i++)
        if (json_is_integer(v = json_object_get(d, gt_dp_table[i].key)))
            gt_dp_set(p, (gt_dp_id)i, json_integer_value(v));
    gt_topo_read(json_object_get(d, "topology"), &p->topo);
}

int gt_devprops_lines(const gt_devprops *p, gt_dp_line *out, int max)
{
    int n = 0;
    char a[48], b[48];

#define LINE(l, ...) do { if (n < max) { snprintf(out[n].label, sizeof out[n].label, "%s", l); \
        snprintf(out[n].value, sizeof out[n].value, __VA_ARGS__);                              \
        out[n].unknown = !strcmp(out[n].value, "N/A") || !strcmp(out[n].value, "n/a");         \
        n++; } } while (0)
    LINE("Name", "%s", p->name);
    LINE("PCI bus", "%s", p->pci_bus_id[0] ? p->pci_bus_id : "N/A");
    for (int i = 0; i < GT_DP_COUNT; i++) {
        const gt_dp_desc *d = &gt_dp_table[i];
        if (!d->label[0])
            continue;           /* shown with the line before it */
        gt_dp_format(p, (gt_dp_id)i, a, sizeof a);
        if (i + 1 < GT_DP_COUNT && !gt_dp_table[i + 1].label[0] && strcmp(a, "n/a"))
            LINE(d->label, "%s / %s", a, gt_dp_format(p, (gt_dp_id)(i + 1), b, sizeof b));
        else
            LINE(d->label, "%s", a);
        if (i == GT_DP_DRIVER_CUDA)
            LINE("Driver", "%s", p->driver[0] ? p->driver : "N/A");
    }
    if (p->nvml_note[0])
        LINE("NVML", "%s", p->nvml_note);
    if (p->topo.count > 1) {
        gt_topo_line tl[GT_MAX_DEVICES * GT_MAX_DEVICES + 12];
        int k = gt_topo_lines(&p->topo, p->ordinal, tl, (int)(sizeof tl / sizeof tl[0]));
        LINE("GPUs", "%d (d: the next)", p->topo.count);
        for (int i = 0; i < k; i++)
            LINE("", "%s", tl[i]);
    } else if (p->topo.count == 1) {
        LINE("GPUs", "1 (peer experiments need 2)");
    }
#undef LINE
    return n;
}
