/* The coalescing experiment's table row: thread i of a copy kernel reads,
 * writes, or reads and writes element i * stride + offset, of 4, 8 or 16
 * bytes, in device memory or mapped host memory; beside it the same
 * kernel coalesced and a cudaMemcpy of the same bytes. The sectors a
 * warp's request touches come from the addresses here (gt_co_sectors).
 * The GPU side is src/experiments/coalesce/coalesce_gpu.c, its kernels the experiment's _kernels.cu. */
#include "coalesce.h"

#include <math.h>
#include <stdio.h>

#include "gputui/measure/run.h"
#include "gputui/base/units.h"

static const char *const memory_names[] = {"device", "mapped"};
static const char *const op_names[] = {"read", "write", "both"};
static const char *const width_names[] = {"float", "float2", "float4"};

static const gt_param params[GT_CO_NPARAMS] = {
    [GT_CO_MEMORY] = {.name = "memory", .label = "strided memory", .type = GT_P_ENUM, .max = 1,
                      .def = GT_CO_DEVICE, .choices = memory_names, .nchoices = 2,
                      .help = "where the buffer walked with the stride lives: device memory, or "
                              "mapped pinned host memory read and written over the link"},
    [GT_CO_OP] = {.name = "op", .label = "strided side", .type = GT_P_ENUM, .max = 2,
                  .def = GT_CO_READ, .choices = op_names, .nchoices = 3,
                  .help = "read: out[i] = in[i*stride+offset]; write: out[i*stride+offset] = "
                          "in[i]; both: out[i*stride+offset] = in[i*stride+offset]"},
    [GT_CO_WIDTH] = {.name = "width", .label = "element", .type = GT_P_ENUM, .max = 2,
                     .def = GT_CO_FLOAT, .choices = width_names, .nchoices = 3,
                     .help = "what a thread moves: float (4 B), float2 (8 B) or float4 (16 B, "
                             "one vector load)"},
    [GT_CO_STRIDE] = {.name = "stride", .label = "stride (elements)", .type = GT_P_INT,
                      .min = 1, .max = 128, .def = 1, .step = 1,
                      .help = "thread i touches element i*stride+offset; 1 is coalesced"},
    [GT_CO_OFFSET] = {.name = "offset", .label = "offset (elements)", .type = GT_P_INT,
                      .max = 32, .def = 0, .step = 1,
                      .help = "elements the strided access starts after the buffer's start "
                              "(which is 256-byte aligned); 1 misaligns a float warp by 4 B"},
    [GT_CO_SIZE] = {.name = "size", .label = "useful bytes", .type = GT_P_SIZE,
                    .min = 1 << 20, .max = 1ll << 30, .def = 64 << 20, .align = 16,
                    .unit = "bytes",
                    .help = "bytes the threads move (one element each); the strided buffer "
                            "spans about stride times as much"},
    [GT_CO_BUFFER] = {.name = "buffer", .label = "strided buffer", .type = GT_P_SIZE,
                      .max = 16ll << 30, .def = 0, .align = 16, .unit = "bytes",
                      .zero_name = "auto",
                      .help = "auto: as large as the access spans; a size: the buffer "
                              "allocated, which the access must fit in"},
    [GT_CO_WARMUP] = GT_PARAM_WARMUP(3),
};

unsigned gt_co_width(int64_t w)
{
    return w == GT_CO_FLOAT4 ? 16u : w == GT_CO_FLOAT2 ? 8u : 4u;
}

/* Elements a strided side spans: the last one it touches, plus one. */
static uint64_t span(uint64_t n, uint32_t stride, uint32_t offset)
{
    return (n - 1) * stride + offset + 1;
}

