#!/usr/bin/env bash
# The two-GPU parts, from tests/gpu/run.sh: prints "ok ..." or "FAIL ..."
# lines. Usage: multi.sh BIN LOGDIR SAMPLES
#  - on one GPU (or, with two, as one through CUDA_VISIBLE_DEVICES=0):
#    every two-GPU part refuses with exit 64 and the reason;
#  - with two or more: every peer configuration once, verified and under
#    the link's ceiling; latency; --pairs all; --inspect -d all and its
#    time; portable pinned memory
#    allocated with the other GPU current; VMM memory read and written by
#    the peer, and the cost of granting it access;
#  - with NVBANDWIDTH=path: gputui's peer matrix against nvbandwidth's in
#    the same run, within 3%.
set -u
BIN=$1 LOG=$2 SAMPLES=$3
n=$("$BIN" --list-devices 2>/dev/null | grep -c '^[0-9][0-9]*: ')
i=0
run_one() {     # run_one ARGS...: every run of one batch process, check_batch.py
    local f="$LOG/multi-$i.json" err="$LOG/multi-$i.err"
    i=$((i + 1))
    "$BIN" --batch --format json --samples "$SAMPLES" --warmup 2 "$@" >"$f" 2>"$err"
    local rc=$?
    if [ $rc != 0 ]; then echo "FAIL $* -> exit $rc: $(cat "$err")"; return; fi
    python3 tests/gpu/check_batch.py "$f" "$SAMPLES" | sed 's/^ok   /ok /'
}
refused() {     # refused NAME PATTERN ARGS...: exit 64 and a message naming the problem
    local name=$1 pat=$2; shift 2
    local msg; msg=$(CUDA_VISIBLE_DEVICES=0 "$BIN" --batch --samples 2 "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc = 64 ] && grep -q -- "$pat" <<<"$msg"; then echo "ok one GPU, $name: $msg"
    else echo "FAIL one GPU, $name: rc $rc: $msg"; fi
}

refused "peer" "needs two GPUs; this machine has one" -e peer
refused "peer latency" "needs two GPUs" -e peer --measure latency
refused "--pairs all" "needs two GPUs" -e peer --pairs all
refused "transfer alloc-on=other" "alloc-on: other needs a second GPU" --alloc-on other
refused "vmm peer access" "peer-access: needs two GPUs" -e vmm --peer-access rw
refused "vmm op=peer" "op=peer" -e vmm --op peer
refused "atomics on a peer" "where=peer needs two GPUs" -e atomics --where peer
if [ "$n" -lt 2 ]; then
    echo "ok two-GPU parts: this machine has $n GPU, so only the refusals ran"
    exit 0
fi

# Every peer configuration once (engine=sm with access=off is refused by
# design and skipped with its reason); 256 MiB copies.
run_one -e peer --engine ce,sm --op read,write --dir one,both --access on,off --size 256M
run_one -e peer --op read --size 4K,4G
run_one -e peer --measure latency
run_one -e peer --measure latency --region 64M
if "$BIN" --batch -e peer --engine sm --access off --samples 2 >/dev/null 2>"$LOG/multi-smoff.err"; then
    echo "FAIL engine=sm with access=off was not refused"
else
    echo "ok engine=sm with access=off refused: $(cat "$LOG/multi-smoff.err")"
fi
# The matrix, every ordered pair.
for m in bandwidth latency; do
    if "$BIN" --batch -e peer --pairs all --measure $m --samples "$SAMPLES" >"$LOG/pairs-$m.txt" 2>&1; then
        echo "ok --pairs all --measure $m: $(tr '\n' '|' <"$LOG/pairs-$m.txt")"
    else
        echo "FAIL --pairs all --measure $m: $(cat "$LOG/pairs-$m.txt")"
    fi
done

# The node in one command: every GPU's card, the links between them
# judged, one verdict; its time is what the bound of 30 s on eight GPUs
# is about. A warning or a busy card is a verdict, not a fault of gputui.
t0=$(date +%s.%N)
"$BIN" --batch --inspect -d all --format json >"$LOG/node.json" 2>"$LOG/node.err"
rc=$?
t1=$(date +%s.%N)
python3 - "$LOG/node.json" "$rc" "$n" "$t0" "$t1" <<'PY'
import json, sys
path, rc, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wall = float(sys.argv[5]) - float(sys.argv[4])
try:
    d = json.load(open(path))
    cards = [c for c in d["cards"] if c]
    links = d["links"]["verdict"]["status"]
except (OSError, ValueError, KeyError, TypeError) as e:
    print(f"FAIL --inspect -d all: exit {rc}, no node document ({e!r})")
    sys.exit()
good = rc in (0, 2, 4) and d["status"] == rc and d["gpus"] == n and len(cards) == n
print(("ok " if good else "FAIL ") + f"--inspect -d all: {len(cards)} cards of {n} GPUs, links "
      f"{links}, node {d['verdict']} (exit {rc}), in {wall:.1f} s")
PY

# Portable pinned memory, pinned while the other GPU was current.
run_one --dir h2d,d2h --host pinned,hostalloc,register --portable=off,on --alloc-on this,other \
    --size 256M
# VMM memory opened to the peer: read (ro), read and write (rw); the cost of
# the peer's access beside the allocation alone.
run_one -e vmm --op peer --peer-access rw,ro --size 256M
# Atomics on the peer's memory, every operation and scope, checked exactly.
run_one -e atomics --where peer --op add,min,max,cas --scope device,system --addresses 1,each --ops 8
python3 - "$LOG/multi-$((i - 1)).json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    if r["config"]["peer-access"] == "ro":
        v = r["verification"]
        good = "faults: cuda" in v
        print(("ok " if good else "FAIL ") + f"vmm ro: a write from the peer faults: {v}")
PY
run_one -e vmm --op alloc --size 64M --peer-access off,rw

# Fidelity: nvbandwidth in the same run, matrix against matrix.
if [ -z "${NVBANDWIDTH:-}" ] || [ ! -x "$NVBANDWIDTH" ]; then
    echo "ok peer fidelity: not judged (NVBANDWIDTH not given)"
    exit 0
fi
"$NVBANDWIDTH" -t device_to_device_memcpy_read_ce device_to_device_memcpy_write_ce \
    device_to_device_bidirectional_memcpy_read_ce device_to_device_memcpy_read_sm \
    device_to_device_latency_sm -b 512 -j >"$LOG/nvb-peer.json" 2>"$LOG/nvb-peer.err" ||
    echo "FAIL nvbandwidth: $(tail -3 "$LOG/nvb-peer.err")"
F=(--batch -e peer --pairs all --format json --samples 20)
"$BIN" "${F[@]}" --engine ce --op read >"$LOG/fid-read_ce.json" 2>&1
"$BIN" "${F[@]}" --engine ce --op write >"$LOG/fid-write_ce.json" 2>&1
"$BIN" "${F[@]}" --engine ce --op read --dir both >"$LOG/fid-bidir_read_ce.json" 2>&1
"$BIN" "${F[@]}" --engine sm --op read >"$LOG/fid-read_sm.json" 2>&1
# Latency: one sample per block of the SM count, twice over: the median
# of every SM's figure, against nvbandwidth's mean over every SM.
sms=$("$BIN" --batch --format json -e peer --measure latency --samples 1 2>/dev/null |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["device"]["sm_count"])')
"$BIN" "${F[@]}" --measure latency --samples $((2 * ${sms:-132})) >"$LOG/fid-latency_sm.json" 2>&1
python3 - "$LOG" <<'PY'
import json, re, sys
log = sys.argv[1]
nvb = {t["name"]: t for t in json.load(open(f"{log}/nvb-peer.json"))["nvbandwidth"]["testcases"]}
tests = [("read_ce", "device_to_device_memcpy_read_ce", "GB/s"),
         ("write_ce", "device_to_device_memcpy_write_ce", "GB/s"),
         ("bidir_read_ce", "device_to_device_bidirectional_memcpy_read_ce", "GB/s"),
         ("read_sm", "device_to_device_memcpy_read_sm", "GB/s"),
         ("latency_sm", "device_to_device_latency_sm", "ns")]
for mine_name, ref_name, unit in tests:
    try:
        mine = json.load(open(f"{log}/fid-{mine_name}.json"))["matrix"]
        t = nvb[ref_name]
        rows = t["bandwidth_matrix"]
        n = len(mine)
        ref = rows[-n:]         # bidirectional tests append read1, read2, then the total
    except (OSError, ValueError, KeyError) as e:
        print(f"FAIL peer fidelity {mine_name}: no figures ({e!r})")
        continue
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            r = ref[i][j]
            if not re.fullmatch(r"[0-9.]+(e[-+]?[0-9]+)?", str(r)) or mine[i][j] is None:
                print(f"FAIL peer fidelity {mine_name} {i}->{j}: gputui {mine[i][j]}, nvbandwidth {r}")
                continue
            r = float(r)
            d = 100 * (mine[i][j] - r) / r
            print(("ok " if abs(d) <= 3 else "FAIL ") +
                  f"peer fidelity {mine_name} GPU {i} -> GPU {j}: gputui p50 {mine[i][j]:.1f} {unit}, "
                  f"nvbandwidth {ref_name} {r:.1f} {unit} ({d:+.1f}%, within 3%)")
PY
