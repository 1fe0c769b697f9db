/* Checked CUDA calls, runtime and driver API: each reports itself to the
 * trace (gputui/measure/trace.h) and turns a failure into a gt_err; fault
 * injection for the unwind tests; the teardown helpers; and what the
 * back-end found when it opened the device (gt_gpu_opened). Every file of
 * src/gpu/ uses these; they call no other file of src/gpu/. */
#include <cuda.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gputui/base/units.h"
#include "gputui/measure/trace.h"

static int sms = 1;
static size_t l2_initial;
static long fault_countdown = 0;
static _Thread_local double call_t0;

void gt_gpu_opened(int multiprocessors, size_t l2_limit)
{
    sms = multiprocessors;
    l2_initial = l2_limit;
}

size_t gt_l2_initial_limit(void)
{
    return l2_initial;
}

const char *gt_ta_size(uint64_t bytes, char *buf)
{
    return gt_format_size(bytes, buf, GT_TA_BUF);
}

const char *gt_ta_kind(int kind)
{
    switch (kind) {
    case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
    case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
    default: return "cudaMemcpyDefault";
    }
}

void gt_call_start(void)
{
    call_t0 = gt_trace_capturing() ? gt_now() : 0;
}

/* The driver call as it is named: "cuMemCreate(...)" for "cu->cuMemCreate(...)". */
static const char *call_name(const char *expr)
{
    const char *call = strstr(expr, "cu->cu");

    if (!strncmp(expr, "gt_cuda", 7))     /* cuda_compat.h's form of a runtime call */
        return expr + 3;
    return call ? call + 4 : expr;
}

static void traced(const char *expr, const char *result, bool ok)
{
    if (gt_trace_capturing())
        gt_trace_call_done(call_name(expr), result, ok, gt_now() - call_t0);
}

cudaError_t gt_cuda_quiet(cudaError_t rc, const char *expr)
{
    traced(expr, cudaGetErrorName(rc), rc == cudaSuccess);
    if (rc != cudaSuccess)
        cudaGetLastError();
    return rc;
}

int gt_cuda_check(cudaError_t rc, const char *expr, const char *file, int line,
                  gt_err *err)
{
    const char *base = strrchr(file, '/');

    traced(expr, cudaGetErrorName(rc), rc == cudaSuccess);
    if (rc == cudaSuccess)
        return 0;
    cudaGetLastError();     /* so a later launch check does not see it again */
    gt_err_set(err, GT_EXIT_FAIL, "%s failed: %s (%s) [%s:%d]", expr,
               cudaGetErrorName(rc), cudaGetErrorString(rc), base ? base + 1 : file, line);
    return -1;
}

void gt_fault_set(long n)
{
    fault_countdown = n;
}

void gt_fault_init(void)
{
    const char *s = getenv("GPUTUI_FAULT_ALLOC");

    fault_countdown = s ? strtol(s, NULL, 10) : 0;
}

int gt_fault_hit(void)
{
    return fault_countdown > 0 && --fault_countdown == 0;
}

void gt_gpu_quiesce(void)
{
    GT_CUDA_Q(cudaDeviceSynchronize());
    cudaGetLastError();
}

void gt_free_device(void *field)
{
    void **p = field;
    if (*p) {
        gt_trace_args("%p", *p);
        GT_CUDA_Q(cudaFree(*p));
    }
    *p = NULL;
}

void gt_free_pinned(void *field)
{
    void **p = field;
    if (*p) {
        gt_trace_args("%p", *p);
        GT_CUDA_Q(cudaFreeHost(*p));
    }
    *p = NULL;
}

void gt_destroy_event(cudaEvent_t *e)
{
    if (*e)
        GT_CUDA_Q(cudaEventDestroy(*e));
    *e = NULL;
}

void gt_destroy_stream(cudaStream_t *s)
{
    if (*s)
        GT_CUDA_Q(cudaStreamDestroy(*s));
    *s = NULL;
}

int gt_count_zero(unsigned long long *d, cudaStream_t s, gt_err *err)
{
    return GT_CUDA(err, cudaMemsetAsync(d, 0, sizeof *d, s));
}

int gt_count_read(const unsigned long long *d, unsigned long long *h, cudaStream_t s,
                  uint64_t *out, gt_err *err)
{
    if (GT_CUDA(err, cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s)) ||
        GT_CUDA(err, cudaStreamSynchronize(s)))
        return -1;
    *out = *h;
    return 0;
}

int gt_gpu_sms(void)
{
    return sms;
}

/* ---- driver API through the runtime's entry-point lookup ---- */

void *gt_driver_fn(const char *name)
{
    return gt_cuda_driver_entry(name, 12000);
}

static gt_cu_api cu;
static bool cu_loaded;

const gt_cu_api *gt_cu(gt_err *err)
{
    static const struct { const char *name; size_t off; } fns[] = {
#define FN(f) {#f, offsetof(gt_cu_api, f)}
        FN(cuGetErrorName), FN(cuGetErrorString), FN(cuDeviceGet), FN(cuDeviceGetAttribute),
        FN(cuMemGetAllocationGranularity), FN(cuMemAddressReserve), FN(cuMemAddressFree),
        FN(cuMemCreate), FN(cuMemRelease), FN(cuMemMap), FN(cuMemUnmap), FN(cuMemSetAccess),
        FN(cuMemGetAllocationPropertiesFromHandle), FN(cuMemExportToShareableHandle),
        FN(cuMemImportFromShareableHandle),
#undef FN
    };

    if (cu_loaded)
        return &cu;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        void *f = gt_driver_fn(fns[i].name);
        if (!f) {
            gt_err_set(err, GT_EXIT_FAIL, "the CUDA driver does not provide %s "
                       "(its CUDA 12.0 form, through the runtime's entry points)", fns[i].name);
            return NULL;
        }
        memcpy((char *)&cu + fns[i].off, &f, sizeof f);
    }
    cu_loaded = true;
    return &cu;
}

static const char *cu_name(CUresult rc)
{
    const char *name = NULL;

    if (rc == CUDA_SUCCESS)
        return "CUDA_SUCCESS";
    if (!cu_loaded || cu.cuGetErrorName(rc, &name) != CUDA_SUCCESS || !name)
        return "CUresult error";
    return name;
}

CUresult gt_cu_quiet(CUresult rc, const char *expr)
{
    traced(expr, cu_name(rc), rc == CUDA_SUCCESS);
    return rc;
}

int gt_cu_check(CUresult rc, const char *expr, const char *file, int line, gt_err *err)
{
    const char *base = strrchr(file, '/'), *name = NULL, *text = NULL;

    if (gt_trace_capturing())
        traced(expr, cu_name(rc), rc == CUDA_SUCCESS);
    if (rc == CUDA_SUCCESS)
        return 0;
    if (cu_loaded) {
        if (cu.cuGetErrorName(rc, &name) != CUDA_SUCCESS)
            name = NULL;
        if (cu.cuGetErrorString(rc, &text) != CUDA_SUCCESS)
            text = NULL;
    }
    expr = call_name(expr);
    gt_err_set(err, GT_EXIT_FAIL, "%s failed: %s (%s) [%s:%d]", expr,
               name ? name : "CUresult", text ? text : "no description",
               base ? base + 1 : file, line);
    if (!name)
        snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                 " CUresult %d", (int)rc);
    return -1;
}
