/* profile_wants.h - what each device profile implies (test_profiles.c):
 * the panel's n/a lines, the defaults each experiment refuses, the lesson
 * steps that are "not on this machine", and the pinned copies the sources
 * measured. */
#ifndef GPUTUI_TEST_PROFILE_WANTS_H
#define GPUTUI_TEST_PROFILE_WANTS_H

/* What each profile implies; "lesson/N" is step N of a lesson. */
typedef struct want {
    const char *file;
    const char *link;               /* the card's threshold key */
    const char *ceiling;            /* the host link's name, as ceilings give it */
    const char *na[8];              /* panel labels that say n/a */
    const char *refused[4];         /* "experiment: reason" of a default configuration */
    const char *not_here[16];       /* "lesson/step: reason" */
    double h2d, d2h;                /* pinned copies, bytes/s: what the sources measured */
} want;

static const want wants[] = {
    {.file = "t4", .link = "gen3", .ceiling = "PCIe Gen3 x16",
     .na = {"  persisting max", "  policy window max", "  persisting limit"},
     .refused = {"l2: experiment l2: L2 persistence needs compute capability 8.0 or newer; this device is 7.5",
                 "cluster: experiment cluster: clusters of blocks and their distributed shared memory came with Hopper (9.0); this device is 7.5"},
     .not_here = {"l2/1: compute_capability 7.5", "l2/2: compute_capability 7.5",
                  "l2/3: compute_capability 7.5", "l2/4: compute_capability 7.5",
                  "l2/5: compute_capability 7.5", "async/1: compute_capability 7.5",
                  "async/2: compute_capability 7.5", "async/3: compute_capability 7.5",
                  "async/4: compute_capability 7.5", "hierarchy/5: compute_capability 7.5",
                  "hierarchy/6: compute_capability 7.5",
                  "compression/1: generic_compression_supported no",
                  "compression/2: generic_compression_supported no"},
     .h2d = 12.3e9, .d2h = 13.2e9},
    {.file = "v100", .link = "gen3", .ceiling = "PCIe Gen3 x16",
     .na = {"  persisting max", "  policy window max", "  persisting limit"},
     .refused = {"l2: experiment l2: L2 persistence needs compute capability 8.0 or newer; this device is 7.0",
                 "cluster: experiment cluster: clusters of blocks and their distributed shared memory came with Hopper (9.0); this device is 7.0"},
     .not_here = {"l2/1: compute_capability 7.0", "l2/2: compute_capability 7.0",
                  "l2/3: compute_capability 7.0", "l2/4: compute_capability 7.0",
                  "l2/5: compute_capability 7.0", "async/1: compute_capability 7.0",
                  "async/2: compute_capability 7.0", "async/3: compute_capability 7.0",
                  "async/4: compute_capability 7.0", "hierarchy/5: compute_capability 7.0",
                  "hierarchy/6: compute_capability 7.0",
                  "compression/1: generic_compression_supported no",
                  "compression/2: generic_compression_supported no"}},
    {.file = "a100-pcie", .link = "gen4", .ceiling = "PCIe Gen4 x16",
     .refused = {"cluster: experiment cluster: clusters of blocks and their distributed shared memory came with Hopper (9.0); this device is 8.0"},
     .not_here = {"async/1: compute_capability 8.0", "hierarchy/5: compute_capability 8.0",
                  "hierarchy/6: compute_capability 8.0"}},
    {.file = "l4", .link = "gen4", .ceiling = "PCIe Gen4 x16",
     .refused = {"cluster: experiment cluster: clusters of blocks and their distributed shared memory came with Hopper (9.0); this device is 8.9"},
     .not_here = {"async/1: compute_capability 8.9", "hierarchy/5: compute_capability 8.9",
                  "hierarchy/6: compute_capability 8.9"}},
    {.file = "rtx4090", .link = "gen4", .ceiling = "PCIe Gen4 x16",
     .refused = {"cluster: experiment cluster: clusters of blocks and their distributed shared memory came with Hopper (9.0); this device is 8.9"},
     .not_here = {"async/1: compute_capability 8.9", "hierarchy/5: compute_capability 8.9",
                  "hierarchy/6: compute_capability 8.9"}},
    {.file = "rtx5090", .link = "gen5", .ceiling = "PCIe Gen5 x16"},
    {.file = "jetson-agx-orin", .link = "integrated",
     .ceiling = "no link: an integrated GPU shares the host's memory",
     .na = {"PCIe gen now/max", "PCIe width now/max", "  link bandwidth", "  max payload",
            "NVLink-C2C to CPU"},
     .refused = {"cluster: experiment cluster: clusters of blocks and their distributed shared memory came with Hopper (9.0); this device is 8.7"},
     .not_here = {"pinned/3: an integrated GPU has no PCIe link",
                  "write-combined/2: an integrated GPU's copies cross no PCIe link",
                  "l2/1: l2_bytes 4 MiB", "l2/2: l2_bytes 4 MiB", "l2/5: l2_bytes 4 MiB",
                  "hierarchy/3: an integrated GPU's host memory is its own DRAM",
                  "async/1: compute_capability 8.7", "hierarchy/5: compute_capability 8.7",
                  "hierarchy/6: compute_capability 8.7"}},
    {.file = "gh200", .link = "c2c", .ceiling = "NVLink-C2C", .h2d = 335.3e9, .d2h = 291.6e9},
};

#endif
