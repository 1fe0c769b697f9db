/* devprops.h - what gputui knows about one GPU. Each property has a
 * validity bit: a field that could not be read is shown as N/A, never 0
 * and never a guess. The back-end fills values; this table gives every
 * consumer (device panel, JSON, recordings) the same names and units. */
#ifndef GPUTUI_DEVPROPS_H
#define GPUTUI_DEVPROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gputui/device/topology.h"

typedef enum {
    GT_DP_CC,               /* compute capability, major*10+minor */
    GT_DP_SMS,
    GT_DP_MEM_TOTAL,        /* bytes */
    GT_DP_MEM_FREE,         /* bytes, at the last refresh */
    GT_DP_BUS_WIDTH,        /* bits */
    GT_DP_MEM_CLOCK,        /* kHz, peak */
    GT_DP_MEM_PEAK,         /* bytes/s, from clock x width x 2 (DDR) */
    GT_DP_ECC,              /* cudaDevAttrEccEnabled: ECC on now */
    GT_DP_L2,
    GT_DP_PERSIST_MAX,
    GT_DP_WINDOW_MAX,
    GT_DP_PERSIST_LIMIT,    /* cudaLimitPersistingL2CacheSize of the context now */
    GT_DP_CAN_MAP,
    GT_DP_HOST_ATOMIC,      /* hostNativeAtomicSupported: atomics on host memory are the CPU's too */
    GT_DP_INTEGRATED,
    GT_DP_UVA,
    GT_DP_PAGEABLE,
    GT_DP_HOST_PAGE_TABLES, /* pageableMemoryAccessUsesHostPageTables (ATS: Grace Hopper) */
    GT_DP_CONC_MANAGED,     /* concurrentManagedAccess: GPU and CPU on managed memory at once */
    GT_DP_ASYNC_ENGINES,
    GT_DP_CONC_KERNELS,
    GT_DP_VMM,
    GT_DP_GRAN_MIN,
    GT_DP_GRAN_REC,
    GT_DP_COMPRESSION,      /* CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED */
    GT_DP_HOST_NUMA_VMM,    /* CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED */
    GT_DP_VMM_RDMA,         /* CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED */
    GT_DP_HOST_REG_RO,      /* cudaDevAttrHostRegisterReadOnlySupported */
    GT_DP_HOST_NODES,       /* the host's NUMA nodes online, a mask (gt_port_numa_nodes) */
    GT_DP_TEX2D_W,          /* maxTexture2D: the largest 2D texture */
    GT_DP_TEX2D_H,
    GT_DP_SMEM_SM,          /* maxSharedMemoryPerMultiprocessor, bytes */
    GT_DP_SMEM_BLOCK,       /* sharedMemPerBlockOptin: the most a block may ask for */
    GT_DP_PEERS,            /* other GPUs that can access this one's memory */
    GT_DP_DRIVER_CUDA,      /* cudaDriverGetVersion, e.g. 13000 */
    GT_DP_RUNTIME,          /* cudaRuntimeGetVersion */
    GT_DP_BUILD_CUDA,       /* CUDART_VERSION gputui was built with */
    GT_DP_PCIE_GEN,
    GT_DP_PCIE_GEN_MAX,
    GT_DP_PCIE_WIDTH,
    GT_DP_PCIE_WIDTH_MAX,
    GT_DP_PCIE_BW,          /* bytes/s per direction, max gen x max width */
    GT_DP_PCIE_MPS,         /* bytes: Max_Payload_Size in the link's Device Control */
    GT_DP_C2C_BW,           /* bytes/s of the NVLink-C2C link to the CPU (NVML), 0: none */
    GT_DP_COUNT
} gt_dp_id;

typedef enum {
    GT_DPK_INT, GT_DPK_BYTES, GT_DPK_BOOL, GT_DPK_KHZ, GT_DPK_BPS,
    GT_DPK_BITS, GT_DPK_CC, GT_DPK_CUDAVER, GT_DPK_GEN, GT_DPK_LANES, GT_DPK_NODES
} gt_dp_kind;

