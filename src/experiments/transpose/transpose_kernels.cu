// The transpose experiment's kernels behind include/gputui/kernels.h: an
// n x n matrix of 32-bit words in blocks of tile x rows threads over
// tile x tile tiles, each thread moving tile / rows words of a column of
// its tile (NVIDIA's "efficient matrix transpose" method): a copy, a
// naive transpose, a transpose through a shared tile with rows of tile +
// pad words; and the check of a result. The shapes a class reaches with
// +/- (tile 16, 32 or 64; rows 4, 8 or 16, and 1 to 32 at tile 32) are
// compiled with the tile and the rows as constants, as the article's
// kernels are, the loops unrolled; others take them at run time.
#include "transpose_kernels.h"
#include "transpose.h"

namespace {

__global__ void tp_copy(uint32_t *out, const uint32_t *in, int n, int tile, int rows)
{
    size_t x = (size_t)blockIdx.x * tile + threadIdx.x, y = (size_t)blockIdx.y * tile + threadIdx.y;
    for (int j = 0; j < tile; j += rows)
        out[(y + j) * n + x] = in[(y + j) * n + x];
}

__global__ void tp_naive(uint32_t *out, const uint32_t *in, int n, int tile, int rows)
{
    size_t x = (size_t)blockIdx.x * tile + threadIdx.x, y = (size_t)blockIdx.y * tile + threadIdx.y;
    for (int j = 0; j < tile; j += rows)
        out[x * n + y + j] = in[(y + j) * n + x];
}

// The tile in dynamic shared memory, tile rows of tile + pad words.
__global__ void tp_tiled(uint32_t *out, const uint32_t *in, int n, int tile, int rows, int pad)
{
    extern __shared__ uint32_t t[];
    int w = tile + pad;
    size_t x = (size_t)blockIdx.x * tile + threadIdx.x, y = (size_t)blockIdx.y * tile + threadIdx.y;
    for (int j = 0; j < tile; j += rows)
        t[(threadIdx.y + j) * w + threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = (size_t)blockIdx.y * tile + threadIdx.x;
    y = (size_t)blockIdx.x * tile + threadIdx.y;
    for (int j = 0; j < tile; j += rows)
        out[(y + j) * n + x] = t[threadIdx.x * w + threadIdx.y + j];
}

template <int TILE, int ROWS>
__global__ void tpc_copy(uint32_t *out, const uint32_t *in, int n)
{
    size_t x = (size_t)blockIdx.x * TILE + threadIdx.x, y = (size_t)blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = in[(y + j) * n + x];
}

template <int TILE, int ROWS>
__global__ void tpc_naive(uint32_t *out, const uint32_t *in, int n)
{
    size_t x = (size_t)blockIdx.x * TILE + threadIdx.x, y = (size_t)blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        out[x * n + y + j] = in[(y + j) * n + x];
}

template <int TILE, int ROWS, int PAD>
__global__ void tpc_tiled(uint32_t *out, const uint32_t *in, int n)
{
    __shared__ uint32_t t[TILE][TILE + PAD];
    size_t x = (size_t)blockIdx.x * TILE + threadIdx.x, y = (size_t)blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        t[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = (size_t)blockIdx.y * TILE + threadIdx.x;
    y = (size_t)blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}

template <int TILE, int ROWS>
void tpc(int kind, uint32_t *out, const uint32_t *in, int n, cudaStream_t s)
{
    dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
    switch (kind) {
    case GT_TP_S_COPY: tpc_copy<TILE, ROWS><<<grid, block, 0, s>>>(out, in, n); break;
    case GT_TP_S_NAIVE: tpc_naive<TILE, ROWS><<<grid, block, 0, s>>>(out, in, n); break;
    case GT_TP_S_TILED: tpc_tiled<TILE, ROWS, 0><<<grid, block, 0, s>>>(out, in, n); break;
    default: tpc_tiled<TILE, ROWS, 1><<<grid, block, 0, s>>>(out, in, n); break;
    }
}

// The shapes compiled with constants.
#define GT_TP_SHAPES(X) \
    X(32, 8) X(32, 4) X(32, 16) X(32, 1) X(32, 2) X(32, 32) \
    X(16, 4) X(16, 8) X(16, 16) X(64, 4) X(64, 8) X(64, 16)

bool is_compiled(int tile, int rows)
{
#define X(T, R) if (tile == T && rows == R) return true;
    GT_TP_SHAPES(X)
#undef X
    return false;
}

// Launches the compiled shape for tile x rows; false when there is none.
bool compiled(int kind, uint32_t *out, const uint32_t *in, int n, int tile, int rows,
              cudaStream_t s)
{
#define X(T, R) if (tile == T && rows == R) { tpc<T, R>(kind, out, in, n, s); return true; }
    GT_TP_SHAPES(X)
#undef X
    return false;
}

__global__ void tp_check(const uint32_t *out, int n, int transposed, uint32_t seed,
                         unsigned long long *bad)
{
    size_t all = (size_t)n * n, stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long nb = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < all; i += stride) {
        size_t src = transposed ? (i % n) * n + i / n : i;
        nb += out[i] != gt_pattern_word(src, seed);
    }
    if (nb)
        atomicAdd(bad, nb);
}

}  // namespace

extern "C" cudaError_t gt_k_tp(int kind, uint32_t *out, const uint32_t *in, int n, int tile,
                               int rows, cudaStream_t s)
{
    dim3 grid(n / tile, n / tile), block(tile, rows);
    size_t smem;

    if (compiled(kind, out, in, n, tile, rows, s))
        return cudaGetLastError();
    switch (kind) {
    case GT_TP_S_COPY:
        tp_copy<<<grid, block, 0, s>>>(out, in, n, tile, rows);
        break;
    case GT_TP_S_NAIVE:
        tp_naive<<<grid, block, 0, s>>>(out, in, n, tile, rows);
        break;
    default:
        smem = (size_t)tile * (size_t)(tile + (kind == GT_TP_S_PADDED)) * 4;
        tp_tiled<<<grid, block, smem, s>>>(out, in, n, tile, rows, kind == GT_TP_S_PADDED);
        break;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gt_k_tp_check(const uint32_t *out, int n, int transposed, uint32_t seed,
                                     unsigned long long *bad, int blocks, cudaStream_t s)
{
    tp_check<<<blocks, 256, 0, s>>>(out, n, transposed, seed, bad);
    return cudaGetLastError();
}

extern "C" int gt_k_tp_compiled(int tile, int rows)
{
    return is_compiled(tile, rows) ? 1 : 0;
}
