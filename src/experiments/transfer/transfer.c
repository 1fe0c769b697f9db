/* The transfer experiment's table row: parameters and the pure functions
 * over them. The GPU side is src/experiments/transfer/transfer_gpu.c. */
#include "transfer.h"

#include <stdio.h>
#include <string.h>

#include "gputui/measure/bounds.h"
#include "gputui/base/units.h"

static const char *const dir_names[] = {"h2d", "d2h", "d2d", "bidir"};
static const char *const method_names[] = {"ce", "sm"};
static const char *const host_names[] = {"pageable", "pinned", "hostalloc", "register"};

static bool uses_host(const int64_t *v, const char **why)
{
    if (v[GT_TR_DIR] == GT_DIR_D2D) {
        *why = "only to copies that touch host memory (not dir=d2d)";
        return false;
    }
    return true;
}

static bool flag_applies(const int64_t *v, const char **why)
{
    if (!uses_host(v, why))
        return false;
    if (v[GT_TR_HOST] != GT_HOST_HOSTALLOC && v[GT_TR_HOST] != GT_HOST_REGISTER) {
        *why = "only with host=hostalloc or host=register";
        return false;
    }
    return true;
}

static bool ro_applies(const int64_t *v, const char **why)
{
    if (!uses_host(v, why))
        return false;
    if (v[GT_TR_HOST] != GT_HOST_REGISTER || v[GT_TR_DIR] != GT_DIR_H2D) {
        *why = "only with host=register and dir=h2d (the GPU only reads it)";
        return false;
    }
    return true;
}

static bool wc_applies(const int64_t *v, const char **why)
{
    if (!uses_host(v, why))
        return false;
    if (v[GT_TR_HOST] != GT_HOST_HOSTALLOC) {
        *why = "only with host=hostalloc (cudaHostAllocWriteCombined)";
        return false;
    }
    return true;
}

static bool cache_applies(const int64_t *v, const char **why)
{
    if (v[GT_TR_HOST] != GT_HOST_PAGEABLE || v[GT_TR_DIR] == GT_DIR_D2D) {
        *why = "only with host=pageable (and dir=h2d, d2h or bidir)";
        return false;
    }
    return true;
}

static const char *const cache_names[2] = {"flushed", "warm"};
static const char *const owner_names[2] = {"this", "other"};

static bool owner_applies(const int64_t *v, const char **why)
{
    if (!uses_host(v, why))
        return false;
    if (v[GT_TR_HOST] == GT_HOST_PAGEABLE) {
        *why = "only to pinned memory (host=pinned, hostalloc or register)";
        return false;
    }
    return true;
}

