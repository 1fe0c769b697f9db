/* The texture experiment on the GPU (the row is
 * src/experiments/texture/texture.c, the kernels texture_kernels.cu).
 *
 * Set-up writes the image into pinned memory and from there into a
 * cudaMalloc buffer, a cudaMallocPitch buffer, a CUDA array, and a second
 * CUDA array made for surfaces (cudaArraySurfaceLoadStore) beside a third
 * for the surface kernel's results; makes a texture object on the first
 * array (the filter, address mode and coordinates asked for), one on the
 * cudaMalloc buffer (tex1Dfetch) and two surface objects; and computes on
 * the host what every thread must write: the point stencil, and with
 * filter=linear the bilinear one (gt_tx_expected). Each sample, behind
 * the timing gate: cudaMemcpy2DToArray and cudaMemcpy2D refill the array
 * and the pitched buffer, then the five stencil kernels run, each between
 * events; then the surface's results are copied out of their array and a
 * kernel compares every output with the host's, exactly, or within the
 * texture unit's 1/256 steps where it filtered. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "texture.h"
#include "gputui/base/units.h"
#include "gpu/gpu.h"

/* texture_kernels.cu */
cudaError_t gt_k_tx_mem(int type, int access, const void *base, size_t pitch, uint32_t w,
                        uint32_t h, int address, float *out, cudaStream_t s);
cudaError_t gt_k_tx_lintex(int type, int access, cudaTextureObject_t t, uint32_t w, uint32_t h,
                           int address, float *out, cudaStream_t s);
cudaError_t gt_k_tx_array(int type, int access, cudaTextureObject_t t, uint32_t w, uint32_t h,
                          int filtered, int norm, float *out, cudaStream_t s);
cudaError_t gt_k_tx_surface(int type, int access, cudaSurfaceObject_t in, uint32_t w, uint32_t h,
                            int address, cudaSurfaceObject_t out, cudaStream_t s);
cudaError_t gt_k_tx_check(const float *out, const float *expect, size_t n, float tol,
                          unsigned long long *bad, int blocks, cudaStream_t s);

#define NK 5            /* stencil kernels: their outputs, the surface's last (K_SURF) */
#define K_SURF 4

typedef struct tx {
    int type, access, filter, address, norm, blocks;
    uint32_t w, h;
    size_t n, bytes, pitch;
    void *host;                         /* the image, pinned */
    void *lin, *pit;                    /* cudaMalloc, cudaMallocPitch */
    cudaArray_t arr, arr_surf, arr_out;  /* the texture's; the surface's, its results */
    cudaTextureObject_t tex_arr, tex_lin;
    cudaSurfaceObject_t surf_in, surf_out;
    bool has_tex_arr, has_tex_lin, has_surf_in, has_surf_out;
    float *out[NK];
    float *expect_point, *expect_filtered;
    gt_timing t;                        /* a piece a series */
} tx;

static void teardown(void *state)
{
    tx *z = state;

    if (!z)
        return;
    gt_timing_free(&z->t);
    if (z->has_tex_arr)
        GT_CUDA_Q(cudaDestroyTextureObject(z->tex_arr));
    if (z->has_tex_lin)
        GT_CUDA_Q(cudaDestroyTextureObject(z->tex_lin));
    if (z->has_surf_in)
        GT_CUDA_Q(cudaDestroySurfaceObject(z->surf_in));
    if (z->has_surf_out)
        GT_CUDA_Q(cudaDestroySurfaceObject(z->surf_out));
    if (z->arr)
        GT_CUDA_Q(cudaFreeArray(z->arr));
    if (z->arr_surf)
        GT_CUDA_Q(cudaFreeArray(z->arr_surf));
    if (z->arr_out)
        GT_CUDA_Q(cudaFreeArray(z->arr_out));
    gt_free_device(&z->lin);
    gt_free_device(&z->pit);
    for (int i = 0; i < NK; i++)
        gt_free_device(&z->out[i]);
    gt_free_device(&z->expect_point);
    gt_free_device(&z->expect_filtered);
    gt_free_pinned(&z->host);
    free(z);
}

