/* A GPU's health facts (health.h): all unknown until the back-end reads
 * them. */
#include "gputui/device/health.h"

#include <math.h>
#include <string.h>

void gt_health_init(gt_health *h)
{
    memset(h, 0, sizeof *h);
    h->pcie_gen = h->pcie_width = h->pcie_gen_max = h->pcie_width_max = -1;
    h->pcie_replays = -1;
    h->ecc_on = -1;
    h->ecc_vol_corr = h->ecc_vol_unc = h->ecc_agg_corr = h->ecc_agg_unc = -1;
    h->retired_sbe = h->retired_dbe = -1;
    h->retired_pending = -1;
    h->remap_corr = h->remap_unc = -1;
    h->remap_pending = h->remap_failed = -1;
    h->sm_clock = h->sm_clock_max = h->mem_clock = -1;
    h->temp = h->temp_slowdown = -1;
    h->power = h->power_limit = h->power_default_limit = NAN;
    h->nvlinks = h->nvlinks_up = -1;
    h->persistence = h->mig = h->compute_mode = -1;
    h->numa_node = -1;
    h->near_cpus = -1;
}