void gt_co_shape_of(const int64_t *v, gt_co_shape *s)
{
    bool rd = v[GT_CO_OP] != GT_CO_WRITE, wr = v[GT_CO_OP] != GT_CO_READ;
    uint64_t buf;

    s->width = gt_co_width(v[GT_CO_WIDTH]);
    s->n = (uint64_t)v[GT_CO_SIZE] / s->width;
    buf = (uint64_t)v[GT_CO_BUFFER] / s->width;
    s->in_stride = rd ? (uint32_t)v[GT_CO_STRIDE] : 1;
    s->in_offset = rd ? (uint32_t)v[GT_CO_OFFSET] : 0;
    s->out_stride = wr ? (uint32_t)v[GT_CO_STRIDE] : 1;
    s->out_offset = wr ? (uint32_t)v[GT_CO_OFFSET] : 0;
    s->in_len = rd && buf ? buf : span(s->n, s->in_stride, s->in_offset);
    s->out_len = wr && buf ? buf : span(s->n, s->out_stride, s->out_offset);
}

int gt_co_sectors(uint32_t stride, uint32_t offset, unsigned width)
{
    uint64_t seen[32];
    int n = 0;

    for (uint32_t l = 0; l < 32; l++) {
        uint64_t first = ((uint64_t)l * stride + offset) * width;
        for (uint64_t sec = first / 32; sec <= (first + width - 1) / 32; sec++) {
            int k = 0;
            while (k < n && seen[k] != sec)
                k++;
            if (k == n && n < 32)
                seen[n++] = sec;
            else if (k == n)
                return -1;  /* more than 32: not possible for width <= 16 */
        }
    }
    return n;
}

static int series(const int64_t *v, const char **names)
{
    (void)v;
    names[GT_CO_S_STRIDED] = "strided";
    names[GT_CO_S_COALESCED] = "coalesced";
    names[GT_CO_S_COPY] = "cudaMemcpy";
    return GT_CO_NSERIES;
}

/* Device memory and mapped host memory the configuration takes: the
 * strided buffers (on the host when mapped), the coalesced kernel's output
 * beside the strided output, the copy's destination (on the other side
 * of the link from its source, in[0..n)), and twice the L2 to flush it. */
static void footprint(const int64_t *v, const gt_devprops *p, uint64_t *dev, uint64_t *host)
{
    gt_co_shape s;
    bool m = v[GT_CO_MEMORY] == GT_CO_MAPPED;
    bool rd = v[GT_CO_OP] != GT_CO_WRITE, wr = v[GT_CO_OP] != GT_CO_READ;
    uint64_t l2 = gt_dp_ok(p, GT_DP_L2) ? (uint64_t)gt_dp_get(p, GT_DP_L2) : 0;

    gt_co_shape_of(v, &s);
    *dev = 2 * l2;
    *host = 0;
    *(m && rd ? host : dev) += s.in_len * s.width;
    *(m && wr ? host : dev) += (s.out_len + s.n) * s.width;
    *(m && !rd ? host : dev) += s.n * s.width;
}

