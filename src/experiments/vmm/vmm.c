/* The Virtual Memory Management experiment's table row. The GPU side is
 * src/experiments/vmm/vmm_gpu.c. */
#include "vmm.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/bounds.h"
#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const op_names[] = {"alloc", "bandwidth", "grow", "peer", "read", "share"};
static const char *const gran_names[] = {"minimum", "recommended"};
static const char *const dir_names[] = {"h2d", "d2h", "d2d"};
static const char *const peer_names[] = {"off", "rw", "ro"};
static const char *const comp_names[] = {"off", "on"};
static const char *const data_names[] = {"pattern", "random", "zeros", "constant"};
static const char *const access_names[] = {"rw", "ro"};
static const char *const loc_names[] = {"device", "host", "host-numa"};
static const char *const alloc_series[GT_VMM_NALLOC_SERIES] = {
    "cuMemAddressReserve", "cuMemCreate", "cuMemMap", "cuMemSetAccess", "cuMemUnmap",
    "cuMemRelease", "cuMemAddressFree", "cudaMalloc", "cudaFree", "cudaMallocAsync",
    "cudaFreeAsync", "cuMemSetAccess (peers)"};

static bool op_is(const int64_t *v, int op, const char *what, const char **why)
{
    if (v[GT_VMM_OP] == op)
        return true;
    *why = what;
    return false;
}

static bool sized(const int64_t *v, const char **why)
{
    if (v[GT_VMM_OP] != GT_VMM_OP_GROW)
        return true;
    *why = "only with op=alloc, bandwidth or peer";
    return false;
}

static bool dir_applies(const int64_t *v, const char **why)
{
    return op_is(v, GT_VMM_OP_BANDWIDTH, "only with op=bandwidth", why);
}

static bool grow_applies(const int64_t *v, const char **why)
{
    return op_is(v, GT_VMM_OP_GROW, "only with op=grow", why);
}

static bool comp_applies(const int64_t *v, const char **why)
{
    if (v[GT_VMM_OP] == GT_VMM_OP_ALLOC || v[GT_VMM_OP] == GT_VMM_OP_BANDWIDTH ||
        v[GT_VMM_OP] == GT_VMM_OP_READ)
        return true;
    *why = "only with op=alloc, bandwidth or read";
    return false;
}

static bool read_applies(const int64_t *v, const char **why)
{
    return op_is(v, GT_VMM_OP_READ, "only with op=read", why);
}

static bool loc_applies(const int64_t *v, const char **why)
{
    if (v[GT_VMM_OP] == GT_VMM_OP_ALLOC || v[GT_VMM_OP] == GT_VMM_OP_READ)
        return true;
    *why = "only with op=alloc or read";
    return false;
}

static bool numa_applies(const int64_t *v, const char **why)
{
    if (loc_applies(v, why) && v[GT_VMM_LOC] == GT_VMM_LOC_HOST_NUMA)
        return true;
    *why = "only with location=host-numa";
    return false;
}

static bool on_host(const int64_t *v)
{
    return loc_applies(v, &(const char *){NULL}) && v[GT_VMM_LOC] != GT_VMM_LOC_DEVICE;
}

static bool data_applies(const int64_t *v, const char **why)
{
    if (v[GT_VMM_OP] == GT_VMM_OP_BANDWIDTH || v[GT_VMM_OP] == GT_VMM_OP_READ)
        return true;
    *why = "only with op=bandwidth or read";
    return false;
}

