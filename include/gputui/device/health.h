/* health.h - what the driver says of a GPU's health at one moment, for
 * the inspection card (card.h): the PCIe link and its replay counter, ECC
 * counts, retired pages and remapped rows, clocks and what holds them
 * back, temperature and power, NVLinks, modes, versions and NUMA place.
 * The CUDA back-end fills it from NVML and sysfs (gpu/nvml_health.c); a test
 * back-end fills it with faults. Every field has a "known" flag or a -1
 * for unknown: a figure that could not be read is "cannot tell", never 0.
 * (The inspection card, inspect/card.h, reads it.) */
#ifndef GPUTUI_HEALTH_H
#define GPUTUI_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

/* Why the clocks are held back (NVML's clocks event reasons, same bits). */
enum {
    GT_THR_IDLE = 0x1,
    GT_THR_APP_CLOCKS = 0x2,
    GT_THR_SW_POWER = 0x4,
    GT_THR_HW_SLOWDOWN = 0x8,
    GT_THR_SYNC_BOOST = 0x10,
    GT_THR_SW_THERMAL = 0x20,
    GT_THR_HW_THERMAL = 0x40,
    GT_THR_POWER_BRAKE = 0x80,
    GT_THR_DISPLAY = 0x100,
};

#define GT_HEALTH_NVLINKS 18
#define GT_ECC_NONE (-2)    /* NVML: ECC is not supported on this board */

typedef struct gt_health {
    bool nvml;              /* NVML answered for this device */
    char note[160];         /* why not, when it did not */
    /* PCIe: the link now, and the card's maximum. -1: unknown. */
    int pcie_gen, pcie_width, pcie_gen_max, pcie_width_max;
    int64_t pcie_replays;   /* nvmlDeviceGetPcieReplayCounter; -1 unknown */
    /* Memory. -1: unknown. */
    int ecc_on;             /* 1 on, 0 off, GT_ECC_NONE: the board has none */
    int64_t ecc_vol_corr, ecc_vol_unc, ecc_agg_corr, ecc_agg_unc;
    int64_t retired_sbe, retired_dbe;   /* pages retired for each cause */
    int retired_pending;                /* 1: a retirement waits for a reset */
    int64_t remap_corr, remap_unc;      /* rows remapped (Ampere and later) */
    int remap_pending, remap_failed;    /* 1: waits for a reset / a remap failed */
    /* Clocks (MHz) and reasons: -1 unknown; reasons_known false when the
     * driver does not say. */
    int sm_clock, sm_clock_max, mem_clock;
    bool reasons_known;
    uint64_t reasons;       /* GT_THR_* bits */
    /* Temperature (C) and power (W): -1 unknown. */
    int temp, temp_slowdown;
    double power, power_limit, power_default_limit;
    /* NVLinks the board has, and how many are up; -1 unknown. */
    int nvlinks, nvlinks_up;
    /* Modes: -1 unknown. compute: 0 default, 2 prohibited, 3 exclusive process. */
    int persistence, mig, compute_mode;
    char driver[32];        /* "" unknown */
    /* NUMA: the GPU's node (-1: none or unknown), whether this process's
     * CPUs are all in the GPU's CPU affinity (-1: unknown). */
    int numa_node;
    int near_cpus;
    char affinity[64];      /* the GPU's CPU list, as Linux writes it; "" unknown */
} gt_health;

/* Every field unknown. */
void gt_health_init(gt_health *h);

#endif
