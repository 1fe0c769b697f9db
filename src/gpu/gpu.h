/* gpu.h - private to src/gpu: checked CUDA calls, fault injection for the
 * unwind tests (calls.c), host memory (hostmem.c), buffers kept across
 * configurations (kept_buffers.c), the timing gate (gate.c), NVML (nvml.c), and
 * the experiments' operation tables (read by cuda_backend.c).
 *
 * Every CUDA runtime call goes through GT_CUDA (or GT_CUDA_ALLOC for calls
 * that take memory): on failure it writes "call: cudaErrorName (text)
 * [file:line]" into the gt_err and evaluates to -1, so callers unwind with
 * 'goto fail' and nothing exits from here. */
#ifndef GPUTUI_GPU_PRIVATE_H
#define GPUTUI_GPU_PRIVATE_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "gputui/engine/backend.h"
#include "gputui/cuda_backend.h"
#include "cuda_compat.h"
#include "trace_args.h"

int gt_cuda_check(cudaError_t rc, const char *expr, const char *file, int line,
                  gt_err *err);
/* The start of a call for the trace (trace.h): a no-op unless a capture is
 * on. gt_cuda_quiet is for teardowns: it reports the call and clears a
 * failure, which a teardown cannot act on. */
void gt_call_start(void);
cudaError_t gt_cuda_quiet(cudaError_t rc, const char *expr);

/* GPUTUI_FAULT_ALLOC=N makes the N-th allocation through GT_CUDA_ALLOC
 * fail with cudaErrorMemoryAllocation (tests of the unwind paths). */
void gt_fault_init(void);
void gt_fault_set(long n);
int gt_fault_hit(void);

#define GT_CUDA(err, expr) \
    (gt_call_start(), gt_cuda_check((expr), #expr, __FILE__, __LINE__, (err)))
#define GT_CUDA_ALLOC(err, expr)                                                \
    (gt_call_start(),                                                          \
     gt_cuda_check(gt_fault_hit() ? cudaErrorMemoryAllocation : (expr), #expr, \
                   __FILE__, __LINE__, (err)))
#define GT_CUDA_Q(expr) (gt_call_start(), gt_cuda_quiet((expr), #expr))

/* Host memory of one kind (GT_HOST_* of gputui/experiments/host.h): hostmem.c. */
typedef struct gt_hostbuf {
    void *p;            /* host address */
    void *dev;          /* address kernels can use; NULL if none (gt_hostmem_map) */
    int kind;
    bool pinned;        /* cudaMallocHost / cudaHostAlloc: cudaFreeHost */
    bool registered;    /* cudaHostRegister: unregister, then free */
    bool foreign;       /* pinned while GPU 'owner' was current, not the engine's */
    int owner;
} gt_hostbuf;

/* cudaHostAlloc flags (hostalloc) or cudaHostRegister flags (register). */
unsigned gt_hostmem_flags(int kind, bool portable, bool wc, bool mapped);
const char *gt_hostmem_flag_names(unsigned flags, bool reg, char *buf, size_t n);
/* The allocation call of the kind: cudaMallocHost, cudaHostAlloc(flags), or
 * for pageable and register a page-aligned malloc with no page touched. */
int gt_hostmem_alloc(gt_hostbuf *h, int kind, size_t bytes, unsigned flags, gt_err *err);
/* register: cudaHostRegister(flags) after gt_hostmem_alloc. */
int gt_hostmem_register(gt_hostbuf *h, size_t bytes, unsigned flags, gt_err *err);
void gt_hostmem_map(gt_hostbuf *h);
/* Makes GPU 'owner' current for an allocation on behalf of another GPU's
 * context (*prev: the one to go back to), and back. */
int gt_hostmem_owner_enter(int owner, int *prev, gt_err *err);
void gt_hostmem_owner_leave(gt_hostbuf *h, int owner, int prev);
/* Unregisters and frees whatever the buffer holds (with its owner
 * current); h may be empty. */
void gt_hostmem_free(gt_hostbuf *h);

/* A buffer that may outlive its configuration (kept_buffers.c, policy in
 * gputui/engine/keep.h): device memory (d) or host memory of a kind (h). */
typedef struct gt_kept {
    bool device;
    gt_hostbuf h;
    void *d;
    size_t cap;             /* bytes it holds; 0: empty */
    int kind;               /* GT_HOST_* (host) */
    unsigned flags;         /* cudaHostAlloc / cudaHostRegister flags */
    uint32_t seed;          /* the pattern it holds (sources), 0: none */
    double alloc_sec;       /* what allocating it took */
} gt_kept;
/* The slots an experiment's GPU side may keep buffers in, numbered by it
 * (the transfer experiment uses them all). */
#define GT_KEEP_NSLOTS 5
/* Takes slot's buffer into *out when it fits (true); otherwise frees
 * whatever the slot held and leaves *out empty. */
bool gt_keep_take(int slot, bool device, int kind, unsigned flags, size_t bytes, gt_kept *out);
/* Hands b to the slot if the policy keeps it, else frees it; b is empty
 * afterwards either way. */
void gt_keep_put(int slot, gt_kept *b);
void gt_kept_free(gt_kept *k);
/* Frees a host slot's buffer unless it has this kind and these flags. */
void gt_keep_trim(int slot, int kind, unsigned flags);
/* Frees every kept buffer. */
void gt_keep_release(void);

/* ---- driver API, loaded through the runtime's entry points (cuda_compat.h) ---- */

typedef struct gt_cu_api {
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*cuMemGetAllocationGranularity)(size_t *, const CUmemAllocationProp *,
                                              CUmemAllocationGranularity_flags);
    CUresult (*cuMemAddressReserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr,
                                    unsigned long long);
    CUresult (*cuMemAddressFree)(CUdeviceptr, size_t);
    CUresult (*cuMemCreate)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *,
                            unsigned long long);
    CUresult (*cuMemRelease)(CUmemGenericAllocationHandle);
    CUresult (*cuMemMap)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                         unsigned long long);
    CUresult (*cuMemUnmap)(CUdeviceptr, size_t);
    CUresult (*cuMemSetAccess)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*cuMemGetAllocationPropertiesFromHandle)(CUmemAllocationProp *,
                                                       CUmemGenericAllocationHandle);
    CUresult (*cuMemExportToShareableHandle)(void *, CUmemGenericAllocationHandle,
                                             CUmemAllocationHandleType, unsigned long long);
    CUresult (*cuMemImportFromShareableHandle)(CUmemGenericAllocationHandle *, void *,
                                               CUmemAllocationHandleType);
} gt_cu_api;

