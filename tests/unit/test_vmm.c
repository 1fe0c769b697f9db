/* The VMM experiment's table row: rounding to the granularity, the
 * limits its check enforces, series per op and the summary lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "testutil.h"

#include "experiments/vmm/vmm.h"
#include "gputui/measure/run.h"
#include "gputui/measure/sweep.h"

static void h200(gt_devprops *p)
{
    gt_devprops_init(p);
    gt_dp_set(p, GT_DP_VMM, 1);
    gt_dp_set(p, GT_DP_GRAN_MIN, 2ll << 20);
    gt_dp_set(p, GT_DP_GRAN_REC, 2ll << 20);
    gt_dp_set(p, GT_DP_PEERS, 0);
    gt_dp_set(p, GT_DP_MEM_FREE, 100ll << 30);
}

/* Compression: refused where the device says it has none, naming the
 * attribute; left to the driver where the device did not say; not asked of
 * an op it does not apply to. Each data word the same on the host as the
 * kernels write it. */
static void compression_and_data(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400];
    const char *why;
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_READ;
    v[GT_VMM_COMP] = GT_VMM_COMP_ON;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_COMPRESSION, 1);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_COMPRESSION, 0);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "compression: this device does not support generic compression "
                        "(CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 0); allowed here: "
                        "off");
    /* Before Ampere a device has none, where the driver did not say. */
    h200(&p);
    gt_dp_set(&p, GT_DP_CC, 75);
    gt_devprops_derive(&p);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "GENERIC_COMPRESSION_SUPPORTED = 0"));
    h200(&p);
    gt_devprops_derive(&p);
    assert_false(gt_dp_ok(&p, GT_DP_COMPRESSION));
    gt_dp_set(&p, GT_DP_COMPRESSION, 0);
    /* GPUDirect RDMA: refused where the device does not take the flag. */
    v[GT_VMM_COMP] = GT_VMM_COMP_OFF;
    v[GT_VMM_RDMA] = GT_VMM_COMP_ON;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_VMM_RDMA, 0);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED = 0); allowed here: off"));
    v[GT_VMM_RDMA] = GT_VMM_COMP_OFF;
    v[GT_VMM_COMP] = GT_VMM_COMP_ON;
    v[GT_VMM_OP] = GT_VMM_OP_GROW;
    assert_false(gt_exp_vmm.params[GT_VMM_COMP].applies(v, &why));
    assert_string_equal(why, "only with op=alloc, bandwidth or read");
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    v[GT_VMM_OP] = GT_VMM_OP_ALLOC;
    assert_false(gt_exp_vmm.params[GT_VMM_DATA].applies(v, &why));
    assert_string_equal(why, "only with op=bandwidth or read");
    assert_false(gt_exp_vmm.params[GT_VMM_ACCESS].applies(v, &why));
    assert_string_equal(why, "only with op=read");
    v[GT_VMM_OP] = GT_VMM_OP_READ;
    assert_true(gt_exp_vmm.params[GT_VMM_ACCESS].applies(v, &why));
    /* A read holds a VMM and a cudaMalloc buffer. */
    h200(&p);
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_READ;
    v[GT_VMM_SIZE] = 4ll << 30;
    gt_dp_set(&p, GT_DP_MEM_FREE, 6ll << 30);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs 8 GiB of device memory; 6 GiB is free"));
    /* The data: zeros, 1.0f, the pattern, and words of the mixed pattern
     * that are neither it nor each other. */
    assert_int_equal(gt_vmm_data_word(GT_VMM_DATA_ZEROS, 12345, 7), 0);
    assert_int_equal(gt_vmm_data_word(GT_VMM_DATA_CONSTANT, 12345, 7), 0x3F800000u);
    assert_int_equal(gt_vmm_data_word(GT_VMM_DATA_PATTERN, 12345, 7), gt_pattern_word(12345, 7));
    assert_int_not_equal(gt_vmm_data_word(GT_VMM_DATA_RANDOM, 1, 7), gt_pattern_word(1, 7));
    {
        /* No constant step between neighbours. */
        uint32_t d1 = gt_vmm_data_word(GT_VMM_DATA_RANDOM, 2, 7) -
                      gt_vmm_data_word(GT_VMM_DATA_RANDOM, 1, 7);
        uint32_t d2 = gt_vmm_data_word(GT_VMM_DATA_RANDOM, 3, 7) -
                      gt_vmm_data_word(GT_VMM_DATA_RANDOM, 2, 7);
        assert_int_not_equal(d1, d2);
    }
}

/* location=host and host-numa: the CUDA each needs, the device's support,
 * the host's nodes, and what host memory cannot be. */
