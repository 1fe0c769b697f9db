/* The peer experiment's table row: copies between two GPUs by the copy
 * engines or the SMs, with peer access on or off, and the latency of one
 * dependent read over the link. The GPU side is src/experiments/peer/peer_gpu.c. */
#include "peer.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const peer_names[1 + GT_MAX_DEVICES] = {"auto", "0", "1", "2", "3",
                                                           "4", "5", "6", "7"};
static const char *const measure_names[] = {"bandwidth", "latency"};
static const char *const engine_names[] = {"ce", "sm"};
static const char *const op_names[] = {"read", "write"};
static const char *const dir_names[] = {"one", "both"};
static const char *const access_names[] = {"on", "off"};

static bool copies(const int64_t *v, const char **why)
{
    if (v[GT_PE_MEASURE] == GT_PE_BANDWIDTH)
        return true;
    *why = "only with measure=bandwidth";
    return false;
}

static bool chases(const int64_t *v, const char **why)
{
    if (v[GT_PE_MEASURE] == GT_PE_LATENCY)
        return true;
    *why = "only with measure=latency";
    return false;
}

static const gt_param params[GT_PE_NPARAMS] = {
    [GT_PE_PEER] = {.name = "peer", .label = "peer GPU", .type = GT_P_ENUM, .max = GT_MAX_DEVICES,
                    .def = GT_PE_AUTO, .choices = peer_names, .nchoices = 1 + GT_MAX_DEVICES,
                    .help = "the other GPU (its ordinal); auto: the first other one with peer "
                            "access"},
    [GT_PE_MEASURE] = {.name = "measure", .label = "measure", .type = GT_P_ENUM, .max = 1,
                       .def = GT_PE_BANDWIDTH, .choices = measure_names, .nchoices = 2,
                       .help = "bandwidth: copies between the GPUs; latency: one thread reads "
                               "the peer's memory, each read's address coming from the one before"},
    [GT_PE_ENGINE] = {.name = "engine", .label = "copy engine", .type = GT_P_ENUM, .max = 1,
                      .def = GT_PE_CE, .choices = engine_names, .nchoices = 2,
                      .help = "ce: cudaMemcpyPeerAsync on the copy engines; sm: a copy kernel "
                              "whose loads or stores cross the link",
                      .applies = copies},
    [GT_PE_OP] = {.name = "op", .label = "operation", .type = GT_P_ENUM, .max = 1,
                  .def = GT_PE_READ, .choices = op_names, .nchoices = 2,
                  .help = "read: this GPU pulls the peer's memory into its own; write: it pushes "
                          "its memory into the peer's",
                  .applies = copies},
    [GT_PE_DIR] = {.name = "dir", .label = "directions", .type = GT_P_ENUM, .max = 1,
                   .def = GT_PE_ONE, .choices = dir_names, .nchoices = 2,
                   .help = "one: this GPU copies; both: the peer does the mirror copy at the "
                           "same time",
                   .applies = copies},
    [GT_PE_ACCESS] = {.name = "access", .label = "peer access", .type = GT_P_ENUM, .max = 1,
                      .def = GT_PE_ACCESS_ON, .choices = access_names, .nchoices = 2,
                      .help = "on: cudaDeviceEnablePeerAccess, copies cross the link directly; "
                              "off: the driver stages copy-engine copies through host memory"},
    [GT_PE_SIZE] = {.name = "size", .label = "size", .type = GT_P_SIZE, .min = 4096,
                    .max = 4ll << 30, .def = 512ll << 20, .align = 4, .unit = "bytes",
                    .help = "bytes per copy (nvbandwidth's default: 512 MiB)",
                    .applies = copies},
    [GT_PE_REGION] = {.name = "region", .label = "chased region", .type = GT_P_SIZE, .min = 4096,
                      .max = 1ll << 30, .def = 2ll << 20, .align = 128, .unit = "bytes",
                      .help = "the peer memory the reads walk, one 128-byte line after another "
                              "(nvbandwidth: 2 MiB)",
                      .applies = chases},
    [GT_PE_WARMUP] = GT_PARAM_WARMUP(2),
};