static int check(const int64_t *v, const gt_devprops *p, char *err, size_t n)
{
    gt_co_shape s;
    uint64_t buf = (uint64_t)v[GT_CO_BUFFER], dev, host;
    char a[32], b[32];

    gt_co_shape_of(v, &s);
    if (buf) {
        uint64_t elems = buf / s.width, stride = (uint64_t)v[GT_CO_STRIDE];
        uint64_t offset = (uint64_t)v[GT_CO_OFFSET], last = (s.n - 1) * stride + offset;
        if (last >= elems) {
            int k = snprintf(err, n, "stride %llu, offset %llu: thread %llu reaches element %llu "
                             "(%s elements), past the %s buffer of %llu; ",
                             (unsigned long long)stride, (unsigned long long)offset,
                             (unsigned long long)(s.n - 1), (unsigned long long)last,
                             width_names[v[GT_CO_WIDTH]], gt_format_size(buf, a, sizeof a),
                             (unsigned long long)elems);
            uint64_t top = s.n > 1 && elems > offset ? (elems - 1 - offset) / (s.n - 1) : 0;
            if (k > 0 && (size_t)k < n) {
                if (top >= 1)
                    snprintf(err + k, n - (size_t)k, "allowed at this size and offset: stride 1 "
                             "to %llu, or buffer=auto", (unsigned long long)(top < 128 ? top : 128));
                else
                    snprintf(err + k, n - (size_t)k, "allowed: a smaller size or offset, or "
                             "buffer=auto");
            }
            return -1;
        }
    }
    if (v[GT_CO_MEMORY] == GT_CO_MAPPED && gt_dp_ok(p, GT_DP_CAN_MAP) &&
        !gt_dp_get(p, GT_DP_CAN_MAP)) {
        snprintf(err, n, "memory: mapped needs a device that maps host memory "
                 "(canMapHostMemory is 0 here); allowed: device");
        return -1;
    }
    footprint(v, p, &dev, &host);
    if (host > GT_CO_MAPPED_MAX) {
        char c[32];
        snprintf(err, n, "memory=mapped: stride %lld over %s spans %s of pinned host memory; at "
                 "most %s: lower size or stride", (long long)v[GT_CO_STRIDE],
                 gt_format_size((uint64_t)v[GT_CO_SIZE], a, sizeof a),
                 gt_format_size(host, b, sizeof b), gt_format_size(GT_CO_MAPPED_MAX, c, sizeof c));
        return -1;
    }
    if (gt_dp_ok(p, GT_DP_MEM_FREE) && dev > (uint64_t)gt_dp_get(p, GT_DP_MEM_FREE) / 10 * 9) {
        char c[32];
        snprintf(err, n, "stride %lld over %s needs %s of device memory (the buffers it spans, "
                 "the copies, twice the L2 to flush it); %s is free: lower size or stride",
                 (long long)v[GT_CO_STRIDE], gt_format_size((uint64_t)v[GT_CO_SIZE], a, sizeof a),
                 gt_format_size(dev, b, sizeof b),
                 gt_format_size((uint64_t)gt_dp_get(p, GT_DP_MEM_FREE), c, sizeof c));
        return -1;
    }
    return 0;
}

static bool mapped(const int64_t *v)
{
    return v[GT_CO_MEMORY] == GT_CO_MAPPED;
}

static double ceiling(const int64_t *v, int s, const gt_devprops *p, double *factor,
                      char *label, size_t n)
{
    (void)s;
    return mapped(v) ? gt_ceiling_host(p, factor, label, n) : gt_ceiling_hbm(p, factor, label, n);
}

/* "32 sectors (1024 B for 128 useful, 12.5%)" */
static void sectors_text(uint32_t stride, uint32_t offset, unsigned width, char *buf, size_t n)
{
    int sec = gt_co_sectors(stride, offset, width);
    snprintf(buf, n, "%d sector%s of 32 B (%d B for %u useful, %.1f%%)", sec, sec == 1 ? "" : "s",
             32 * sec, 32 * width, 100.0 * width / sec);
}

static int summary(gt_run *r, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    double st = gt_run_p50(r, GT_CO_S_STRIDED), co = gt_run_p50(r, GT_CO_S_COALESCED);
    double cp = gt_run_p50(r, GT_CO_S_COPY);
    unsigned w = gt_co_width(v[GT_CO_WIDTH]);
    int sec = gt_co_sectors((uint32_t)v[GT_CO_STRIDE], (uint32_t)v[GT_CO_OFFSET], w);
    int n = 0;

    (void)p;
    if (max < 1 || !isfinite(st) || !isfinite(co) || co <= 0)
        return 0;
    snprintf(lines[n++], sizeof lines[0], "stride %lld offset %lld: %d sectors a request "
             "instead of %u (%.2fx): %.2fx the coalesced time", (long long)v[GT_CO_STRIDE],
             (long long)v[GT_CO_OFFSET], sec, w, (double)sec / w, st / co);
    if (n < max && isfinite(cp) && cp > 0)
        snprintf(lines[n++], sizeof lines[0], "coalesced kernel %.2fx, strided %.2fx the time of "
                 "cudaMemcpy of the same bytes", co / cp, st / cp);
    return n;
}

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)

/* 'y': the median as useful bytes a second, the sectors behind it, and
 * what the traffic would be. */
