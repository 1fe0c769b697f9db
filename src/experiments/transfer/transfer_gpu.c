/* The transfer experiment on the GPU: one buffer copied host<->device or
 * device<->device, by a copy engine or by a kernel, timed with events on
 * the copying stream and verified after every sample.
 *
 * Verification: the destination is poisoned (alternating 0xA5../0x5A..
 * words, so a word that happens to equal one poison is caught by the
 * other) and the source holds a pattern; after the copy every word is
 * compared on the GPU, or on the CPU for pageable host memory, where
 * buffers above GT_TR_FULL_CHECK_MAX are checked on random blocks.
 *
 * Timing: events on the copying stream, a lane a piece of the timing
 * harness (timing.c: bidir's two lanes at once, on streams of their own);
 * copy kernels (method=sm) behind the timing gate. Pageable copies are staged by the driver through
 * pinned buffers with the CPU, so they are timed on the host clock, from
 * the first call to the end of the stream's work, as a program's cudaMemcpy
 * sees them, with nothing of the CPU's part left to the events' reading.
 * The CPU's caches matter: a pageable buffer still in them from the last
 * copy or check is staged faster (H2D ~1.8x on an H200 at 32 MiB), so it
 * is flushed before each sample unless cpu-cache=warm; and a pageable
 * destination is never poisoned by the CPU (dirty lines slow the staging
 * down): its device source gets a new pattern each sample instead, so a
 * stale word still fails.
 *
 * Buffers are kept across configurations (kept_buffers.c) so that a new size
 * re-uses pinned memory instead of pinning again; the set-up lines say
 * whether a buffer was allocated now or kept, and what allocating it took. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transfer.h"
#include "gputui/kernels.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* Its slots of kept buffers (gpu.h): the host and device ends of a copy,
 * the two device buffers of d2d, and the CPU-cache flush's buffer. */
enum { KEEP_SRC, KEEP_DST, KEEP_DA, KEEP_DB, KEEP_FLUSH, KEEP_SLOTS };
_Static_assert(KEEP_SLOTS <= GT_KEEP_NSLOTS, "gpu.h keeps fewer slots than transfer uses");

#define CHECK_BLOCKS 64
#define CHECK_BLOCK_WORDS 16384     /* 64 KiB */

typedef struct lane {
    void *src, *dst;    /* for cudaMemcpyAsync */
    void *ksrc, *kdst;  /* for kernels (method=sm) */
    void *vdst;         /* poisoned and checked on the GPU; NULL: on the CPU */
    void *hdst;         /* host destination (CPU check) */
} lane;

typedef struct tr {
    size_t bytes, words;
    int iters, method, blocks, nlanes;
    int64_t host;
    unsigned int alloc_flags, reg_flags;
    bool sampled_check;
    gt_kept ksrc, kdst, kda, kdb;   /* host source/destination, device a/b */
    gt_kept kflush;                 /* the cache-flush buffer (flush) */
    void *da, *db;                  /* kda.d, kdb.d */
    gt_timing tm;                   /* a piece a lane; lane 1 on tm.side[0] */
    lane l[2];
    uint8_t *flush;                 /* read before each sample: cpu-cache=flushed */
    bool host_timed;                /* pageable: the host clock, not the events */
    double host_sec[2];             /* each lane's, when host_timed */
    uint32_t lane_seed[2];          /* pattern of each lane's source this sample */
    uint32_t seed, sample_no, poison;
    int owner;                      /* alloc-on=other: the GPU current at pinning, else -1 */
    char owner_seen[96];            /* what this GPU makes of that memory */
    uint64_t rng;
    size_t check_off[CHECK_BLOCKS + 2];
    int ncheck;
} tr;

static void cpu_fill_pattern(uint32_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = gt_pattern_word(i, seed);
}

/* kept_buffers.c tells buffers apart by kind and flags: memory pinned with
 * another GPU current is not the same buffer as this GPU's. */
