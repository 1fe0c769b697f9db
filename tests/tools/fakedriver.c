/* fakedriver.c - a stand-in NVIDIA driver for the tests of what gputui says
 * on a machine whose driver is older than its build: built as
 * libcuda.so.1 and libnvidia-ml.so.1 (the same library twice), found
 * through LD_LIBRARY_PATH by the static CUDA runtime and by gputui's NVML
 * loader, which dlopen them by those names.
 *
 * The runtime asks the driver for its entry points (cuGetProcAddress) and
 * its version; this one gives cuInit, cuDriverGetVersion and
 * cuGetProcAddress, answers FAKE_CUDA_VERSION (default 12020) and nothing
 * else, as an old driver would for a newer runtime. NVML answers one GPU
 * named FAKE_GPU_NAME with driver FAKE_DRIVER_VERSION. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef struct fake_device *nvml_device;

static const char *env(const char *name, const char *def)
{
    const char *v = getenv(name);
    return v && *v ? v : def;
}

CUresult cuInit(unsigned flags)
{
    (void)flags;
    return 0;
}

CUresult cuDriverGetVersion(int *v)
{
    *v = atoi(env("FAKE_CUDA_VERSION", "12020"));
    return 0;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **fn, int version,
                             unsigned long long flags, int *status);

CUresult cuGetProcAddress(const char *symbol, void **fn, int version, unsigned long long flags)
{
    return cuGetProcAddress_v2(symbol, fn, version, flags, NULL);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **fn, int version,
                             unsigned long long flags, int *status)
{
    (void)version, (void)flags;
    *fn = !strcmp(symbol, "cuInit") ? (void *)cuInit
        : !strcmp(symbol, "cuDriverGetVersion") ? (void *)cuDriverGetVersion
        : !strcmp(symbol, "cuGetProcAddress") ? (void *)cuGetProcAddress_v2 : NULL;
    if (status)
        *status = *fn ? 0 : 1;          /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
    return *fn ? 0 : 500;               /* CUDA_ERROR_NOT_FOUND */
}

int nvmlInit_v2(void)
{
    return 0;
}

int nvmlShutdown(void)
{
    return 0;
}

int nvmlSystemGetDriverVersion(char *buf, unsigned len)
{
    snprintf(buf, len, "%s", env("FAKE_DRIVER_VERSION", "535.183.01"));
    return 0;
}

int nvmlDeviceGetCount_v2(unsigned *n)
{
    *n = 1;
    return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvml_device *d)
{
    static int one;

    if (i != 0)
        return 2;                       /* NVML_ERROR_INVALID_ARGUMENT */
    *d = (nvml_device)&one;
    return 0;
}

int nvmlDeviceGetName(nvml_device d, char *buf, unsigned len)
{
    (void)d;
    snprintf(buf, len, "%s", env("FAKE_GPU_NAME", "NVIDIA A100-PCIE-40GB"));
    return 0;
}