static const gt_param params[GT_TR_NPARAMS] = {
    [GT_TR_DIR] = {.name = "dir", .label = "direction", .type = GT_P_ENUM, .max = 3,
                   .def = GT_DIR_H2D, .choices = dir_names, .nchoices = 4,
                   .help = "h2d, d2h, d2d, or bidir (h2d and d2h at once on two streams)"},
    [GT_TR_METHOD] = {.name = "method", .label = "copy method", .type = GT_P_ENUM, .max = 1,
                      .def = GT_METHOD_CE, .choices = method_names, .nchoices = 2,
                      .help = "ce: copy engine (cudaMemcpyAsync); sm: a copy kernel on the SMs"},
    [GT_TR_HOST] = {.name = "host", .label = "host memory", .type = GT_P_ENUM, .max = 3,
                    .def = GT_HOST_PINNED, .choices = host_names, .nchoices = 4,
                    .help = "pageable (malloc), pinned (cudaMallocHost), hostalloc "
                            "(cudaHostAlloc + flags), register (malloc + cudaHostRegister)",
                    .applies = uses_host},
    [GT_TR_PORTABLE] = {.name = "portable", .label = "  portable", .type = GT_P_BOOL, .max = 1,
                        .help = "cudaHostAllocPortable / cudaHostRegisterPortable: pinned for "
                                "every context",
                        .applies = flag_applies},
    [GT_TR_WC] = {.name = "write-combined", .label = "  write-combined", .type = GT_P_BOOL,
                  .max = 1,
                  .help = "cudaHostAllocWriteCombined: bypasses the CPU caches; usually slow for "
                          "the CPU to read",
                  .applies = wc_applies},
    [GT_TR_MAPPED] = {.name = "mapped", .label = "  mapped", .type = GT_P_BOOL, .max = 1,
                      .help = "cudaHostAllocMapped / cudaHostRegisterMapped: kernels can address "
                              "it",
                      .applies = flag_applies},
    [GT_TR_RO] = {.name = "read-only", .label = "  read-only", .type = GT_P_BOOL, .max = 1,
                  .help = "cudaHostRegisterReadOnly: registered as memory the GPU only reads "
                          "(needs hostRegisterReadOnlySupported); the CPU writes the pattern",
                  .applies = ro_applies},
    [GT_TR_SIZE] = {.name = "size", .label = "size", .type = GT_P_SIZE, .min = 4096,
                    .max = 4ll << 30, .def = 64ll << 20, .align = 4, .unit = "bytes",
                    .help = "bytes per copy; +/- step in powers of two, Enter takes 64M, 1.5G ..."},
    [GT_TR_ITERS] = {.name = "iters", .label = "copies per sample", .type = GT_P_INT, .min = 1,
                     .iteration = true,
                     .max = 1000, .def = 1, .step = 1,
                     .help = "back-to-back copies timed together as one sample"},
    [GT_TR_CACHE] = {.name = "cpu-cache", .label = "  host buffer in CPU cache", .type = GT_P_ENUM,
                     .max = 1, .def = GT_CACHE_FLUSHED, .choices = cache_names, .nchoices = 2,
                     .help = "flushed: 256 MiB read before each sample pushes the pageable "
                             "buffer (source or destination) out of the CPU's caches "
                             "(bandwidthTest writes 256 MiB); warm: left there by the last copy "
                             "or check, and the driver's staging memcpy reads (or writes) it "
                             "faster",
                     .applies = cache_applies, .before = "warm"},
    [GT_TR_OWNER] = {.name = "alloc-on", .label = "  allocated on GPU", .type = GT_P_ENUM, .max = 1,
                     .def = GT_OWNER_THIS, .choices = owner_names, .nchoices = 2,
                     .help = "this: the host memory is pinned while this GPU is current; other: "
                             "while another GPU is (portable=0 pins it for that GPU's context "
                             "only, says the documentation); needs two GPUs",
                     .applies = owner_applies},
    [GT_TR_WARMUP] = {.name = "warmup", .label = "warm-up copies", .type = GT_P_INT, .max = 1000,
                      .iteration = true,
                      .def = 3, .step = 1,
                      .help = "untimed copies after each change, kept out of the histograms"},
};

static int series(const int64_t *v, const char **names)
{
    switch (v[GT_TR_DIR]) {
    case GT_DIR_H2D: names[0] = "H2D"; return 1;
    case GT_DIR_D2H: names[0] = "D2H"; return 1;
    case GT_DIR_D2D: names[0] = "D2D"; return 1;
    default: names[0] = "H2D"; names[1] = "D2H"; return 2;
    }
}

