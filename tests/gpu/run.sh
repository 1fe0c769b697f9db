#!/usr/bin/env bash
# make test-gpu: on a machine with a CUDA GPU.
#  1. batch mode over every host-memory kind (with its flags) x direction x
#     method at three sizes: verified, plausible against the device's
#     ceilings; pinned copy-engine H2D/D2H at 64 MiB at >= 80% of PCIe;
#  2. the unwind test (no device memory leaked at any failure point);
#  3. the TUI under tmux on the real device.
# Logs go to $GPUTUI_LOG_DIR (default build/test-gpu).
set -u
BIN=$(realpath "$1"); UNWIND=$(realpath "$2")
cd "$(dirname "$0")/../.."
LOG=${GPUTUI_LOG_DIR:-build/test-gpu}
mkdir -p "$LOG"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

if ! "$BIN" --list-devices; then
    echo "test-gpu: no usable CUDA device; nothing was run"
    exit 1
fi
SAMPLES=${SAMPLES:-8}
HOSTS=("pageable" "pinned" "hostalloc" "hostalloc --portable" "hostalloc --write-combined"
       "hostalloc --mapped" "hostalloc --portable --write-combined --mapped"
       "register" "register --portable" "register --mapped")
i=0
run_one() {     # run_one EXPECTED-MIN-PCT ARGS...
    local min=$1; shift
    local f="$LOG/batch-$i.json" err="$LOG/batch-$i.err"
    i=$((i + 1))
    "$BIN" --batch --format json --samples "$SAMPLES" --warmup 2 "$@" >"$f" 2>"$err"
    local rc=$?
    if [ $rc = 64 ] && grep -q "pageableMemoryAccess = 0" "$err"; then
        ok "$* -> refused as documented (no pageableMemoryAccess)"; return; fi
    if [ $rc = 1 ] && grep -q "not addressable by kernels" "$err"; then
        ok "$* -> refused as documented ($(head -c 80 "$err"))"; return; fi
    if [ $rc != 0 ]; then bad "$* -> exit $rc: $(cat "$err")"; return; fi
    if python3 tests/gpu/check_batch.py "$f" "$SAMPLES" ${min:+--min-pcie-pct $min}; then
        ok "$* -> $(python3 -c "import json,sys; r=json.load(open('$f'))['runs'][0]; print(', '.join(('%s %.2f GB/s' % (s['name'], s['bandwidth_GBps']['p50'])) if r['experiment'] in ('transfer', 'hostalloc') or r['config'].get('op') == 'bandwidth' else ('%s %.3f ms' % (s['name'], s['latency_s']['p50'] * 1e3)) for s in r['series']))")"
    else
        bad "$*"
    fi
}
for size in ${SIZES:-4K 64M 256M}; do
    for method in ce sm; do
        run_one "" --dir d2d --method $method --size $size
        for host in "${HOSTS[@]}"; do
            for dir in h2d d2h bidir; do
                min=""
                [ "$host" = pinned ] && [ $method = ce ] && [ $size = 64M ] && [ $dir != bidir ] && min=80
                # shellcheck disable=SC2086
                run_one "$min" --host $host --dir $dir --method $method --size $size
            done
        done
    done
done

echo "== zerocopy"
ZC=(-e zerocopy --warmup 1)
run_one "" "${ZC[@]}"
run_one "" "${ZC[@]}" --blocks auto --passes 8
run_one "" "${ZC[@]}" --write-combined --count 16777216 --threads 256
run_one "" "${ZC[@]}" --count 1024 --blocks 1 --threads 32
run_one "" "${ZC[@]}" --variant explicit
run_one "" "${ZC[@]}" --variant mapped

echo "== streams"
ST=(-e streams --warmup 1)
for s in 1 4 8; do run_one "" "${ST[@]}" --streams $s; done
run_one "" "${ST[@]}" --host pageable --chunks 8
run_one "" "${ST[@]}" --legacy-sync
run_one "" "${ST[@]}" --legacy-sync --stream-flags non-blocking
run_one "" "${ST[@]}" --chunks 256 --chunk-size 64K --streams 16
run_one "" "${ST[@]}" --chunks 1 --streams 16 --work 1
run_one "" "${ST[@]}" --chunks 3 --chunk-size 1M --streams 2 --work 20000
for a in cudaMalloc cudaMallocHost; do run_one "" "${ST[@]}" --alloc-between $a; done

