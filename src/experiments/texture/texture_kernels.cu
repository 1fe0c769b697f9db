// The texture experiment's kernels (src/experiments/texture/texture_gpu.c declares them): one
// 5-point stencil (a texel and its four neighbours, summed), each thread
// writing its result for (gx, gy) whatever texel its walk centres on. The
// taps are read from memory by index (linear or pitched), from linear
// memory through a texture object (tex1Dfetch), from a CUDA array through
// a surface object (surf2Dread, the result written with surf2Dwrite into
// another array), or from a CUDA array through a texture object (tex2D,
// filtering and addressing in the texture unit); and the check of every
// output. A block is 32 x 8 threads, the grid w / 32 x h / 8.
#include <stdint.h>

#include <type_traits>

#include <cuda_runtime.h>

#include "texture.h"

namespace {

// The taps: the texel, left, right, up, down (unrolled: constants).
__device__ __forceinline__ int tap_x(int k) { return k == 1 ? -1 : k == 2 ? 1 : 0; }
__device__ __forceinline__ int tap_y(int k) { return k == 3 ? -1 : k == 4 ? 1 : 0; }

__device__ float texel_sum(float v) { return v; }
__device__ float texel_sum(uchar4 v) { return (float)v.x + v.y + v.z + v.w; }

// Where the taps come from, texel (x, y) inside the image.
template <typename T> struct from_memory {
    const char *base;
    size_t pitch;
    __device__ T operator()(uint32_t x, uint32_t y) const
    {
        return *(const T *)(base + (size_t)y * pitch + (size_t)x * sizeof(T));
    }
};
template <typename T> struct from_lintex {
    cudaTextureObject_t t;
    uint32_t w;
    __device__ T operator()(uint32_t x, uint32_t y) const
    {
        return tex1Dfetch<T>(t, (int)((size_t)y * w + x));
    }
};
template <typename T> struct from_surface {    // x in bytes
    cudaSurfaceObject_t s;
    __device__ T operator()(uint32_t x, uint32_t y) const
    {
        return surf2Dread<T>(s, (int)(x * sizeof(T)), (int)y);
    }
};

// Where a thread's result goes.
struct to_memory {
    float *out;
    uint32_t w;
    __device__ void operator()(uint32_t gx, uint32_t gy, float v) const
    {
        out[(size_t)gy * w + gx] = v;
    }
};
struct to_surface {
    cudaSurfaceObject_t s;
    __device__ void operator()(uint32_t gx, uint32_t gy, float v) const
    {
        surf2Dwrite(v, s, (int)(gx * sizeof(float)), (int)gy);
    }
};

// The reads that handle the edges by hand (clamped or wrapped here).
template <typename T, int ACC, typename READ, typename WRITE>
__global__ void tx_taps(READ read, WRITE write, uint32_t w, uint32_t h, int address)
{
    uint32_t gx = blockIdx.x * 32 + threadIdx.x, gy = blockIdx.y * 8 + threadIdx.y, sx, sy;
    float sum = 0;

    gt_tx_walk(ACC, gx, gy, w, h, &sx, &sy);
#pragma unroll
    for (int k = 0; k < 5; k++) {
        uint32_t x = gt_tx_edge((int64_t)sx + tap_x(k), w, address);
        uint32_t y = gt_tx_edge((int64_t)sy + tap_y(k), h, address);
        sum += texel_sum(read(x, y));
    }
    write(gx, gy, sum);
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

// The kernel of walk ACC, launched as launch(std::integral_constant<int, ACC>).
template <typename LAUNCH> cudaError_t by_walk(int access, LAUNCH launch)
{
    switch (access) {
    case GT_TX_COLUMN: launch(std::integral_constant<int, GT_TX_COLUMN>()); break;
    case GT_TX_ROTATED: launch(std::integral_constant<int, GT_TX_ROTATED>()); break;
    case GT_TX_TILE: launch(std::integral_constant<int, GT_TX_TILE>()); break;
    default: launch(std::integral_constant<int, GT_TX_ROW>()); break;
    }
    return cudaGetLastError();
}

const dim3 block(32, 8);

template <typename T, typename READ, typename WRITE>
cudaError_t taps(int access, READ r, WRITE o, uint32_t w, uint32_t h, int address,
                 cudaStream_t s)
{
    return by_walk(access, [&](auto acc) {
        tx_taps<T, decltype(acc)::value><<<dim3(w / 32, h / 8), block, 0, s>>>(r, o, w, h, address);
    });
}

template <typename T>
cudaError_t array(int access, cudaTextureObject_t t, uint32_t w, uint32_t h, int filtered,
                  int norm, float *out, cudaStream_t s)
{
    return by_walk(access, [&](auto acc) {
        tx_array<T, decltype(acc)::value><<<dim3(w / 32, h / 8), block, 0, s>>>(t, w, h, filtered,
                                                                                 norm, out);
    });
}

}  // namespace

extern "C" cudaError_t gt_k_tx_mem(int type, int access, const void *base, size_t pitch,
                                   uint32_t w, uint32_t h, int address, float *out,
                                   cudaStream_t s)
{
    const char *b = (const char *)base;
    to_memory o{out, w};
    if (type == GT_TX_UCHAR4)
        return taps<uchar4>(access, from_memory<uchar4>{b, pitch}, o, w, h, address, s);
    return taps<float>(access, from_memory<float>{b, pitch}, o, w, h, address, s);
}

extern "C" cudaError_t gt_k_tx_lintex(int type, int access, cudaTextureObject_t t, uint32_t w,
                                      uint32_t h, int address, float *out, cudaStream_t s)
{
    to_memory o{out, w};
    if (type == GT_TX_UCHAR4)
        return taps<uchar4>(access, from_lintex<uchar4>{t, w}, o, w, h, address, s);
    return taps<float>(access, from_lintex<float>{t, w}, o, w, h, address, s);
}

extern "C" cudaError_t gt_k_tx_surface(int type, int access, cudaSurfaceObject_t in, uint32_t w,
                                       uint32_t h, int address, cudaSurfaceObject_t out,
                                       cudaStream_t s)
{
    to_surface o{out};
    if (type == GT_TX_UCHAR4)
        return taps<uchar4>(access, from_surface<uchar4>{in}, o, w, h, address, s);
    return taps<float>(access, from_surface<float>{in}, o, w, h, address, s);
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
