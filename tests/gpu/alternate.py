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

Usage: alternate.py WHAT BIN PROBE LOG   (WHAT: pageable, zc, texture,
coalesce, banks, transpose, pool, or d2d: its reference is nvbandwidth,
$NVBANDWIDTH)
Prints one line per figure: "ok ...", "FAIL ..." or "SKIP ..."; lines
starting with "#" say why a figure is measured again."""
import json
import math
import os
import random
import statistics
import subprocess
import sys

def strided_by_stride(cfg, series):
    """The strided series of each configuration, keyed by its stride."""
    return f"s{cfg['stride']}" if series == "strided" else None


CHECKS = {
    # figure: (gputui arguments, its series/config key, refprobe arguments, reference probe, band)
    "pageable": {
        "band": 0.05,
        "rounds": 6,        # gputui runs a set; the reference runs one more
        # Where a set cannot settle it, the processes' two speeds are the
        # host's: on the lent H200s a second set has never settled it.
        "retries": 0,
        "gputui": ["--samples", "11", "--warmup", "2", "--host", "pageable", "--dir", "h2d,d2h",
                   "--size", "32M"],
        "probe": ["pageable", "32", "11"],
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
    # one kernel; for coalesce, after twice the L2 read), within 3%.
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
    "transpose": {
        "band": 0.03,
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
    # The stream-ordered allocator's costs beside a plain program calling
    # the same APIs (refprobe pool): 64 buffers of 1 MiB each way, and a
    # free while a 1 ms kernel runs; all on the host's clock, so 10%.
    "pool": {
        "band": 0.10,
        "rounds": 3,
        "retries": 1,
        "gputui": ["-e", "pool", "--op", "alloc,sync", "--samples", "30", "--warmup", "2"],
        "key": lambda cfg, series: {"cudaMalloc + cudaFree": "malloc",
                                    "default pool (cudaMallocAsync)": "default",
                                    "own pool (cudaMallocFromPoolAsync)": "own",
                                    "cudaFree": "free", "cudaFreeAsync": "freeasync"}.get(series),
        "probe": ["pool", "64", "1024"],
        "figures": {"malloc": "pool_malloc", "default": "pool_default", "own": "pool_own_keep",
                    "free": "pool_cudafree_busy", "freeasync": "pool_cudafreeasync_busy"},
        "metric": "time",
        "what": {"malloc": "pool: 64 x 1 MiB by cudaMalloc + cudaFree against a plain program",
                 "default": "pool: the same on the default pool (cudaMallocAsync)",
                 "own": "pool: the same on a pool that keeps everything",
                 "free": "pool: cudaFree while a 1 ms kernel runs",
                 "freeasync": "pool: cudaFreeAsync while a 1 ms kernel runs"},
    },
    "d2d": {
        # 10 copies a sample, timed as one: nvbandwidth's -i 10. One copy
        # timed alone carries the copy engine's start (about 1.5% of a
        # 512 MiB copy on an H200); docs/how-it-measures.md says more.
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


def gputui_figures(c, bin_, log, tag):
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
                             else s["latency_s"]["p50"] * 1e3)
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


def probe_figures(c, probe, log, tag):
    if "nvbandwidth" in c:
        return nvbandwidth_figures(c, log, tag)
    out = subprocess.run([probe] + c["probe"], capture_output=True, text=True, timeout=300)
    open(f"{log}/alt-{tag}.jsonl", "w").write(out.stdout)
    if out.returncode:
        raise RuntimeError(f"refprobe exit {out.returncode}: {out.stderr.strip()[:300]}")
    got = {p["probe"]: p["p50"] for p in map(json.loads, out.stdout.splitlines())}
    return {k: got[v] for k, v in c["figures"].items()}


def rounds(what, c, bin_, probe, log, attempt):
    refs, mine = [], []
    for i in range(c["rounds"]):
        refs.append(probe_figures(c, probe, log, f"{what}-{attempt}-ref{i}"))
        mine.append(gputui_figures(c, bin_, log, f"{what}-{attempt}-gputui{i}"))
    refs.append(probe_figures(c, probe, log, f"{what}-{attempt}-ref{c['rounds']}"))
    return refs, mine


def interval(g, r, q, seed=12345, b=2000):
    """mean(g) / mean(r), and its central 1 - 2q bootstrap interval, each
    side resampled as its own processes (seeded: the same figures give the
    same interval)."""
    rng = random.Random(seed)
    x = sorted(statistics.fmean(rng.choices(g, k=len(g))) /
               statistics.fmean(rng.choices(r, k=len(r))) for _ in range(b))
    return statistics.fmean(g) / statistics.fmean(r), x[int(q * b)], x[int((1 - q) * b) - 1]


def main():
    what, bin_, probe, log = sys.argv[1:5]
    c = CHECKS[what]
    if "nvbandwidth" in c and not os.access(os.environ.get("NVBANDWIDTH", ""), os.X_OK):
        for k in c["what"]:
            print(f"SKIP {c['what'][k]}: no nvbandwidth (NVBANDWIDTH=path)")
        return
    band = c["band"]
    unit = "GB/s" if c["metric"] == "bandwidth" else "ms"
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
            ratio, lo, hi = interval(g, r, 0.025)
            _, lo99, hi99 = interval(g, r, 0.005)
            figs = (f"gputui p50 {' '.join(f'{x:.3f}' for x in g)} {unit}, reference "
                    f"{' '.join(f'{x:.3f}' for x in r)} {unit}, in turn; ratio of the means "
                    f"{ratio:.3f}, 95% {lo:.3f} to {hi:.3f}")
            if lo >= 1 - 2 * band and hi <= 1 + 2 * band and abs(ratio - 1) <= band:
                print(f"ok {c['what'][k]}: {figs}; within {100 * band:.0f}%")
            elif hi99 < 1 - band or lo99 > 1 + band:
                print(f"FAIL {c['what'][k]}: {figs}; 99% {lo99:.3f} to {hi99:.3f}, wanted "
                      f"within {100 * band:.0f}%")
            else:
                print(f"# {c['what'][k]}: host too noisy to judge yet: {figs}; "
                      f"{'more rounds' if attempt < c['retries'] else 'giving up'}")
                continue
            del pending[k]
        if not pending:
            return
    for k in pending:
        print(f"SKIP {c['what'][k]}: host too noisy to judge after {1 + c['retries']} set(s) of "
              f"{c['rounds']} rounds (see the lines above)")


main()
