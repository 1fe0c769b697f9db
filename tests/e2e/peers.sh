#!/usr/bin/env bash
# End-to-end tests of the two-GPU parts without a GPU, on the bundled
# recording of two H200s joined by NVLink: the device panel's topology, the
# peer experiment live in replay, its batch report, and --pairs all and the
# two-GPU options refused where they cannot run.
# Usage: peers.sh BIN TMPDIR (writes TMPDIR/peers.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
REC=share/gputui/2xh200.gtr.gz

start peer 130 42 "LC_ALL=C.UTF-8 '$BIN' --replay $REC -e peer"
check "peer: the copy's histogram, against the NVLink ceiling" \
    wait_for "this reads peer bandwidth GB/s +p50 [0-9.]+ = [0-9.]+% of NVLink 4" 10
check "peer: set-up names both GPUs" wait_for "cudaDeviceEnablePeerAccess: GPU 0 -> GPU 1" 5
check "peer: the summary names the pair" wait_for "GPU 0 with GPU 1, peer access enabled" 5
# directions: the fifth row; Space steps an enum.
for _ in 1 2 3 4; do tm send-keys -t t j; done
tm send-keys -t t Space
check "dir=both: both copies get a histogram" wait_for "peer reads this bandwidth GB/s" 10
check "dir=both: the summary adds them up" wait_for "both directions at once: [0-9.]+ \\+ [0-9.]+ = [0-9.]+ GB/s total" 10
# measure: the second row; latency has no bandwidth.
for _ in 1 2 3; do tm send-keys -t t k; done
tm send-keys -t t Space
check "measure=latency: one read's latency over the link" wait_for "dependent read latency" 10
check "measure=latency: the summary in ns" wait_for "one dependent 4-byte read of GPU 1's memory from GPU 0: [0-9]+ ns" 10
# The device panel lists both GPUs and the link between them.
tm send-keys -t t Tab
for _ in $(seq 40); do tm send-keys -t t Down; done
check "device panel: the NVLinks between the two GPUs" wait_for "0->1 NV18 +peer yes, atomics yes" 5
check "device panel: their generation and ceiling" wait_for "NVLink 4.0 x18 \\(NVSwitch\\): 450 GB/s" 5
quit_ok peer "peer replay"

json=$TMPD/peers.json
"$BIN" --batch --replay "$REC" --format json >"$json" 2>"$TMPD/peers.err"
check "batch replay of the two-GPU recording exits 0" [ $? = 0 ]
check "batch replay: every peer configuration verified, the topology reported" python3 - "$json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["device"]["topology"]
assert t["count"] == 2 and len(t["devices"]) == 2, t
link = [l for l in t["links"] if l["from"] == 0 and l["to"] == 1][0]
assert link["peer_access"] and link["nvlinks"] == 18 and link["nvlink_version"] == 6, link
peer = [r for r in d["runs"] if r["experiment"] == "peer"]
assert len(peer) >= 30, len(peer)
for r in peer:
    for s in r["series"]:
        assert s["failed"] == 0 and s["latency_s"]["count"] > 0, (r["config"], s["name"])
# The copy engines' read of 512 MiB over NV18, as nvbandwidth measured it
# on the same machine the same day (394 GB/s): within 3%.
big = [r for r in peer if r["config"].get("size") == 512 << 20 and r["config"]["engine"] == "ce"
       and r["config"]["op"] == "read" and r["config"]["dir"] == "one" and r["config"]["access"] == "on"]
p50 = big[0]["series"][0]["bandwidth_GBps"]["p50"]
assert abs(p50 / 394.1 - 1) < 0.03, p50
ro = [r for r in d["runs"] if r["experiment"] == "vmm" and r["config"]["op"] == "peer"
      and r["config"]["peer-access"] == "ro"]
assert ro and "faults: cudaErrorIllegalAddress" in ro[0]["verification"], ro
EOF

# Bad values of the two-GPU options, named with what is allowed.
usage() {   # usage EXPECTED ARGS... : exit 64 naming the problem
    local expect=$1; shift
    local m; m=$("$BIN" "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc = 64 ] && grep -q -- "$expect" <<<"$m"; then ok "usage error: $*"; else
        bad "usage error: $* (rc $rc: $m)"; fi
}
usage "allowed: all" --batch -e peer --pairs some
usage "with another experiment" --batch --pairs all
usage "with --peer" --batch -e peer --pairs all --peer 1
usage "allowed: auto, 0, 1, 2, 3, 4, 5, 6, 7" --batch -e peer --peer 9
usage "allowed: this, other" --batch --alloc-on both
usage "applies only to pinned memory" --batch --host pageable --alloc-on other
e2e_part_done peers
