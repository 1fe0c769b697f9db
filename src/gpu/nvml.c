/* What NVML and the runtime say about the machine's GPUs: a device's PCIe
 * link and the driver version (devprops.h), for every pair the peer
 * access, native atomics, NVLinks and PCIe path (topology.h), and the
 * other processes on a device, with whether they had work, and the
 * traffic on its PCIe link (backend.h).
 *
 * NVML comes from dlopen, so a machine without it still measures; then
 * the NVML fields stay unknown and the note says why. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

typedef struct nvmlDevice_st *nvml_device;
/* nvmlPciInfo_t: only the numbers are compared. */
typedef struct nvml_pci {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci;
typedef int (*pfn_nvml_void)(void);
typedef int (*pfn_nvml_by_bus)(const char *, nvml_device *);
typedef int (*pfn_nvml_uint)(nvml_device, unsigned int *);
typedef int (*pfn_nvml_link_uint)(nvml_device, unsigned int, unsigned int *);
typedef int (*pfn_nvml_link_pci)(nvml_device, unsigned int, nvml_pci *);
typedef int (*pfn_nvml_common)(nvml_device, nvml_device, int *);
typedef int (*pfn_nvml_p2p)(nvml_device, nvml_device, int, int *);
typedef int (*pfn_nvml_str)(char *, unsigned int);

static void *nvml;
static bool nvml_ready;
static pthread_mutex_t nvml_mu = PTHREAD_MUTEX_INITIALIZER;     /* loading and closing */

/* Loads and initialises NVML once (the TUI's first frame may ask while the
 * worker opens the device); NULL with why set when it cannot. */
static void *nvml_lib(char *why, size_t n)
{
    pthread_mutex_lock(&nvml_mu);
    if (!nvml) {
        nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!nvml) {
            pthread_mutex_unlock(&nvml_mu);
            snprintf(why, n, "NVML not found (libnvidia-ml.so.1)");
            return NULL;
        }
        pfn_nvml_void init = (pfn_nvml_void)dlsym(nvml, "nvmlInit_v2");
        nvml_ready = init && init() == 0;
    }
    pthread_mutex_unlock(&nvml_mu);
    if (!nvml_ready) {
        snprintf(why, n, "NVML did not initialize");
        return NULL;
    }
    return nvml;
}

static int by_bus(const char *bus, nvml_device *d)
{
    pfn_nvml_by_bus f = (pfn_nvml_by_bus)dlsym(nvml, "nvmlDeviceGetHandleByPciBusId_v2");
    return f && bus[0] && f(bus, d) == 0 ? 0 : -1;
}

void *gt_nvml_handle(const char *bus, void **dev, char *why, size_t n)
{
    nvml_device d;

    if (!nvml_lib(why, n))
        return NULL;
    if (by_bus(bus, &d)) {
        snprintf(why, n, "NVML does not know PCI %s", bus);
        return NULL;
    }
    *dev = d;
    return nvml;
}

/* nvml.h's nvmlFieldValue_t: the field and link asked for, then NVML's
 * answer (an 8-byte union; the C2C fields are unsigned ints). */
typedef struct nvml_field {
    unsigned int field, scope;
    long long timestamp, latency_us;
    int type, rc;
    union { unsigned int u; unsigned long long ull; double d; } value;
} nvml_field;
typedef int (*pfn_nvml_fields)(nvml_device, int, nvml_field *);
enum { NVML_FI_C2C_LINK_COUNT = 170, NVML_FI_C2C_LINK_STATUS = 171, NVML_FI_C2C_LINK_MAX_BW = 172 };

/* The NVLink-C2C links to the CPU (Grace Hopper): the sum of the active
 * links' speed, which NVML gives in MB/s (as NCCL reads it); 0 when NVML
 * says the GPU has none or does not support the field (a PCIe GPU);
 * unknown when the driver does not say. */
