/* all.h - every experiment, one line each, in the order the TUI's 'e'
 * steps through them and --help lists them; the first is the default.
 *
 * GT_EXP(NAME) stands for the table row gt_exp_NAME
 * (src/experiments/NAME/NAME.c, whose .name is "NAME") and, in the CUDA
 * build, its GPU side gt_NAME_ops (src/experiments/NAME/NAME_gpu.c). Two
 * files include it: the registry (src/core/experiments/registry.c) and the
 * back-end's list (src/gpu/cuda_backend.c). A file that includes this
 * defines GT_EXP first; it is undefined at the end, so the list can
 * be included again with another GT_EXP. Adding an experiment adds one
 * line here; tests/layers.py fails when a folder, a row or a GPU side is
 * missing from it, and the link fails when a line names one that does not exist.
 * No include guard: each inclusion expands the list anew. */
GT_EXP(transfer)
GT_EXP(zerocopy)
GT_EXP(streams)
GT_EXP(hostalloc)
GT_EXP(vmm)
GT_EXP(l2)
GT_EXP(pitched)
GT_EXP(peer)
GT_EXP(latency)
GT_EXP(constant)
GT_EXP(concurrent)
GT_EXP(runtime)
GT_EXP(sharing)
GT_EXP(managed)
GT_EXP(texture)
GT_EXP(coalesce)
GT_EXP(banks)
GT_EXP(async)
GT_EXP(cluster)
GT_EXP(atomics)
GT_EXP(transpose)
GT_EXP(pool)
#undef GT_EXP
