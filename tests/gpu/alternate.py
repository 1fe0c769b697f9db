#!/usr/bin/env python3
"""Fidelity in alternation (make test-gpu): gputui and an independent
reference (tests/gpu/refprobe.cu) measured in turn, R G R G ... R, each run
a process of its own, so that a host that drifts moves both sides alike.
The judgement is the ratio of the means of the two sides' per-process
medians, with a bootstrap interval that resamples each side's processes:
on the lent H200s a pageable buffer lands on memory that makes one process
25% faster than the next, for gputui and the reference alike, and that
widens the interval, not the ratio.

  ok:    the ratio within the band, and its 95% interval within twice it;
  FAIL:  its whole 99% interval outside the band;
  else:  host too noisy to judge yet: another set of rounds, up to the
         check's retries, then SKIP (counted as not judged), never "ok".
One process a transient slowed, far from the others of its side, is left
out and named on the verdict's line (judge.odd_one), except where a
process lands in one of several host states ("states": pageable copies,
the pool's calls): there every process is kept, and where the figures of
both sides fall into two states far apart (judge.two_states), each state
is judged by itself (judge.by_state).

Usage: alternate.py WHAT BIN PROBE LOG   (WHAT: pageable, zc, texture,
coalesce, banks, transpose, async, dsmem, cluster, atomics, pool,
vmm-read, vmm-host, vmm-share, chase; l2after: gputui after the L2
experiment against gputui alone; pinned, d2d and hostlat: the reference
is nvbandwidth, $NVBANDWIDTH)
Prints one line per figure: "ok ...", "FAIL ..." or "SKIP ..."; lines
starting with "#" say why a figure is measured again."""
import json
import os
import statistics
import subprocess
import sys

import judge

def strided_by_stride(cfg, series):
    """The strided series of each configuration, keyed by its stride."""
    return f"s{cfg['stride']}" if series == "strided" else None


ASYNC_WAYS = ("plain", "cp.async", "bulk", "tma")
# Pinned copies, "METHOD-DIR": nvbandwidth's test of each, and its words.
PINNED = {f"{m}-{d}": (f"{'host_to_device' if d == 'h2d' else 'device_to_host'}_memcpy_{m}",
                       f"pinned {d.upper()} 64 MiB, {'copy engines' if m == 'ce' else 'a copy kernel'}")
          for m in ("ce", "sm") for d in ("h2d", "d2h")}

