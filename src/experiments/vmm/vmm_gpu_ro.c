/* A write into read-only VMM memory, tried in a child process
 * (vmm_gpu_ro.h). */
#define _GNU_SOURCE
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmm.h"
#include "gputui/kernels.h"
#include "gputui/base/port.h"
#include "vmm_gpu_ro.h"

#define POISON 0xA5A5A5A5u

void gt_vmm_try_ro_write(vm *z, int writer, gt_setup_info *info)
{
    char self[16], other[16], line[96] = "", who[48];
    char *argv[] = {"gputui", GT_CHILD_ARG, "vmm", self, other, NULL};
    int status;
    double t0 = gt_now();

    snprintf(self, sizeof self, "%d", z->device);
    snprintf(other, sizeof other, "%d", writer);
    if (writer == z->device)
        snprintf(who, sizeof who, "this GPU, through its read-only mapping,");
    else
        snprintf(who, sizeof who, "GPU %d", writer);
    if (gt_child_line(argv, 30, line, sizeof line, &status) && strncmp(line, "pipe", 4) == 0) {
        snprintf(info->note, sizeof info->note, "ro: the write from %s was not tried (%s); "
                 "reads checked in full", who, line);
        return;
    }
    gt_setup_info_time(info, gt_now() - t0, "ro write tried in a child process");
    if (!strncmp(line, "refused ", 8))
        snprintf(info->note, sizeof info->note, "ro: a write from %s faults: %s (tried in a "
                 "child process: the fault ends a process's CUDA contexts); reads checked in full",
                 who, line + 8);
    else if (!strcmp(line, "accepted"))
        snprintf(info->note, sizeof info->note, "ro: a write from %s was ACCEPTED (tried in a "
                 "child process); reads checked in full", who);
    else
        snprintf(info->note, sizeof info->note, "ro: the write from %s could not be tried: %s; "
                 "reads checked in full", who, line[0] ? line : "no answer from the child");
}

/* The child: VMM memory on 'self', zeroed while read-write there, then
 * read-only for 'writer' (for self itself, its one mapping turned
 * read-only); a kernel on the writer writes one word. Prints "refused
 * ERROR", "accepted" or "setup MESSAGE". */
static int ro_write_probe(int self, int writer)
{
    vm z;
    gt_err err;
    size_t g;
    cudaError_t rc;
    CUmemAccessDesc ro;

    memset(&z, 0, sizeof z);
    gt_err_clear(&err);
    z.device = self;
    z.prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    z.prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    z.prop.location.id = self;
    z.access[0].location = z.prop.location;
    z.access[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    z.naccess = 1;
    memset(&ro, 0, sizeof ro);
    ro.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    ro.location.id = writer;
    ro.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    if (!(z.cu = gt_cu(&err)) || GT_CUDA(&err, cudaSetDevice(self)) ||
        GT_CUDA(&err, cudaFree(NULL)) ||
        GT_CU(&err, z.cu->cuMemGetAllocationGranularity(&g, &z.prop,
                                                        CU_MEM_ALLOC_GRANULARITY_MINIMUM)) ||
        gt_vrange_reserve(&z, &z.vdst, g, &err) || gt_vrange_grow(&z, &z.vdst, g, NULL, &err) ||
        GT_CUDA(&err, cudaMemset((void *)z.vdst.va, 0, g)) ||
        GT_CUDA(&err, cudaDeviceSynchronize()) ||
        GT_CU(&err, z.cu->cuMemSetAccess(z.vdst.va, g, &ro, 1)) ||
        GT_CUDA(&err, cudaSetDevice(writer))) {
        printf("setup %s\n", err.msg);
        return GT_EXIT_FAIL;
    }
    rc = gt_k_fill_word((uint32_t *)z.vdst.va, 1, POISON, 1, 0);
    if (rc == cudaSuccess)
        rc = cudaDeviceSynchronize();
    if (rc == cudaSuccess)
        printf("accepted\n");
    else
        printf("refused %s (%s)\n", cudaGetErrorName(rc), cudaGetErrorString(rc));
    fflush(stdout);
    _exit(0);       /* the contexts are gone: nothing to release */
}

int gt_vmm_ro_child(int argc, char **argv)
{
    if (argc != 2) {
        printf("setup the VMM child takes SELF WRITER\n");
        return 64;
    }
    return ro_write_probe(atoi(argv[0]), atoi(argv[1]));
}
