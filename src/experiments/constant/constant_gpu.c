/* The __constant__ memory experiment on the GPU (the row is
 * src/experiments/constant/constant.c, the kernels and the symbol calls
 * constant_kernels.cu).
 *
 * op=read: per iteration the three kernels run back to back behind the
 * timing gate, each between its own events; every thread's sum is then
 * checked against the host's sum of the same words.
 * op=copy: cudaMemcpyToSymbol, cudaMemcpy (into global memory) and
 * cudaMemcpyFromSymbol of the same bytes from a malloc'd array, as a
 * program holds one, each timed on the host clock: all three return once
 * the copy is done. A new pattern every sample; the symbol is read back
 * through cudaGetSymbolAddress, the global copy through its address. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constant.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* constant_kernels.cu */
cudaError_t gt_k_co_read(int mode, const uint32_t *g, uint32_t reads, int blocks, int threads,
                         uint32_t *out, cudaStream_t s);
cudaError_t gt_k_co_to_symbol(const void *src, size_t bytes);
cudaError_t gt_k_co_from_symbol(void *dst, size_t bytes);
cudaError_t gt_k_co_symbol_address(void **p);

#define THREADS 256

typedef struct co {
    int op, blocks;
    uint32_t reads, seed, sample_no;
    size_t bytes, nthreads;
    uint32_t *g;                    /* the array in global memory / the cudaMemcpy target */
    uint32_t *dout, *hout;          /* op=read: each thread's sum, for each kernel */
    uint32_t expect[3][32];         /* ... and what each lane's must be */
    uint32_t *host, *back, *check;  /* op=copy: malloc'd */
    void *sym;                      /* cudaGetSymbolAddress */
    gt_timing t;                    /* op=read: a piece a kernel */
} co;

static void teardown(void *state)
{
    co *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    gt_free_device(&z->g);
    gt_free_device(&z->dout);
    gt_free_pinned(&z->hout);
    free(z->host);
    free(z->back);
    free(z->check);
    free(z);
}

static void fill(uint32_t *w, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        w[i] = gt_co_word((uint32_t)i, seed);
}

static int setup_read(co *z, gt_setup_info *info, gt_err *err)
{
    uint32_t w[GT_CO_WORDS];
    size_t out = 3 * z->nthreads * sizeof *z->dout;
    double t0 = gt_now();

    fill(w, GT_CO_WORDS, z->seed);
    if (GT_CUDA(err, gt_k_co_to_symbol(w, sizeof w)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->g, sizeof w)) ||
        GT_CUDA(err, cudaMemcpy(z->g, w, sizeof w, cudaMemcpyHostToDevice)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->dout, out)) ||
        GT_CUDA_ALLOC(err, cudaMallocHost((void **)&z->hout, out)))
        return -1;
    gt_setup_info_time(info, gt_now() - t0, "cudaMemcpyToSymbol + cudaMemcpy %d words, "
                       "%d x %d threads", GT_CO_WORDS, z->blocks, THREADS);
    /* Each lane's sum: mode 0 reads word k, modes 1 and 2 word k + lane. */
    for (int lane = 0; lane < 32; lane++) {
        uint32_t b = 0, d = 0;
        for (uint32_t k = 0; k < z->reads; k++) {
            b += w[k & (GT_CO_WORDS - 1)];
            d += w[(k + (uint32_t)lane) & (GT_CO_WORDS - 1)];
        }
        z->expect[0][lane] = b;
        z->expect[1][lane] = z->expect[2][lane] = d;
    }
    snprintf(info->note, sizeof info->note, "every thread's sum of %u words, against the "
             "host's, after every kernel", z->reads);
    gt_setup_info_timing(info, "events around each kernel, the three queued behind the timing "
                         "gate and run back to back");
    return 0;
}