static const gt_param params[GT_VMM_NPARAMS] = {
    [GT_VMM_OP] = {.name = "op", .label = "measure", .type = GT_P_ENUM, .max = 5,
                   .def = GT_VMM_OP_ALLOC, .choices = op_names, .nchoices = 6,
                   .help = "alloc: each VMM call and the runtime's; bandwidth: copies into VMM "
                           "memory vs cudaMalloc memory; grow: a vector grown in place vs "
                           "reallocated; peer: another GPU reads (rw: and writes) the memory; "
                           "read: a kernel reads VMM memory vs cudaMalloc memory; share: "
                           "another process imports the memory through a file descriptor"},
    [GT_VMM_GRAN] = {.name = "granularity", .label = "granularity", .type = GT_P_ENUM, .max = 1,
                     .def = GT_VMM_GRAN_REC, .choices = gran_names, .nchoices = 2,
                     .help = "cuMemGetAllocationGranularity: minimum or recommended; sizes round "
                             "up to it"},
    [GT_VMM_SIZE] = {.name = "size", .label = "size", .type = GT_P_SIZE, .min = 4096,
                     .max = 16ll << 30, .def = 64ll << 20, .align = 4, .unit = "bytes",
                     .help = "bytes asked for; VMM rounds up to the granularity",
                     .applies = sized},
    [GT_VMM_DIR] = {.name = "dir", .label = "direction", .type = GT_P_ENUM, .max = 2,
                    .def = GT_VMM_H2D, .choices = dir_names, .nchoices = 3,
                    .help = "h2d and d2h from pinned host memory, or d2d",
                    .applies = dir_applies},
    [GT_VMM_START] = {.name = "start", .label = "start size", .type = GT_P_SIZE, .min = 2ll << 20,
                      .max = 16ll << 30, .def = 64ll << 20, .align = 4, .unit = "bytes",
                      .help = "size of the vector before it grows",
                      .applies = grow_applies},
    [GT_VMM_END] = {.name = "end", .label = "end size", .type = GT_P_SIZE, .min = 2ll << 20,
                    .max = 32ll << 30, .def = 4ll << 30, .align = 4, .unit = "bytes",
                    .help = "size it grows to",
                    .applies = grow_applies},
    [GT_VMM_STEP] = {.name = "step", .label = "growth step", .type = GT_P_SIZE, .min = 2ll << 20,
                     .max = 16ll << 30, .def = 64ll << 20, .align = 4, .unit = "bytes",
                     .help = "bytes added per step (a chunk mapped at the end, or a larger "
                             "cudaMalloc and a copy)",
                     .applies = grow_applies},
    [GT_VMM_PEER] = {.name = "peer-access", .label = "peer access", .type = GT_P_ENUM, .max = 2,
                     .def = GT_VMM_PEER_OFF, .choices = peer_names, .nchoices = 3,
                     .help = "cuMemSetAccess for the other GPUs too: off, rw (read-write) or ro "
                             "(read-only); needs more than one GPU"},
    [GT_VMM_COMP] = {.name = "compression", .label = "compression", .type = GT_P_ENUM,
                     .max = 1, .def = GT_VMM_COMP_OFF, .choices = comp_names, .nchoices = 2,
                     .help = "cuMemCreate asks for compressible memory (allocFlags."
                             "compressionType = CU_MEM_ALLOCATION_COMP_GENERIC); whether the "
                             "driver granted it is read back from the allocation",
                     .applies = comp_applies},
    [GT_VMM_DATA] = {.name = "data", .label = "data", .type = GT_P_ENUM, .max = 3,
                     .def = GT_VMM_DATA_PATTERN, .choices = data_names, .nchoices = 4,
                     .help = "what the memory holds: gputui's pattern (word i = i x K ^ seed), "
                             "random words, zeros, or one word repeated",
                     .applies = data_applies},
    [GT_VMM_ACCESS] = {.name = "access", .label = "this GPU's access", .type = GT_P_ENUM,
                       .max = 1, .def = GT_VMM_ACCESS_RW, .choices = access_names, .nchoices = 2,
                       .help = "this GPU's mapping of the VMM memory once it holds the data: rw, "
                               "or ro (cuMemSetAccess with CU_MEM_ACCESS_FLAGS_PROT_READ; a "
                               "write is tried in a child process)",
                       .applies = read_applies},
    [GT_VMM_LOC] = {.name = "location", .label = "location", .type = GT_P_ENUM, .max = 2,
                    .def = GT_VMM_LOC_DEVICE, .choices = loc_names, .nchoices = 3,
                    .help = "where cuMemCreate puts the memory: this GPU, the host "
                            "(CU_MEM_LOCATION_TYPE_HOST, CUDA 13.0), or one host NUMA node "
                            "(HOST_NUMA, CUDA 12.2); the GPU reads host memory over its link",
                    .applies = loc_applies},
    [GT_VMM_NUMA] = {.name = "numa", .label = "host NUMA node", .type = GT_P_INT, .max = 62,
                     .def = 0, .help = "the host NUMA node of location=host-numa",
                     .applies = numa_applies},
    [GT_VMM_RDMA] = {.name = "rdma", .label = "GPUDirect RDMA", .type = GT_P_ENUM, .max = 1,
                     .def = GT_VMM_COMP_OFF, .choices = comp_names, .nchoices = 2,
                     .help = "cuMemCreate with allocFlags.gpuDirectRDMACapable: memory a NIC "
                             "may read and write directly; whether the driver granted it is read "
                             "back, and what it costs shows beside the same calls without it",
                     .applies = comp_applies},
    [GT_VMM_WARMUP] = GT_PARAM_WARMUP(1),
};