/* The driver functions, or NULL with err set when one is missing. */
const gt_cu_api *gt_cu(gt_err *err);
void *gt_driver_fn(const char *name);
int gt_cu_check(CUresult rc, const char *expr, const char *file, int line, gt_err *err);

/* Like GT_CUDA for driver calls: "call: CUDA_ERROR_NAME (text) [file:line]". */
#define GT_CU(err, expr) (gt_call_start(), gt_cu_check((expr), #expr, __FILE__, __LINE__, (err)))
#define GT_CU_ALLOC(err, expr)                                                \
    (gt_call_start(),                                                        \
     gt_cu_check(gt_fault_hit() ? CUDA_ERROR_OUT_OF_MEMORY : (expr), #expr,   \
                 __FILE__, __LINE__, (err)))
CUresult gt_cu_quiet(CUresult rc, const char *expr);
#define GT_CU_Q(expr) (gt_call_start(), gt_cu_quiet((expr), #expr))

/* For teardowns: wait for the device and clear a sticky error, then
 * release what a field holds, if anything, and clear the field. Each takes
 * the field's address (any pointer type for the memory ones). */
void gt_gpu_quiesce(void);
void gt_free_device(void *field);
void gt_free_pinned(void *field);
void gt_destroy_event(cudaEvent_t *e);
void gt_destroy_stream(cudaStream_t *s);

/* The timing gate (gate.c): hold a stream with a spin kernel, record the
 * start event, enqueue the work and the end event, open. 'want' is the
 * experiment's choice, which GPUTUI_GATE=0 or 1 overrides; 'safe' is false
 * where the work waits for the GPU inside a call, and then it stays off. */
typedef struct gt_gate {
    volatile int *host;     /* [0] the flag the host writes, [1] timed out */
    int *dev;
    int gen;
    bool on, open;
} gt_gate;
int gt_gate_init(gt_gate *g, bool want, bool safe, gt_err *err);
int gt_gate_hold(gt_gate *g, cudaStream_t s, gt_err *err);
void gt_gate_open(gt_gate *g);
/* After the end event completed: -1 with err set if the gate timed out. */
int gt_gate_check(gt_gate *g, gt_err *err);
/* Opens, waits for the device, frees; safe on a zeroed gate. */
void gt_gate_free(gt_gate *g);