static void c2c(nvml_device d, gt_devprops *p)
{
    pfn_nvml_fields f = (pfn_nvml_fields)dlsym(nvml, "nvmlDeviceGetFieldValues");
    nvml_field count = {.field = NVML_FI_C2C_LINK_COUNT};
    unsigned long long mbps = 0;

    if (!f || f(d, 1, &count) != 0)
        return;
    if (count.rc == 3) {        /* NVML_ERROR_NOT_SUPPORTED: a PCIe GPU (an H200's answer) */
        gt_dp_set(p, GT_DP_C2C_BW, 0);
        return;
    }
    if (count.rc != 0)
        return;
    for (unsigned l = 0; l < count.value.u && l < 64; l++) {
        nvml_field q[2] = {{.field = NVML_FI_C2C_LINK_STATUS, .scope = l},
                           {.field = NVML_FI_C2C_LINK_MAX_BW, .scope = l}};
        if (f(d, 2, q) == 0 && q[0].rc == 0 && q[0].value.u == 1 && q[1].rc == 0)
            mbps += q[1].value.u;
    }
    gt_dp_set(p, GT_DP_C2C_BW, (int64_t)(mbps * 1000000ull));
}

void gt_nvml_device(gt_devprops *p)
{
    pfn_nvml_str drv;
    nvml_device d;
    unsigned int v;
    static const struct { const char *fn; gt_dp_id id; } links[] = {
        {.fn = "nvmlDeviceGetCurrPcieLinkGeneration", .id = GT_DP_PCIE_GEN},
        {.fn = "nvmlDeviceGetMaxPcieLinkGeneration", .id = GT_DP_PCIE_GEN_MAX},
        {.fn = "nvmlDeviceGetCurrPcieLinkWidth", .id = GT_DP_PCIE_WIDTH},
        {.fn = "nvmlDeviceGetMaxPcieLinkWidth", .id = GT_DP_PCIE_WIDTH_MAX},
    };

    if (!nvml_lib(p->nvml_note, sizeof p->nvml_note))
        return;
    drv = (pfn_nvml_str)dlsym(nvml, "nvmlSystemGetDriverVersion");
    if (drv && drv(p->driver, sizeof p->driver) != 0)
        p->driver[0] = '\0';
    if (by_bus(p->pci_bus_id, &d)) {
        snprintf(p->nvml_note, sizeof p->nvml_note, "NVML does not know PCI %s", p->pci_bus_id);
        return;
    }
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        pfn_nvml_uint f = (pfn_nvml_uint)dlsym(nvml, links[i].fn);
        if (f && f(d, &v) == 0 && v > 0 && v < 1000)
            gt_dp_set(p, links[i].id, v);
    }
    c2c(d, p);
}

/* "0000:1B:00.0" -> domain, bus, device numbers. */
static bool parse_bus(const char *s, unsigned *dom, unsigned *bus, unsigned *dev)
{
    return sscanf(s, "%x:%x:%x", dom, bus, dev) == 3;
}

/* Active NVLinks of a that end at device b, and their version. Links
 * that end at an NVSwitch count when NVML says b is reachable over NVLink
 * (nvmlDeviceGetP2PStatus): on an NVSwitch system every GPU reaches every
 * other over all its links, as nvidia-smi topo -m shows them. */
