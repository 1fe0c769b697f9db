/* What NVML and sysfs say of a GPU's health now (health.h), for the
 * inspection card: the PCIe link and its replay counter, ECC, retired
 * pages, remapped rows, clocks and their event reasons, temperature,
 * power, NVLinks, modes, the driver, and the GPU's NUMA node (port.h)
 * and CPUs against this process's. A call NVML does not have, or that the GPU does
 * not support, leaves its field unknown. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "gputui/base/port.h"
#include "gpu.h"

typedef int (*pfn_u)(void *, unsigned *);
typedef int (*pfn_i)(void *, int *);
typedef int (*pfn_ii)(void *, int *, int *);
typedef int (*pfn_k_u)(void *, int, unsigned *);
typedef int (*pfn_ull)(void *, unsigned long long *);
typedef int (*pfn_ecc)(void *, int, int, unsigned long long *);
typedef int (*pfn_pages)(void *, int, unsigned *, unsigned long long *);
typedef int (*pfn_remap)(void *, unsigned *, unsigned *, unsigned *, unsigned *);
typedef int (*pfn_uu)(void *, unsigned *, unsigned *);
typedef int (*pfn_link)(void *, unsigned, int *);
typedef int (*pfn_aff)(void *, unsigned, unsigned long *);
typedef int (*pfn_str)(char *, unsigned);

#define NVML_INSUFFICIENT_SIZE 7

/* NVML's library (for dlsym) and its handle of the device: passed down,
 * not kept, as the inspection reads health from two threads. */
typedef struct nv {
    void *lib, *dev;
} nv;

static void *sym(const nv *n, const char *name)
{
    return dlsym(n->lib, name);
}

/* An unsigned figure from f(n->dev, &v); -1 when it does not answer. */
static long u_of(const nv *n, const char *name)
{
    pfn_u f = (pfn_u)sym(n, name);
    unsigned v;

    return f && f(n->dev, &v) == 0 ? (long)v : -1;
}

static int i_of(const nv *n, const char *name)
{
    pfn_i f = (pfn_i)sym(n, name);
    int v;

    return f && f(n->dev, &v) == 0 ? v : -1;
}

static long k_u_of(const nv *n, const char *name, int k)
{
    pfn_k_u f = (pfn_k_u)sym(n, name);
    unsigned v;

    return f && f(n->dev, k, &v) == 0 ? (long)v : -1;
}

static void memory(const nv *n, gt_health *h)
{
    pfn_ii mode = (pfn_ii)sym(n, "nvmlDeviceGetEccMode");
    pfn_ecc total = (pfn_ecc)sym(n, "nvmlDeviceGetTotalEccErrors");
    pfn_pages pages = (pfn_pages)sym(n, "nvmlDeviceGetRetiredPages");
    pfn_remap remap = (pfn_remap)sym(n, "nvmlDeviceGetRemappedRows");
    int cur, pend;
    unsigned long long errors;
    unsigned count, a, b, c, d;
    /* NVML's errorType: 0 corrected, 1 uncorrected; counterType: 0 volatile, 1 aggregate */
    const struct { int error, counter; int64_t *to; } ecc[] = {
        {.error = 0, .counter = 0, .to = &h->ecc_vol_corr},
        {.error = 0, .counter = 1, .to = &h->ecc_agg_corr},
        {.error = 1, .counter = 0, .to = &h->ecc_vol_unc},
        {.error = 1, .counter = 1, .to = &h->ecc_agg_unc},
    };

    int mrc = mode ? mode(n->dev, &cur, &pend) : -1;
    if (mrc == 0)
        h->ecc_on = cur ? 1 : 0;
    else if (mrc == 3)           /* NVML_ERROR_NOT_SUPPORTED: a board without ECC */
        h->ecc_on = GT_ECC_NONE;
    for (size_t i = 0; total && h->ecc_on == 1 && i < sizeof ecc / sizeof ecc[0]; i++)
        if (total(n->dev, ecc[i].error, ecc[i].counter, &errors) == 0)
            *ecc[i].to = (int64_t)errors;
    /* cause 0: multiple single-bit errors, 1: a double-bit error; a count
     * of 0 asks for the size alone */
    for (int cause = 0; pages && cause < 2; cause++) {
        int rc;
        count = 0;
        rc = pages(n->dev, cause, &count, NULL);
        if (rc == 0 || rc == NVML_INSUFFICIENT_SIZE)
            *(cause ? &h->retired_dbe : &h->retired_sbe) = count;
    }
    h->retired_pending = i_of(n, "nvmlDeviceGetRetiredPagesPendingStatus");
    if (remap && remap(n->dev, &a, &b, &c, &d) == 0) {
        h->remap_corr = a;
        h->remap_unc = b;
        h->remap_pending = c ? 1 : 0;
        h->remap_failed = d ? 1 : 0;
    }
}

