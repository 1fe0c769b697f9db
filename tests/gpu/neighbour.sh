# A neighbour that only copies (sourced by tests/gpu/run.sh): with
# nvbandwidth's CE host-to-device copies running the whole time, at least
# 95% of 300 samples are marked disturbed in each of pinned H2D, pinned
# D2H, zero-copy and D2D, and --inspect exits busy (4) with no row failing
# or warning; beside a process that holds a context and stays idle
# (refprobe idle), no sample of 1500 is marked (with nobody at all, none
# of the sharing section's 3600 alone).
# Prints "ok ...", "FAIL ..." and "SKIP ..." lines for tally.

# neighbour_run TAG ARGS...: one batch run, its JSON in $LOG/nb-TAG.json.
neighbour_run() {
    local tag=$1; shift
    "$BIN" --batch --format json "$@" >"$LOG/nb-$tag.json" 2>"$LOG/nb-$tag.err"
    echo "$?" >"$LOG/nb-$tag.rc"
}

# neighbour_judge TAG MIN-SHARE MAX-SHARE: the share of the run's samples
# marked disturbed, every series, within [MIN, MAX].
neighbour_judge() {
    python3 - "$LOG" "$@" <<'PY'
import json, sys
log, tag, lo, hi = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
rc = open(f"{log}/nb-{tag}.rc").read().strip()
try:
    d = json.load(open(f"{log}/nb-{tag}.json"))
except ValueError:
    print(f"FAIL {tag}: no report (exit {rc}): {open(f'{log}/nb-{tag}.err').read()[:300]}")
    sys.exit()
parts, good = [], rc == "0"
for r in d["runs"]:
    for s in r["series"]:
        n = s["latency_s"]["count"] + s.get("failed", 0)
        share = s["disturbed"] / n if n else 0
        good &= lo <= share <= hi and n > 0
        parts.append(f"{s['name']} {s['disturbed']} of {n} marked")
want = f"wanted {100 * lo:.0f}% to {100 * hi:.0f}%"
print(("ok " if good else "FAIL ") + f"{tag}: " + ", ".join(parts) + f" ({want}, exit {rc})")
PY
}

neighbour_checks() {
    local nvb=${NVBANDWIDTH:-} ip lp rc k
    if [ -z "$nvb" ] || [ ! -x "$nvb" ]; then
        echo "SKIP a neighbour that only copies: no nvbandwidth (NVBANDWIDTH=path)"
        return
    fi
    "$PROBE" idle 60 >/dev/null 2>"$LOG/nb-idle-probe.err" & ip=$!
    wait_ready "$LOG/nb-idle-probe.err" 20 || echo "FAIL refprobe idle: not ready in 20 s"
    sleep 1     # NVML's activity samples still hold its set-up for a fraction of a second
    neighbour_run idle-h2d --samples 1500 --dir h2d --size 64M
    neighbour_run idle-latency -e latency --size 16M --samples 1500
    kill "$ip" 2>/dev/null; wait "$ip" 2>/dev/null
    neighbour_judge idle-h2d 0 0
    neighbour_judge idle-latency 0 0
    ( while :; do "$nvb" -t host_to_device_memcpy_ce -i 50 >/dev/null 2>&1 || sleep 0.2; done ) &
    lp=$!
    # Until NVML lists it (its context; at most 3 s), then a second for its
    # buffers and first copies.
    for k in $(seq 30); do
        nvidia-smi --query-compute-apps=name --format=csv,noheader 2>/dev/null |
            grep -q nvbandwidth && break
        sleep 0.05
    done
    sleep 1
    neighbour_run copies-h2d --samples 300 --dir h2d --size 64M
    neighbour_run copies-d2h --samples 300 --dir d2h --size 64M
    neighbour_run copies-zerocopy -e zerocopy --variant explicit --samples 300
    neighbour_run copies-d2d --samples 300 --dir d2d --size 64M
    "$BIN" --batch --inspect --format json >"$LOG/nb-inspect.json" 2>"$LOG/nb-inspect.err"
    rc=$?
    kill "$lp" 2>/dev/null; wait "$lp" 2>/dev/null
    pkill -f -- "-t host_to_device_memcpy_ce -i 50" 2>/dev/null
    for t in h2d d2h zerocopy d2d; do neighbour_judge "copies-$t" 0.95 1; done
    python3 - "$LOG/nb-inspect.json" "$rc" <<'PY'
import json, sys
rc = int(sys.argv[2])
try:
    d = json.load(open(sys.argv[1]))
except ValueError:
    print(f"FAIL inspect beside the copies: no card (exit {rc})")
    sys.exit()
bad = [f"{r['id']} {r['verdict']}" for r in d["rows"] if r["verdict"] in ("warn", "fail")]
busy = [r["id"] for r in d["rows"] if r["verdict"] == "busy"]
others = next((r["reason"] for r in d["rows"] if r["id"] == "sw.others"), "")
print(("ok " if rc == 4 and not bad and busy else "FAIL ") +
      f"inspect beside the copies: exit {rc} (wanted 4, busy), busy rows {', '.join(busy)}; "
      f"no warn or fail: {', '.join(bad) or 'none'}; {others[:160]}")
PY
}