echo "== vmm"
VM=(-e vmm --warmup 1)
for size in 2M 3M 64M 1G; do run_one "" "${VM[@]}" --op alloc --size $size; done
run_one "" "${VM[@]}" --op alloc --size 64M --granularity minimum
for dir in h2d d2h d2d; do run_one "" "${VM[@]}" --op bandwidth --dir $dir --size 512M; done
run_one "" "${VM[@]}" --op grow --start 64M --end 1G --step 64M
run_one "" "${VM[@]}" --op grow --start 2M --end 64M --step 2M --granularity minimum
refused() {     # refused NAME PATTERN ARGS...: exit 64 with a message naming the problem
    local name=$1 pat=$2; shift 2
    local msg; msg=$("$BIN" --batch --samples 2 "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc = 64 ] && grep -q "$pat" <<<"$msg"; then ok "$name: $msg"; else bad "$name: rc $rc: $msg"; fi
}
n=$(nvidia-smi -L 2>/dev/null | wc -l)
if [ "$n" = 1 ]; then
    refused "vmm peer access on one GPU" "peer-access: no other GPU" "${VM[@]}" --peer-access rw
else
    run_one "" "${VM[@]}" --op alloc --size 64M --peer-access ro
fi
refused "vmm grow end not above start" "end: 64 MiB is not above start" "${VM[@]}" --op grow --end 64M
refused "vmm grow step not a granularity multiple" "multiples of the" "${VM[@]}" --op grow --step 3M --granularity minimum

echo "== l2"
p50_gbps() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][0]['series'][0]['bandwidth_GBps']['p50'])" "$1"; }
"$BIN" --batch --format json --samples 20 --dir d2d --size 512M >"$LOG/d2d-before.json" 2>&1
L2=(-e l2 --warmup 1)
run_one "" "${L2[@]}"
run_one "" "${L2[@]}" --apply graph
for h in 0 50; do run_one "" "${L2[@]}" --hit-ratio $h; done
run_one "" "${L2[@]}" --set-aside 0
run_one "" "${L2[@]}" --hit-prop normal --miss-prop normal --window 16M
run_one "" "${L2[@]}" --region 120M --streaming 256M
run_one "" "${L2[@]}" --op cost --streaming 512M
for h in 100 50; do run_one "" "${L2[@]}" --op compete --hit-ratio $h; done
refused "l2 apply=graph with op=compete" "apply applies only with op=window" "${L2[@]}" --op compete --apply graph
refused "l2 window above the region" "window: 64 MiB is larger than the persisting region" "${L2[@]}" --window 64M
"$BIN" --batch --format json --samples 20 --dir d2d --size 512M >"$LOG/d2d-after.json" 2>&1
b=$(p50_gbps "$LOG/d2d-before.json"); a=$(p50_gbps "$LOG/d2d-after.json")
if python3 -c "import sys; b, a = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if a > 0.95 * b else 1)" "$b" "$a"; then
    ok "D2D after the L2 experiment: $a GB/s, before $b GB/s (no set-aside left behind)"
else
    bad "D2D after the L2 experiment: $a GB/s, before $b GB/s: a set-aside was left behind"
fi

echo "== pitched"
# Every width x measure once at 32768 rows (32-128 MiB, beyond the L2 at
# W = 4096): at the default height each sample is verified byte by byte on
# the CPU over up to 1 GiB, and nine of them took three minutes. The
# default height runs once, on the kernel.
PI=(-e pitched --warmup 1)
for w in 1000 4096 4100; do
    for m in h2d d2h kernel; do run_one "" "${PI[@]}" --width $w --measure $m --height 32768; done
done
run_one "" "${PI[@]}" --width 4100 --measure kernel
run_one "" "${PI[@]}" --dims 3d --width 1000 --height 512 --depth 32 --measure h2d
run_one "" "${PI[@]}" --dims 3d --width 4100 --height 512 --depth 32 --measure kernel
run_one "" "${PI[@]}" --width 1 --height 1 --measure d2h

echo "== hostalloc"
HA=(-e hostalloc --warmup 1)
for kind in "pageable" "pinned" "hostalloc" "hostalloc --write-combined" \
            "hostalloc --portable --mapped" "register" "register --mapped"; do
    # shellcheck disable=SC2086
    run_one "" "${HA[@]}" --op alloc --kind $kind --size 64M
    # shellcheck disable=SC2086
    run_one "" "${HA[@]}" --op cpu --kind $kind --size 64M