static int series(const int64_t *v, const char **names)
{
    switch (v[GT_VMM_OP]) {
    case GT_VMM_OP_ALLOC: {
        int n = v[GT_VMM_PEER] == GT_VMM_PEER_OFF ? GT_VMM_S_ACCESS_PEERS : GT_VMM_NALLOC_SERIES;
        for (int i = 0; i < n; i++)
            names[i] = alloc_series[i];
        return n;
    }
    case GT_VMM_OP_SHARE:
        names[GT_VMM_S_EXPORT] = "cuMemExportToShareableHandle";
        names[GT_VMM_S_IMPORT] = "cuMemImportFromShareableHandle";
        names[GT_VMM_S_SHARE_MAP] = "cuMemMap (other process)";
        names[GT_VMM_S_SHARE_ACCESS] = "cuMemSetAccess (other process)";
        return 4;
    case GT_VMM_OP_PEER:
        names[GT_VMM_S_PEER_READ] = "peer reads VMM";
        if (v[GT_VMM_PEER] == GT_VMM_PEER_RO)
            return 1;
        names[GT_VMM_S_PEER_WRITE] = "peer writes VMM";
        return 2;
    case GT_VMM_OP_BANDWIDTH:
    case GT_VMM_OP_READ:
        names[GT_VMM_S_VMM] = on_host(v) ? "VMM host memory" : "VMM memory";
        names[GT_VMM_S_RUNTIME] = "cudaMalloc memory";
        if (!on_host(v))
            return 2;
        names[GT_VMM_S_MAPPED] = "mapped cudaHostAlloc memory";
        return 3;
    default:
        names[GT_VMM_S_VMM] = "grow in place (map a chunk)";
        names[GT_VMM_S_RUNTIME] = "reallocate (cudaMalloc + copy + cudaFree)";
        return 2;
    }
}

uint64_t gt_vmm_granularity(const int64_t *v, const gt_devprops *p)
{
    return (uint64_t)gt_dp_get(p, v[GT_VMM_GRAN] == GT_VMM_GRAN_MIN ? GT_DP_GRAN_MIN
                                                                    : GT_DP_GRAN_REC);
}

