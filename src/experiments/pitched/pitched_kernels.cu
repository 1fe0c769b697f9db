// The pitched-memory experiment's kernel behind include/gputui/kernels.h.
#include "pitched_kernels.h"
#include "gputui/experiments/patterns.h"

namespace {

// A block per row (grid-stride over rows), its threads across the row's
// bytes: p[r * pitch + c] += 1 for c < width.
__global__ void rows_add1(uint8_t *p, size_t pitch, size_t width, size_t rows)
{
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
        uint8_t *row = p + r * pitch;
        for (size_t c = threadIdx.x; c < width; c += blockDim.x)
            row[c] += 1;
    }
}

// The same with 32-bit words (width, pitch and p multiples of 4): __vadd4
// adds 1 to each byte of a word without carries between them.
__global__ void rows_add1_words(uint32_t *p, size_t pitch_words, size_t width_words, size_t rows)
{
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
        uint32_t *row = p + r * pitch_words;
        for (size_t c = threadIdx.x; c < width_words; c += blockDim.x)
            row[c] = __vadd4(row[c], 0x01010101u);
    }
}

// p[i] = gt_pi_byte(i, seed) over n packed bytes.
__global__ void pi_fill(uint8_t *p, size_t n, uint32_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = gt_pi_byte(i, seed);
}

// *bad += bytes of the W-byte rows at p + r * pitch (r < rows) that differ
// from gt_pi_byte(packed index, seed) + add.
__global__ void pi_check(const uint8_t *p, size_t pitch, size_t width, size_t rows,
                         uint32_t seed, uint8_t add, unsigned long long *bad)
{
    unsigned long long k = 0;
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const uint8_t *row = p + r * pitch;
        for (size_t c = threadIdx.x; c < width; c += blockDim.x)
            k += row[c] != (uint8_t)(gt_pi_byte(r * width + c, seed) + add);
    }
    if (k)
        atomicAdd(bad, k);
}

}  // namespace

extern "C" cudaError_t gt_k_rows_add1(uint8_t *p, size_t pitch, size_t width, size_t rows,
                                      int blocks, cudaStream_t s)
{
    if (pitch % 4 == 0 && width % 4 == 0 && (uintptr_t)p % 4 == 0)
        rows_add1_words<<<blocks, 256, 0, s>>>((uint32_t *)p, pitch / 4, width / 4, rows);
    else
        rows_add1<<<blocks, 256, 0, s>>>(p, pitch, width, rows);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_pi_fill(uint8_t *p, size_t n, uint32_t seed, int blocks,
                                   cudaStream_t s)
{
    pi_fill<<<blocks, 256, 0, s>>>(p, n, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_pi_check(const uint8_t *p, size_t pitch, size_t width, size_t rows,
                                    uint32_t seed, uint8_t add, unsigned long long *bad,
                                    int blocks, cudaStream_t s)
{
    pi_check<<<blocks, 256, 0, s>>>(p, pitch, width, rows, seed, add, bad);
    return cudaGetLastError();
}
