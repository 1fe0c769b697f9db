#!/usr/bin/env python3
"""Checks a gputui --batch --format json report, every run of it: every
sample verified, enough samples, figures physically plausible against the
device's own properties. Prints one line per run, "ok   CONFIG -> FIGURES"
or "FAIL CONFIG" and its problems; exits 1 if any run failed.
Usage: check_batch.py REPORT.json SAMPLES
How fast the host link is belongs to the machine: the health card judges
it, and the suite compares gputui's pinned copies with nvbandwidth's
(alternate.py pinned)."""
import json
import sys



def check_streams(r, cfg, dev):
    """The timeline holds every operation, nothing beats the ideal bound,
    and overlap happens exactly where CUDA's rules allow it."""
    problems = []
    tl = r.get("timeline")
    if not tl:
        return ["streams: no timeline in the report"]
    ops = tl["ops"]
    if len(ops) != 2 * 3 * cfg["chunks"]:
        problems.append(f"timeline: {len(ops)} operations, wanted {2 * 3 * cfg['chunks']}")
    for o in ops:
        end = tl["serial_s"] if o["run"] == "serial" else tl["streams_s"]
        if not (0 <= o["start_s"] <= o["end_s"] <= end * 1.001 + 1e-6):
            problems.append(f"timeline: operation {o} outside its run (0 to {end})")
            break
        if o["stream"] >= cfg["streams"]:
            problems.append(f"timeline: operation on stream {o['stream']} of {cfg['streams']}")
            break
    p50 = {s["name"]: s["latency_s"]["p50"] for s in r["series"]}
    # Neither run of the timeline's iteration can end before its busiest
    # kind of operation (H2D, kernel, D2H) has been busy: per kind, the
    # smaller of the two runs' busy times, each the union of that kind's
    # event spans (0.1% for the events' resolution). The serial run's
    # spans are the work alone, but a copy can run slower in one run than
    # in the other (a link waking from idle took an 8 MiB D2H from 0.38
    # to 0.83 ms); the streams run's spans include waiting, and its
    # kernels on eight streams overlap (their spans summed to 13.4 ms in a
    # 5.8 ms run on an H100, whose serial run a transient had slowed to
    # 11 ms), so only the union, never the sum, bounds it. The smaller of
    # the two is a bound for both.
    def busy(run, kind):
        spans = sorted((o["start_s"], o["end_s"]) for o in ops
                       if o["run"] == run and o["op"] == kind)
        total, end = 0.0, None
        for a, b in spans:
            if end is None or a > end:
                total, end = total + b - a, b
            elif b > end:
                total, end = total + b - end, b
        return total
    kinds = {o["op"] for o in ops}
    bound = max((min(busy("serial", k), busy("streams", k)) for k in kinds), default=0)
    for name, total in (("serial", tl["serial_s"]), ("streams", tl["streams_s"])):
        if total < 0.999 * bound - 1e-6:
            problems.append(f"{name}: {total * 1e3:.3f} ms beats the bound {bound * 1e3:.3f} ms "
                            f"of the same iteration (its busiest kind of operation's busy time)")
    speedup = p50["serial"] / p50["streams"]
    serialised = cfg["host"] == "pageable" or (cfg["legacy-sync"] and
                                               cfg["stream-flags"] == "default")
    balanced = cfg["work"] == 0 and cfg["chunks"] >= 8 and cfg["chunk-size"] >= (1 << 20)
    if serialised and cfg["streams"] > 1 and speedup > 1.25:
        problems.append(f"speed-up {speedup:.2f}x where CUDA serialises the work "
                        f"(host={cfg['host']}, legacy-sync={cfg['legacy-sync']})")
    # An allocation between the chunks may or may not synchronise (the
    # Guide says "may"): what it does is the measurement, not a fault.
    allocating = cfg.get("alloc-between", "none") != "none"
    if not serialised and not allocating and balanced and cfg["streams"] >= 4 and \
            (dev.get("async_engine_count") or 0) >= 2 and speedup < 1.5:
        problems.append(f"speed-up only {speedup:.2f}x with {cfg['streams']} streams and "
                        f"{dev.get('async_engine_count')} copy engines (wanted >= 1.5x)")
    if cfg["streams"] == 1 and not 0.9 < speedup < 1.1:
        problems.append(f"one stream differs from serial: {speedup:.2f}x")
    return problems


def describe(r):
    """The run's configuration as options, and its headline figures."""
    cfg = r["config"]
    opts = " ".join(f"--{k} {v}" for k, v in cfg.items() if k != "warmup")
    bw = r["experiment"] in ("transfer", "hostalloc") or cfg.get("op") in ("bandwidth", "peer",
                                                                          "read") \
        or (r["experiment"] == "peer" and cfg.get("measure") == "bandwidth")
    figs = ", ".join(("%s %.2f GB/s" % (s["name"], s["bandwidth_GBps"]["p50"])) if bw else
                     ("%s %.0f ns" % (s["name"], s["latency_s"]["p50"] * 1e9))
                     if s["latency_s"]["p50"] < 1e-5 else
                     ("%s %.3f ms" % (s["name"], s["latency_s"]["p50"] * 1e3)) for s in r["series"])
    return f"-e {r['experiment']} {opts}", figs