/* Device memory the configuration needs at most. */
static uint64_t device_need(const int64_t *v, uint64_t gran)
{
    uint64_t size = gt_vmm_round((uint64_t)v[GT_VMM_SIZE], gran);

    switch (v[GT_VMM_OP]) {
    case GT_VMM_OP_ALLOC:
    case GT_VMM_OP_SHARE:
        return size;
    case GT_VMM_OP_BANDWIDTH:       /* a VMM and a cudaMalloc buffer, two of each for d2d */
        return (v[GT_VMM_DIR] == GT_VMM_D2D ? 4 : 2) * size;
    case GT_VMM_OP_READ:           /* the VMM memory on the host holds no device memory */
        return on_host(v) ? (uint64_t)v[GT_VMM_SIZE] : 2 * size;
    default:                        /* reallocating holds the old and the new vector */
        return 2 * gt_vmm_round((uint64_t)v[GT_VMM_END], gran);
    }
}

/* location=host or host-numa: the CUDA it needs, the device's support,
 * the node, and no compression (host memory is not compressible). */
static int check_host(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    bool numa = v[GT_VMM_LOC] == GT_VMM_LOC_HOST_NUMA;
    int64_t nodes = gt_dp_ok(p, GT_DP_HOST_NODES) ? gt_dp_get(p, GT_DP_HOST_NODES) : 0;
    char list[200];

    if (gt_dp_need_cuda(p, numa ? 12020 : 13000, numa ? "location=host-numa" : "location=host",
                        numa ? "cuMemCreate at CU_MEM_LOCATION_TYPE_HOST_NUMA"
                             : "cuMemCreate at CU_MEM_LOCATION_TYPE_HOST", err, n))
        return -1;
    if (gt_dp_ok(p, GT_DP_HOST_NUMA_VMM) && !gt_dp_get(p, GT_DP_HOST_NUMA_VMM)) {
        snprintf(err, n, "location=%s: this device does not map host memory through VMM "
                 "(CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 0); "
                 "allowed here: device", loc_names[v[GT_VMM_LOC]]);
        return -1;
    }
    if (numa && nodes > 0 && !(nodes & ((int64_t)1 << v[GT_VMM_NUMA]))) {
        gt_dp_format_nodes(nodes, list, sizeof list);
        snprintf(err, n, "numa: node %lld is not a NUMA node of this host; allowed: %s",
                 (long long)v[GT_VMM_NUMA], list);
        return -1;
    }
    if (v[GT_VMM_COMP] == GT_VMM_COMP_ON) {
        snprintf(err, n, "compression: only device memory is compressible; allowed with "
                 "location=%s: off", loc_names[v[GT_VMM_LOC]]);
        return -1;
    }
    if (v[GT_VMM_RDMA] == GT_VMM_COMP_ON) {
        snprintf(err, n, "rdma: the GPUDirect RDMA flag is for device memory; allowed with "
                 "location=%s: off", loc_names[v[GT_VMM_LOC]]);
        return -1;
    }
    if (v[GT_VMM_ACCESS] == GT_VMM_ACCESS_RO && v[GT_VMM_OP] == GT_VMM_OP_READ) {
        snprintf(err, n, "access=ro: this GPU's own mapping of device memory; allowed with "
                 "location=%s: rw", loc_names[v[GT_VMM_LOC]]);
        return -1;
    }
    return 0;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    uint64_t gran = gt_vmm_granularity(v, p), need;
    char a[32], b[32], c[32];

    if (gt_dp_ok(p, GT_DP_VMM) && !gt_dp_get(p, GT_DP_VMM)) {
        snprintf(err, n, "experiment vmm: this device does not support virtual memory "
                 "management (CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 0)");
        return -1;
    }
    if (v[GT_VMM_COMP] == GT_VMM_COMP_ON && comp_applies(v, &(const char *){NULL}) &&
        gt_dp_ok(p, GT_DP_COMPRESSION) && !gt_dp_get(p, GT_DP_COMPRESSION)) {
        snprintf(err, n, "compression: this device does not support generic compression "
                 "(CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 0); allowed here: off");
        return -1;
    }
    if (on_host(v) && check_host(v, p, err, n))
        return -1;
    if (v[GT_VMM_RDMA] == GT_VMM_COMP_ON && comp_applies(v, &(const char *){NULL}) &&
        gt_dp_ok(p, GT_DP_VMM_RDMA) && !gt_dp_get(p, GT_DP_VMM_RDMA)) {
        snprintf(err, n, "rdma: this device does not take the GPUDirect RDMA flag in cuMemCreate "
                 "(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED = 0); allowed "
                 "here: off");
        return -1;
    }
    if (v[GT_VMM_OP] == GT_VMM_OP_PEER && v[GT_VMM_PEER] == GT_VMM_PEER_OFF) {
        snprintf(err, n, "op=peer: another GPU reads the memory, which needs peer-access=rw "
                 "or ro (now off)");
        return -1;
    }
    if (v[GT_VMM_PEER] != GT_VMM_PEER_OFF && p->topo.count == 1) {
        snprintf(err, n, "peer-access: needs two GPUs; this machine has one; allowed here: off");
        return -1;
    }
    if (v[GT_VMM_PEER] != GT_VMM_PEER_OFF && !gt_dp_get(p, GT_DP_PEERS)) {
        snprintf(err, n, "peer-access: no other GPU here can access this one's memory "
                 "(%s); allowed here: off", gt_dp_ok(p, GT_DP_PEERS) ? "0 peers" : "N/A");
        return -1;
    }
    if (v[GT_VMM_OP] == GT_VMM_OP_GROW) {
        if (v[GT_VMM_END] <= v[GT_VMM_START]) {
            snprintf(err, n, "end: %s is not above start (%s); allowed: above the start size",
                     gt_format_size((uint64_t)v[GT_VMM_END], a, sizeof a),
                     gt_format_size((uint64_t)v[GT_VMM_START], b, sizeof b));
            return -1;
        }
        if (v[GT_VMM_STEP] > v[GT_VMM_END] - v[GT_VMM_START]) {
            snprintf(err, n, "step: %s is more than end - start (%s)",
                     gt_format_size((uint64_t)v[GT_VMM_STEP], a, sizeof a),
                     gt_format_size((uint64_t)(v[GT_VMM_END] - v[GT_VMM_START]), b, sizeof b));
            return -1;
        }
        if ((v[GT_VMM_END] - v[GT_VMM_START]) / v[GT_VMM_STEP] > 4096) {
            snprintf(err, n, "step: %s makes more than 4096 steps from start to end",
                     gt_format_size((uint64_t)v[GT_VMM_STEP], a, sizeof a));
            return -1;
        }
        if (gran && (v[GT_VMM_STEP] % (int64_t)gran || v[GT_VMM_START] % (int64_t)gran)) {
            snprintf(err, n, "start and step must be multiples of the %s granularity (%s) to "
                     "map chunks at the end of the vector; got start %s, step %s",
                     gran_names[v[GT_VMM_GRAN]], gt_format_size(gran, a, sizeof a),
                     gt_format_size((uint64_t)v[GT_VMM_START], b, sizeof b),
                     gt_format_size((uint64_t)v[GT_VMM_STEP], c, sizeof c));
            return -1;
        }
    }
    need = device_need(v, gran ? gran : 1);
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && need > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "%s: this configuration needs %s of device memory; %s is free",
                 v[GT_VMM_OP] == GT_VMM_OP_GROW ? "end" : "size", gt_format_size(need, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b));
        return -1;
    }
    return 0;
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    uint64_t gran = gt_vmm_granularity(v, p);
    char a[32], b[32], c[32], d[32], e[32];
    int n = 0;

    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "granularity: minimum %s, recommended %s",
                 gt_dp_ok(p, GT_DP_GRAN_MIN) ? gt_format_size((uint64_t)gt_dp_get(p, GT_DP_GRAN_MIN), a, sizeof a) : "N/A",
                 gt_dp_ok(p, GT_DP_GRAN_REC) ? gt_format_size((uint64_t)gt_dp_get(p, GT_DP_GRAN_REC), b, sizeof b) : "N/A");
    if (n < max && gran && v[GT_VMM_OP] != GT_VMM_OP_GROW) {
        uint64_t want = (uint64_t)v[GT_VMM_SIZE], got = gt_vmm_round(want, gran);
        snprintf(lines[n++], sizeof lines[0], "size %s rounds up to %s: %s wasted (%.1f%%)",
                 gt_format_size(want, a, sizeof a), gt_format_size(got, b, sizeof b),
                 gt_format_size(got - want, c, sizeof c), 100.0 * (double)(got - want) / (double)got);
    }
    if (v[GT_VMM_OP] == GT_VMM_OP_ALLOC && n + 1 < max) {
        double va = 0, vf = 0;
        for (int s = GT_VMM_S_RESERVE; s <= GT_VMM_S_ACCESS; s++)
            va += gt_run_p50(r, s);
        for (int s = GT_VMM_S_UNMAP; s <= GT_VMM_S_ADDRFREE; s++)
            vf += gt_run_p50(r, s);
        if (isfinite(va) && isfinite(gt_run_p50(r, GT_VMM_S_MALLOC)) && isfinite(gt_run_p50(r, GT_VMM_S_MALLOC_ASYNC)))
            snprintf(lines[n++], sizeof lines[0], "allocate (sum of p50s): VMM %s, cudaMalloc %s, "
                     "cudaMallocAsync %s", gt_format_seconds(va, a, sizeof a),
                     gt_format_seconds(gt_run_p50(r, GT_VMM_S_MALLOC), b, sizeof b),
                     gt_format_seconds(gt_run_p50(r, GT_VMM_S_MALLOC_ASYNC), c, sizeof c));
        if (isfinite(va) && isfinite(gt_run_p50(r, GT_VMM_S_ACCESS_PEERS)) && n + 1 < max)
            snprintf(lines[n++], sizeof lines[0], "peer access: VMM allocate %s for this GPU "
                     "alone, %s with the peers' access (+%s)", gt_format_seconds(va, a, sizeof a),
                     gt_format_seconds(va + gt_run_p50(r, GT_VMM_S_ACCESS_PEERS), b, sizeof b),
                     gt_format_seconds(gt_run_p50(r, GT_VMM_S_ACCESS_PEERS), c, sizeof c));
        if (isfinite(vf) && isfinite(gt_run_p50(r, GT_VMM_S_FREE)) && isfinite(gt_run_p50(r, GT_VMM_S_FREE_ASYNC)))
            snprintf(lines[n++], sizeof lines[0], "release (sum of p50s): VMM %s, cudaFree %s, "
                     "cudaFreeAsync %s", gt_format_seconds(vf, d, sizeof d),
                     gt_format_seconds(gt_run_p50(r, GT_VMM_S_FREE), e, sizeof e),
                     gt_format_seconds(gt_run_p50(r, GT_VMM_S_FREE_ASYNC), a, sizeof a));
    }
    if (v[GT_VMM_OP] == GT_VMM_OP_PEER)
        return n;
    if (v[GT_VMM_OP] == GT_VMM_OP_SHARE) {
        double sum = 0;
        for (int s = GT_VMM_S_EXPORT; s <= GT_VMM_S_SHARE_ACCESS; s++)
            sum += gt_run_p50(r, s);
        if (isfinite(sum) && n < max)
            snprintf(lines[n++], sizeof lines[0], "memory shared with another process (sum of "
                     "p50s): %s, besides the allocation", gt_format_seconds(sum, b, sizeof b));
        return n;
    }
    if (v[GT_VMM_OP] != GT_VMM_OP_ALLOC && n < max) {
        double x = gt_run_p50(r, GT_VMM_S_VMM), y = gt_run_p50(r, GT_VMM_S_RUNTIME);
        if (isfinite(x) && isfinite(y) && x > 0)
            snprintf(lines[n++], sizeof lines[0], "%s: VMM %s, cudaMalloc %s (p50): %.2fx",
                     v[GT_VMM_OP] == GT_VMM_OP_GROW ? "per step" :
                     v[GT_VMM_OP] == GT_VMM_OP_READ ? "per read" : "per copy",
                     gt_format_seconds(x, a, sizeof a), gt_format_seconds(y, b, sizeof b), y / x);
    }
    if (v[GT_VMM_OP] == GT_VMM_OP_GROW && n < max) {
        uint64_t steps = (uint64_t)((v[GT_VMM_END] - v[GT_VMM_START]) / v[GT_VMM_STEP]);
        double x = r->s[GT_VMM_S_VMM].lat.mean, y = r->s[GT_VMM_S_RUNTIME].lat.mean;
        if (r->s[GT_VMM_S_VMM].lat.count && r->s[GT_VMM_S_RUNTIME].lat.count)
            snprintf(lines[n++], sizeof lines[0], "whole growth, %llu steps (mean x steps): VMM "
                     "%s, reallocate %s", (unsigned long long)steps,
                     gt_format_seconds(x * (double)steps, a, sizeof a),
                     gt_format_seconds(y * (double)steps, b, sizeof b));
    }
    return n;
}