uint64_t gt_transfer_device_bytes(const int64_t *v)
{
    uint64_t n = (uint64_t)v[GT_TR_SIZE];

    return v[GT_TR_DIR] == GT_DIR_D2D || v[GT_TR_DIR] == GT_DIR_BIDIR ? 2 * n : n;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    char a[32], b[32], c[32];
    bool host = v[GT_TR_DIR] != GT_DIR_D2D;
    uint64_t need = gt_transfer_device_bytes(v);

    if (gt_dp_ok(p, GT_DP_MEM_FREE) && need > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "size: %s needs %s of device memory%s; %s is free",
                 gt_format_size((uint64_t)v[GT_TR_SIZE], a, sizeof a),
                 gt_format_size(need, b, sizeof b),
                 need > (uint64_t)v[GT_TR_SIZE] ? " (two buffers)" : "",
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), c, sizeof c));
        return -1;
    }
    if (host && v[GT_TR_MAPPED] && flag_applies(v, &(const char *){0}) &&
        gt_dp_ok(p, GT_DP_CAN_MAP) && !gt_dp_get(p, GT_DP_CAN_MAP)) {
        snprintf(err, n, "mapped: this device cannot map host memory "
                 "(canMapHostMemory = 0)");
        return -1;
    }
    if (v[GT_TR_RO] && ro_applies(v, &(const char *){0}) &&
        gt_dp_ok(p, GT_DP_HOST_REG_RO) && !gt_dp_get(p, GT_DP_HOST_REG_RO)) {
        snprintf(err, n, "read-only: this device does not take cudaHostRegisterReadOnly "
                 "(hostRegisterReadOnlySupported = 0); allowed here: off");
        return -1;
    }
    if (v[GT_TR_OWNER] == GT_OWNER_OTHER && owner_applies(v, &(const char *){0}) &&
        (p->topo.count < 2 || gt_topo_pick_peer(&p->topo, p->ordinal, -1) < 0)) {
        snprintf(err, n, "alloc-on: other needs a second GPU to allocate on; this machine has "
                 "%s; allowed here: this", gt_topo_count_words(&p->topo));
        return -1;
    }
    if (host && v[GT_TR_METHOD] == GT_METHOD_SM && v[GT_TR_HOST] == GT_HOST_PAGEABLE &&
        !gt_dp_get(p, GT_DP_PAGEABLE)) {
        snprintf(err, n, "method=sm needs host memory the GPU can address: use "
                 "host=pinned, hostalloc or register (this device has "
                 "pageableMemoryAccess = %s)", gt_dp_ok(p, GT_DP_PAGEABLE) ? "0" : "N/A");
        return -1;
    }
    return 0;
}

static double ceiling(const int64_t *v, int s, const gt_devprops *p,
                      double *factor, char *label, size_t n)
{
    (void)s;
    return v[GT_TR_DIR] == GT_DIR_D2D ? gt_ceiling_hbm(p, factor, label, n)
                                      : gt_ceiling_host(p, factor, label, n);
}

/* 'y': series s's median against its bound (measure/bounds.h). */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    gt_lines o = {lines, 0, max};

    if (r->vals[GT_TR_DIR] == GT_DIR_D2D)
        gt_bound_hbm(&o, r, s, p, true);
    else
        gt_bound_pcie(&o, r, s, p, !strcmp(r->s[s].name, "H2D"));
    return o.n;
}

GT_EXPERIMENT(gt_exp_transfer) = {
    .name = "transfer",
    .title = "Host/device transfer",
    .explain =
        "Copies one buffer and times every copy with CUDA events. Pageable "
        "memory is staged through a driver buffer by the CPU, so it moves slower, "
        "wobbles, and runs faster when the buffer is still in the CPU's caches "
        "(cpu-cache); its copies are timed on the host clock, from the call to the "
        "end of the copy, as a program's cudaMemcpy sees them; pinned (page-locked) memory is read directly by the copy "
        "engines and should come close to the PCIe ceiling. Write-combined "
        "memory skips the CPU caches; mapped memory can be read by kernels, "
        "which the sm method uses instead of a copy engine. alloc-on=other pins the "
        "host memory while another GPU is current, with portable or without. Compare the "
        "median with the ceiling and the before/after distributions.",
    .params = params,
    .nparams = GT_TR_NPARAMS,
    .warmup_param = GT_TR_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = true,
    .why = why,
};
