/* GPU test (run by test_unwind, after the VMM read's): the async
 * experiment's check of each tile where it lands (gt_k_as_read) counts
 * exactly the words that differ from the pattern. For every way this
 * GPU has (plain loads; cp.async of 4, 8 and 16 bytes; bulk; the TMA's
 * box), two stages of 16 KiB tiles, one block an SM: the buffer as
 * written counts none; one word changed counts one, wherever it is: the
 * middle of the buffer, its last word, the last word of a 16-byte vector,
 * and the word that opens the second row of the first TMA box (buffer
 * word 1024, the 65th of that tile); and the same with the per-word work
 * of --compute, whose loop is a separate path. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gputui/base/pattern.h"
#include "gpu/cuda_compat.h"
#include "gpu/gpu.h"
#include "experiments/async/async.h"
#include "experiments/async/async_kernels.h"
#include "test_verify.h"

#define TILE (16u << 10)
#define BYTES (2u << 20)

static int failures;

struct buf {
    uint32_t *p, *sink;
    unsigned long long *bad;
    unsigned char map[128];
    uint32_t seed;
    int blocks;
};

/* The kernel of this shape over the buffer: the wrong words it counted,
 * or ~0 on an error (printed). */
static unsigned long long count(const char *what, const gt_as_shape *sh, struct buf *b,
                                uint32_t compute)
{
    unsigned long long got = ~0ull;
    cudaError_t e = cudaMemset(b->bad, 0, sizeof *b->bad);

    if (e == cudaSuccess)
        e = gt_k_as_read(sh, b->p, b->map, BYTES / TILE, b->seed, compute, b->bad, b->sink,
                         b->blocks, 0);
    if (e == cudaSuccess)
        e = cudaMemcpy(&got, b->bad, sizeof got, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("FAIL verify async %s: %s\n", what, cudaGetErrorString(e));
        failures++;
        return ~0ull;
    }
    return got;
}

static void expect(const char *what, const gt_as_shape *sh, struct buf *b, uint32_t compute,
                   unsigned long long want)
{
    unsigned long long got = count(what, sh, b, compute);

    if (got == ~0ull)
        return;
    if (got != want) {
        printf("FAIL verify async %s: %llu wrong words counted; want %llu\n", what, got, want);
        failures++;
    } else {
        printf("ok   verify async %s: %llu\n", what, want);
    }
}

static int put(struct buf *b, size_t i, uint32_t w)
{
    return cudaMemcpy(b->p + i, &w, sizeof w, cudaMemcpyHostToDevice) != cudaSuccess;
}

static void way(const char *name, gt_as_shape sh, struct buf *b)
{
    static const size_t words[] = {BYTES / 8 + 5, BYTES / 4 - 1, 4 * 517 + 3, 1024};
    int fit = 0, regs = 0;
    char what[128];
    cudaError_t e = gt_k_as_prepare(&sh, &fit, &regs);

    if (e != cudaSuccess) {
        printf("FAIL verify async %s: set-up: %s\n", name, cudaGetErrorString(e));
        failures++;
        return;
    }
    snprintf(what, sizeof what, "%s, as written", name);
    expect(what, &sh, b, 0, 0);
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        size_t i = words[k];
        uint32_t w = gt_pattern_word(i, b->seed);
        for (uint32_t compute = 0; compute <= 2; compute += 2) {
            snprintf(what, sizeof what, "%s, word %zu changed%s", name, i,
                     compute ? ", with --compute 2" : "");
            if (put(b, i, w ^ 0x00800000u)) {
                printf("FAIL verify async %s: a cudaMemcpy of one word failed\n", what);
                failures++;
                return;
            }
            expect(what, &sh, b, compute, 1);
            if (put(b, i, w)) {
                printf("FAIL verify async %s: a cudaMemcpy of one word failed\n", what);
                failures++;
                return;
            }
        }
    }
}

int gt_test_verify_async(int sms)
{
    struct buf b = {.seed = 0xA5C3u, .blocks = sms};
    int dev = 0, cc = 0, major = 0, minor = 0;

    failures = 0;
    if (cudaGetDevice(&dev) || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) ||
        cudaMalloc((void **)&b.p, BYTES) || cudaMalloc((void **)&b.bad, sizeof *b.bad) ||
        cudaMalloc((void **)&b.sink, sizeof *b.sink) ||
        gt_k_fill_pattern(b.p, BYTES / 4, b.seed, sms * 4, 0) || cudaDeviceSynchronize()) {
        printf("FAIL verify async: set-up: %s\n", cudaGetErrorString(cudaGetLastError()));
        failures++;
        goto out;
    }
    cc = major * 10 + minor;
    memset(b.map, 0, sizeof b.map);
    way("plain", (gt_as_shape){.way = GT_AS_PLAIN, .width = 16, .stages = 1, .tile = TILE,
                               .smem = TILE}, &b);
    for (int w = 4; w <= 16; w *= 2) {
        char name[32];
        snprintf(name, sizeof name, "cp.async %d B", w);
        if (cc < 80) {
            printf("skip verify async %s: compute capability %d.%d\n", name, major, minor);
            continue;
        }
        way(name, (gt_as_shape){.way = GT_AS_CPASYNC, .width = w, .stages = 2, .tile = TILE,
                                .smem = 2 * TILE}, &b);
    }
    if (cc < 90) {
        printf("skip verify async bulk and tma: compute capability %d.%d\n", major, minor);
        goto out;
    }
    way("bulk", (gt_as_shape){.way = GT_AS_BULK, .width = 16, .stages = 2, .tile = TILE,
                              .smem = 2 * TILE + GT_AS_SMEM_EXTRA}, &b);
    {
        uint64_t dims[2] = {GT_AS_ROW_WORDS, BYTES / (4 * GT_AS_ROW_WORDS)};
        uint32_t box[2] = {GT_AS_BOX_W, TILE / (4 * GT_AS_BOX_W)};
        CUresult rc = gt_cuTensorMapEncodeTiled(gt_driver_fn("cuTensorMapEncodeTiled"), b.map,
                                                b.p, dims, GT_AS_ROW_WORDS * 4, box);
        if (rc != CUDA_SUCCESS) {
            printf("FAIL verify async tma: cuTensorMapEncodeTiled: CUresult %d\n", (int)rc);
            failures++;
            goto out;
        }
    }
    way("tma", (gt_as_shape){.way = GT_AS_TMA, .width = 16, .stages = 2, .tile = TILE,
                             .smem = 2 * TILE + GT_AS_SMEM_EXTRA}, &b);
out:
    cudaFree(b.p);
    cudaFree(b.bad);
    cudaFree(b.sink);
    return failures;
}
