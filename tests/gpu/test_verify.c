/* GPU test (run by test_unwind, after the unwinding): the VMM read's
 * fold (gt_k_vmm_read) finds what a word-by-word comparison finds. For
 * every data kind and three lengths (a grid's worth and more, a tail past
 * the last whole vector, fewer words than threads): a clean read counts
 * none; one word changed, in the middle or the last, counts one at its
 * index; two different words swapped count two from the first. The
 * copies' check (gt_k_vmm_check) must say the same each time. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "experiments/vmm/vmm_kernels.h"
#include "test_verify.h"

static int failures;

/* The read and the check of p[0 .. n); both must count 'want' words from
 * 'first' (first unused when want is 0). */
static void expect_bad(const char *what, const uint32_t *p, size_t n, int kind, uint32_t seed,
                       const uint32_t *sums, int blocks, unsigned long long *dres,
                       unsigned long long want, size_t first)
{
    static const char *const by[2] = {"read (fold)", "check (word by word)"};

    for (int k = 0; k < 2; k++) {
        unsigned long long res[2] = {0, ~0ull};
        cudaError_t e = cudaMemcpy(dres, res, sizeof res, cudaMemcpyHostToDevice);
        if (e == cudaSuccess)
            e = k ? gt_k_vmm_check(p, n, kind, seed, dres, blocks, 0)
                  : gt_k_vmm_read(p, n, kind, seed, sums, dres, blocks, 0);
        if (e == cudaSuccess)
            e = cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            printf("FAIL verify %s, %s: %s\n", what, by[k], cudaGetErrorString(e));
            failures++;
        } else if (res[0] != want || (want && res[1] != first)) {
            printf("FAIL verify %s, %s: %llu words from %llu; want %llu from %zu\n", what, by[k],
                   res[0], res[0] ? res[1] : 0ull, want, want ? first : 0);
            failures++;
        } else {
            printf("ok   verify %s, %s: %llu words\n", what, by[k], want);
        }
    }
}

static int put(uint32_t *p, size_t i, uint32_t w)
{
    return cudaMemcpy(p + i, &w, sizeof w, cudaMemcpyHostToDevice) != cudaSuccess;
}

static void one(int kind, const char *kname, size_t n, int blocks)
{
    uint32_t *p = NULL, *sums = NULL, seed = 0x5EEDu;
    unsigned long long *dres = NULL;
    char what[96];
    size_t mid = n / 2, a = n / 3, b = 2 * n / 3 + 1;

    if (cudaMalloc((void **)&p, n * sizeof *p) || cudaMalloc((void **)&sums, blocks * sizeof *sums) ||
        cudaMalloc((void **)&dres, 2 * sizeof *dres) ||
        gt_k_vmm_fill(p, 0, n, kind, seed, blocks, 0) ||
        gt_k_vmm_expect(n, kind, seed, sums, blocks, 0) || cudaDeviceSynchronize()) {
        printf("FAIL verify %s, %zu words: set-up: %s\n", kname, n,
               cudaGetErrorString(cudaGetLastError()));
        failures++;
        goto out;
    }
    snprintf(what, sizeof what, "%s, %zu words, as written", kname, n);
    expect_bad(what, p, n, kind, seed, sums, blocks, dres, 0, 0);
    for (int k = 0; k < 2; k++) {
        size_t i = k ? n - 1 : mid;
        snprintf(what, sizeof what, "%s, %zu words, word %zu flipped", kname, n, i);
        if (put(p, i, gt_vmm_data_word(kind, i, seed) ^ 0x00010000u))
            goto fail;
        expect_bad(what, p, n, kind, seed, sums, blocks, dres, 1, i);
        if (put(p, i, gt_vmm_data_word(kind, i, seed)))
            goto fail;
    }
    if (gt_vmm_data_word(kind, a, seed) != gt_vmm_data_word(kind, b, seed)) {
        snprintf(what, sizeof what, "%s, %zu words, words %zu and %zu swapped", kname, n, a, b);
        if (put(p, a, gt_vmm_data_word(kind, b, seed)) || put(p, b, gt_vmm_data_word(kind, a, seed)))
            goto fail;
        expect_bad(what, p, n, kind, seed, sums, blocks, dres, 2, a);
    }
    goto out;
fail:
    printf("FAIL verify %s, %zu words: a cudaMemcpy of one word failed\n", kname, n);
    failures++;
out:
    cudaFree(p);
    cudaFree(sums);
    cudaFree(dres);
}

int gt_test_verify(int sms)
{
    static const struct { int kind; const char *name; } kinds[] = {
        {.kind = GT_VMM_DATA_PATTERN, .name = "pattern"},
        {.kind = GT_VMM_DATA_RANDOM, .name = "random"},
        {.kind = GT_VMM_DATA_ZEROS, .name = "zeros"},
        {.kind = GT_VMM_DATA_CONSTANT, .name = "constant"},
    };
    /* A grid is sms x 4 blocks of 512 threads: 2048 x sms threads. */
    /* The first: one pass of four loads in flight a thread, then single
     * vectors, then words past the last vector. */
    size_t lens[] = {(size_t)sms * 2048 * 4 * 5 + 4 * 5 + 3, (size_t)sms * 2048 * 4 + 3, 1001};

    failures = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
            one(kinds[k].kind, kinds[k].name, lens[l], sms * 4);
    return failures;
}