/* The harness for timed work (timing.c). A timed experiment holds a
 * gt_timing: a non-blocking stream, two events a piece of work, the
 * timing gate (on unless the spec says ungated, or GPUTUI_GATE=0), a
 * mismatch counter a piece (two words, on the device and pinned on the
 * host) and, with
 * flush_bytes, a buffer read before each piece to flush the L2.
 * gt_timing_init makes them; gt_timing_free, first in a teardown, frees
 * the gate, waits for the device and frees the rest, whatever init made. */
#define GT_TIMING_PIECES 8
#define GT_TIMING_STREAMS 3
typedef struct gt_timing_spec {
    int pieces;             /* 1 to GT_TIMING_PIECES */
    int streams;            /* more streams, 0 to GT_TIMING_STREAMS (t->side) */
    bool ungated;           /* no gate: each piece starts from an idle stream */
    bool sleep;             /* the host sleeps while it waits (long copies) */
    bool blocking;          /* streams that wait for the legacy default stream */
    size_t flush_bytes;     /* > 0: flush the L2 before each piece */
} gt_timing_spec;
typedef struct gt_timing {
    cudaStream_t s, side[GT_TIMING_STREAMS];
    cudaEvent_t e[2 * GT_TIMING_PIECES], done;
    int pieces;
    gt_gate gate;
    unsigned long long *dbad, *hbad;
    void *flush;
    size_t flush_bytes;
    unsigned *sink;
} gt_timing;
int gt_timing_init(gt_timing *t, const gt_timing_spec *spec, gt_err *err);
void gt_timing_free(gt_timing *t);
/* A flush_bytes that empties the L2: twice its size, or 0 where unknown. */
size_t gt_l2_flush_size(const gt_devprops *p);

/* What a GPU side times and checks, each a function of the piece's
 * index enqueued on s (0, or nonzero with err set through GT_CUDA, which
 * names the call): optionally, what piece i will write, poisoned, before
 * the gate; piece i's work; and, optionally, its check: a kernel that
 * adds piece i's wrong elements to bad[0] (bad[1], zeroed too, is the
 * kernel's to use: gt_k_verify_pattern's first wrong index), or a copy of
 * what it wrote for the host to compare once the sample is done.
 * 'apart': each piece behind its own gate and checked before the next is
 * prepared; otherwise every piece runs back to back behind one gate (at
 * once, where they have streams of their own) and the checks follow. */
typedef struct gt_timed {
    int pieces;
    bool apart;
    bool ungated;           /* without the gate this time: from an idle stream */
    int (*prepare)(void *z, int i, cudaStream_t s, gt_err *err);
    int (*work)(void *z, int i, cudaStream_t s, gt_err *err);
    int (*check)(void *z, int i, unsigned long long *bad, cudaStream_t s, gt_err *err);
    /* optional: piece i's stream (t->s, or one of t->side: a stream with an
     * access-policy window, the second lane of a bidirectional copy),
     * where it is prepared and timed; its check follows on t->s */
    cudaStream_t (*stream)(void *z, int i);
} gt_timed;
/* One sample of w's pieces on t: the counters zeroed, the pieces
 * prepared, the gate held (or their streams idle), for each piece the L2
 * flushed (with a flush buffer) and the work between its events, the gate
 * opened, the checks, the counters read back, the gate checked; sec[i]
 * and bad[i] for each piece. Two events on one stream cannot read at or
 * below zero: that is an error naming the piece. 0, or -1 with err set. */
int gt_timed_sample(gt_timing *t, const gt_timed *w, void *z, double *sec, uint64_t *bad,
                    gt_err *err);
/* Piece i's start event, recorded on its stream just before its work:
 * what a work that forks onto other streams makes them wait for, and
 * where the times of its own events (a timeline) are counted from. */
cudaEvent_t gt_timed_start(const gt_timing *t, int i);
/* The same as samples: out[i] of series i, FAILED where bad[i], of
 * 'bytes' each. The count of samples, or -1. */
int gt_timed_samples(gt_timing *t, const gt_timed *w, void *z, uint64_t bytes, gt_sample *out,
                     gt_err *err);
/* The milliseconds from event a to event b, both recorded and complete:
 * the one place gputui reads two events' elapsed time. Only the call's
 * failure is an error (-1, err set): events on two streams may complete
 * in either order, so a figure at or below zero is a figure, which the
 * caller judges. */
int gt_event_ms(float *ms, cudaEvent_t a, cudaEvent_t b, gt_err *err);