static void nvlinks(nvml_device a, nvml_device b, const char *b_bus, gt_topo_link *l)
{
    pfn_nvml_link_uint state = (pfn_nvml_link_uint)dlsym(nvml, "nvmlDeviceGetNvLinkState");
    pfn_nvml_link_uint ver = (pfn_nvml_link_uint)dlsym(nvml, "nvmlDeviceGetNvLinkVersion");
    pfn_nvml_link_pci remote = (pfn_nvml_link_pci)dlsym(nvml, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    pfn_nvml_link_uint rtype = (pfn_nvml_link_uint)dlsym(nvml, "nvmlDeviceGetNvLinkRemoteDeviceType");
    pfn_nvml_p2p p2p = (pfn_nvml_p2p)dlsym(nvml, "nvmlDeviceGetP2PStatus");
    unsigned dom, bus, dev, v;
    int direct = 0, switched = 0, status = -1;

    if (!state || !remote || !parse_bus(b_bus, &dom, &bus, &dev))
        return;
    /* NVML_NVLINK_MAX_LINKS is 18 on Hopper; newer parts may have more,
     * and an invalid link index ends the walk. */
    for (unsigned k = 0; k < 64; k++) {
        unsigned on = 0, type = 255;
        nvml_pci pci;
        int rc = state(a, k, &on);
        if (rc == 2 /* NVML_ERROR_INVALID_ARGUMENT */ && k > 0)
            break;
        if (rc == 3 /* NVML_ERROR_NOT_SUPPORTED */ && k == 0) {
            l->nvlinks = 0;     /* no NVLink on this GPU */
            return;
        }
        if (rc != 0 || on != 1)
            continue;
        if (ver && ver(a, k, &v) == 0 && v > 0 && v < 32)
            l->nvlink_ver = (int8_t)v;
        memset(&pci, 0, sizeof pci);
        if (remote(a, k, &pci) == 0 && pci.domain == dom && pci.bus == bus && pci.device == dev)
            direct++;
        else if (rtype && rtype(a, k, &type) == 0 && type == 2 /* NVML_NVLINK_DEVICE_TYPE_SWITCH */)
            switched++;
    }
    if (!direct && switched && p2p && p2p(a, b, 2 /* NVML_P2P_CAPS_INDEX_NVLINK */, &status) == 0 &&
        status == 0 /* NVML_P2P_STATUS_OK */) {
        l->nvlinks = (int8_t)(switched > 64 ? 64 : switched);
        l->nvswitch = 1;
        return;
    }
    l->nvlinks = (int8_t)(direct > 64 ? 64 : direct);
    l->nvswitch = 0;
    if (!direct)
        l->nvlink_ver = 0;
}

static int8_t path_of(int level)
{
    switch (level) {
    case 0: return GT_PATH_BOARD;       /* NVML_TOPOLOGY_INTERNAL */
    case 10: return GT_PATH_PIX;        /* SINGLE */
    case 20: return GT_PATH_PXB;        /* MULTIPLE */
    case 30: return GT_PATH_PHB;        /* HOSTBRIDGE */
    case 40: return GT_PATH_NODE;
    case 50: return GT_PATH_SYS;
    default: return GT_PATH_UNKNOWN;
    }
}

void gt_query_topology(gt_topo *t, int count)
{
    nvml_device h[GT_MAX_DEVICES];
    bool have[GT_MAX_DEVICES] = {false};
    pfn_nvml_common common = NULL;
    struct cudaDeviceProp prop;
    int v;

    gt_topo_init(t);
    t->count = count;
    t->n = count < GT_MAX_DEVICES ? count : GT_MAX_DEVICES;
    for (int i = 0; i < t->n; i++) {
        gt_topo_dev *d = &t->dev[i];
        if (cudaGetDeviceProperties(&prop, i) == cudaSuccess) {
            snprintf(d->name, sizeof d->name, "%s", prop.name);
            d->mem_total = (int64_t)prop.totalGlobalMem;
        }
        if (cudaDeviceGetPCIBusId(d->pci_bus_id, sizeof d->pci_bus_id, i) != cudaSuccess)
            d->pci_bus_id[0] = '\0';
        cudaGetLastError();
    }
    for (int i = 0; i < t->n; i++)
        for (int j = 0; j < t->n; j++) {
            gt_topo_link *l = &t->link[i][j];
            if (i == j)
                continue;
            if (cudaDeviceCanAccessPeer(&v, i, j) == cudaSuccess)
                l->access = (int8_t)(v != 0);
            if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported, i, j) ==
                cudaSuccess)
                l->atomics = (int8_t)(v != 0);
            cudaGetLastError();
        }
    if (!nvml_lib(t->note, sizeof t->note))
        return;
    common = (pfn_nvml_common)dlsym(nvml, "nvmlDeviceGetTopologyCommonAncestor");
    for (int i = 0; i < t->n; i++) {
        pfn_nvml_uint f;
        unsigned u;
        have[i] = by_bus(t->dev[i].pci_bus_id, &h[i]) == 0;
        if (!have[i]) {
            snprintf(t->note, sizeof t->note, "NVML does not know PCI %s", t->dev[i].pci_bus_id);
            continue;
        }
        if ((f = (pfn_nvml_uint)dlsym(nvml, "nvmlDeviceGetCurrPcieLinkGeneration")) && !f(h[i], &u) && u < 100)
            t->dev[i].pcie_gen = (int8_t)u;
        if ((f = (pfn_nvml_uint)dlsym(nvml, "nvmlDeviceGetCurrPcieLinkWidth")) && !f(h[i], &u) && u < 100)
            t->dev[i].pcie_width = (int8_t)u;
    }
    for (int i = 0; i < t->n; i++)
        for (int j = 0; j < t->n; j++) {
            int level;
            if (i == j || !have[i] || !have[j])
                continue;
            nvlinks(h[i], h[j], t->dev[j].pci_bus_id, &t->link[i][j]);
            if (common && common(h[i], h[j], &level) == 0)
                t->link[i][j].path = path_of(level);
        }
}