static int series(const int64_t *v, const char **names)
{
    if (v[GT_PE_MEASURE] == GT_PE_LATENCY) {
        names[0] = "dependent read";
        return 1;
    }
    names[0] = v[GT_PE_OP] == GT_PE_READ ? "this reads peer" : "this writes peer";
    if (v[GT_PE_DIR] == GT_PE_ONE)
        return 1;
    names[1] = v[GT_PE_OP] == GT_PE_READ ? "peer reads this" : "peer writes this";
    return 2;
}

int gt_peer_device(const int64_t *v, const gt_devprops *p)
{
    return gt_topo_pick_peer(&p->topo, p->ordinal, (int)v[GT_PE_PEER] - 1);
}

/* Allowed values of 'peer' on this machine, for messages. */
static char *allowed_peers(const gt_devprops *p, char *buf, size_t n)
{
    size_t off = (size_t)snprintf(buf, n, "auto");
    for (int j = 0; j < p->topo.count && j < GT_MAX_DEVICES && off < n; j++)
        if (j != p->ordinal)
            off += (size_t)snprintf(buf + off, n - off, ", %d", j);
    return buf;
}

static bool needs_access(const int64_t *v)
{
    return v[GT_PE_ACCESS] == GT_PE_ACCESS_ON || v[GT_PE_MEASURE] == GT_PE_LATENCY ||
           v[GT_PE_ENGINE] == GT_PE_SM;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    const gt_topo *t = &p->topo;
    int peer = gt_peer_device(v, p), self = p->ordinal;
    uint64_t need;
    char a[96], b[32];

    if (t->count < 2) {
        snprintf(err, n, "experiment peer needs two GPUs; this machine has %s (cudaGetDeviceCount)",
                 gt_topo_count_words(t));
        return -1;
    }
    if (peer < 0) {
        snprintf(err, n, "peer: %s is %s; allowed here: %s", peer_names[v[GT_PE_PEER]],
                 (int)v[GT_PE_PEER] - 1 == self ? "the GPU the experiment runs on"
                                                : "not a device of this machine",
                 allowed_peers(p, a, sizeof a));
        return -1;
    }
    if (peer >= t->n || self < 0 || self >= t->n) {
        snprintf(err, n, "peer: gputui lists the first %d GPUs only", GT_MAX_DEVICES);
        return -1;
    }
    if (v[GT_PE_ACCESS] == GT_PE_ACCESS_OFF && v[GT_PE_MEASURE] == GT_PE_LATENCY) {
        snprintf(err, n, "access: measure=latency reads the peer's memory from a kernel, which "
                 "needs access=on");
        return -1;
    }
    if (v[GT_PE_ACCESS] == GT_PE_ACCESS_OFF && v[GT_PE_ENGINE] == GT_PE_SM) {
        snprintf(err, n, "access: engine=sm reaches the peer's memory from a kernel, which needs "
                 "access=on; with access=off only engine=ce copies (staged through host memory)");
        return -1;
    }
    if (needs_access(v)) {
        bool both = v[GT_PE_DIR] == GT_PE_BOTH && v[GT_PE_MEASURE] == GT_PE_BANDWIDTH;
        int8_t ab = t->link[self][peer].access, ba = t->link[peer][self].access;
        if (ab == 0 || (both && ba == 0)) {
            snprintf(err, n, "access: GPU %d cannot access GPU %d's memory "
                     "(cudaDeviceCanAccessPeer = 0); allowed here: access=off with engine=ce",
                     ab == 0 ? self : peer, ab == 0 ? peer : self);
            return -1;
        }
    }
    need = v[GT_PE_MEASURE] == GT_PE_LATENCY ? 0
         : (uint64_t)v[GT_PE_SIZE] * (v[GT_PE_DIR] == GT_PE_BOTH ? 2 : 1);
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && need > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE)) {
        snprintf(err, n, "size: this configuration needs %s on each GPU; %s is free on GPU %d",
                 gt_format_size(need, a, sizeof a),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), b, sizeof b), self);
        return -1;
    }
    return 0;
}