def compressed(r, s):
    """Whether series s may read past the memory's peak: VMM memory the
    driver made compressible (its verification line says it granted it),
    holding data other than random words."""
    cfg = r["config"]
    return (r["experiment"] == "vmm" and s["name"] == "VMM memory" and
            cfg.get("compression") == "on" and cfg.get("data") != "random" and
            "asked and granted" in (r.get("verification") or ""))


def check_run(r, dev, want):
    problems = []
    cfg = r["config"]
    for s in r["series"]:
        lat, bw = s["latency_s"], s["bandwidth_GBps"]
        if s["failed"]:
            problems.append(f"{s['name']}: {s['failed']} samples FAILED verification")
        if lat["count"] < want:
            problems.append(f"{s['name']}: {lat['count']} samples, wanted {want}")
        if not (lat["min"] > 0 and lat["min"] <= lat["p50"] <= lat["p99"] <= lat["max"]):
            problems.append(f"{s['name']}: latency statistics out of order: {lat}")
        ceil = s["ceiling_GBps"]
        if ceil:
            # A figure above the physical ceiling means the timing is wrong.
            pct = 100.0 * bw["p50"] * s["ceiling_factor"] / ceil
            if pct > 102.0 and compressed(r, s):
                print(f"# {s['name']}: p50 {bw['p50']:.1f} GB/s is {pct:.1f}% of {s['ceiling']}: "
                      f"compressible memory holding {cfg['data']}")
            elif pct > 102.0:
                problems.append(f"{s['name']}: p50 {bw['p50']:.1f} GB/s is {pct:.1f}% of {s['ceiling']}")
        elif r["experiment"] == "transfer" and cfg["dir"] != "d2d" and dev["pcie_bytes_per_s"]:
            problems.append(f"{s['name']}: no ceiling although the PCIe link is known")
    if r["experiment"] == "vmm" and cfg.get("op") == "read" and cfg.get("access") == "ro" and \
            "faults:" not in (r.get("verification") or ""):
        problems.append("access=ro: the write through the read-only mapping was not refused: "
                        f"{r.get('verification')!r}")
    if r["experiment"] == "zerocopy":
        # No variant can beat the PCIe link: explicit moves a and b in and
        # out back, mapped at least reads a and b across it.
        n = cfg["count"] * 4
        link = (dev["pcie_bytes_per_s"] or 0) / 1e9
        floors = {"explicit": 3 * n, "mapped": 2 * n}
        for s in r["series"]:
            if link and s["name"] in floors:
                floor = floors[s["name"]] / (link * 1e9)
                if s["latency_s"]["p50"] < 0.97 * floor:
                    problems.append(f"{s['name']}: p50 {s['latency_s']['p50'] * 1e3:.3f} ms is faster "
                                    f"than the PCIe link allows ({floor * 1e3:.3f} ms)")
    if r["experiment"] == "hostalloc" and cfg["op"] == "alloc":
        # Pinning touches every page: it cannot be faster than a fraction
        # of a microsecond per 4 KiB page.
        pages = cfg["size"] // 4096
        for s in r["series"]:
            if s["name"] == "allocate" and cfg["kind"] != "pageable" and pages > 1024 and \
                    s["latency_s"]["p50"] < pages * 20e-9:
                problems.append(f"allocate: p50 {s['latency_s']['p50'] * 1e3:.3f} ms for {pages} "
                                "pages is implausibly fast")
    if r["experiment"] == "streams":
        problems += check_streams(r, cfg, dev)
    if r["experiment"] == "peer" and cfg["measure"] == "latency":
        # One read over a GPU link: more than a local L2 hit, far less than
        # a kernel launch per read.
        for s in r["series"]:
            if not 100e-9 < s["latency_s"]["p50"] < 20e-6:
                problems.append(f"{s['name']}: p50 {s['latency_s']['p50'] * 1e9:.0f} ns is not "
                                "a plausible latency of one read over the link")
    if r["experiment"] == "peer" and cfg["measure"] == "bandwidth" and \
            cfg["access"] == "on" and not any(s["ceiling_GBps"] for s in r["series"]):
        problems.append("peer access on, and no link ceiling although NVML is there")
    if r.get("timing") is None:
        problems.append("no 'timing' in the report")
    if r["experiment"] == "l2" and cfg["op"] == "window":
        # Persisting lines help at full hitRatio with a set-aside, and
        # cannot help without one.
        p50 = {s["name"]: s["latency_s"]["p50"] for s in r["series"]}
        sp = p50["no window"] / p50["with window"]
        if cfg["set-aside"] == 0 and sp > 1.15:
            problems.append(f"speed-up {sp:.2f}x with no set-aside")
        if cfg["set-aside"] == 100 and cfg["hit-ratio"] == 100 and cfg["hit-prop"] == "persisting" \
                and cfg["region"] <= dev["persisting_l2_max_bytes"] and sp < 1.3:
            problems.append(f"speed-up only {sp:.2f}x with the region inside the set-aside")
    return problems


def main():
    path, want = sys.argv[1], int(sys.argv[2])
    doc = json.load(open(path))
    dev = doc["device"]
    failed = 0
    if not doc["runs"]:
        print("FAIL no runs in the report")
        return 1
    for r in doc["runs"]:
        problems = check_run(r, dev, want)
        cfg, figs = describe(r)
        print(("FAIL " if problems else "ok   ") + cfg + " -> " + figs)
        for p in problems:
            print("   " + p)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