/* nvmlProcessInfo_t and nvmlProcessUtilizationSample_t. */
typedef struct nvml_proc {
    unsigned pid;
    unsigned long long mem;
    unsigned gpu_instance, compute_instance;
} nvml_proc;
typedef struct nvml_util {
    unsigned pid;
    unsigned long long ts;
    unsigned sm, mem, enc, dec;
} nvml_util;
typedef int (*pfn_nvml_procs)(nvml_device, unsigned *, nvml_proc *);
typedef int (*pfn_nvml_putil)(nvml_device, nvml_util *, unsigned *, unsigned long long);
typedef int (*pfn_nvml_pname)(unsigned, char *, unsigned);
typedef int (*pfn_nvml_mig)(nvml_device, unsigned *, unsigned *);

#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_NOT_SUPPORTED 3

static bool skipped(unsigned pid, const int *skip, int nskip)
{
    for (int i = 0; i < nskip; i++)
        if ((unsigned)skip[i] == pid)
            return true;
    return false;
}

/* Adds the processes of one kind (compute or graphics) to u. */
static void add_procs(nvml_device d, const char *fn, const int *skip, int nskip, gt_gpu_users *u)
{
    pfn_nvml_procs f = (pfn_nvml_procs)dlsym(nvml, fn);
    pfn_nvml_pname name = (pfn_nvml_pname)dlsym(nvml, "nvmlSystemGetProcessName");
    nvml_proc procs[64];
    unsigned n = 64;

    if (!f || f(d, &n, procs) != 0)
        return;
    for (unsigned i = 0; i < n && i < 64; i++) {
        bool seen = false;
        if (skipped(procs[i].pid, skip, nskip))
            continue;
        for (int k = 0; k < u->n && k < GT_USERS_MAX; k++)
            seen |= u->p[k].pid == (int)procs[i].pid;
        if (seen)
            continue;
        if (u->n < GT_USERS_MAX) {
            gt_gpu_proc *p = &u->p[u->n];
            char full[256] = "";
            const char *base;
            p->pid = (int)procs[i].pid;
            /* NVML_VALUE_NOT_AVAILABLE is all ones */
            p->mem = procs[i].mem == ~0ull ? 0 : procs[i].mem;
            if (name && name(procs[i].pid, full, sizeof full) == 0) {
                base = strrchr(full, '/');
                snprintf(p->name, sizeof p->name, "%s", base ? base + 1 : full);
            }
            if (!strcmp(p->name, "nvidia-cuda-mps-server"))
                snprintf(u->note, sizeof u->note, "an MPS server runs here: its clients share "
                         "the GPU through it and show as one process");
        }
        u->n++;
    }
}

