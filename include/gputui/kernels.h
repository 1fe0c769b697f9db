/* kernels.h - plain-C launchers for the __global__ functions in kernels/.
 * Each launches on 'stream' and returns the launch status; none of them
 * synchronizes. Patterns are 32-bit words: word i = (uint32)i * K ^ seed,
 * computed the same way on the CPU (gt_pattern_word). */
#ifndef GPUTUI_KERNELS_H
#define GPUTUI_KERNELS_H

#include <driver_types.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GT_PATTERN_K 0x9E3779B1u

#ifdef __CUDACC__
#define GT_HOST_DEVICE __host__ __device__
#else
#define GT_HOST_DEVICE
#endif

static inline GT_HOST_DEVICE uint32_t gt_pattern_word(size_t i, uint32_t seed)
{
    return ((uint32_t)i * GT_PATTERN_K) ^ seed;
}

/* p[i] = gt_pattern_word(i, seed) for i < nwords. */
cudaError_t gt_k_fill_pattern(uint32_t *p, size_t nwords, uint32_t seed,
                              int blocks, cudaStream_t stream);
/* p[i] = gt_pattern_word(i, seed) for first <= i < first + n: a piece of
 * a longer patterned buffer. */
cudaError_t gt_k_fill_pattern_at(uint32_t *p, size_t first, size_t n, uint32_t seed,
                                 int blocks, cudaStream_t stream);
/* p[i] = value (poison). */
cudaError_t gt_k_fill_word(uint32_t *p, size_t nwords, uint32_t value,
                           int blocks, cudaStream_t stream);
/* res[0] += number of words != pattern; res[1] = min(res[1], first bad
 * index). The caller sets res to {0, ~0} first. */
cudaError_t gt_k_verify_pattern(const uint32_t *p, size_t nwords,
                                uint32_t seed, unsigned long long *res,
                                int blocks, cudaStream_t stream);
/* Copies 'bytes' (a multiple of 4, pointers 16-byte aligned) with loads
 * and stores on the SMs. */
cudaError_t gt_k_copy(void *dst, const void *src, size_t bytes, int blocks,
                      cudaStream_t stream);

/* out[i] = a[i] + b[i] over a grid-stride loop of blocks x threads; with
 * passes > 1, (sum over 'passes' re-reads of a[i] + b[i]) / passes, with
 * volatile loads so that every pass reads memory again. */
cudaError_t gt_k_add_passes(float *out, const float *a, const float *b, size_t n,
                            int passes, int blocks, int threads, cudaStream_t stream);

/* *bad += elements of out (device or host-mapped) that differ from
 * gt_zc_a(i, seed) + gt_zc_b(i, seed) (zc_pattern.h). */
cudaError_t gt_k_zc_check(const float *out, size_t n, uint32_t seed, unsigned long long *bad,
                          int blocks, cudaStream_t stream);

/* x = x * GT_ST_LCG_A + c, 'work' times, on every word, in place
 * (exp_streams.h), with blocks x 256 threads. */
cudaError_t gt_k_lcg(uint32_t *p, size_t nwords, uint32_t work, uint32_t c, int blocks,
                     cudaStream_t stream);
/* L2 persistence: for i = t + j (tiles t of np words), v = ++persist[j];
 * stream[i] += v; the grid sweeps one tile at a time; blocks x 256. */
cudaError_t gt_k_l2_touch(uint32_t *stream, size_t ns, uint32_t *persist, size_t np,
                          int blocks, cudaStream_t stream_);
/* *bad += words of stream and persist that differ from what k launches of
 * gt_k_l2_touch make of stream = pattern(seed), persist = pattern(pseed). */
cudaError_t gt_k_l2_check(const uint32_t *stream, size_t ns, const uint32_t *persist, size_t np,
                          uint32_t seed, uint32_t pseed, uint32_t k, unsigned long long *bad,
                          int blocks, cudaStream_t stream_);
/* p[r * pitch + c] += 1 for every row r < rows and byte c < width; a
 * block of 256 threads per row, 32-bit accesses when width, pitch and p
 * are multiples of 4, byte accesses otherwise. */
cudaError_t gt_k_rows_add1(uint8_t *p, size_t pitch, size_t width, size_t rows, int blocks,
                           cudaStream_t stream);
/* One thread spinning until *flag >= want (a host-mapped int the host
 * writes), or timeout_ns of the GPU's global timer; on a timeout it sets
 * *timed_out = 1. The gate (src/gpu/gate.c) holds a stream with it. */
cudaError_t gt_k_gate_wait(const int *flag, int want, unsigned long long timeout_ns,
                           int *timed_out, cudaStream_t stream);
/* Whether this binary has code the current device runs: the gate's kernel
 * asked for its attributes, which loads it (cudaErrorNoKernelImageForDevice
 * when no cubin or PTX of the build fits the device). */
cudaError_t gt_k_image_check(void);
/* p[i] = gt_pi_byte(i, seed) (patterns.h) for i < n. */
cudaError_t gt_k_pi_fill(uint8_t *p, size_t n, uint32_t seed, int blocks, cudaStream_t stream);
/* *bad += bytes c < width of rows r < rows at p + r * pitch (device or
 * host-mapped memory) that differ from gt_pi_byte(r * width + c, seed) +
 * add. */