CHECKS = {
    # figure: (gputui arguments, its series/config key, refprobe arguments, reference probe, band)
    "pageable": {
        # A process lands in a fast or a slow host state and stays there,
        # for gputui and the reference alike, pinned to the same CPUs or
        # not: on the lent H100's host D2H read 7.6 to 15.8 GB/s process
        # to process (25% about the mean), H2D 5.9 to 9.5 (2026-11-26),
        # and the H200's processes were 25% apart (2026-11-25). With 16
        # processes a side the ratio of the means has a standard error of
        # about 9%, so 10% is the finest band alternation can judge here
        # (gputui's page-aligned buffers, 1.33x, were caught at that).
        "band": 0.10,
        "rounds": 8,        # gputui runs a set; the reference runs one more
        "retries": 1,
        "pin": 2,
        "states": True,     # every process kept: the states are the figure's spread
        "gputui": ["--samples", "11", "--warmup", "2", "--host", "pageable", "--dir", "h2d,d2h",
                   "--size", "32M"],
        "probe": ["pageable", "32", "11", "cold"],
        "figures": {"h2d": "pageable_h2d_cold_cpu_timed_memcpy",
                    "d2h": "pageable_d2h_cold_cpu_timed_memcpy"},
        "metric": "bandwidth",
        "what": {"h2d": "pageable h2d 32 MiB against a CPU-timed cudaMemcpy from a cold source",
                 "d2h": "pageable d2h 32 MiB against a CPU-timed cudaMemcpy into a cold "
                        "destination"},
    },
    "zc": {
        # 10 repeats a sample, timed as one: the article's method.
        "band": 0.02,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "zerocopy", "--samples", "30", "--warmup", "1", "--repeat", "10",
                   "--variant", "explicit,mapped"],
        "probe": ["zc-article"],
        "figures": {"explicit": "zc_article_explicit", "mapped": "zc_article_mapped"},
        "metric": "time",
        "what": {"explicit": "zero-copy explicit against the article's program",
                 "mapped": "zero-copy mapped against the article's program"},
    },
    "texture": {
        # The texture experiment's linear-memory stencil, rows, against a
        # plain kernel of the same stencil (refprobe stencil): events
        # around one kernel each, queued back to back behind other work,
        # the image read from device memory. gputui's kernel takes the
        # walk, the texel type and the address mode as parameters and
        # pays for it: 1.108 (95% 1.101 to 1.117) of the plain kernel's
        # time on an H200, 2026-11-25; the band catches a timing error
        # beyond that, not the generality.
        "band": 0.15,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "texture", "--access", "row", "--samples", "30", "--warmup", "2"],
        "probe": ["stencil", "4096", "4096", "30"],
        "figures": {"row": "stencil_row"},
        "metric": "time",
        "what": {"row": "texture: the stencil from linear memory, 4096 x 4096 floats by rows, "
                        "against a plain kernel of it"},
    },
    # How a warp touches memory: each kernel beside a plain kernel of the
    # same access (tests/gpu/refprobe_warp.cu), timed alike (events around
    # one kernel; for coalesce and the transposes, after twice the L2
    # read), within 3%; the transposes, each starting from the same clean
    # L2 on both sides, within 1%.
    "coalesce": {
        "band": 0.03,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "coalesce", "--stride", "1,32", "--samples", "30", "--warmup", "2"],
        "key": strided_by_stride,
        "probe": ["coalesce", "float", "1,32", "0"],
        "figures": {"s1": "coalesce_float_s1_o0", "s32": "coalesce_float_s32_o0"},
        "metric": "time",
        "what": {"s1": "coalesce: float reads at stride 1, 64 MiB, against a plain kernel",
                 "s32": "coalesce: float reads at stride 32, 64 MiB, against a plain kernel"},
    },
    "banks": {
        "band": 0.03,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "banks", "--stride", "1,32,33", "--samples", "30", "--warmup", "2"],
        "key": strided_by_stride,
        "probe": ["banks", "1", "32", "33"],
        "figures": {"s1": "banks_s1", "s32": "banks_s32", "s33": "banks_s33"},
        "metric": "time",
        "what": {f"s{k}": f"banks: shared-memory floats at stride {k} against a plain kernel"
                 for k in (1, 32, 33)},
    },
    # Global memory into shared memory, one block an SM, four stages of 8
    # KiB (the async lesson's tiles) and of 16 KiB, each way against the
    # same kernel written with the CUDA C++ library (cuda::pipeline,
    # cuda::barrier, the TMA's tensor copy) in tests/gpu/refprobe_async.cu,
    # both from an emptied L2, within 3%.
    "async": {
        "band": 0.03,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "async", "--way", "plain,cp.async,bulk,tma", "--stages", "4",
                   "--tile", "8K,16K", "--blocks", "1", "--samples", "30", "--warmup", "2"],
        "key": lambda cfg, series: (f"{cfg['way']} {cfg['tile'] >> 10}K"
                                    if series == "into shared memory" else None),
        "probe": ["async", "4", "8,16", "plain,cp.async,bulk,tma"],
        "figures": {f"{w} {t}K": f"async_{w}_{t}k" for w in ASYNC_WAYS for t in (8, 16)},
        "metric": "time",
        "what": {f"{w} {t}K": f"async: {w} into shared memory, 4 x {t} KiB a block, against the "
                              f"CUDA C++ library's" for w in ASYNC_WAYS for t in (8, 16)},
    },
    # One dependent load in a block's own shared memory and in another's of
    # its cluster (16 KiB, random, 128 B apart), timed inside the kernel,
    # against a chase written apart and timed with events around 2^20
    # loads (tests/gpu/refprobe_onchip.cu), within 5%.
    "dsmem": {
        "band": 0.05,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "latency", "--kind", "shared,dsmem", "--size", "16K", "--samples", "30",
                   "--warmup", "2"],
        "key": lambda cfg, series: cfg["kind"] if series == "load" else None,
        "probe": ["dsmem", "16"],
        "figures": {"shared": "smem_own", "dsmem": "smem_remote"},
        "metric": "time",
        "scale": 1e9,
        "what": {"shared": "latency: a load of the block's own shared memory against a chase "
                           "written apart",
                 "dsmem": "latency: a load of another block's shared memory (DSMEM) against a "
                          "chase written apart"},
    },
    # Every thread of clusters of two reading 32 KiB of shared memory, its
    # own block's and the next's, coalesced and scattered, against the same
    # reads written apart (tests/gpu/refprobe_onchip.cu), within 3%.
    "cluster": {
        "band": 0.03,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "cluster", "--cluster", "2", "--size", "32K", "--reads", "4096",
                   "--access", "coalesced,scattered", "--samples", "30", "--warmup", "2"],
        "key": lambda cfg, series: (("own" if series.startswith("own") else "remote") + "_" +
                                    cfg["access"]),
        "probe": ["cluster", "2", "32", "4096"],
        "figures": {f"{w}_{a}": f"cluster_{w}_{a}" for w in ("own", "remote")
                    for a in ("coalesced", "scattered")},
        "metric": "time",
        "what": {f"{w}_{a}": f"cluster: {a} reads of {'its own' if w == 'own' else 'the next'} "
                             f"block's shared memory against the same reads written apart"
                 for w in ("own", "remote") for a in ("coalesced", "scattered")},
    },
    # A histogram of 256 bins, 256 adds a thread (the privatized kernel
    # runs some 40 us, long past what a launch adds), in global memory and
    # privatized in shared memory, against the same kernels written apart
    # (tests/gpu/refprobe_onchip.cu), within 3%.
    "atomics": {
        "band": 0.03,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "atomics", "--addresses", "256", "--where", "global,shared",
                   "--ops", "256", "--samples", "30", "--warmup", "2"],
        "key": lambda cfg, series: cfg["where"],
        "probe": ["atomics", "256", "256"],
        "figures": {"global": "atomics_global_k256", "shared": "atomics_shared_k256"},
        "metric": "time",
        "what": {"global": "atomics: a 256-bin histogram in global memory against a plain kernel",
                 "shared": "atomics: the same histogram privatized in shared memory against a "
                           "plain kernel"},
    },
    "transpose": {
        "band": 0.01,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "transpose", "--samples", "30", "--warmup", "2"],
        "key": lambda cfg, series: series,
        "probe": ["transpose", "8192"],
        "figures": {"copy": "transpose_copy", "naive": "transpose_naive",
                    "tiled": "transpose_tiled", "tiled, padded": "transpose_padded"},
        "metric": "time",
        "what": {k: f"transpose 8192 x 8192, {k}, against the article's kernel"
                 for k in ("copy", "naive", "tiled", "tiled, padded")},
    },
    # Compressible VMM memory read whole by a kernel, beside a plain program
    # of the same calls (refprobe vmm-read: cuMemCreate asking for
    # compression, the same data, its own kernel folding every word):
    # zeros, which compressible memory may hold in fewer bytes than it
    # reads as, and random words, which it cannot; 256 MiB, within 3%.
    "vmm-read": {
        "band": 0.03,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "vmm", "--op", "read", "--compression", "on", "--data", "zeros,random",
                   "--size", "256M", "--samples", "30", "--warmup", "2"],
        "key": lambda cfg, series: cfg["data"] if series == "VMM memory" else None,
        "probe": ["vmm-read", "on", "zeros,random", "256"],
        "figures": {"zeros": "vmm_read_on_zeros", "random": "vmm_read_on_random"},
        "metric": "time",
        "what": {k: f"vmm: a kernel's read of 256 MiB of compressible memory holding {k}, "
                    f"against a plain program" for k in ("zeros", "random")},
    },
    # VMM memory on the host (cuMemCreate at host NUMA node 0), read whole
    # by a kernel over the GPU's link, beside refprobe vmm-read's same
    # calls and fold; 64 MiB of random words, within 3%.
    "vmm-host": {
        "band": 0.03,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "vmm", "--op", "read", "--location", "host-numa", "--numa", "0",
                   "--data", "random", "--size", "64M", "--samples", "20", "--warmup", "2"],
        "key": lambda cfg, series: cfg["data"] if series == "VMM host memory" else None,
        "probe": ["vmm-read", "off", "random", "64", "host-numa"],
        "figures": {"random": "vmm_read_host_random"},
        "metric": "time",
        "what": {"random": "vmm: a kernel's read of 64 MiB of VMM memory on host NUMA node 0, "
                           "against a plain program"},
    },
    # Memory shared between two processes by a POSIX file descriptor:
    # export here, then import, map and open in the second process, each
    # call on its process's clock, beside refprobe vmm-share's same calls
    # (64 MiB, a fresh allocation a sample). Driver calls on the host's
    # clock: within 10%, as the pool's, both sides on the same two CPUs
    # near the GPU (and their second processes with them), every process
    # kept, each of the host's states judged by itself. Printed, not
    # judged: the second process's import (35 to 66 us) and map (3 to 6
    # us), whose medians moved by a third from one process to the next on
    # both sides alike (an H200, 2026-11-28): 8 and 10 processes a side
    # left the ratio's 95% interval 0.90 to 1.25 wide.
    "vmm-share": {
        "band": 0.10,
        "rounds": 4,
        "retries": 1,
        "pin": 2,
        "states": True,
        "printed": ("import", "map"),
        "gputui": ["-e", "vmm", "--op", "share", "--size", "64M", "--samples", "100",
                   "--warmup", "2"],
        "key": lambda cfg, series: {"cuMemExportToShareableHandle": "export",
                                    "cuMemImportFromShareableHandle": "import",
                                    "cuMemMap (other process)": "map",
                                    "cuMemSetAccess (other process)": "access"}.get(series),
        "probe": ["vmm-share", "64", "100"],
        "figures": {"export": "vmm_share_export", "import": "vmm_share_import",
                    "map": "vmm_share_map", "access": "vmm_share_access"},
        "metric": "time",
        "what": {k: f"vmm: {k} of 64 MiB shared with a second process, against a plain program"
                 for k in ("export", "import", "map", "access")},
    },
    # The stream-ordered allocator's costs beside a plain program calling
    # the same APIs (refprobe pool): 64 buffers of 1 MiB from a pool that
    # keeps its memory, and cudaFree while a 1 ms kernel runs; on the
    # host's clock, so 10%, both sides on the same CPUs. Printed, not
    # judged: 64 cudaMalloc+cudaFree, and the same on the default pool.
    # A process's driver calls land in a fast or a slow state (2.3 or 3.4
    # ms for those 64 on the lent H100, 2026-11-26) and gputui's process,
    # with its kernels and buffers, lands in the slow one in five of six
    # runs against the plain program's one in two: the two differ in the
    # process, not in the timing. The own pool's 64 land in such states
    # too (0.16 or 0.23 ms), and are judged state by state. cudaFreeAsync's return (1 to 5 us) is
    # not compared: the pool lesson and job_pool judge it against
    # cudaFree's.
    "pool": {
        "band": 0.10,
        "rounds": 4,
        "retries": 1,
        "pin": 2,
        "states": True,
        "printed": ("malloc", "default"),
        "gputui": ["-e", "pool", "--op", "alloc,sync", "--samples", "30", "--warmup", "2"],
        "key": lambda cfg, series: {"cudaMalloc + cudaFree": "malloc",
                                    "default pool (cudaMallocAsync)": "default",
                                    "own pool (cudaMallocFromPoolAsync)": "own",
                                    "cudaFree": "free", "cudaFreeAsync": "freeasync"}.get(series),
        "probe": ["pool", "64", "1024"],
        "figures": {"malloc": "pool_malloc", "default": "pool_default", "own": "pool_own_keep",
                    "free": "pool_cudafree_busy"},
        "metric": "time",
        "what": {"malloc": "pool: 64 x 1 MiB by cudaMalloc + cudaFree against a plain program",
                 "default": "pool: 64 x 1 MiB on the default pool (cudaMallocAsync)",
                 "own": "pool: 64 x 1 MiB from a pool that keeps everything against a plain "
                        "program",
                 "free": "pool: cudaFree while a 1 ms kernel runs"},
    },
    # The latency staircase beside an independent pointer chase (refprobe
    # chase: its own chain, walked whole before the first 16384 timed
    # loads), ns, within 10% where the plateaus are flat: up to 128
    # KiB and from 16 MiB (between them, where a level ends, the two
    # chains' layouts differ and so do the figures).
    "chase": {
        "band": 0.10,
        "rounds": 2,
        "retries": 1,
        "gputui": ["-e", "latency", "--warmup", "1", "--samples", "15",
                   "--size", "16K,64K,128K,16M,48M,512M"],
        "key": lambda cfg, series: f"k{cfg['size'] >> 10}",
        "scale": 1e9,
        "probe": ["chase", "16", "64", "128", "16384", "49152", "524288"],
        "probe_key": lambda p: f"k{p['KiB']}",
        "figures": {k: k for k in ("k16", "k64", "k128", "k16384", "k49152", "k524288")},
        "metric": "time",
        "what": {f"k{n}": f"latency {n} KiB against an independent chase"
                 for n in (16, 64, 128, 16384, 49152, 524288)},
    },
    # Mapped host memory's latency beside nvbandwidth's
    # host_device_latency_sm (ns), within 10%.
    "hostlat": {
        "band": 0.10,
        "rounds": 2,
        "retries": 1,
        "gputui": ["-e", "latency", "--kind", "mapped", "--size", "2M", "--order", "linear",
                   "--samples", "20", "--warmup", "1"],
        "key": lambda cfg, series: "mapped",
        "scale": 1e9,
        "nvbandwidth": ["-t", "host_device_latency_sm", "-j"],
        "figures": {"mapped": "host_device_latency_sm"},
        "metric": "time",
        "what": {"mapped": "mapped host latency against nvbandwidth's host_device_latency_sm"},
    },
    # No persisting set-aside outlives the L2 experiment: device-to-device
    # copies right after one (its own process, three samples of its
    # defaults) beside the same copies alone, within 5%.
    "l2after": {
        "band": 0.05,
        "rounds": 3,
        "retries": 1,
        "before": ["-e", "l2", "--warmup", "1", "--samples", "3"],
        "gputui": ["--dir", "d2d", "--size", "512M", "--samples", "20"],
        "reference": "gputui",
        "figures": {"d2d": "d2d"},
        "metric": "bandwidth",
        "what": {"d2d": "D2D 512 MiB right after the L2 experiment against D2D alone"},
    },
    # Pinned copies over the host link, copy engines and copy kernels,
    # 10 a sample timed as one, beside nvbandwidth's at the same size and
    # count. The link's share of its rating is the machine's, not
    # gputui's: the health card judges it (pcie.h2d), this check judges
    # gputui against the reference on the same link at the same moment.
    # Both sides on the same two CPUs near the GPU, as the host-clock
    # checks are: on the lent H100's host (one NUMA node), unpinned, H2D
    # drifted from 55 to 44 GB/s within the check and was not judged after
    # two sets; the run after it, pinned, was judged in its first set
    # (0.999 by copy engines, 0.997 by kernels; 2026-12-07). Two runs do
    # not show the cause.
    "pinned": {
        "band": 0.01,
        "rounds": 2,
        "retries": 1,
        "pin": 2,
        "gputui": ["--host", "pinned", "--dir", "h2d,d2h", "--method", "ce,sm", "--size", "64M",
                   "--iters", "10", "--samples", "10"],
        "key": lambda cfg, series: f"{cfg['method']}-{cfg['dir']}",
        "nvbandwidth": ["-t"] + [t for t, _ in PINNED.values()] + ["-b", "64", "-i", "10", "-j"],
        "figures": {k: t for k, (t, _) in PINNED.items()},
        "metric": "bandwidth",
        "what": {k: f"{w}, against nvbandwidth's {t}" for k, (t, w) in PINNED.items()},
    },
    "d2d": {
        # 10 copies a sample, timed as one: nvbandwidth's -i 10. One copy
        # timed alone carries the copy engine's start (about 1.5% of a
        # 512 MiB copy on an H200); docs/measuring.md says more.
        "band": 0.01,
        "rounds": 3,
        "retries": 1,
        "gputui": ["--dir", "d2d", "--size", "512M", "--iters", "10", "--samples", "20"],
        "nvbandwidth": ["-t", "device_local_copy", "-b", "512", "-i", "10", "-j"],
        "figures": {"d2d": "device_local_copy"},
        "metric": "bandwidth",
        "what": {"d2d": "device-to-device 512 MiB against nvbandwidth's device_local_copy"},
    },
}


