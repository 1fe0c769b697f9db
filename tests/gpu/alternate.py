#!/usr/bin/env python3
"""Fidelity in alternation (make test-gpu): gputui and an independent
reference (tests/gpu/refprobe.cu) measured in turn, R G R G ... R, and
judged by the median of the ratios of each gputui figure to the geometric
mean of the two reference figures around it. A slow drift of the host moves
both sides of each ratio alike; it does not move the judgement.

When the rounds' ratios disagree by more than twice the band, the host
swings too much for one round to say anything: the check says "host too
noisy to judge" with the figures and runs the rounds again, up to RETRIES
times; if it is still too noisy it prints "SKIP" (counted as not judged),
never "ok". The reference's own swing is printed beside.

Usage: alternate.py WHAT BIN PROBE LOG   (WHAT: pageable or zc)
Prints one line per figure: "ok ...", "FAIL ..." or "SKIP ..."."""
import json
import math
import statistics
import subprocess
import sys

ROUNDS = 3      # gputui runs; the reference runs one more
RETRIES = 2
CHECKS = {
    # figure: (gputui arguments, its series/config key, refprobe arguments, reference probe, band)
    "pageable": {
        "band": 0.05,
        "gputui": ["--samples", "10", "--warmup", "2", "--host", "pageable", "--dir", "h2d,d2h",
                   "--size", "32M"],
        "probe": ["pageable", "32"],
        "figures": {"h2d": "pageable_h2d_cold_cpu_timed_memcpy",
                    "d2h": "pageable_d2h_cold_cpu_timed_memcpy"},
        "metric": "bandwidth",
        "what": {"h2d": "pageable h2d 32 MiB against a CPU-timed cudaMemcpy from a cold source",
                 "d2h": "pageable d2h 32 MiB against a CPU-timed cudaMemcpy into a cold "
                        "destination"},
    },
    "zc": {
        "band": 0.05,
        "gputui": ["-e", "zerocopy", "--samples", "30", "--warmup", "1", "--variant",
                   "explicit,mapped"],
        "probe": ["zc"],
        "figures": {"explicit": "zc_article_explicit", "mapped": "zc_article_mapped"},
        "metric": "time",
        "what": {"explicit": "zero-copy explicit against the article's program",
                 "mapped": "zero-copy mapped against the article's program"},
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
        key = cfg.get("dir") or cfg.get("variant")
        s = run["series"][0]
        figs[key] = (s["bandwidth_GBps"]["p50"] if c["metric"] == "bandwidth"
                     else s["latency_s"]["p50"] * 1e3)
    return figs


def probe_figures(c, probe, log, tag):
    out = subprocess.run([probe] + c["probe"], capture_output=True, text=True, timeout=300)
    open(f"{log}/alt-{tag}.jsonl", "w").write(out.stdout)
    if out.returncode:
        raise RuntimeError(f"refprobe exit {out.returncode}: {out.stderr.strip()[:300]}")
    got = {p["probe"]: p["p50"] for p in map(json.loads, out.stdout.splitlines())}
    return {k: got[v] for k, v in c["figures"].items()}


def rounds(what, c, bin_, probe, log, attempt):
    refs, mine = [], []
    for i in range(ROUNDS):
        refs.append(probe_figures(c, probe, log, f"{what}-{attempt}-ref{i}"))
        mine.append(gputui_figures(c, bin_, log, f"{what}-{attempt}-gputui{i}"))
    refs.append(probe_figures(c, probe, log, f"{what}-{attempt}-ref{ROUNDS}"))
    return refs, mine


def main():
    what, bin_, probe, log = sys.argv[1:5]
    c = CHECKS[what]
    band = c["band"]
    unit = "GB/s" if c["metric"] == "bandwidth" else "ms"
    pending = dict(c["what"])
    for attempt in range(1 + RETRIES):
        try:
            refs, mine = rounds(what, c, bin_, probe, log, attempt)
        except (RuntimeError, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
            for k in pending:
                print(f"FAIL {c['what'][k]}: no figures ({e})")
            return
        for k in list(pending):
            r = [x[k] for x in refs]
            g = [x[k] for x in mine]
            ratios = [g[i] / math.sqrt(r[i] * r[i + 1]) for i in range(ROUNDS)]
            ratio = statistics.median(ratios)
            swing = max(r) / min(r) - 1
            figs = (f"gputui p50 {' '.join(f'{x:.3f}' for x in g)} {unit}, reference "
                    f"{' '.join(f'{x:.3f}' for x in r)} {unit} in turn; ratio {ratio:.3f} "
                    f"(rounds {' '.join(f'{x:.3f}' for x in ratios)}), within {100 * band:.0f}%")
            scatter = max(ratios) / min(ratios) - 1
            figs += f"; the rounds' ratios {100 * scatter:.1f}% apart, the reference {100 * swing:.1f}%"
            if scatter > 2 * band:
                print(f"# {c['what'][k]}: host too noisy to judge (the rounds disagree by more "
                      f"than twice the band): {figs}; {'again' if attempt < RETRIES else 'giving up'}")
                continue
            print(("ok " if abs(ratio - 1) <= band else "FAIL ") + f"{c['what'][k]}: {figs}")
            del pending[k]
        if not pending:
            return
    for k in pending:
        print(f"SKIP {c['what'][k]}: host too noisy to judge after {1 + RETRIES} sets of "
              f"{ROUNDS} rounds (see the lines above)")


main()