static void clocks_power(const nv *n, gt_health *h)
{
    pfn_ull reasons = (pfn_ull)sym(n, "nvmlDeviceGetCurrentClocksEventReasons");
    unsigned long long r;
    long v;

    if (!reasons)
        reasons = (pfn_ull)sym(n, "nvmlDeviceGetCurrentClocksThrottleReasons");
    h->sm_clock = (int)k_u_of(n, "nvmlDeviceGetClockInfo", 1);           /* NVML_CLOCK_SM */
    h->sm_clock_max = (int)k_u_of(n, "nvmlDeviceGetMaxClockInfo", 1);
    h->mem_clock = (int)k_u_of(n, "nvmlDeviceGetClockInfo", 2);          /* NVML_CLOCK_MEM */
    if (reasons && reasons(n->dev, &r) == 0) {
        h->reasons_known = true;
        h->reasons = r;
    }
    h->temp = (int)k_u_of(n, "nvmlDeviceGetTemperature", 0);             /* the GPU's die */
    h->temp_slowdown = (int)k_u_of(n, "nvmlDeviceGetTemperatureThreshold", 1);
    if ((v = u_of(n, "nvmlDeviceGetPowerUsage")) >= 0)
        h->power = v / 1000.0;
    if ((v = u_of(n, "nvmlDeviceGetEnforcedPowerLimit")) >= 0)
        h->power_limit = v / 1000.0;
    if ((v = u_of(n, "nvmlDeviceGetPowerManagementDefaultLimit")) >= 0)
        h->power_default_limit = v / 1000.0;
}

static void links_modes(const nv *n, gt_health *h)
{
    pfn_link state = (pfn_link)sym(n, "nvmlDeviceGetNvLinkState");
    pfn_uu mig = (pfn_uu)sym(n, "nvmlDeviceGetMigMode");
    pfn_str drv = (pfn_str)sym(n, "nvmlSystemGetDriverVersion");
    unsigned cur, pend;
    int up;

    if (state) {
        h->nvlinks = h->nvlinks_up = 0;
        for (unsigned l = 0; l < GT_HEALTH_NVLINKS; l++) {
            if (state(n->dev, l, &up) != 0)
                continue;       /* no such link on this board */
            h->nvlinks++;
            h->nvlinks_up += up != 0;
        }
    }
    h->pcie_gen = (int)u_of(n, "nvmlDeviceGetCurrPcieLinkGeneration");
    h->pcie_gen_max = (int)u_of(n, "nvmlDeviceGetMaxPcieLinkGeneration");
    h->pcie_width = (int)u_of(n, "nvmlDeviceGetCurrPcieLinkWidth");
    h->pcie_width_max = (int)u_of(n, "nvmlDeviceGetMaxPcieLinkWidth");
    h->pcie_replays = u_of(n, "nvmlDeviceGetPcieReplayCounter");
    h->persistence = i_of(n, "nvmlDeviceGetPersistenceMode");
    if (mig && mig(n->dev, &cur, &pend) == 0)
        h->mig = cur ? 1 : 0;
    h->compute_mode = i_of(n, "nvmlDeviceGetComputeMode");
    if (drv && drv(h->driver, sizeof h->driver) != 0)
        h->driver[0] = '\0';
}

/* "0-47,96-143" from a CPU mask. */
static void cpu_list(const unsigned long *set, int words, char *out, size_t len)
{
    int bits = words * (int)(8 * sizeof *set), n = 0;

    out[0] = '\0';
    for (int c = 0; c < bits; c++) {
        int e;
        if (!(set[c / (8 * sizeof *set)] >> (c % (8 * sizeof *set)) & 1ul))
            continue;
        for (e = c; e + 1 < bits && (set[(e + 1) / (8 * sizeof *set)] >>
                                     ((e + 1) % (8 * sizeof *set)) & 1ul); e++)
            ;
        n += snprintf(out + n, len > (size_t)n ? len - (size_t)n : 0, "%s%d", n ? "," : "", c);
        if (e > c)
            n += snprintf(out + n, len > (size_t)n ? len - (size_t)n : 0, "-%d", e);
        c = e;
        if ((size_t)n >= len)
            break;
    }
}

/* The GPU's node (sysfs) and CPUs (NVML), and whether this process's
 * CPUs are all among them. */
static void numa(const nv *n, const gt_devprops *p, gt_health *h)
{
    enum { WORDS = 16 };        /* 1024 CPUs */
    pfn_aff aff = n ? (pfn_aff)sym(n, "nvmlDeviceGetCpuAffinity") : NULL;
    unsigned long set[WORDS] = {0};
    cpu_set_t mine;

    h->numa_node = gt_port_pci_numa_node(p->pci_bus_id);
    if (!aff || aff(n->dev, WORDS, set) != 0)
        return;
    cpu_list(set, WORDS, h->affinity, sizeof h->affinity);
    if (sched_getaffinity(0, sizeof mine, &mine))
        return;
    h->near_cpus = 1;
    for (int c = 0; c < CPU_SETSIZE && c < WORDS * (int)(8 * sizeof *set); c++)
        if (CPU_ISSET(c, &mine) && !(set[c / (8 * sizeof *set)] >> (c % (8 * sizeof *set)) & 1ul))
            h->near_cpus = 0;
}

void gt_health_read(const gt_devprops *p, gt_health *h)
{
    nv n = {NULL, NULL};

    gt_health_init(h);
    n.lib = gt_nvml_handle(p->pci_bus_id, &n.dev, h->note, sizeof h->note);
    if (!n.lib) {
        numa(NULL, p, h);
        return;
    }
    h->nvml = true;
    links_modes(&n, h);
    memory(&n, h);
    clocks_power(&n, h);
    numa(&n, p, h);
}