#define KEEP_OTHER_OWNER 0x80000000u
/* The "kept" line of a buffer reused from an earlier configuration, and in
 * the trace the call a fresh set-up would have made, marked kept. */
static void kept_line(gt_setup_info *info, const char *role, const gt_kept *k, size_t bytes,
                      double now_sec)
{
    char sz[32], t[32], call[GT_TRACE_CALL], a[GT_TA_BUF], f[GT_TA_BUF];

    gt_setup_info_time(info, now_sec, "%s: %s kept (allocated earlier in %s)", role,
                       gt_format_size(k->cap, sz, sizeof sz),
                       gt_format_seconds(k->alloc_sec, t, sizeof t));
    gt_ta_size(bytes, a);
    if (k->device)
        snprintf(call, sizeof call, "cudaMalloc(%s)", a);
    else if (k->kind == GT_HOST_PINNED)
        snprintf(call, sizeof call, "cudaMallocHost(%s)", a);
    else if (k->kind == GT_HOST_HOSTALLOC)
        snprintf(call, sizeof call, "cudaHostAlloc(%s, cudaHostAlloc%s)", a,
                 gt_ta_hostflags(k->flags & ~KEEP_OTHER_OWNER, 0, f));
    else if (k->kind == GT_HOST_REGISTER)
        snprintf(call, sizeof call, "cudaHostRegister(%s, cudaHostRegister%s)", a,
                 gt_ta_hostflags(k->flags & ~KEEP_OTHER_OWNER, 1, f));
    else
        return;     /* malloc: no CUDA call */
    gt_trace_kept(call);
}

static unsigned keep_flags(const tr *t, unsigned flags)
{
    return t->owner >= 0 ? flags | KEEP_OTHER_OWNER : flags;
}

/* alloc-on=other: how this GPU sees memory pinned for another context. */
static void owner_seen(tr *t, const gt_hostbuf *h)
{
    struct cudaPointerAttributes a;
    const char *type = "N/A";
    int self = -1;

    cudaGetDevice(&self);
    if (cudaPointerGetAttributes(&a, h->p) == cudaSuccess)
        type = a.type == cudaMemoryTypeHost ? "cudaMemoryTypeHost (pinned, mapped here)"
             : a.type == cudaMemoryTypeUnregistered ? "cudaMemoryTypeUnregistered (pageable)"
             : "another type";
    cudaGetLastError();
    snprintf(t->owner_seen, sizeof t->owner_seen, "pinned on GPU %d; GPU %d sees %s", t->owner,
             self, type);
}

/* One host buffer of the configured kind: kept from the last configuration
 * when it fits, else allocated (and registered) with the time it took. A
 * source also gets the pattern: written by the GPU through the mapped
 * pointer where there is one (fast, and no CPU cache is warmed), else by
 * the CPU; a kept source already holds one, whose seed the copy uses. */
