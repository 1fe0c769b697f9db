// The pitched-memory experiment's kernel behind include/gputui/kernels.h.
#include "gputui/kernels.h"

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
