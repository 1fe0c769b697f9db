// The texture experiment's kernels (src/gpu/texture.c declares them): one
// 5-point stencil (a texel and its four neighbours, summed), each thread
// writing its result at gy * w + gx, read from memory by index (linear or
// pitched), from a CUDA array through a texture object (tex2D), or from
// linear memory through one (tex1Dfetch); and the check of every output.
// A block is 32 x 8 threads, the grid w / 32 x h / 8.
#include <stdint.h>

#include <type_traits>

#include <cuda_runtime.h>

#include "gputui/experiments/exp_texture.h"

namespace {

// The taps: the texel, left, right, up, down (unrolled: constants).
__device__ __forceinline__ int tap_x(int k) { return k == 1 ? -1 : k == 2 ? 1 : 0; }
__device__ __forceinline__ int tap_y(int k) { return k == 3 ? -1 : k == 4 ? 1 : 0; }

__device__ float texel_sum(float v) { return v; }
__device__ float texel_sum(uchar4 v) { return (float)v.x + v.y + v.z + v.w; }

template <typename T, int ACC>
__global__ void tx_mem(const char *base, size_t pitch, uint32_t w, uint32_t h, int address,
                       float *out)
{
    uint32_t gx = blockIdx.x * 32 + threadIdx.x, gy = blockIdx.y * 8 + threadIdx.y, sx, sy;
    float sum = 0;

    gt_tx_walk(ACC, gx, gy, w, h, &sx, &sy);
#pragma unroll
    for (int k = 0; k < 5; k++) {
        uint32_t x = gt_tx_edge((int64_t)sx + tap_x(k), w, address);
        uint32_t y = gt_tx_edge((int64_t)sy + tap_y(k), h, address);
        sum += texel_sum(*(const T *)(base + (size_t)y * pitch + (size_t)x * sizeof(T)));
    }
    out[(size_t)gy * w + gx] = sum;
}

template <typename T, int ACC>
__global__ void tx_lintex(cudaTextureObject_t t, uint32_t w, uint32_t h, int address,
                          float *out)
{
    uint32_t gx = blockIdx.x * 32 + threadIdx.x, gy = blockIdx.y * 8 + threadIdx.y, sx, sy;
    float sum = 0;

    gt_tx_walk(ACC, gx, gy, w, h, &sx, &sy);
#pragma unroll
    for (int k = 0; k < 5; k++) {
        uint32_t x = gt_tx_edge((int64_t)sx + tap_x(k), w, address);
        uint32_t y = gt_tx_edge((int64_t)sy + tap_y(k), h, address);
        sum += texel_sum(tex1Dfetch<T>(t, (int)((size_t)y * w + x)));
    }
    out[(size_t)gy * w + gx] = sum;
}

// The texture unit handles the edges: the coordinates go past them as
// they are. filtered: uchar4 comes back as normalized floats.
template <typename T, int ACC>
__global__ void tx_array(cudaTextureObject_t t, uint32_t w, uint32_t h, int filtered, int norm,
                         float *out)
{
    uint32_t gx = blockIdx.x * 32 + threadIdx.x, gy = blockIdx.y * 8 + threadIdx.y, sx, sy;
    float sum = 0, ox = filtered ? GT_TX_OFF_X : 0.0f, oy = filtered ? GT_TX_OFF_Y : 0.0f;

    gt_tx_walk(ACC, gx, gy, w, h, &sx, &sy);
#pragma unroll
    for (int k = 0; k < 5; k++) {
        float u = (float)((int)sx + tap_x(k)) + 0.5f + ox;
        float v = (float)((int)sy + tap_y(k)) + 0.5f + oy;
        if (norm) {
            u /= (float)w;
            v /= (float)h;
        }
        if constexpr (std::is_same<T, uchar4>::value) {
            if (filtered) {
                float4 f = tex2D<float4>(t, u, v);
                sum += (f.x + f.y + f.z + f.w) * 255.0f;
            } else {
                sum += texel_sum(tex2D<uchar4>(t, u, v));
            }
        } else {
            sum += tex2D<float>(t, u, v);
        }
    }
    out[(size_t)gy * w + gx] = sum;
}

__global__ void tx_check(const float *out, const float *expect, size_t n, float tol,
                         unsigned long long *bad)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long b = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        b += !(fabsf(out[i] - expect[i]) <= tol);
    if (b)
        atomicAdd(bad, b);
}