static void fill_image(tx *z)
{
    for (uint32_t y = 0; y < z->h; y++)
        for (uint32_t x = 0; x < z->w; x++) {
            size_t i = (size_t)y * z->w + x;
            if (z->type == GT_TX_FLOAT)
                ((float *)z->host)[i] = gt_tx_float(x, y);
            else
                for (uint32_t c = 0; c < 4; c++)
                    ((uint8_t *)z->host)[4 * i + c] = gt_tx_byte(x, y, c);
        }
}

static struct cudaChannelFormatDesc channel(const tx *z)
{
    return z->type == GT_TX_FLOAT ? cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat)
                                  : cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
}

static int textures(tx *z, gt_err *err)
{
    struct cudaResourceDesc rd;
    struct cudaTextureDesc td;
    enum cudaTextureAddressMode am = z->address == GT_TX_WRAP ? cudaAddressModeWrap
                                                               : cudaAddressModeClamp;

    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = z->arr;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = am;
    td.filterMode = z->filter == GT_TX_LINEAR ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = z->type == GT_TX_UCHAR4 && z->filter == GT_TX_LINEAR ?
        cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = z->norm;
    if (GT_CUDA(err, cudaCreateTextureObject(&z->tex_arr, &rd, &td, NULL)))
        return -1;
    z->has_tex_arr = true;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = z->lin;
    rd.res.linear.desc = channel(z);
    rd.res.linear.sizeInBytes = z->bytes;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    if (GT_CUDA(err, cudaCreateTextureObject(&z->tex_lin, &rd, &td, NULL)))
        return -1;
    z->has_tex_lin = true;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = z->arr_surf;
    if (GT_CUDA(err, cudaCreateSurfaceObject(&z->surf_in, &rd)))
        return -1;
    z->has_surf_in = true;
    rd.res.array.array = z->arr_out;
    if (GT_CUDA(err, cudaCreateSurfaceObject(&z->surf_out, &rd)))
        return -1;
    z->has_surf_out = true;
    return 0;
}