static void host_location(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400];
    const char *why;
    (void)state;
    h200(&p);
    gt_dp_set(&p, GT_DP_BUILD_CUDA, 13000);
    gt_dp_set(&p, GT_DP_DRIVER_CUDA, 13000);
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_READ;
    v[GT_VMM_LOC] = GT_VMM_LOC_HOST;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    /* Host memory: no device memory for the VMM side, three series. */
    {
        const char *names[GT_MAX_SERIES];
        assert_int_equal(gt_exp_vmm.series(v, names), 3);
        assert_string_equal(names[GT_VMM_S_VMM], "VMM host memory");
        assert_string_equal(names[GT_VMM_S_MAPPED], "mapped cudaHostAlloc memory");
    }
    gt_dp_set(&p, GT_DP_DRIVER_CUDA, 12080);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "location=host needs CUDA 13.0"));
    v[GT_VMM_LOC] = GT_VMM_LOC_HOST_NUMA;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_DRIVER_CUDA, 12010);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "location=host-numa needs CUDA 12.2"));
    gt_dp_set(&p, GT_DP_DRIVER_CUDA, 13000);
    /* A node the host does not have, named with those it has. */
    gt_dp_set(&p, GT_DP_HOST_NODES, 0x5);
    v[GT_VMM_NUMA] = 1;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "numa: node 1 is not a NUMA node of this host; allowed: 0, 2");
    v[GT_VMM_NUMA] = 2;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    /* The device's attribute. */
    gt_dp_set(&p, GT_DP_HOST_NUMA_VMM, 0);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 0"));
    gt_dp_set(&p, GT_DP_HOST_NUMA_VMM, 1);
    /* Not compressible, not this GPU's read-only mapping. */
    v[GT_VMM_COMP] = GT_VMM_COMP_ON;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_string_equal(err, "compression: only device memory is compressible; allowed with "
                             "location=host-numa: off");
    v[GT_VMM_COMP] = GT_VMM_COMP_OFF;
    v[GT_VMM_ACCESS] = GT_VMM_ACCESS_RO;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "access=ro: this GPU's own mapping of device memory"));
    /* numa only with host-numa; location only with alloc and read. */
    v[GT_VMM_LOC] = GT_VMM_LOC_HOST;
    assert_false(gt_exp_vmm.params[GT_VMM_NUMA].applies(v, &why));
    assert_string_equal(why, "only with location=host-numa");
    v[GT_VMM_OP] = GT_VMM_OP_GROW;
    assert_false(gt_exp_vmm.params[GT_VMM_LOC].applies(v, &why));
    assert_string_equal(why, "only with op=alloc or read");
}

/* op=share: four series, no ceiling, no device memory but its own. */
static void share_op(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    const char *names[GT_MAX_SERIES];
    gt_devprops p;
    char err[400];
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_SHARE;
    assert_int_equal(gt_exp_vmm.series(v, names), 4);
    assert_string_equal(names[GT_VMM_S_EXPORT], "cuMemExportToShareableHandle");
    assert_string_equal(names[GT_VMM_S_SHARE_ACCESS], "cuMemSetAccess (other process)");
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    gt_dp_set(&p, GT_DP_MEM_FREE, 32ll << 20);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs 64 MiB of device memory"));
}

static void rounding(void **state)
{
    (void)state;
    assert_int_equal(gt_vmm_round(1, 2 << 20), 2 << 20);
    assert_int_equal(gt_vmm_round(2 << 20, 2 << 20), 2 << 20);
    assert_int_equal(gt_vmm_round((2 << 20) + 1, 2 << 20), 4 << 20);
    assert_int_equal(gt_vmm_round(3ull << 30, 2 << 20), 3ull << 30);
}

static void checks(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    char err[400];
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_vmm, v);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    /* No VMM: refused, naming the attribute. */
    gt_dp_set(&p, GT_DP_VMM, 0);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 0"));
    h200(&p);
    /* Peer access with one GPU. */
    v[GT_VMM_PEER] = GT_VMM_PEER_RW;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "peer-access: no other GPU"));
    assert_non_null(strstr(err, "allowed here: off"));
    gt_dp_set(&p, GT_DP_PEERS, 1);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), 0);
    v[GT_VMM_PEER] = GT_VMM_PEER_OFF;
    /* Growth: end above start, step within, multiples of the granularity. */
    v[GT_VMM_OP] = GT_VMM_OP_GROW;
    v[GT_VMM_END] = v[GT_VMM_START];
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "end: 64 MiB is not above start"));
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_GROW;
    v[GT_VMM_STEP] = 3ll << 20;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "multiples of the recommended granularity (2 MiB)"));
    v[GT_VMM_STEP] = 2ll << 20;
    v[GT_VMM_END] = 16ll << 30;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than 4096 steps"));
    /* Reallocating holds two vectors: 2 x end must fit. */
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_GROW;
    gt_dp_set(&p, GT_DP_MEM_FREE, 6ll << 30);
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs 8 GiB of device memory; 6 GiB is free"));
    /* Bandwidth d2d: four buffers. */
    gt_experiment_defaults(&gt_exp_vmm, v);
    v[GT_VMM_OP] = GT_VMM_OP_BANDWIDTH;
    v[GT_VMM_DIR] = GT_VMM_D2D;
    v[GT_VMM_SIZE] = 2ll << 30;
    assert_int_equal(gt_experiment_check(&gt_exp_vmm, v, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "size: this configuration needs 8 GiB"));
}

