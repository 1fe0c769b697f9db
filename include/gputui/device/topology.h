/* topology.h - the GPUs of the machine and what joins each pair: peer
 * access, native atomics, NVLink links and their generation, the PCIe path.
 * The back-end fills it with the device's properties (devprops.h);
 * recordings carry it, so a replay shows the machine it was made on. Every
 * field has an "unknown" value and is shown as N/A, never guessed. */
#ifndef GPUTUI_TOPOLOGY_H
#define GPUTUI_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define GT_MAX_DEVICES 8

/* NVML's common ancestor of two GPUs (nvmlGpuTopologyLevel_t), in the
 * words nvidia-smi topo -m uses. */
enum { GT_PATH_UNKNOWN = -1, GT_PATH_BOARD, GT_PATH_PIX, GT_PATH_PXB, GT_PATH_PHB,
       GT_PATH_NODE, GT_PATH_SYS };

typedef struct gt_topo_dev {
    char name[64];
    char pci_bus_id[32];
    int64_t mem_total;          /* bytes, 0 unknown */
    int8_t pcie_gen, pcie_width;/* current link, 0 unknown */
} gt_topo_dev;

/* From device i to device j (link[i][j]). */
typedef struct gt_topo_link {
    int8_t access;      /* cudaDeviceCanAccessPeer(i, j): 1 or 0, -1 unknown */
    int8_t atomics;     /* cudaDevP2PAttrNativeAtomicSupported: 1, 0, -1 */
    int8_t nvlinks;     /* active NVLink links joining them, -1 unknown */
    int8_t nvlink_ver;  /* nvmlNvlinkVersion_t (6 = NVLink 4.0), 0 unknown */
    int8_t path;        /* GT_PATH_*: the PCIe path */
    int8_t nvswitch;    /* the NVLinks go through NVSwitches: 1, 0, -1 unknown */
} gt_topo_link;

typedef struct gt_topo {
    int count;          /* CUDA devices on the machine, 0: not known */
    int n;              /* of them listed here (at most GT_MAX_DEVICES) */
    gt_topo_dev dev[GT_MAX_DEVICES];
    gt_topo_link link[GT_MAX_DEVICES][GT_MAX_DEVICES];
    char note[96];      /* why NVLink or path fields are unknown, "" if known */
} gt_topo;

void gt_topo_init(gt_topo *t);
/* Bytes/s one way over the NVLinks joining i and j (links x the per-link
 * rate of their generation), 0 when unknown or none. */
double gt_topo_nvlink_bw(const gt_topo_link *l);
/* "NVLink 4.0" for a version, NULL if unknown. */
const char *gt_topo_nvlink_name(int ver);
/* "PIX", "PXB", "PHB", "NODE", "SYS", "board" or "N/A". */
const char *gt_topo_path_name(int path);
/* How i reaches j, for a table cell: "NV18", "PXB", "N/A". */
char *gt_topo_link_short(const gt_topo_link *l, char *buf, size_t len);
/* The other device an experiment on 'self' pairs with when asked for
 * 'want' (-1: the first other device with peer access, else the first
 * other one). -1 when there is none. */
int gt_topo_pick_peer(const gt_topo *t, int self, int want);
/* For "needs two GPUs; this machine has %s": "one", or words saying the
 * count is not known (a recording made without it). */
static inline const char *gt_topo_count_words(const gt_topo *t)
{
    return t->count == 1 ? "one" : t->count < 1 ? "an unknown number (not in this recording)" : "more than one, none of them a peer it can pick";
}

/* Lines for the device panel and --list: every GPU ('*' marks self),
 * then every ordered pair; returns how many. */
typedef char gt_topo_line[120];
int gt_topo_lines(const gt_topo *t, int self, gt_topo_line *lines, int max);

struct json_t;
/* {"count", "devices": [...], "links": [{from, to, access, ...}]} and back;
 * read leaves t empty (count 0) when the object is missing. */
struct json_t *gt_topo_json(const gt_topo *t);
void gt_topo_read(struct json_t *o, gt_topo *t);

#endif