static bool bandwidth_for(const int64_t *v)
{
    return v[GT_VMM_OP] == GT_VMM_OP_BANDWIDTH || v[GT_VMM_OP] == GT_VMM_OP_PEER ||
           v[GT_VMM_OP] == GT_VMM_OP_READ;
}

static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    if (v[GT_VMM_OP] == GT_VMM_OP_PEER)
        return gt_ceiling_link(p, gt_topo_pick_peer(&p->topo, p->ordinal, -1), p->ordinal, factor,
                               label, n);
    if (v[GT_VMM_OP] == GT_VMM_OP_READ && (s == GT_VMM_S_MAPPED || (s == GT_VMM_S_VMM && on_host(v))))
        return gt_ceiling_host(p, factor, label, n);
    if (v[GT_VMM_OP] == GT_VMM_OP_READ)
        return gt_ceiling_hbm_read(p, factor, label, n);
    if (v[GT_VMM_OP] != GT_VMM_OP_BANDWIDTH) {
        *factor = 1.0;
        snprintf(label, n, "no ceiling");
        return 0;
    }
    return v[GT_VMM_DIR] == GT_VMM_D2D ? gt_ceiling_hbm(p, factor, label, n)
                                       : gt_ceiling_host(p, factor, label, n);
}

static void why_vmm(gt_lines *o, const gt_run *r, const gt_devprops *p)
{
    uint64_t g = gt_vmm_granularity(r->vals, p);
    bool grow = r->vals[GT_VMM_OP] == GT_VMM_OP_GROW;
    uint64_t size = (uint64_t)r->vals[grow ? GT_VMM_STEP : GT_VMM_SIZE], rs;
    char a[32], b[32], c[32];

    if (!g) {
        gt_say(o, "VMM granularity: N/A (the device did not report it)");
        return;
    }
    rs = gt_vmm_round(size, g);
    gt_say(o, "granularity %s (%s)", gt_format_size(g, a, sizeof a),
        r->vals[GT_VMM_GRAN] == GT_VMM_GRAN_MIN ? "minimum" : "recommended");
    gt_say(o, "%s %s rounds up to %s: %s wasted (%.1f%%)", grow ? "each step of" : "asked",
        gt_format_size(size, a, sizeof a), gt_format_size(rs, b, sizeof b),
        gt_format_size(rs - size, c, sizeof c), 100.0 * (double)(rs - size) / (double)rs);
    gt_say(o, "cudaMalloc rounds too, but inside its own pool: the waste is not yours to see");
}