static int setup_copy(co *z, gt_setup_info *info, gt_err *err)
{
    double t0 = gt_now();
    char sz[32];

    if (!(z->host = malloc(z->bytes)) || !(z->back = malloc(z->bytes)) ||
        !(z->check = malloc(z->bytes))) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    if (GT_CUDA(err, gt_k_co_symbol_address(&z->sym)) ||
        GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->g, z->bytes)))
        return -1;
    gt_format_size(z->bytes, sz, sizeof sz);
    gt_setup_info_time(info, gt_now() - t0, "malloc 3 x %s, cudaGetSymbolAddress, cudaMalloc %s",
                       sz, sz);
    snprintf(info->note, sizeof info->note, "every word: the symbol read back through "
             "cudaGetSymbolAddress, the global copy through its address, FromSymbol's copy");
    gt_setup_info_timing(info, "host clock around each call (each returns once its copy is "
                         "done), from a malloc'd array");
    return 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    co *z = calloc(1, sizeof *z);

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->op = (int)v[GT_CO_OP];
    z->reads = (uint32_t)v[GT_CO_READS];
    z->bytes = (size_t)v[GT_CO_SIZE];
    z->blocks = gt_gpu_sms();
    z->nthreads = (size_t)z->blocks * THREADS;
    z->seed = (uint32_t)(gt_now() * 1e6) | 1;
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = 3, .ungated = z->op != GT_CO_OP_READ},
                       err))
        goto fail;
    if (z->op == GT_CO_OP_READ ? setup_read(z, info, err) : setup_copy(z, info, err))
        goto fail;
    *state = z;
    return 0;
fail:
    teardown(z);
    return -1;
}

/* Piece m: the kernel of mode m (broadcast, a word a thread, global). */
static int work(void *state, int m, cudaStream_t s, gt_err *err)
{
    co *z = state;

    return GT_CUDA(err, gt_k_co_read(m, z->g, z->reads, z->blocks, THREADS,
                                     z->dout + (size_t)m * z->nthreads, s));
}

/* Each thread's sum against its lane's, on the host. */
static int run_read(co *z, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = 3, .work = work};
    double sec[3];
    uint64_t unused[3];

    if (gt_timed_sample(&z->t, &w, z, sec, unused, err) ||
        GT_CUDA(err, cudaMemcpyAsync(z->hout, z->dout, 3 * z->nthreads * sizeof *z->hout,
                                     cudaMemcpyDeviceToHost, z->t.s)) ||
        GT_CUDA(err, cudaStreamSynchronize(z->t.s)))
        return -1;
    for (int m = 0; m < 3; m++) {
        uint64_t bad = 0;
        for (size_t t = 0; t < z->nthreads; t++)
            bad += z->hout[(size_t)m * z->nthreads + t] != z->expect[m][t & 31];
        out[m] = (gt_sample){0, (uint8_t)m, bad ? GT_V_FAILED : GT_V_FULL, sec[m], 0};
    }
    return 3;
}

static int run_copy(co *z, gt_sample *out, gt_err *err)
{
    size_t n = z->bytes / 4;
    double t[4];
    bool ok[3];

    fill(z->host, n, z->seed + 2 * ++z->sample_no);
    memset(z->back, 0, z->bytes);
    t[0] = gt_now();
    if (GT_CUDA(err, gt_k_co_to_symbol(z->host, z->bytes)))
        return -1;
    t[1] = gt_now();
    if (GT_CUDA(err, cudaMemcpy(z->g, z->host, z->bytes, cudaMemcpyHostToDevice)))
        return -1;
    t[2] = gt_now();
    if (GT_CUDA(err, gt_k_co_from_symbol(z->back, z->bytes)))
        return -1;
    t[3] = gt_now();
    ok[2] = !memcmp(z->back, z->host, z->bytes);
    memset(z->check, 0, z->bytes);
    if (GT_CUDA(err, cudaMemcpy(z->check, z->sym, z->bytes, cudaMemcpyDeviceToHost)))
        return -1;
    ok[0] = !memcmp(z->check, z->host, z->bytes);
    memset(z->check, 0, z->bytes);
    if (GT_CUDA(err, cudaMemcpy(z->check, z->g, z->bytes, cudaMemcpyDeviceToHost)))
        return -1;
    ok[1] = !memcmp(z->check, z->host, z->bytes);
    for (int s = 0; s < 3; s++)
        out[s] = (gt_sample){0, (uint8_t)s, ok[s] ? GT_V_FULL : GT_V_FAILED, t[s + 1] - t[s],
                             z->bytes};
    return 3;
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    co *z = state;

    return z->op == GT_CO_OP_READ ? run_read(z, out, err) : run_copy(z, out, err);
}

GT_GPU_OPS(constant) = {.setup = setup, .run = run, .teardown = teardown};