cudaError_t gt_k_pi_check(const uint8_t *p, size_t pitch, size_t width, size_t rows,
                          uint32_t seed, uint8_t add, unsigned long long *bad, int blocks,
                          cudaStream_t stream);
/* p[i] = (i + step) % n: a chain whose every link jumps 'step' words. */
cudaError_t gt_k_chain_init(uint32_t *p, size_t n, uint32_t step, int blocks,
                            cudaStream_t stream);
/* One thread: j = start, then 'hops' times j = p[j]; *out = j. Each read's
 * address depends on the one before, so the time is hops x one read. The
 * grid has 'blocks' blocks of one thread and only block 'target' walks:
 * stepping the target spreads the walks over the SMs, whose distances to
 * the memory differ (nvbandwidth's method). */
cudaError_t gt_k_chase(const uint32_t *p, uint32_t start, unsigned long long hops,
                       uint32_t *out, int blocks, int target, cudaStream_t stream);
/* An empty kernel<<<1, 1>>> (work on the legacy default stream). */
cudaError_t gt_k_empty(cudaStream_t stream);

/* Coalescing (kernels/warp.cu): thread i < n moves the element of
 * 'width' bytes (4, 8 or 16) in[i * si + oi] to out[i * so + oo], adding
 * k to each of its 32-bit words; blocks of 256 threads, one element each. */
cudaError_t gt_k_co_move(void *out, const void *in, uint64_t n, unsigned width, uint32_t si,
                         uint32_t oi, uint32_t so, uint32_t oo, uint32_t k, cudaStream_t stream);
/* *bad += 32-bit words of out (len elements of 'width' bytes, device or
 * host-mapped) that differ from what gt_k_co_move(k) wrote there from an
 * input of gt_pattern_word(seed); with 'all', also the words of the gaps
 * between written elements that differ from GT_CO_POISON (without it,
 * only the written elements are read). */
cudaError_t gt_k_co_check(const void *out, uint64_t len, unsigned width, uint64_t n,
                          uint32_t si, uint32_t oi, uint32_t so, uint32_t oo, uint32_t k,
                          uint32_t seed, int all, unsigned long long *bad, int blocks,
                          cudaStream_t stream);
/* Reads 'bytes' (a multiple of 16) at p, so that the L2 holds these clean
 * lines and nothing of what came before; *sink is written only if the
 * words read add up to a value they never do. */
cudaError_t gt_k_l2_flush(const void *p, size_t bytes, unsigned *sink, int blocks,
                          cudaStream_t stream);
/* Shared-memory banks (kernels/warp.cu): every block fills GT_BK_SMEM
 * bytes with gt_bk_word(seed); lane l of each warp then reads 'reads'
 * elements of 'width' bytes at gt_bk_addr(l, stride, width, r mod 8) with
 * volatile loads, and writes their words' sum to out[thread]. */
cudaError_t gt_k_bk_read(uint32_t *out, unsigned width, uint32_t stride, uint32_t reads,
                         uint32_t seed, int blocks, int threads, cudaStream_t stream);
/* *bad += threads t < n whose out[t] differs from expect[t mod 32]. */
cudaError_t gt_k_bk_check(const uint32_t *out, size_t n, const uint32_t *expect,
                          unsigned long long *bad, cudaStream_t stream);
/* The transpose (kernels/transpose.cu) of an n x n matrix of words by
 * 'kind' (GT_TP_S_*: copy, naive, tiled, padded), blocks of tile x rows
 * threads over n / tile x n / tile tiles. */
cudaError_t gt_k_tp(int kind, uint32_t *out, const uint32_t *in, int n, int tile, int rows,
                    cudaStream_t stream);
/* 1 when gt_k_tp has kernels compiled for tile x rows (constants, the
 * loops unrolled, as NVIDIA's article has them), 0 when it takes them at
 * run time. */
int gt_k_tp_compiled(int tile, int rows);
/* *bad += words of out that differ from the input gt_pattern_word(seed),
 * transposed or (copy) not. */
cudaError_t gt_k_tp_check(const uint32_t *out, int n, int transposed, uint32_t seed,
                          unsigned long long *bad, int blocks, cudaStream_t stream);
/* The stream-ordered allocator (kernels/pool.cu): buffer b < n of the
 * device array ptrs gets word w = gt_pattern_word(w, seed + b), w < words;
 * the check adds the words that differ to *bad; wait: one thread that
 * runs for ns of the GPU's global timer. */
cudaError_t gt_k_pool_fill(void *const *ptrs, int n, size_t words, uint32_t seed, int blocks,
                           cudaStream_t stream);
cudaError_t gt_k_pool_check(void *const *ptrs, int n, size_t words, uint32_t seed,
                            unsigned long long *bad, int blocks, cudaStream_t stream);
cudaError_t gt_k_pool_wait(unsigned long long ns, cudaStream_t stream);
/* *flag = value (host-mapped memory the host polls), in stream order. */
cudaError_t gt_k_pool_signal(int *flag, int value, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
