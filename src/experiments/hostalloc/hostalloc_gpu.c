/* The host-allocation experiment on the CPU side of CUDA: how long one
 * allocation and its release take for each kind of host memory (timed
 * with CLOCK_MONOTONIC), and how fast the CPU writes and reads each kind.
 * Every allocation is checked with cudaPointerGetAttributes and by writing
 * and reading back a word on each of (up to GT_HA_CHECK_PAGES) pages. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostalloc.h"
#include "gputui/experiments/host.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

#define PAGE 4096

typedef struct ha {
    int op, kind;
    unsigned flags;
    size_t bytes;
    gt_hostbuf buf;         /* op=cpu: the buffer, allocated once */
    uint64_t seed;
} ha;

static void teardown(void *state)
{
    ha *h = state;

    if (!h)
        return;
    gt_hostmem_free(&h->buf);
    free(h);
}

/* One allocation of the configured kind, ready to use: pageable memory
 * has every page touched (the first touch is its real cost); registered
 * memory is pinned by cudaHostRegister itself. */
static int alloc_once(ha *h, gt_hostbuf *b, gt_err *err)
{
    if (gt_hostmem_alloc(b, h->kind, h->bytes, h->flags, err))
        return -1;
    if (h->kind == GT_HOST_REGISTER && gt_hostmem_register(b, h->bytes, h->flags, err)) {
        gt_hostmem_free(b);
        return -1;
    }
    if (h->kind == GT_HOST_PAGEABLE)
        for (size_t off = 0; off < h->bytes; off += PAGE)
            ((volatile char *)b->p)[off] = 0;
    return 0;
}

/* CUDA sees the memory as the kind it should be, and its pages hold what
 * was written to them. */
static bool check_alloc(ha *h, const gt_hostbuf *b)
{
    struct cudaPointerAttributes a;
    size_t pages = h->bytes / PAGE, step = pages > GT_HA_CHECK_PAGES ? pages / GT_HA_CHECK_PAGES : 1;
    enum cudaMemoryType want = h->kind == GT_HOST_PAGEABLE ? cudaMemoryTypeUnregistered
                                                           : cudaMemoryTypeHost;
    bool ok = true;

    if (cudaPointerGetAttributes(&a, b->p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    if (a.type != want)
        return false;
    h->seed++;
    for (size_t pg = 0; pg < pages; pg += step)
        *(volatile uint64_t *)((char *)b->p + pg * PAGE) = pg * 0x9E3779B97F4A7C15ull ^ h->seed;
    for (size_t pg = 0; pg < pages; pg += step)
        ok &= *(volatile uint64_t *)((char *)b->p + pg * PAGE) ==
              (pg * 0x9E3779B97F4A7C15ull ^ h->seed);
    return ok;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    ha *h = calloc(1, sizeof *h);
    char sz[32], fl[64];
    double t0;

    (void)p;
    *state = NULL;
    if (!h) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    h->op = (int)v[GT_HA_OP];
    h->kind = (int)v[GT_HA_KIND];
    h->bytes = (size_t)v[GT_HA_SIZE];
    h->flags = gt_hostmem_flags(h->kind, v[GT_HA_PORTABLE], v[GT_HA_WC], v[GT_HA_MAPPED]);
    h->seed = (uint64_t)(gt_now() * 1e9);
    gt_format_size(h->bytes, sz, sizeof sz);
    if (h->op == GT_HA_OP_CPU) {
        t0 = gt_now();
        if (alloc_once(h, &h->buf, err)) {
            teardown(h);
            return -1;
        }
        gt_setup_info_time(info, gt_now() - t0, "buffer: %s%s%s%s %s",
                           h->kind == GT_HOST_PAGEABLE ? "malloc + first touch" :
                           h->kind == GT_HOST_PINNED ? "cudaMallocHost" :
                           h->kind == GT_HOST_HOSTALLOC ? "cudaHostAlloc" : "malloc + cudaHostRegister",
                           h->flags ? "(" : "",
                           h->flags ? gt_hostmem_flag_names(h->flags, h->kind == GT_HOST_REGISTER,
                                                            fl, sizeof fl) : "",
                           h->flags ? ")" : "", sz);
        snprintf(info->note, sizeof info->note,
                 "the XOR of every word read back equals the pattern's, after every sample");
    } else {
        snprintf(info->note, sizeof info->note,
                 "cudaPointerGetAttributes and a word on each of up to %d pages, every allocation",
                 GT_HA_CHECK_PAGES);
    }
    *state = h;
    return 0;
}

/* XOR of 0, 1, ..., m. */
static uint64_t xor_upto(uint64_t m)
{
    switch (m & 3) {
    case 0: return m;
    case 1: return 1;
    case 2: return m + 1;
    default: return 0;
    }
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    ha *h = state;
    double t0, t1, t2, t3;

    if (h->op == GT_HA_OP_ALLOC) {
        gt_hostbuf b;
        bool ok;
        t0 = gt_now();
        if (alloc_once(h, &b, err))
            return -1;
        t1 = gt_now();
        ok = check_alloc(h, &b);
        t2 = gt_now();
        gt_hostmem_free(&b);
        t3 = gt_now();
        out[0] = (gt_sample){0, 0, ok ? GT_V_FULL : GT_V_FAILED, t1 - t0, h->bytes};
        out[1] = (gt_sample){0, 1, ok ? GT_V_FULL : GT_V_FAILED, t3 - t2, h->bytes};
        if (h->kind != GT_HOST_REGISTER)
            return 2;
        /* What a program that pins a buffer it already uses pays: only
         * cudaHostRegister, of pages that exist. */
        if (gt_hostmem_alloc(&b, h->kind, h->bytes, h->flags, err))
            return -1;
        for (size_t off = 0; off < h->bytes; off += PAGE)
            ((volatile char *)b.p)[off] = 1;
        t0 = gt_now();
        if (gt_hostmem_register(&b, h->bytes, h->flags, err)) {
            gt_hostmem_free(&b);
            return -1;
        }
        t1 = gt_now();
        ok = check_alloc(h, &b);
        gt_hostmem_free(&b);
        out[2] = (gt_sample){0, 2, ok ? GT_V_FULL : GT_V_FAILED, t1 - t0, h->bytes};
        return 3;
    }
    {
        uint64_t *w = h->buf.p, x = 0, n = h->bytes / 8, want;
        h->seed++;
        t0 = gt_now();
        for (uint64_t i = 0; i < n; i++)
            w[i] = i ^ h->seed;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);    /* drains write-combining buffers */
        t1 = gt_now();
        for (uint64_t i = 0; i < n; i++)
            x ^= w[i];
        t2 = gt_now();
        want = xor_upto(n - 1) ^ (n & 1 ? h->seed : 0);
        out[0] = (gt_sample){0, 0, x == want ? GT_V_FULL : GT_V_FAILED, t1 - t0, h->bytes};
        out[1] = (gt_sample){0, 1, x == want ? GT_V_FULL : GT_V_FAILED, t2 - t1, h->bytes};
        return 2;
    }
}

GT_GPU_OPS(hostalloc) = {.setup = setup, .run = run, .teardown = teardown};