typedef struct gt_dp_desc {
    gt_dp_id id;
    const char *key;        /* JSON key */
    const char *label;      /* device panel */
    gt_dp_kind kind;
} gt_dp_desc;

typedef struct gt_devprops {
    int ordinal;
    char name[128];
    char pci_bus_id[32];
    char uuid[48];          /* "GPU-xxxxxxxx-xxxx-...", as nvidia-smi -L; "" if unknown */
    char driver[32];        /* NVML driver version string, "" if unknown */
    char nvml_note[96];     /* why NVML fields are N/A, "" if loaded */
    int64_t v[GT_DP_COUNT];
    uint64_t valid;         /* bit i = v[i] was read */
    gt_topo topo;           /* every GPU of the machine and their links */
} gt_devprops;

extern const gt_dp_desc gt_dp_table[GT_DP_COUNT];

void gt_devprops_init(gt_devprops *p);
void gt_dp_set(gt_devprops *p, gt_dp_id id, int64_t v);
bool gt_dp_ok(const gt_devprops *p, gt_dp_id id);
int64_t gt_dp_get(const gt_devprops *p, gt_dp_id id); /* 0 if invalid */
/* NULL when property id means something on this device; otherwise why it
 * does not ("no PCIe link: an integrated GPU shares the host's memory"). */
const char *gt_dp_not_applicable(const gt_devprops *p, gt_dp_id id);
/* A mask of NUMA nodes (GT_DP_HOST_NODES) as "0, 1". */
void gt_dp_format_nodes(int64_t mask, char *buf, size_t len);
/* Formats a property for display: "60 MiB", "yes", "Gen5"; "n/a" where it
 * does not apply here, "N/A" where it is unknown. */
char *gt_dp_format(const gt_devprops *p, gt_dp_id id, char *buf, size_t len);
/* 0 when this gputui and this driver both have CUDA 'version' (12040 for
 * 12.4), which 'what' needs for 'call'; else -1 with err naming the
 * version, what is older and what to do. An unknown version is no
 * objection: a recording made before gputui recorded it. */
int gt_dp_need_cuda(const gt_devprops *p, int version, const char *what, const char *call,
                    char *err, size_t errlen);

/* The properties as label and value lines: the TUI's device panel. "" as
 * a label continues the line before (the topology's lines). */
typedef struct gt_dp_line {
    char label[32];
    char value[120];
    bool unknown;       /* N/A or n/a: drawn dim */
} gt_dp_line;
int gt_devprops_lines(const gt_devprops *p, gt_dp_line *out, int max);
/* Derives MEM_PEAK and PCIE_BW from the raw fields when those are valid. */
void gt_devprops_derive(gt_devprops *p);
/* Theoretical bytes/s per direction of a PCIe link; 0 if gen unknown. */
double gt_pcie_bw(int gen, int width);
/* How the GPU reaches the host's memory: a PCIe link, NVLink-C2C (Grace
 * Hopper), or no link at all (an integrated GPU shares the host's memory). */
typedef enum { GT_LINK_UNKNOWN, GT_LINK_PCIE, GT_LINK_C2C, GT_LINK_NONE } gt_link_kind;
/* That link's theoretical bytes/s a direction (0 when none or unknown),
 * its kind in *kind (may be NULL) and its name in label: "PCIe Gen5 x16",
 * "NVLink-C2C", "no link: an integrated GPU shares the host's memory". */
double gt_host_link(const gt_devprops *p, gt_link_kind *kind, char *label, size_t n);

struct json_t;
/* The properties as a JSON object, as reports and recordings hold them
 * (N/A fields are null); the caller owns the reference. */
struct json_t *gt_devprops_json(const gt_devprops *p);
/* The inverse: p is initialised, then takes every field o holds; unknown
 * keys are ignored and o may be NULL or not an object. */
void gt_devprops_read(struct json_t *o, gt_devprops *p);

#endif