static int setup(void **state, const int64_t *v, const gt_devprops *p, gt_setup_info *info,
                 gt_err *err)
{
    tx *z = calloc(1, sizeof *z);
    float *hp = NULL, *hf = NULL;
    int dev = 0, lin_max = 0;
    char sz[32];
    double t0;

    (void)p;
    *state = NULL;
    if (!z) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        return -1;
    }
    z->w = (uint32_t)v[GT_TX_WIDTH];
    z->h = (uint32_t)v[GT_TX_HEIGHT];
    z->type = (int)v[GT_TX_TYPE];
    z->access = (int)v[GT_TX_ACCESS];
    z->filter = (int)v[GT_TX_FILTER];
    z->address = (int)v[GT_TX_ADDRESS];
    z->norm = v[GT_TX_NORMALIZED] != 0;
    z->n = (size_t)z->w * z->h;
    z->bytes = z->n * 4;
    z->blocks = gt_gpu_sms() * 4;
    if (GT_CUDA(err, cudaGetDevice(&dev)) ||
        GT_CUDA(err, cudaDeviceGetAttribute(&lin_max, cudaDevAttrMaxTexture1DLinearWidth, dev)))
        goto fail;
    if ((size_t)lin_max < z->n) {
        gt_err_set(err, GT_EXIT_USAGE, "width x height: %zu texels, more than a linear texture "
                   "holds on this device (maxTexture1DLinear = %d); allowed: up to %d texels",
                   z->n, lin_max, lin_max);
        goto fail;
    }
    if (gt_timing_init(&z->t, &(gt_timing_spec){.pieces = GT_TX_NSERIES}, err))
        goto fail;
    t0 = gt_now();
    if (GT_CUDA_ALLOC(err, cudaMallocHost(&z->host, z->bytes)))
        goto fail;
    fill_image(z);
    {
        struct cudaChannelFormatDesc cd = channel(z);
        struct cudaChannelFormatDesc fd = cudaCreateChannelDesc(32, 0, 0, 0,
                                                                cudaChannelFormatKindFloat);
        if (GT_CUDA_ALLOC(err, cudaMalloc(&z->lin, z->bytes)) ||
            GT_CUDA_ALLOC(err, cudaMallocPitch(&z->pit, &z->pitch, (size_t)z->w * 4, z->h)) ||
            GT_CUDA_ALLOC(err, cudaMallocArray(&z->arr, &cd, z->w, z->h, 0)) ||
            GT_CUDA_ALLOC(err, cudaMallocArray(&z->arr_surf, &cd, z->w, z->h,
                                               cudaArraySurfaceLoadStore)) ||
            GT_CUDA_ALLOC(err, cudaMallocArray(&z->arr_out, &fd, z->w, z->h,
                                               cudaArraySurfaceLoadStore)) ||
            GT_CUDA(err, cudaMemcpy(z->lin, z->host, z->bytes, cudaMemcpyHostToDevice)) ||
            GT_CUDA(err, cudaMemcpy2D(z->pit, z->pitch, z->host, (size_t)z->w * 4,
                                      (size_t)z->w * 4, z->h, cudaMemcpyHostToDevice)) ||
            GT_CUDA(err, cudaMemcpy2DToArray(z->arr, 0, 0, z->host, (size_t)z->w * 4,
                                             (size_t)z->w * 4, z->h, cudaMemcpyHostToDevice)) ||
            GT_CUDA(err, cudaMemcpy2DToArray(z->arr_surf, 0, 0, z->host, (size_t)z->w * 4,
                                             (size_t)z->w * 4, z->h, cudaMemcpyHostToDevice)) ||
            textures(z, err))
            goto fail;
    }
    gt_format_size(z->bytes, sz, sizeof sz);
    gt_setup_info_time(info, gt_now() - t0, "the image, %u x %u %s (%s): pinned, cudaMalloc, "
                       "cudaMallocPitch (pitch %zu B), cudaMallocArray (three: one for "
                       "surfaces, one for their results), two texture objects, two surface "
                       "objects",
                       z->w, z->h, z->type == GT_TX_FLOAT ? "float" : "uchar4", sz, z->pitch);
    t0 = gt_now();
    for (int i = 0; i < NK; i++)
        if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->out[i], z->bytes)))
            goto fail;
    if (GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->expect_point, z->bytes)) ||
        (z->filter == GT_TX_LINEAR &&
         GT_CUDA_ALLOC(err, cudaMalloc((void **)&z->expect_filtered, z->bytes))))
        goto fail;
    if (!(hp = malloc(z->bytes)) || (z->filter == GT_TX_LINEAR && !(hf = malloc(z->bytes))) ||
        gt_tx_expected(v, hp, hf)) {
        gt_err_set(err, GT_EXIT_FAIL, "out of host memory");
        goto fail;
    }
    if (GT_CUDA(err, cudaMemcpy(z->expect_point, hp, z->bytes, cudaMemcpyHostToDevice)) ||
        (hf && GT_CUDA(err, cudaMemcpy(z->expect_filtered, hf, z->bytes,
                                       cudaMemcpyHostToDevice))))
        goto fail;
    free(hp);
    free(hf);
    hp = hf = NULL;
    gt_setup_info_time(info, gt_now() - t0, "what every thread must write, on the host%s",
                       z->filter == GT_TX_LINEAR ? " (point and bilinear)" : "");
    snprintf(info->note, sizeof info->note, "every output against the host's stencil: exactly, "
             "or where the array filters within 5 x 1/256 of a texel's range");
    gt_setup_info_timing(info, "events around each fill and each kernel, queued behind the "
                         "timing gate and run back to back");
    *state = z;
    return 0;
fail:
    free(hp);
    free(hf);
    teardown(z);
    return -1;
}

/* The pieces in the order they run: the fills, then the kernels that
 * read what they wrote. */
static const int series_of[GT_TX_NSERIES] = {
    GT_TX_S_FILL_ARRAY, GT_TX_S_FILL_PITCH, GT_TX_S_LINEAR, GT_TX_S_PITCHED,
    GT_TX_S_ARRAY,      GT_TX_S_LINTEX,     GT_TX_S_SURFACE,
};