template <typename T>
cudaError_t mem(int access, const void *base, size_t pitch, uint32_t w, uint32_t h, int address,
                float *out, cudaStream_t s)
{
    dim3 grid(w / 32, h / 8), block(32, 8);
    const char *b = (const char *)base;
    switch (access) {
    case GT_TX_COLUMN: tx_mem<T, GT_TX_COLUMN><<<grid, block, 0, s>>>(b, pitch, w, h, address, out); break;
    case GT_TX_ROTATED: tx_mem<T, GT_TX_ROTATED><<<grid, block, 0, s>>>(b, pitch, w, h, address, out); break;
    case GT_TX_TILE: tx_mem<T, GT_TX_TILE><<<grid, block, 0, s>>>(b, pitch, w, h, address, out); break;
    default: tx_mem<T, GT_TX_ROW><<<grid, block, 0, s>>>(b, pitch, w, h, address, out); break;
    }
    return cudaGetLastError();
}

template <typename T>
cudaError_t lintex(int access, cudaTextureObject_t t, uint32_t w, uint32_t h, int address,
                   float *out, cudaStream_t s)
{
    dim3 grid(w / 32, h / 8), block(32, 8);
    switch (access) {
    case GT_TX_COLUMN: tx_lintex<T, GT_TX_COLUMN><<<grid, block, 0, s>>>(t, w, h, address, out); break;
    case GT_TX_ROTATED: tx_lintex<T, GT_TX_ROTATED><<<grid, block, 0, s>>>(t, w, h, address, out); break;
    case GT_TX_TILE: tx_lintex<T, GT_TX_TILE><<<grid, block, 0, s>>>(t, w, h, address, out); break;
    default: tx_lintex<T, GT_TX_ROW><<<grid, block, 0, s>>>(t, w, h, address, out); break;
    }
    return cudaGetLastError();
}

template <typename T>
cudaError_t array(int access, cudaTextureObject_t t, uint32_t w, uint32_t h, int filtered,
                  int norm, float *out, cudaStream_t s)
{
    dim3 grid(w / 32, h / 8), block(32, 8);
    switch (access) {
    case GT_TX_COLUMN: tx_array<T, GT_TX_COLUMN><<<grid, block, 0, s>>>(t, w, h, filtered, norm, out); break;
    case GT_TX_ROTATED: tx_array<T, GT_TX_ROTATED><<<grid, block, 0, s>>>(t, w, h, filtered, norm, out); break;
    case GT_TX_TILE: tx_array<T, GT_TX_TILE><<<grid, block, 0, s>>>(t, w, h, filtered, norm, out); break;
    default: tx_array<T, GT_TX_ROW><<<grid, block, 0, s>>>(t, w, h, filtered, norm, out); break;
    }
    return cudaGetLastError();
}

}  // namespace

extern "C" cudaError_t gt_k_tx_mem(int type, int access, const void *base, size_t pitch,
                                   uint32_t w, uint32_t h, int address, float *out,
                                   cudaStream_t s)
{
    return type == GT_TX_UCHAR4 ? mem<uchar4>(access, base, pitch, w, h, address, out, s)
                                : mem<float>(access, base, pitch, w, h, address, out, s);
}

extern "C" cudaError_t gt_k_tx_lintex(int type, int access, cudaTextureObject_t t, uint32_t w,
                                      uint32_t h, int address, float *out, cudaStream_t s)
{
    return type == GT_TX_UCHAR4 ? lintex<uchar4>(access, t, w, h, address, out, s)
                                : lintex<float>(access, t, w, h, address, out, s);
}

extern "C" cudaError_t gt_k_tx_array(int type, int access, cudaTextureObject_t t, uint32_t w,
                                     uint32_t h, int filtered, int norm, float *out,
                                     cudaStream_t s)
{
    return type == GT_TX_UCHAR4 ? array<uchar4>(access, t, w, h, filtered, norm, out, s)
                                : array<float>(access, t, w, h, filtered, norm, out, s);
}

extern "C" cudaError_t gt_k_tx_check(const float *out, const float *expect, size_t n, float tol,
                                     unsigned long long *bad, int blocks, cudaStream_t s)
{
    tx_check<<<blocks, 512, 0, s>>>(out, expect, n, tol, bad);
    return cudaGetLastError();
}