/* A mismatch count a check kernel adds to on the device: zero it on s
 * before the kernel, then read it into the pinned *h (waits for s). */
int gt_count_zero(unsigned long long *d, cudaStream_t s, gt_err *err);
int gt_count_read(const unsigned long long *d, unsigned long long *h, cudaStream_t s,
                  uint64_t *out, gt_err *err);

/* nvml.c: a device's PCIe link and the driver version into p; every
 * pair's peer access, atomics, NVLinks and PCIe path into t (count: CUDA
 * devices); NVML is unloaded by close. */
void gt_nvml_device(gt_devprops *p);
void gt_query_topology(gt_topo *t, int count);
void gt_nvml_close(void);
/* Device 'ordinal' as NVML gives it without a CUDA context: its name, and
 * its memory, where every GPU of the machine has the same ones (NVML and
 * CUDA number GPUs differently). 0, or -1 when NVML cannot say. */
int gt_nvml_peek(int ordinal, gt_devprops *p);
/* What NVML sees without CUDA: the GPUs' names ("NVIDIA A100-PCIE-40GB",
 * "2 GPUs: ..."), and the driver's version ("535.183.01"); -1 (both "")
 * when NVML cannot say. */
int gt_nvml_gpus(char *names, size_t n, char *driver, size_t dn);
/* diagnose.c: why there is no usable device (after cudaGetDeviceCount
 * failed into err), or no code of this build for the one opened (rc of
 * gt_k_image_check), into err: what the machine has, what this gputui was
 * built with, and what to do. */
void gt_diagnose_no_device(gt_err *err);
void gt_diagnose_no_image(cudaError_t rc, const gt_devprops *p, gt_err *err);
/* The other processes on the device at PCI bus, without those in skip;
 * their activity since *last_ts (NVML's microseconds), which moves on. */
void gt_nvml_users(const char *bus, const int *skip, int nskip, unsigned long long *last_ts,
                   gt_gpu_users *u);
/* The device's PCIe traffic now, over NVML's 20 ms windows (backend.h). */
void gt_nvml_traffic(const char *bus, gt_link_traffic *t);
/* NVML's library handle (for dlsym) and, in *dev, its handle of the
 * device at PCI bus; NULL with why set when there is none. */
void *gt_nvml_handle(const char *bus, void **dev, char *why, size_t n);
/* nvml_health.c: what NVML and sysfs say of device p's health now. */
void gt_health_read(const gt_devprops *p, gt_health *h);

/* What the back-end found when it opened the device (calls.c keeps it):
 * its multiprocessors (grid sizing) and cudaLimitPersistingL2CacheSize,
 * which the L2 experiment restores. */
void gt_gpu_opened(int sms, size_t l2_limit);
int gt_gpu_sms(void);

/* child.c: runs this binary with argv (argv[0] its name) in a child
 * process and returns its first line of output in line (stderr discarded),
 * killing it after timeout_s; *status is waitpid's (-1 when it did not
 * start). 0, or -1 with line saying why it could not run. */
int gt_child_line(char *const argv[], double timeout_s, char *line, size_t len, int *status);
/* Starts this binary with argv, its stdout a pipe (*from_child) and its
 * stdin nothing, another pipe or a Unix socket that can pass file
 * descriptors (*to_child); stderr to /dev/null. Its pid, or -1 with why
 * set. */
enum { GT_CHILD_NO_STDIN, GT_CHILD_PIPE, GT_CHILD_SOCKET };
int gt_child_start(char *const argv[], int in_kind, int *to_child, int *from_child,
                   char *why, size_t whylen);
/* The pids of the last GT_CHILDREN_KEPT children, up to max. */
#define GT_CHILDREN_KEPT 16
int gt_child_recent(int *pids, int max);
/* A child started some other way (sharing.c's second process). */
void gt_child_note(int pid);
/* A child to be seen as any other program on the GPU (sharing.c's
 * stranger): left out of the recent ones. */
void gt_child_forget(int pid);
size_t gt_l2_initial_limit(void);

/* An experiment's GPU side defines its operations as
 *     GT_GPU_OPS(NAME) = {.setup = ..., .run = ..., ...};
 * that is gt_NAME_ops, which the back-end's ops() finds through the one
 * list of experiments (src/experiments/all.h). */
#define GT_GPU_OPS(name)                    \
    extern const gt_exp_ops gt_##name##_ops; \
    const gt_exp_ops gt_##name##_ops

#endif