static int work(void *state, int i, cudaStream_t s, gt_err *err)
{
    tx *z = state;
    size_t row = (size_t)z->w * 4;

    switch (series_of[i]) {
    case GT_TX_S_FILL_ARRAY:
        return GT_CUDA(err, cudaMemcpy2DToArrayAsync(z->arr, 0, 0, z->host, row, row, z->h,
                                                     cudaMemcpyHostToDevice, s));
    case GT_TX_S_FILL_PITCH:
        return GT_CUDA(err, cudaMemcpy2DAsync(z->pit, z->pitch, z->host, row, row, z->h,
                                              cudaMemcpyHostToDevice, s));
    case GT_TX_S_LINEAR:
        return GT_CUDA(err, gt_k_tx_mem(z->type, z->access, z->lin, row, z->w, z->h, z->address,
                                        z->out[GT_TX_S_LINEAR], s));
    case GT_TX_S_PITCHED:
        return GT_CUDA(err, gt_k_tx_mem(z->type, z->access, z->pit, z->pitch, z->w, z->h,
                                        z->address, z->out[GT_TX_S_PITCHED], s));
    case GT_TX_S_ARRAY:
        return GT_CUDA(err, gt_k_tx_array(z->type, z->access, z->tex_arr, z->w, z->h,
                                          z->filter == GT_TX_LINEAR, z->norm,
                                          z->out[GT_TX_S_ARRAY], s));
    case GT_TX_S_LINTEX:
        return GT_CUDA(err, gt_k_tx_lintex(z->type, z->access, z->tex_lin, z->w, z->h, z->address,
                                           z->out[GT_TX_S_LINTEX], s));
    default:
        return GT_CUDA(err, gt_k_tx_surface(z->type, z->access, z->surf_in, z->w, z->h, z->address,
                                            z->surf_out, s));
    }
}

/* Each kernel's output against the host's stencil (the surface's copied
 * out of its array first); a fill is checked by the kernel that reads it. */
static int check(void *state, int i, unsigned long long *bad, cudaStream_t s, gt_err *err)
{
    tx *z = state;
    int series = series_of[i], k = series == GT_TX_S_SURFACE ? K_SURF : series;
    bool filtered = k == GT_TX_S_ARRAY && z->filter == GT_TX_LINEAR;
    /* a texel's sum of channels ranges over 1 (float) or 4 x 255 (uchar4) */
    float range = z->type == GT_TX_FLOAT ? 1.0f : 1020.0f;
    size_t row = (size_t)z->w * 4;

    if (series == GT_TX_S_FILL_ARRAY || series == GT_TX_S_FILL_PITCH)   /* judged_by */
        return 0;
    return (k == K_SURF &&
            GT_CUDA(err, cudaMemcpy2DFromArrayAsync(z->out[K_SURF], row, z->arr_out, 0, 0, row,
                                                    z->h, cudaMemcpyDeviceToDevice, s))) ||
           GT_CUDA(err, gt_k_tx_check(z->out[k], filtered ? z->expect_filtered : z->expect_point,
                                      z->n, filtered ? 5 * range / 256 : 0, bad, z->blocks, s));
}

static int run(void *state, gt_sample *out, gt_err *err)
{
    static const gt_timed w = {.pieces = GT_TX_NSERIES, .work = work, .check = check};
    /* the piece whose check stands for piece i: a fill's is the kernel's
     * that reads what it wrote (the array's, the pitched buffer's) */
    static const int judged_by[GT_TX_NSERIES] = {4, 3, 2, 3, 4, 5, 6};
    tx *z = state;
    double sec[GT_TX_NSERIES];
    uint64_t bad[GT_TX_NSERIES];

    if (gt_timed_sample(&z->t, &w, z, sec, bad, err))
        return -1;
    for (int i = 0; i < GT_TX_NSERIES; i++)
        out[series_of[i]] = (gt_sample){.series = (uint8_t)series_of[i],
                                        .verify = bad[judged_by[i]] ? GT_V_FAILED : GT_V_FULL,
                                        .sec = sec[i], .bytes = z->bytes};
    return GT_TX_NSERIES;
}

GT_GPU_OPS(texture) = {.setup = setup, .run = run, .teardown = teardown};