/* What the memory held and whether it could be kept compressed. */
static void why_data(gt_lines *o, const int64_t *v, int s)
{
    static const char *const what[] = {
        [GT_VMM_DATA_PATTERN] = "gputui's pattern, word i = i x 0x9E3779B1 ^ seed",
        [GT_VMM_DATA_RANDOM] = "random words (the pattern through a mixing function)",
        [GT_VMM_DATA_ZEROS] = "zeros",
        [GT_VMM_DATA_CONSTANT] = "one word repeated (1.0f)"};

    gt_say(o, "the memory holds %s, written by the GPU and checked in full (op=read: a fold of "
           "each block's words against the data's; copies: word by word)",
           what[v[GT_VMM_DATA]]);
    if (s == GT_VMM_S_RUNTIME)
        gt_say(o, "cudaMalloc memory is not asked to be compressible");
    else if (v[GT_VMM_COMP] == GT_VMM_COMP_ON)
        gt_say(o, "compressible memory, if the driver granted it (the set-up line says): "
               "data it can compress moves in fewer bytes than it holds");
    else
        gt_say(o, "compression off: every byte moves as it is");
}

/* 'y': a copy's median against its bound (measure/bounds.h); the other
 * operations: the size against the granularity. */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    gt_lines o = {lines, 0, max};
    const int64_t *v = r->vals;

    if (v[GT_VMM_OP] == GT_VMM_OP_READ && (s == GT_VMM_S_MAPPED || (s == GT_VMM_S_VMM && on_host(v)))) {
        gt_bound_pcie(&o, r, s, p, true);
        gt_say(&o, "a kernel's loads from host memory go over the link as read requests, and "
               "the data comes back the host-to-device way");
    } else if (v[GT_VMM_OP] == GT_VMM_OP_READ ||
        (v[GT_VMM_OP] == GT_VMM_OP_BANDWIDTH && v[GT_VMM_DIR] == GT_VMM_D2D)) {
        gt_bound_hbm(&o, r, s, p, v[GT_VMM_OP] == GT_VMM_OP_BANDWIDTH);
        why_data(&o, v, s);
    } else if (v[GT_VMM_OP] == GT_VMM_OP_BANDWIDTH) {
        gt_bound_pcie(&o, r, s, p, v[GT_VMM_DIR] == GT_VMM_H2D);
        why_data(&o, v, s);
    } else {
        why_vmm(&o, r, p);
    }
    return o.n;
}