static int host_alloc(tr *t, bool src, const gt_devprops *p, gt_setup_info *info, gt_err *err)
{
    const char *role = src ? "source" : "destination";
    gt_kept *k = src ? &t->ksrc : &t->kdst;
    gt_hostbuf *h = &k->h;
    unsigned flags = t->host == GT_HOST_REGISTER ? t->reg_flags : t->alloc_flags;
    char sz[32], fl[64];
    double t0 = gt_now(), alloc;
    int prev, rc;

    if (gt_keep_take(src ? KEEP_SRC : KEEP_DST, false, (int)t->host,
                     keep_flags(t, flags), t->bytes, k)) {
        kept_line(info, role, k, t->bytes, gt_now() - t0);
        if (src)
            t->seed = k->seed;
        return 0;
    }
    k->kind = (int)t->host;
    k->flags = keep_flags(t, flags);
    gt_format_size(t->bytes, sz, sizeof sz);
    /* alloc-on=other: pinned (registered below) with the other GPU current. */
    if (gt_hostmem_owner_enter(t->owner, &prev, err))
        return -1;
    rc = gt_hostmem_alloc(h, (int)t->host, t->bytes, flags, err);
    if (!rc && t->host != GT_HOST_REGISTER)
        gt_hostmem_owner_leave(h, t->owner, prev);
    if (rc) {
        gt_hostmem_owner_leave(h, t->owner, prev);
        return -1;
    }
    k->cap = t->bytes;
    switch (t->host) {
    case GT_HOST_PAGEABLE:
        gt_setup_info_time(info, alloc = gt_now() - t0, "%s: malloc %s", role, sz);
        /* The page faults of the first touch are the cost of pageable
         * memory that malloc does not show. */
        t0 = gt_now();
        if (src)
            cpu_fill_pattern(h->p, t->words, t->seed);
        else
            memset(h->p, 0, t->bytes);
        k->alloc_sec = alloc + gt_now() - t0;
        gt_setup_info_time(info, gt_now() - t0, "%s: first touch%s (page faults) %s", role,
                           src ? " + pattern" : "", sz);
        if (gt_dp_get(p, GT_DP_PAGEABLE))
            h->dev = h->p;
        k->seed = src ? t->seed : 0;
        return 0;
    case GT_HOST_REGISTER:
        gt_setup_info_time(info, alloc = gt_now() - t0, "%s: malloc %s", role, sz);
        t0 = gt_now();
        rc = gt_hostmem_register(h, t->bytes, flags, err);
        gt_hostmem_owner_leave(h, t->owner, prev);
        if (rc)
            return -1;
        k->alloc_sec = alloc + gt_now() - t0;
        gt_setup_info_time(info, gt_now() - t0, "%s: cudaHostRegister(%s) %s", role,
                           gt_hostmem_flag_names(flags, true, fl, sizeof fl), sz);
        break;
    case GT_HOST_PINNED:
        gt_setup_info_time(info, k->alloc_sec = gt_now() - t0, "%s: cudaMallocHost %s", role, sz);
        break;
    default:
        gt_setup_info_time(info, k->alloc_sec = gt_now() - t0, "%s: cudaHostAlloc(%s) %s", role,
                           gt_hostmem_flag_names(flags, false, fl, sizeof fl), sz);
        break;
    }
    gt_hostmem_map(h);
    if (t->owner >= 0)
        owner_seen(t, h);
    if (src) {
        /* The GPU may not write memory registered read-only: the CPU does. */
        if (!h->dev || (t->host == GT_HOST_REGISTER && (flags & cudaHostRegisterReadOnly)))
            cpu_fill_pattern(h->p, t->words, t->seed);
        else if (GT_CUDA(err, gt_k_fill_pattern(h->dev, t->words, t->seed, t->blocks, 0)))
            return -1;
        k->seed = t->seed;
    }
    return 0;
}

/* Device buffer a or b: kept when it fits, else cudaMalloc; one set-up
 * line either way. */
static int dev_alloc(tr *t, int slot, gt_setup_info *info, gt_err *err)
{
    gt_kept *k = slot == KEEP_DA ? &t->kda : &t->kdb;
    const char *role = slot == KEEP_DA ? "device" : "device b";
    char sz[32];
    double t0 = gt_now();

    if (gt_keep_take(slot, true, -1, 0, t->bytes, k)) {
        kept_line(info, role, k, t->bytes, gt_now() - t0);
        return 0;
    }
    k->device = true;
    k->kind = -1;
    if (GT_CUDA_ALLOC(err, cudaMalloc(&k->d, t->bytes)))
        return -1;
    k->cap = t->bytes;
    gt_setup_info_time(info, k->alloc_sec = gt_now() - t0, "%s: cudaMalloc %s", role,
                       gt_format_size(t->bytes, sz, sizeof sz));
    return 0;
}