static bool bandwidth_for(const int64_t *v)
{
    return v[GT_PE_MEASURE] == GT_PE_BANDWIDTH;
}

static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    (void)s;
    *factor = 1.0;
    if (v[GT_PE_MEASURE] != GT_PE_BANDWIDTH) {
        snprintf(label, n, "no ceiling");
        return 0;
    }
    /* Staged through the host without peer access: this GPU's PCIe link. */
    if (v[GT_PE_ACCESS] == GT_PE_ACCESS_OFF)
        return gt_ceiling_host(p, factor, label, n);
    return gt_ceiling_link(p, p->ordinal, gt_peer_device(v, p), factor, label, n);
}

static double p50(gt_run *r, int s, bool bw)
{
    if (s >= r->nseries || !r->s[s].lat.count)
        return NAN;
    return gt_dist_percentile(bw ? &r->s[s].bw : &r->s[s].lat, 0.5);
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    int peer = gt_peer_device(v, p), n = 0;
    char a[32];

    if (n < max)
        snprintf(lines[n++], sizeof lines[0], "GPU %d with GPU %d, peer access %s", p->ordinal,
                 peer, v[GT_PE_ACCESS] == GT_PE_ACCESS_ON ? "enabled" : "disabled");
    if (v[GT_PE_MEASURE] == GT_PE_LATENCY) {
        double t = p50(r, 0, false);
        if (n < max && isfinite(t))
            snprintf(lines[n++], sizeof lines[0], "one dependent 4-byte read of GPU %d's memory "
                     "from GPU %d: %.0f ns (p50, %d reads a sample over %s)", peer, p->ordinal,
                     t * 1e9, GT_PE_HOPS, gt_format_size((uint64_t)v[GT_PE_REGION], a, sizeof a));
        return n;
    }
    if (v[GT_PE_DIR] == GT_PE_BOTH && n < max) {
        double x = p50(r, 0, true), y = p50(r, 1, true);
        if (isfinite(x) && isfinite(y))
            snprintf(lines[n++], sizeof lines[0], "both directions at once: %.1f + %.1f = %.1f "
                     "GB/s total (p50s)", x / 1e9, y / 1e9, (x + y) / 1e9);
    }
    if (v[GT_PE_ACCESS] == GT_PE_ACCESS_OFF && n < max)
        snprintf(lines[n++], sizeof lines[0], "without peer access the driver stages each copy "
                 "through pinned host memory: the figure is bound by PCIe, not the GPU link");
    return n;
}

GT_EXPERIMENT(gt_exp_peer) = {
    .name = "peer",
    .title = "Peer to peer: copies between two GPUs",
    .explain =
        "Two GPUs can copy each other's memory directly over NVLink or PCIe once peer access "
        "is enabled (cudaDeviceEnablePeerAccess). engine=ce uses cudaMemcpyPeerAsync on the "
        "copy engines; engine=sm runs a copy kernel whose loads (op=read) or stores "
        "(op=write) cross the link. dir=both has the peer make the mirror copy at the same "
        "time; their sum is the bidirectional figure. With access=off the driver stages a "
        "copy through host memory. measure=latency walks a chain in the peer's memory, each "
        "read's address coming from the one before: the link's round trip. Every copy is "
        "checked in full on the GPU that receives it.",
    .params = params,
    .nparams = GT_PE_NPARAMS,
    .warmup_param = GT_PE_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = false,
    .bandwidth_for = bandwidth_for,
    .pair_param = "peer",
    .summary = summary,
};