GT_EXPERIMENT(gt_exp_vmm) = {
    .name = "vmm",
    .title = "Virtual Memory Management (cuMemCreate / cuMemMap)",
    .explain =
        "The VMM driver API separates addresses from memory: reserve a virtual range, create "
        "physical memory, map it into the range, grant access. op=alloc times each call and "
        "its release against cudaMalloc/cudaFree and the stream-ordered cudaMallocAsync/"
        "cudaFreeAsync (each followed by a stream synchronise) at the same size. "
        "op=bandwidth copies into VMM memory and cudaMalloc memory side by side. op=grow "
        "grows a vector step by step: by mapping a new chunk at the end of a range reserved "
        "once (nothing copied, the pointer stays), or by cudaMalloc of the new size, a copy "
        "and cudaFree; the data is checked after every step. op=peer opens the memory to the "
        "other GPU (peer-access rw or ro): a kernel there reads it and, with rw, writes it; "
        "with ro one write from there is tried at set-up and the driver's answer shown. "
        "op=read: a kernel reads every word of VMM memory and of cudaMalloc memory and "
        "compares it with what was written. compression asks cuMemCreate for compressible "
        "memory, and data says what the memory holds: compressible memory holding zeros may "
        "read faster than the memory's peak, since fewer bytes move than it holds. op=share: "
        "the memory, made exportable, goes to a second gputui process as a file descriptor "
        "over a Unix socket; it imports, maps and opens it, checks what this process wrote "
        "and writes the other half, which this process then checks.",
    .params = params,
    .nparams = GT_VMM_NPARAMS,
    .warmup_param = GT_VMM_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = false,
    .bandwidth_for = bandwidth_for,
    .summary = summary,
    .why = why,
};