static int why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    const int64_t *v = r->vals;
    gt_co_shape sh;
    double t = gt_run_p50(r, s), useful = (double)v[GT_CO_SIZE];
    char a[32], txt[96];
    int n = 0;

    if (!isfinite(t) || t <= 0)
        return 0;
    gt_co_shape_of(v, &sh);
    LINE("%s of %s elements in %.3f ms (p50): %.1f GB/s of useful bytes, counted once",
         gt_format_size((uint64_t)useful, a, sizeof a), width_names[v[GT_CO_WIDTH]], t * 1e3,
         useful / t / 1e9);
    if (s == GT_CO_S_COPY) {
        LINE("cudaMemcpyAsync %s of the same bytes: the copy engines or the driver's own kernel, "
             "the ceiling the kernels are set against", mapped(v) ? "across the link" :
             "device to device");
        return n;
    }
    uint32_t stride = s == GT_CO_S_STRIDED ? (uint32_t)v[GT_CO_STRIDE] : 1;
    uint32_t offset = s == GT_CO_S_STRIDED ? (uint32_t)v[GT_CO_OFFSET] : 0;
    int sec = gt_co_sectors(stride, offset, sh.width);
    sectors_text(stride, offset, sh.width, txt, sizeof txt);
    LINE("a warp's request (32 threads, %u B each) at stride %u, offset %u touches %s; the "
         "fewest: %u", sh.width, stride, offset, txt, sh.width);
    const char *side = v[GT_CO_OP] == GT_CO_READ ? "its reads" : v[GT_CO_OP] == GT_CO_WRITE ?
                       "its writes" : "its reads and its writes";
    LINE("%s move %.0f MB through the %s for %.0f MB useful: %.2fx", side,
         useful * sec / sh.width / 1e6, mapped(v) ? "link" : "L2 and device memory",
         useful / 1e6, (double)sec / sh.width);
    if (stride > 1 && sec == 32)
        LINE("every thread its own sector: past stride %u, a larger stride costs no more "
             "sectors, only more distinct rows of DRAM", 32 / sh.width);
    if (offset && sec == (int)sh.width + 1)
        LINE("offset %u: one more sector a request (sm_70 and later fetch 32-byte sectors, "
             "not whole 128-byte lines), not a second transaction", offset);
    if (mapped(v))
        LINE("mapped host memory: each sector is a read request over the link (or a write of "
             "its bytes); the host's memory moves whole 64-byte lines");
    else if (gt_dp_ok(p, GT_DP_L2))
        LINE("the L2 (%s) is flushed before each timed kernel: every sector comes from device "
             "memory", gt_format_size((uint64_t)gt_dp_get(p, GT_DP_L2), a, sizeof a));
    return n;
}

/* stride 1 to 32, then 64 and 128; every offset. */
static int sweep_values(int param, const gt_devprops *p, int64_t *out, int max)
{
    int n = 0;

    (void)p;
    if (param == GT_CO_STRIDE) {
        for (int s = 1; s <= 32 && n < max; s++)
            out[n++] = s;
        if (n < max)
            out[n++] = 64;
        if (n < max)
            out[n++] = 128;
    } else if (param == GT_CO_OFFSET) {
        for (int o = 0; o <= 32 && n < max; o++)
            out[n++] = o;
    }
    return n;
}

GT_EXPERIMENT(gt_exp_coalesce) = {
    .name = "coalesce",
    .title = "Coalescing: a warp's addresses and the sectors they touch",
    .explain =
        "Thread i of a copy kernel reads (op=read), writes (write) or reads and writes (both) "
        "element i * stride + offset of 4, 8 or 16 bytes, in device memory or in mapped host "
        "memory; the other side is contiguous. A warp's 32 addresses become 32-byte sectors: "
        "stride 1 touches the fewest, stride 32 a sector a thread. Beside it, the same kernel "
        "at stride 1 and a cudaMemcpy of the same bytes. Bandwidth counts the useful bytes "
        "once; the L2 is flushed before each timed kernel; every element written is checked, "
        "and the gaps between them are checked untouched.",
    .params = params,
    .nparams = GT_CO_NPARAMS,
    .warmup_param = GT_CO_WARMUP,
    .series = series,
    .check = check,
    .ceiling = ceiling,
    .bandwidth = true,
    .summary = summary,
    .sweep_values = sweep_values,
    .why = why,
};