done
run_one "" "${HA[@]}" --op alloc --kind pinned --size 1G
run_one "" "${HA[@]}" --op alloc --kind register --size 1G
run_one "" "${HA[@]}" --op alloc --kind pageable --size 4K

echo "== lessons (live, each step's verdict)"
for l in $("$BIN" --list-lessons | awk '/^[a-z]/ {print $1}'); do
    "$BIN" --batch --lesson "$l" --format json >"$LOG/lesson-$l.json" 2>"$LOG/lesson-$l.err"
    rc=$?
    if out=$(python3 - "$LOG/lesson-$l.json" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
bad = [s for s in d["steps"] if s["verdict"] == "measuring" or
       (s["verdict"] == "cannot tell here" and "peer access" not in s["text"])]
print("; ".join("%d %s" % (s["step"], s["text"]) for s in d["steps"]))
sys.exit(1 if bad or rc != 0 else 0)
PY
    ); then ok "lesson $l: $out"; else bad "lesson $l (exit $rc): $out $(head -c 300 "$LOG/lesson-$l.err")"; fi
done

echo "== CUDA call trace"
for e in transfer zerocopy streams hostalloc vmm l2 pitched; do
    "$BIN" --batch -e $e --samples 3 --trace-calls --format json >"$LOG/trace-$e.json" 2>"$LOG/trace-$e.err"
    if out=$(python3 - "$LOG/trace-$e.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["runs"][0]["cuda_calls"]
ph = {x["phase"] for x in c}
# hostalloc allocates and frees inside its iterations: no set-up to trace
assert "one iteration" in ph and ("set-up" in ph) == ("teardown" in ph), ph
assert all(x.get("ok", True) for x in c), "a traced call failed"
first = [x for x in c if "call" in x]
print(len(c), "entries; e.g.", first[0]["call"], "->", first[0]["result"])
PY
    ); then ok "trace $e: $out"; else bad "trace $e: $out $(head -c 300 "$LOG/trace-$e.err")"; fi
done

echo "== compressed recording"
# Two configurations recorded through zlib: the per-configuration minimum
# (--record-samples) holds, and the replay reports the same medians.
rec="$LOG/short.gtr.gz"; rm -f "$rec"
if "$BIN" --batch --format json --samples 5 --record "$rec" --record-samples 40 --record-seconds 5 \
        --dir h2d,d2h --size 4M >"$LOG/rec-live.json" 2>"$LOG/rec.err" &&
   "$BIN" --batch --format json --replay "$rec" >"$LOG/rec-replay.json" 2>>"$LOG/rec.err" &&
   python3 - "$rec" "$LOG/rec-live.json" "$LOG/rec-replay.json" <<'EOF'
import gzip, json, sys
lines = [json.loads(l) for l in gzip.open(sys.argv[1], "rt")]
samples = [l for l in lines if l["type"] == "sample"]
live, replay = (json.load(open(p))["runs"] for p in sys.argv[2:])
assert len(replay) == 2, "two configurations replayed"
for a, b in zip(live, replay):
    for sa, sb in zip(a["series"], b["series"]):
        assert sb["latency_s"]["count"] >= 40, "at least --record-samples samples"
        assert sb["failed"] == 0
        assert abs(sa["latency_s"]["p50"] / sb["latency_s"]["p50"] - 1) < 0.2
print(len(samples), "samples in", len(lines), "lines")
EOF
then ok "compressed recording: $(head -c 2 "$rec" | od -An -tx1 | tr -d ' ') magic, replays with the live medians"
else bad "compressed recording: $(cat "$LOG/rec.err")"; fi

echo "== unwind"
if "$UNWIND" >"$LOG/unwind.log" 2>&1; then ok "unwind: $(grep -c '^ok' "$LOG/unwind.log") checks"
else cat "$LOG/unwind.log"; bad "unwind"; fi

echo "== TUI on the device"
if tests/gpu/tui.sh "$BIN" >"$LOG/tui.log" 2>&1; then ok "tui: $(tail -1 "$LOG/tui.log")"
else cat "$LOG/tui.log"; bad "tui"; fi

echo "test-gpu: $pass passed, $fail failed"
[ $fail = 0 ]