static void series_and_summary(void **state)
{
    int64_t v[GT_MAX_PARAMS];
    gt_devprops p;
    gt_run r;
    gt_summary_line lines[GT_SUMMARY_LINES];
    const char *names[GT_MAX_SERIES];
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_vmm, v);
    /* Without peer access, no series for the peers' cuMemSetAccess. */
    assert_int_equal(gt_exp_vmm.series(v, names), GT_VMM_S_ACCESS_PEERS);
    assert_string_equal(names[GT_VMM_S_CREATE], "cuMemCreate");
    assert_string_equal(names[GT_VMM_S_FREE_ASYNC], "cudaFreeAsync");
    assert_false(gt_experiment_bandwidth(&gt_exp_vmm, v));
    v[GT_VMM_SIZE] = 3ll << 20;
    gt_run_init(&r, &gt_exp_vmm, v, 1);
    for (int s = 0; s < GT_VMM_NALLOC_SERIES; s++) {
        gt_sample x = {1, (uint8_t)s, GT_V_FULL, 1e-6 * (s + 1), 1};
        gt_run_add(&r, &x);
    }
    int n = gt_exp_vmm.summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 4);
    assert_string_equal(lines[0], "granularity: minimum 2 MiB, recommended 2 MiB");
    assert_string_equal(lines[1], "size 3 MiB rounds up to 4 MiB: 1 MiB wasted (25.0%)");
    /* reserve+create+map+access = 1+2+3+4 us; cudaMalloc 8 us, async 10 us */
    assert_non_null(strstr(lines[2], "VMM 10.0 us, cudaMalloc 8.00 us, cudaMallocAsync 10.0 us"));
    assert_non_null(strstr(lines[3], "VMM 18.0 us, cudaFree 9.00 us, cudaFreeAsync 11.0 us"));
    gt_run_free(&r);

    v[GT_VMM_OP] = GT_VMM_OP_BANDWIDTH;
    assert_int_equal(gt_exp_vmm.series(v, names), 2);
    assert_true(gt_experiment_bandwidth(&gt_exp_vmm, v));
    v[GT_VMM_OP] = GT_VMM_OP_GROW;
    gt_run_init(&r, &gt_exp_vmm, v, 1);
    for (int i = 0; i < 4; i++) {
        gt_sample a = {1, GT_VMM_S_VMM, GT_V_FULL, 100e-6, 1};
        gt_sample b = {1, GT_VMM_S_RUNTIME, GT_V_FULL, 2e-3, 1};
        gt_run_add(&r, &a);
        gt_run_add(&r, &b);
    }
    n = gt_exp_vmm.summary(&r, &p, lines, GT_SUMMARY_LINES);
    assert_int_equal(n, 3);
    assert_non_null(strstr(lines[1], "per step: VMM 100 us, cudaMalloc 2.00 ms (p50): 20.00x"));
    assert_non_null(strstr(lines[2], "63 steps (mean x steps): VMM 6.30 ms, reallocate 126 ms"));
    gt_run_free(&r);
}

/* A sweep over op is refused: its values measure different series (11
 * calls, 2 copies ...); a sweep over granularity, whose series are the
 * same, is not. */
static void sweep_over_op_refused(void **state)
{
    gt_devprops p;
    gt_sweep sw;
    int64_t v[GT_MAX_PARAMS];
    char err[300];
    (void)state;
    h200(&p);
    gt_experiment_defaults(&gt_exp_vmm, v);
    gt_sweep_begin(&sw, &gt_exp_vmm, GT_VMM_OP, v, &p);
    assert_int_equal(gt_sweep_values(&sw, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "op: its values measure different series (alloc 11, "
                                "bandwidth 2"));
    assert_non_null(strstr(err, "sweep another parameter"));
    gt_sweep_begin(&sw, &gt_exp_vmm, GT_VMM_GRAN, v, &p);
    assert_int_equal(gt_sweep_values(&sw, &p, err, sizeof err), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rounding), cmocka_unit_test(checks),
        cmocka_unit_test(compression_and_data), cmocka_unit_test(host_location),
        cmocka_unit_test(share_op),
        cmocka_unit_test(series_and_summary), cmocka_unit_test(sweep_over_op_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