void gt_nvml_users(const char *bus, const int *skip, int nskip, unsigned long long *last_ts,
                   gt_gpu_users *u)
{
    pfn_nvml_putil util;
    pfn_nvml_mig mig;
    nvml_util *s = NULL;
    nvml_device d;
    unsigned n = 0, cur, pending;
    unsigned long long newest = *last_ts;
    int rc;

    memset(u, 0, sizeof *u);
    if (!nvml_lib(u->note, sizeof u->note))
        return;
    if (by_bus(bus, &d)) {
        snprintf(u->note, sizeof u->note, "NVML does not know PCI %s", bus);
        return;
    }
    u->known = true;
    mig = (pfn_nvml_mig)dlsym(nvml, "nvmlDeviceGetMigMode");
    if (mig && mig(d, &cur, &pending) == 0 && cur)
        snprintf(u->note, sizeof u->note, "MIG is on: processes of other GPU instances "
                 "are not seen, and do not share this one's SMs");
    add_procs(d, "nvmlDeviceGetComputeRunningProcesses_v3", skip, nskip, u);
    add_procs(d, "nvmlDeviceGetGraphicsRunningProcesses_v3", skip, nskip, u);
    /* Which processes had work since the last look: NVML's per-process
     * utilization samples newer than it. */
    util = (pfn_nvml_putil)dlsym(nvml, "nvmlDeviceGetProcessUtilization");
    if (!util)
        return;
    rc = util(d, NULL, &n, *last_ts);
    if (rc == NVML_ERROR_NOT_FOUND || (rc == 0 && n == 0)) {
        u->activity_known = true;       /* no samples: nobody had work */
        return;
    }
    if (rc != NVML_ERROR_INSUFFICIENT_SIZE || !n || !(s = calloc(n, sizeof *s)))
        return;
    if (util(d, s, &n, *last_ts) == 0) {
        u->activity_known = true;
        u->fresh = n > 0;
        for (unsigned i = 0; i < n; i++) {
            if (s[i].ts > newest)
                newest = s[i].ts;
            if (skipped(s[i].pid, skip, nskip) || !(s[i].sm || s[i].mem))
                continue;
            /* Only processes that are still here: a sample of one gone
             * since says nothing about now. */
            for (int k = 0; k < u->n && k < GT_USERS_MAX; k++)
                if (u->p[k].pid == (int)s[i].pid)
                    u->p[k].busy = u->busy = true;
        }
        *last_ts = newest;
    }
    free(s);
}

/* The link's traffic, one direction after the other: NVML counts each
 * over 20 ms, and the call returns when the window ends. */
#define NVML_PCIE_UTIL_TX_BYTES 0
#define NVML_PCIE_UTIL_RX_BYTES 1
typedef int (*pfn_nvml_pcie_tp)(nvml_device, int, unsigned *);

void gt_nvml_traffic(const char *bus, gt_link_traffic *t)
{
    pfn_nvml_pcie_tp f;
    nvml_device d;
    unsigned tx, rx;
    char why[160];

    memset(t, 0, sizeof *t);
    if (!nvml_lib(why, sizeof why) || by_bus(bus, &d))
        return;
    f = (pfn_nvml_pcie_tp)dlsym(nvml, "nvmlDeviceGetPcieThroughput");
    if (!f || f(d, NVML_PCIE_UTIL_TX_BYTES, &tx) != 0 || f(d, NVML_PCIE_UTIL_RX_BYTES, &rx) != 0)
        return;
    t->known = true;
    t->tx_Bps = tx * 1e3;       /* KB/s */
    t->rx_Bps = rx * 1e3;
    t->window_s = 0.02;
    snprintf(t->source, sizeof t->source, "NVML PCIe throughput, 20 ms a direction");
}

void gt_nvml_close(void)
{
    pthread_mutex_lock(&nvml_mu);
    if (nvml) {
        pfn_nvml_void shut = (pfn_nvml_void)dlsym(nvml, "nvmlShutdown");
        if (nvml_ready && shut)
            shut();
        dlclose(nvml);
        nvml = NULL;
        nvml_ready = false;
    }
    pthread_mutex_unlock(&nvml_mu);
}