static void teardown(void *state)
{
    tr *t = state;

    if (!t)
        return;
    gt_timing_free(&t->tm);
    gt_keep_put(KEEP_SRC, &t->ksrc);
    gt_keep_put(KEEP_DST, &t->kdst);
    gt_keep_put(KEEP_DA, &t->kda);
    gt_keep_put(KEEP_DB, &t->kdb);
    gt_keep_put(KEEP_FLUSH, &t->kflush);
    free(t);
}

/* The buffer read before each sample to push the pageable buffer out of
 * the CPU's caches: kept across configurations like the others, since
 * touching 256 MiB takes 115-155 ms on a lent H100's host. */
static int flush_alloc(tr *t, gt_setup_info *info, gt_err *err)
{
    gt_kept *k = &t->kflush;
    double t0 = gt_now();

    if (gt_keep_take(KEEP_FLUSH, false, GT_HOST_PAGEABLE, 0, GT_TR_FLUSH_BYTES, k)) {
        kept_line(info, "cache flush", k, GT_TR_FLUSH_BYTES, gt_now() - t0);
    } else {
        if (gt_hostmem_alloc(&k->h, GT_HOST_PAGEABLE, GT_TR_FLUSH_BYTES, 0, err)) {
            gt_err_set(err, GT_EXIT_FAIL, "malloc(256 MiB) failed: out of host memory (the "
                       "cache-flush buffer)");
            return -1;
        }
        memset(k->h.p, 1, GT_TR_FLUSH_BYTES);
        k->kind = GT_HOST_PAGEABLE;
        k->cap = GT_TR_FLUSH_BYTES;
        k->alloc_sec = gt_now() - t0;
        gt_setup_info_time(info, k->alloc_sec, "cache flush: malloc + touch 256 MiB");
    }
    t->flush = k->h.p;
    return 0;
}

