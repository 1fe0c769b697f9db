#!/usr/bin/env python3
"""Checks one gputui --batch --format json report: every sample verified,
enough samples, figures physically plausible against the device's own
properties. Usage: check_batch.py REPORT.json SAMPLES [--min-pcie-pct P]"""
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
    ideal = tl["ideal_s"]
    # The timeline is one iteration, its totals and its ideal bound alike: in
    # that iteration neither run can beat the bound (0.1% for the events'
    # resolution). A median over many iterations against the bound of one is
    # no invariant: one slow last iteration raises the bound above it.
    for name, total in (("serial", tl["serial_s"]), ("streams", tl["streams_s"])):
        if total < 0.999 * ideal - 1e-6:
            problems.append(f"{name}: {total * 1e3:.3f} ms beats the ideal bound "
                            f"{ideal * 1e3:.3f} ms of the same iteration")
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


def main():
    path, want = sys.argv[1], int(sys.argv[2])
    min_pct = float(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--min-pcie-pct" else None
    doc = json.load(open(path))
    dev = doc["device"]
    problems = []
    if len(doc["runs"]) != 1:
        problems.append(f"{len(doc['runs'])} runs in the report, wanted 1")
    r = doc["runs"][0]
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
            if pct > 102.0:
                problems.append(f"{s['name']}: p50 {bw['p50']:.1f} GB/s is {pct:.1f}% of {s['ceiling']}")
            if min_pct is not None and pct < min_pct:
                problems.append(f"{s['name']}: p50 {bw['p50']:.2f} GB/s is only {pct:.1f}% of "
                                f"{s['ceiling']} ({ceil:.1f} GB/s), wanted >= {min_pct}%")
        elif r["experiment"] == "transfer" and cfg["dir"] != "d2d" and dev["pcie_bytes_per_s"]:
            problems.append(f"{s['name']}: no ceiling although the PCIe link is known")
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
    for p in problems:
        print("   " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