/* nvmlMemory_t */
typedef struct nvml_memory { unsigned long long total, free, used; } nvml_memory;
typedef int (*pfn_nvml_count)(unsigned int *);
typedef int (*pfn_nvml_by_index)(unsigned int, nvml_device *);
typedef int (*pfn_nvml_name)(nvml_device, char *, unsigned int);
typedef int (*pfn_nvml_mem)(nvml_device, nvml_memory *);

/* NVML's GPUs (nvml_lib loaded): their count in *n, and the functions
 * that give each one's handle and name; -1 when NVML lists none. */
static int nvml_list(unsigned int *n, pfn_nvml_by_index *by_index, pfn_nvml_name *name)
{
    pfn_nvml_count count = (pfn_nvml_count)dlsym(nvml, "nvmlDeviceGetCount_v2");

    *n = 0;
    *by_index = (pfn_nvml_by_index)dlsym(nvml, "nvmlDeviceGetHandleByIndex_v2");
    *name = (pfn_nvml_name)dlsym(nvml, "nvmlDeviceGetName");
    return count && *by_index && *name && count(n) == 0 && *n > 0 ? 0 : -1;
}

int gt_nvml_peek(int ordinal, gt_devprops *p)
{
    pfn_nvml_by_index by_index;
    pfn_nvml_name name;
    pfn_nvml_mem mem;
    unsigned int n;
    unsigned long long total = 0;
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    char why[80], first[sizeof p->name] = "";

    gt_devprops_init(p);
    if (ordinal < 0 || !nvml_lib(why, sizeof why))
        return -1;
    if (nvml_list(&n, &by_index, &name))
        return -1;
    mem = (pfn_nvml_mem)dlsym(nvml, "nvmlDeviceGetMemoryInfo");
    /* NVML counts in PCI order, CUDA fastest first: only what every GPU
     * has in common is this ordinal's for sure. */
    for (unsigned i = 0; i < n; i++) {
        nvml_device d;
        char nm[sizeof p->name];
        nvml_memory m;
        if (by_index(i, &d) != 0 || name(d, nm, sizeof nm) != 0 || (i && strcmp(nm, first)))
            return -1;
        if (!i)
            snprintf(first, sizeof first, "%s", nm);
        if (!mem || mem(d, &m) != 0 || (i && m.total != total))
            mem = NULL;
        else
            total = m.total;
    }
    p->ordinal = ordinal;
    snprintf(p->name, sizeof p->name, "%s", first);
    if (mem && total && !(vis && strstr(vis, "MIG")))
        gt_dp_set(p, GT_DP_MEM_TOTAL, (int64_t)total);
    return 0;
}

int gt_nvml_gpus(char *names, size_t n, char *driver, size_t dn)
{
    pfn_nvml_by_index by_index;
    pfn_nvml_name name;
    pfn_nvml_str drv;
    unsigned int k;
    size_t o = 0;
    char why[80];

    names[0] = driver[0] = '\0';
    if (!nvml_lib(why, sizeof why))
        return -1;
    drv = (pfn_nvml_str)dlsym(nvml, "nvmlSystemGetDriverVersion");
    if (drv && drv(driver, (unsigned)dn) != 0)
        driver[0] = '\0';
    if (nvml_list(&k, &by_index, &name))
        return -1;
    if (k > 1)
        o = (size_t)snprintf(names, n, "%u GPUs: ", k);
    for (unsigned i = 0; i < k && o < n; i++) {
        nvml_device d;
        char nm[96];
        if (by_index(i, &d) != 0 || name(d, nm, sizeof nm) != 0)
            snprintf(nm, sizeof nm, "GPU %u (no name)", i);
        o += (size_t)snprintf(names + o, n - o, "%s%s", i ? ", " : "", nm);
    }
    return 0;
}