static int make_lane(tr *t, lane *l, void *src, void *ksrc, void *dst, void *kdst,
                     void *hdst, gt_err *err)
{
    l->src = src;
    l->ksrc = ksrc;
    l->dst = dst;
    l->kdst = kdst;
    l->hdst = hdst;
    /* Pageable memory is checked by the CPU even where the GPU could
     * address it: GPU access would migrate its pages. */
    l->vdst = hdst && t->host == GT_HOST_PAGEABLE ? NULL : kdst;
    if (t->method == GT_METHOD_SM && (!ksrc || !kdst)) {
        gt_err_set(err, GT_EXIT_FAIL, "method=sm: this host memory is not addressable by "
                   "kernels (cudaHostGetDevicePointer failed); use host=pinned or hostalloc, "
                   "or register with --mapped");
        return -1;
    }
    return 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p,
                 gt_setup_info *info, gt_err *err)
{
    tr *t = calloc(1, sizeof *t);
    int dir = (int)v[GT_TR_DIR];

    *state = NULL;
    if (!t) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    t->bytes = (size_t)v[GT_TR_SIZE];
    t->words = t->bytes / 4;
    t->iters = (int)v[GT_TR_ITERS];
    t->method = (int)v[GT_TR_METHOD];
    t->host = v[GT_TR_HOST];
    t->blocks = gt_gpu_sms() * 4;
    t->alloc_flags = gt_hostmem_flags(GT_HOST_HOSTALLOC, v[GT_TR_PORTABLE], v[GT_TR_WC],
                                      v[GT_TR_MAPPED]);
    t->reg_flags = gt_hostmem_flags(GT_HOST_REGISTER, v[GT_TR_PORTABLE], false, v[GT_TR_MAPPED]);
    if (v[GT_TR_RO] && t->host == GT_HOST_REGISTER && v[GT_TR_DIR] == GT_DIR_H2D)
        t->reg_flags |= cudaHostRegisterReadOnly;
    t->owner = -1;
    if (v[GT_TR_OWNER] == GT_OWNER_OTHER && dir != GT_DIR_D2D && t->host != GT_HOST_PAGEABLE)
        t->owner = gt_topo_pick_peer(&p->topo, p->ordinal, -1);
    t->rng = (uint64_t)(gt_now() * 1e9) ^ (uintptr_t)t;
    t->seed = (uint32_t)gt_xorshift64(&t->rng) | 1u;

    if (dev_alloc(t, KEEP_DA, info, err) ||
        ((dir == GT_DIR_D2D || dir == GT_DIR_BIDIR) && dev_alloc(t, KEEP_DB, info, err)))
        goto fail;
    t->da = t->kda.d;
    t->db = t->kdb.d;
    /* A kept host buffer this direction does not use stays only while its
     * kind and flags are still the ones chosen. */
    gt_keep_trim(KEEP_SRC, (int)t->host,
                 keep_flags(t, t->host == GT_HOST_REGISTER ? t->reg_flags : t->alloc_flags));
    gt_keep_trim(KEEP_DST, (int)t->host,
                 keep_flags(t, t->host == GT_HOST_REGISTER ? t->reg_flags : t->alloc_flags));
    if ((dir == GT_DIR_H2D || dir == GT_DIR_BIDIR) &&
        host_alloc(t, true, p, info, err))
        goto fail;
    if ((dir == GT_DIR_D2H || dir == GT_DIR_BIDIR) &&
        host_alloc(t, false, p, info, err))
        goto fail;

    /* Sources hold the pattern for the whole configuration (host sources
     * got it in host_alloc). */
    if (dir == GT_DIR_D2H || dir == GT_DIR_D2D) {
        if (GT_CUDA(err, gt_k_fill_pattern(t->da, t->words, t->seed, t->blocks, 0)))
            goto fail;
    } else if (dir == GT_DIR_BIDIR) {
        if (GT_CUDA(err, gt_k_fill_pattern(t->db, t->words, t->seed, t->blocks, 0)))
            goto fail;
    }
    if (GT_CUDA(err, cudaDeviceSynchronize()))
        goto fail;

    switch (dir) {
    case GT_DIR_H2D:
        t->nlanes = 1;
        if (make_lane(t, &t->l[0], t->ksrc.h.p, t->ksrc.h.dev, t->da, t->da, NULL, err))
            goto fail;
        break;
    case GT_DIR_D2H:
        t->nlanes = 1;
        if (make_lane(t, &t->l[0], t->da, t->da, t->kdst.h.p, t->kdst.h.dev, t->kdst.h.p, err))
            goto fail;
        break;
    case GT_DIR_D2D:
        t->nlanes = 1;
        if (make_lane(t, &t->l[0], t->da, t->da, t->db, t->db, NULL, err))
            goto fail;
        break;
    default:
        t->nlanes = 2;
        if (make_lane(t, &t->l[0], t->ksrc.h.p, t->ksrc.h.dev, t->da, t->da, NULL, err) ||
            make_lane(t, &t->l[1], t->db, t->db, t->kdst.h.p, t->kdst.h.dev, t->kdst.h.p, err))
            goto fail;
        break;
    }

    bool cpu_check = false;
    for (int i = 0; i < t->nlanes; i++)
        cpu_check |= t->l[i].vdst == NULL;
    t->sampled_check = cpu_check && t->bytes > GT_TR_FULL_CHECK_MAX;
    bool pageable = t->host == GT_HOST_PAGEABLE && dir != GT_DIR_D2D;
    /* The gate removes the launch latency in front of a copy kernel; in
     * front of a copy-engine copy it adds the hand-off from the spin kernel
     * (~3.5 us on an H200), so copy engines start from an idle stream.
     * Pageable copies wait for the GPU inside the call: no gate, the host's
     * clock. The host waits by blocking, not spinning: the timing is on
     * the GPU, and the worker then costs little CPU. */
    if (gt_timing_init(&t->tm, &(gt_timing_spec){
                                   .pieces = 2, .streams = 1, .sleep = true,
                                   .ungated = t->method != GT_METHOD_SM || pageable},
                       err))
        goto fail;
    t->host_timed = pageable;
    if (pageable && v[GT_TR_CACHE] == GT_CACHE_FLUSHED) {
        if (flush_alloc(t, info, err))
            goto fail;
    } else {
        gt_keep_trim(KEEP_FLUSH, -1, 0);
    }
    if (!cpu_check)
        snprintf(info->note, sizeof info->note, "every word, on the GPU, after every sample");
    else if (!t->sampled_check)
        snprintf(info->note, sizeof info->note, "every word, on the CPU, after every sample");
    else
        snprintf(info->note, sizeof info->note,
                 "SAMPLED: %d random 64 KiB blocks + both ends of the pageable buffer "
                 "per sample (full check above 256 MiB would dominate)", CHECK_BLOCKS);
    if (t->owner_seen[0]) {
        size_t off = strlen(info->note);
        snprintf(info->note + off, sizeof info->note - off, "; %s", t->owner_seen);
    }
    if (pageable)
        gt_setup_info_timing(info, "host clock from the call to the end of the copy, as "
                             "cudaMemcpy sees it (the driver stages pageable memory with "
                             "the CPU)%s%s", dir == GT_DIR_BIDIR ? ", one direction after the "
                             "other" : "", t->flush ? "; the host buffer flushed from the CPU's "
                             "caches before each sample" : "; the host buffer left warm in the "
                             "CPU's caches");
    else
        gt_setup_info_timing(info, "events on the GPU around the copies%s",
                             t->tm.gate.on && !pageable ? ", from when they are queued" : "");
    *state = t;
    return 0;
fail:
    teardown(t);
    return -1;
}