def local_cpus(n):
    """The first n CPUs near GPU 0 (its PCI device's local_cpulist), or
    None where the system does not say."""
    try:
        bus = subprocess.run(["nvidia-smi", "-i", "0", "--query-gpu=pci.bus_id",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=30).stdout.strip().lower()
        text = open(f"/sys/bus/pci/devices/{bus[-12:]}/local_cpulist").read().strip()
    except (OSError, subprocess.SubprocessError):
        return None
    cpus = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus += range(int(lo), int(hi or lo) + 1)
    return set(cpus[:n]) or None


def gputui_figures(c, bin_, log, tag, before=True):
    if before and "before" in c:
        pre = subprocess.run([bin_, "--batch", "--format", "json"] + c["before"],
                             capture_output=True, text=True, timeout=300)
        if pre.returncode:
            raise RuntimeError(f"gputui {' '.join(c['before'])}: exit {pre.returncode}: "
                               f"{pre.stderr.strip()[:300]}")
    out = subprocess.run([bin_, "--batch", "--format", "json"] + c["gputui"],
                         capture_output=True, text=True, timeout=300)
    open(f"{log}/alt-{tag}.json", "w").write(out.stdout)
    if out.returncode:
        raise RuntimeError(f"gputui exit {out.returncode}: {out.stderr.strip()[:300]}")
    figs = {}
    for run in json.loads(out.stdout)["runs"]:
        cfg = run["config"]
        for n, s in enumerate(run["series"]):
            if "key" in c:
                key = c["key"](cfg, s["name"])
            elif n == 0:
                key = cfg.get("dir") or cfg.get("variant") or cfg.get("access")
            else:
                key = None
            if key is not None:
                figs[key] = (s["bandwidth_GBps"]["p50"] if c["metric"] == "bandwidth"
                             else s["latency_s"]["p50"] * c.get("scale", 1e3))
    return figs


def nvbandwidth_figures(c, log, tag):
    nvb = os.environ.get("NVBANDWIDTH", "")
    out = subprocess.run([nvb] + c["nvbandwidth"], capture_output=True, text=True, timeout=300)
    open(f"{log}/alt-{tag}.json", "w").write(out.stdout)
    if out.returncode:
        raise RuntimeError(f"nvbandwidth exit {out.returncode}: {out.stderr.strip()[:300]}")
    got = {}
    for t in json.loads(out.stdout)["nvbandwidth"]["testcases"]:
        m = t.get("bandwidth_matrix") or [[None]]
        got[t["name"]] = float(m[0][0])         # GPU 0's figure, GB/s
    return {k: got[v] for k, v in c["figures"].items()}


def probe_figures(c, probe, log, tag, bin_):
    if "nvbandwidth" in c:
        return nvbandwidth_figures(c, log, tag)
    if c.get("reference") == "gputui":
        return gputui_figures(c, bin_, log, tag, before=False)
    out = subprocess.run([probe] + c["probe"], capture_output=True, text=True, timeout=300)
    open(f"{log}/alt-{tag}.jsonl", "w").write(out.stdout)
    if out.returncode:
        raise RuntimeError(f"refprobe exit {out.returncode}: {out.stderr.strip()[:300]}")
    key = c.get("probe_key", lambda p: p["probe"])
    got = {key(p): p["p50"] for p in map(json.loads, out.stdout.splitlines())}
    return {k: got[v] for k, v in c["figures"].items()}


def without_odd(v, side, band, larger_is_slower, unit):
    """v without the one process a transient slowed (judge.odd_one), and
    what was left out, as text for the verdict's line."""
    i = judge.odd_one(v, band, larger_is_slower)
    if i is None:
        return v, ""
    off = abs(v[i] / statistics.median(v) - 1)
    return (v[:i] + v[i + 1:],
            f"; {side}'s process {i + 1} ({v[i]:.3f} {unit}) left out, {100 * off:.0f}% slower "
            f"than its side's median, the others within {100 * band:g}% of it")


def rounds(what, c, bin_, probe, log, attempt):
    refs, mine = [], []
    for i in range(c["rounds"]):
        refs.append(probe_figures(c, probe, log, f"{what}-{attempt}-ref{i}", bin_))
        mine.append(gputui_figures(c, bin_, log, f"{what}-{attempt}-gputui{i}"))
    refs.append(probe_figures(c, probe, log, f"{what}-{attempt}-ref{c['rounds']}", bin_))
    return refs, mine


def main():
    what, bin_, probe, log = sys.argv[1:5]
    c = CHECKS[what]
    if "nvbandwidth" in c and not os.access(os.environ.get("NVBANDWIDTH", ""), os.X_OK):
        for k in c["what"]:
            print(f"SKIP {c['what'][k]}: no nvbandwidth (NVBANDWIDTH=path)")
        return
    if c.get("pin"):
        # Host-clock figures: both sides on the same CPUs near the GPU, so
        # that where a process lands (another core, another node) does
        # not move one side and not the other.
        cpus = local_cpus(c["pin"])
        if cpus:
            os.sched_setaffinity(0, cpus)
            print(f"# {what}: both sides on CPUs {sorted(cpus)}, near GPU 0")
    band = c["band"]
    unit = "GB/s" if c["metric"] == "bandwidth" else {1e3: "ms", 1e6: "us", 1e9: "ns"}[c.get("scale", 1e3)]
    pending = dict(c["what"])
    refs, mine = [], []
    for attempt in range(1 + c["retries"]):
        try:
            r_, m_ = rounds(what, c, bin_, probe, log, attempt)
        except (RuntimeError, OSError, ValueError, KeyError, IndexError, TypeError,
                subprocess.TimeoutExpired) as e:
            for k in pending:
                print(f"FAIL {c['what'][k]}: no figures ({e})")
            return
        refs.append(r_)
        mine.append(m_)
        for k in list(pending):
            g = [x[k] for m_set in mine for x in m_set]
            r = [x[k] for r_set in refs for x in r_set]
            if c.get("states"):
                verdict, text, head = judge.by_state(g, r, band)
            else:
                slow = c["metric"] != "bandwidth"
                (gj, g_out), (rj, r_out) = (without_odd(v, side, band, slow, unit)
                                            for v, side in ((g, "gputui"), (r, "reference")))
                verdict, text, head = judge.ratio(gj, rj, band)
                text += g_out + r_out
            if k in c.get("printed", ()):
                print(f"# printed, not judged: {c['what'][k]}: gputui p50 "
                      f"{' '.join(f'{x:.3f}' for x in g)} {unit}, reference "
                      f"{' '.join(f'{x:.3f}' for x in r)} {unit}, in turn; {text}")
                del pending[k]
                continue
            figs = (f"gputui p50 {' '.join(f'{x:.3f}' for x in g)} {unit}, reference "
                    f"{' '.join(f'{x:.3f}' for x in r)} {unit}, in turn; {text}")
            if verdict == "noisy":
                print(f"# {c['what'][k]}: host too noisy to judge yet: {figs}; "
                      f"{'more rounds' if attempt < c['retries'] else 'giving up'}")
                continue
            print(f"{'ok' if verdict == 'ok' else 'FAIL'} {c['what'][k]}: {figs}; "
                  f"{'within' if verdict == 'ok' else 'wanted within'} {100 * band:.0f}%")
            print(judge.margin(c["what"][k].split(" against")[0].rstrip(","),
                               text.split(",")[0].split()[-1], f"1 +/- {band:g}", head))
            del pending[k]
        if not pending:
            return
    for k in pending:
        print(f"SKIP {c['what'][k]}: host too noisy to judge after {1 + c['retries']} set(s) of "
              f"{c['rounds']} rounds (see the lines above)")


main()
