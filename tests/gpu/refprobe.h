// refprobe.h - what the reference probe's files share (tests/gpu/refprobe.cu
// has the usage): the checked call, the clock, the distribution line, and
// each probe's entry.
#ifndef GPUTUI_REFPROBE_H
#define GPUTUI_REFPROBE_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <ctime>
#include <vector>

#include <cuda_runtime.h>

#define CK(x)                                                                        \
    do {                                                                             \
        cudaError_t rc_ = (x);                                                       \
        if (rc_ != cudaSuccess) {                                                    \
            fprintf(stderr, "refprobe: %s: %s (%s:%d)\n", #x, cudaGetErrorString(rc_), \
                    __FILE__, __LINE__);                                             \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

double now();
double pct(std::vector<double> v, double p);
void dist(const char *what, const std::vector<double> &v, const char *extra = "");

// refprobe.cu: zero-copy and pageable copies
void zc(int n, bool article_only);
void pageable(size_t mib, int reps, bool cold_sync_only);
// refprobe_memory.cu: the pointer chase, the L2 mix, the stencil
void chase(int argc, char **argv);
void l2mix(size_t foreign_mib);
void stencil(int w, int h, int n);
// refprobe_load.cu: a foreign load and an idle context
void load(double seconds);
void idle(double seconds);

// refprobe_warp.cu: a strided read, shared-memory banks, the transpose
void coalesce(const char *width, const char *strides, int offset, size_t mib);
void banks(int argc, char **argv);
void transpose(int n);

// refprobe_vmm.cu: a kernel's read of cuMemCreate memory, compressible or not
void vmm_read(bool compress, const char *datas, size_t mib, const char *where);
void vmm_share(size_t mib, int n);
void vmm_share_child();

// refprobe_pool.cu: the stream-ordered allocator's calls
void pool(int n, size_t bytes);
// refprobe_async.cu: global memory into shared memory, four ways
void async_copies(int stages, const char *tiles, const char *ways, size_t mib);
// refprobe_onchip.cu: a chase through shared memory, a block's own and
// another's in its cluster; reads of a cluster's shared memory; a
// histogram's atomics
void dsmem(int kib);
void cluster_reads(int blocks, int kib, int reads);
void atomics(unsigned k, int ops);

#endif