/* Reads a line of every 64 B of the flush buffer: the pageable source
 * leaves the CPU's caches without dirty lines to write back during the
 * copy that follows. */
static void flush_caches(const uint8_t *p)
{
    uint64_t acc = 0;

    for (size_t i = 0; i < GT_TR_FLUSH_BYTES; i += 64)
        acc += p[i];
    __asm__ volatile("" : : "r"(acc));
}

/* Picks the blocks a sampled check poisons and compares this time. */
static void pick_blocks(tr *t)
{
    size_t nblk = t->words / CHECK_BLOCK_WORDS;

    t->ncheck = 0;
    t->check_off[t->ncheck++] = 0;
    if (nblk > 1)
        t->check_off[t->ncheck++] = t->words - CHECK_BLOCK_WORDS;
    for (int i = 0; i < CHECK_BLOCKS && nblk > 2; i++)
        t->check_off[t->ncheck++] = (gt_xorshift64(&t->rng) % nblk) * CHECK_BLOCK_WORDS;
}

static uint64_t cpu_check_range(const uint32_t *p, size_t from, size_t n, uint32_t seed)
{
    uint64_t bad = 0;

    for (size_t i = from; i < from + n; i++)
        bad += p[i] != gt_pattern_word(i, seed);
    return bad;
}

static uint64_t cpu_check(tr *t, const uint32_t *p, uint32_t seed)
{
    uint64_t bad = 0;

    if (!t->sampled_check)
        return cpu_check_range(p, 0, t->words, seed);
    for (int i = 0; i < t->ncheck; i++)
        bad += cpu_check_range(p, t->check_off[i], CHECK_BLOCK_WORDS, seed);
    return bad;
}

/* Lane i is piece i, on its own stream. */
static cudaStream_t lane_stream(void *state, int i)
{
    tr *t = state;

    return i ? t->tm.side[0] : t->tm.s;
}

/* The lane's destination poisoned, or, where the CPU checks a pageable
 * destination, a new pattern in the device source. */
static int prepare(void *state, int i, cudaStream_t s, gt_err *err)
{
    tr *t = state;
    lane *l = &t->l[i];

    t->lane_seed[i] = t->seed;
    if (l->vdst)
        return GT_CUDA(err, gt_k_fill_word(l->vdst, t->words, t->poison, t->blocks, s));
    t->lane_seed[i] = t->seed + 2 * t->sample_no;
    return GT_CUDA(err, gt_k_fill_pattern(l->ksrc, t->words, t->lane_seed[i], t->blocks, s));
}

/* The lane's copies: cudaMemcpyAsync (copy engines) or the copy kernel. */
static int copies(void *state, int i, cudaStream_t s, gt_err *err)
{
    tr *t = state;
    lane *l = &t->l[i];

    for (int k = 0; k < t->iters; k++)
        if (t->method == GT_METHOD_CE
                ? GT_CUDA(err, cudaMemcpyAsync(l->dst, l->src, t->bytes, cudaMemcpyDefault, s))
                : GT_CUDA(err, gt_k_copy(l->kdst, l->ksrc, t->bytes, t->blocks, s)))
            return -1;
    return 0;
}

/* Every word of a destination the GPU checks (the others: the CPU's). */
static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    tr *t = state;
    lane *l = &t->l[i];

    return GT_CUDA(err, l->vdst ? gt_k_verify_pattern(l->vdst, t->words, t->seed, bad, t->blocks, s)
                                : cudaSuccess);
}

/* Pageable copies on the host's clock, one lane after the other, each to
 * the end of its stream, with no event calls inside (each costs the host
 * microseconds); the CPU's caches flushed first where asked. */
static int host_timed(tr *t, double *sec, uint64_t *bad, gt_err *err)
{
    for (int i = 0; i < t->nlanes; i++)
        if (prepare(t, i, lane_stream(t, i), err))
            return -1;
    for (int i = 0; i < t->nlanes; i++)
        if (GT_CUDA(err, cudaStreamSynchronize(lane_stream(t, i))))
            return -1;
    if (t->flush)
        flush_caches(t->flush);
    for (int i = 0; i < t->nlanes; i++) {
        double h0 = gt_now();
        if (copies(t, i, lane_stream(t, i), err) ||
            GT_CUDA(err, cudaStreamSynchronize(lane_stream(t, i))))
            return -1;
        sec[i] = gt_now() - h0;
    }
    for (int i = 0; i < t->nlanes; i++)
        if (gt_count_zero(t->tm.dbad, t->tm.s, err) ||
            check(t, i, t->tm.dbad, t->tm.s, err) ||
            gt_count_read(t->tm.dbad, t->tm.hbad, t->tm.s, &bad[i], err))
            return -1;
    return 0;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    tr *t = state;
    gt_timed w = {.pieces = t->nlanes, .prepare = prepare, .work = copies, .check = check,
                  .stream = lane_stream};
    double sec[2];
    uint64_t bad[2];

    t->poison = (++t->sample_no & 1) ? 0xA5A5A5A5u : 0x5A5A5A5Au;
    if (t->sampled_check)
        pick_blocks(t);
    if (t->host_timed ? host_timed(t, sec, bad, err)
                      : gt_timed_sample(&t->tm, &w, t, sec, bad, err))
        return -1;
    for (int i = 0; i < t->nlanes; i++) {
        lane *l = &t->l[i];
        if (!l->vdst)
            bad[i] = cpu_check(t, l->hdst, t->lane_seed[i]);
        out[i].series = (uint8_t)i;
        out[i].verify = bad[i] ? GT_V_FAILED : t->sampled_check && !l->vdst ? GT_V_SAMPLED
                                                                           : GT_V_FULL;
        out[i].sec = sec[i];
        out[i].bytes = (uint64_t)t->bytes * (uint64_t)t->iters;
    }
    return t->nlanes;
}

/* Copies per sample (the one parameter marked 'iteration' besides the
 * warm-up): taken into the set-up as it is. */
static int retune(void *state, const int64_t *v, gt_err *err)
{
    tr *t = state;

    (void)err;
    t->iters = (int)v[GT_TR_ITERS];
    return 0;
}

GT_GPU_OPS(transfer) = {.setup = setup, .run = run, .retune = retune, .teardown = teardown};
