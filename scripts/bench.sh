#!/usr/bin/env bash
# make bench: one table, on a machine with a GPU.
#  - gputui's batch figures (median over REPEATS runs of each run's p50)
#    against the physical ceiling and the reference figures of an H200
#    measured with NVIDIA's nvbandwidth and bandwidthTest;
#  - key press to first new sample on screen (median of PRESSES size
#    changes, from gputui --trace, under tmux);
#  - CPU use of the TUI process while paused and while running.
set -u
BIN=$(realpath "$1")
cd "$(dirname "$0")/.."
LOG=${GPUTUI_LOG_DIR:-build/bench}
mkdir -p "$LOG"
REPEATS=${REPEATS:-5} PRESSES=${PRESSES:-20} SAMPLES=${SAMPLES:-50}
GPU=$("$BIN" --list-devices | head -1) || { echo "bench: no usable CUDA device"; exit 1; }

# label | gputui arguments | reference GB/s (low-high) | what the reference is
CONFIGS=(
  "pinned H2D 64 MiB|--host pinned --dir h2d --size 64M|55.2|nvbandwidth CE"
  "pinned D2H 64 MiB|--host pinned --dir d2h --size 64M|55.3|nvbandwidth CE"
  "pinned H2D 512 MiB|--host pinned --dir h2d --size 512M|55.2|nvbandwidth CE"
  "pinned D2H 512 MiB|--host pinned --dir d2h --size 512M|55.3|nvbandwidth CE"
  "SM copy H2D 512 MiB|--host pinned --dir h2d --method sm --size 512M|51.1|nvbandwidth SM"
  "SM copy D2H 512 MiB|--host pinned --dir d2h --method sm --size 512M|52.6|nvbandwidth SM"
  "pageable H2D 64 MiB|--host pageable --dir h2d --size 64M|6.6-7.6|bandwidthTest/nvbandwidth"
  "pageable D2H 64 MiB|--host pageable --dir d2h --size 64M|9.8-15|bandwidthTest/nvbandwidth"
  "pageable H2D 512 MiB|--host pageable --dir h2d --size 512M|6.6-7.6|bandwidthTest/nvbandwidth"
  "pageable D2H 512 MiB|--host pageable --dir d2h --size 512M|9.8-15|bandwidthTest/nvbandwidth"
  "D2D 512 MiB|--dir d2d --size 512M|2093|nvbandwidth, bytes once"
)
: >"$LOG/bench-batch.tsv"
for c in "${CONFIGS[@]}"; do
    IFS='|' read -r label args ref what <<<"$c"
    for r in $(seq "$REPEATS"); do
        # shellcheck disable=SC2086
        "$BIN" --batch --format json --samples "$SAMPLES" $args >"$LOG/b.json" 2>"$LOG/b.err" ||
            { echo "bench: $label failed: $(cat "$LOG/b.err")"; exit 1; }
        python3 - "$LOG/b.json" "$label" "$ref" "$what" >>"$LOG/bench-batch.tsv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["runs"][0]["series"][0]
assert s["failed"] == 0, "verification failed"
print("\t".join([sys.argv[2], str(s["bandwidth_GBps"]["p50"]), str(s["ceiling_GBps"] or 0),
                 s["ceiling"], str(s["ceiling_factor"]), sys.argv[3], sys.argv[4]]))
PY
    done
done

# Zero-copy at the configuration of the "CUDA zero-copy mapped memory"
# article: n = 1,000,000 floats, 32 blocks x 1024 threads.
: >"$LOG/bench-zc.tsv"
for r in $(seq "$REPEATS"); do
    "$BIN" --batch -e zerocopy --format json --samples "$SAMPLES" >"$LOG/z.json" 2>"$LOG/z.err" ||
        { echo "bench: zerocopy failed: $(cat "$LOG/z.err")"; exit 1; }
    python3 - "$LOG/z.json" >>"$LOG/bench-zc.tsv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
for s in r["series"]:
    assert s["failed"] == 0, "verification failed"
    print(f"{s['name']}\t{s['latency_s']['p50']}")
PY
done

# Streams, host allocation and CPU access: every series' p50 of each run.
# label | gputui arguments | samples
LCONFIGS=(
  "streams S=1|-e streams --streams 1|20"
  "streams S=4|-e streams --streams 4|20"
  "streams S=8|-e streams --streams 8|20"
  "hostalloc 1 GiB cudaMallocHost|-e hostalloc --op alloc --kind pinned --size 1G|5"
  "hostalloc 1 GiB malloc+register|-e hostalloc --op alloc --kind register --size 1G|5"
  "CPU access 64 MiB pinned|-e hostalloc --op cpu --kind pinned --size 64M|20"
  "CPU access 64 MiB write-combined|-e hostalloc --op cpu --kind hostalloc --write-combined --size 64M|20"
  "VMM calls 2 MiB|-e vmm --op alloc --size 2M|50"
  "VMM calls 64 MiB|-e vmm --op alloc --size 64M|50"
  "VMM calls 1 GiB|-e vmm --op alloc --size 1G|20"
  "VMM vs cudaMalloc H2D 512 MiB|-e vmm --op bandwidth --dir h2d --size 512M|20"
  "VMM vs cudaMalloc D2H 512 MiB|-e vmm --op bandwidth --dir d2h --size 512M|20"
  "VMM vs cudaMalloc D2D 512 MiB|-e vmm --op bandwidth --dir d2d --size 512M|20"
  "VMM grow 64 MiB to 4 GiB by 64 MiB|-e vmm --op grow --start 64M --end 4G --step 64M|63"
  "L2 set-aside cost, D2D 512 MiB|-e l2 --op cost --streaming 512M|20"
)
# L2: the hitRatio sweep at a 32 MiB region, the region sweep at hitRatio 1.
for h in 0 10 20 30 40 50 60 70 80 90 100; do
    LCONFIGS+=("L2 region 32M hitRatio $h%|-e l2 --region 32M --hit-ratio $h|20")
done
for r in 5M 10M 16M 24M 32M 40M 48M 64M 96M 120M; do
    LCONFIGS+=("L2 hitRatio 100% region $r|-e l2 --region $r|20")
done
# Pitched against packed rows.
for w in 1000 4096 4100; do
    for m in h2d d2h kernel; do
        LCONFIGS+=("pitched W=$w $m|-e pitched --width $w --measure $m|30")
    done
done
: >"$LOG/bench-lat.tsv"
for c in "${LCONFIGS[@]}"; do
    IFS='|' read -r label args n <<<"$c"
    for r in $(seq "$REPEATS"); do
        # shellcheck disable=SC2086
        "$BIN" --batch --format json --samples "$n" $args >"$LOG/l.json" 2>"$LOG/l.err" ||
            { echo "bench: $label failed: $(cat "$LOG/l.err")"; exit 1; }
        python3 - "$LOG/l.json" "$label" >>"$LOG/bench-lat.tsv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
for s in r["series"]:
    assert s["failed"] == 0, "verification failed"
    print("\t".join([sys.argv[2], s["name"], str(s["latency_s"]["p50"]),
                     str(s["bandwidth_GBps"]["p50"] or 0)]))
if r.get("timeline"):
    print("\t".join([sys.argv[2], "ideal bound", str(r["timeline"]["ideal_s"]), "0"]))
for t in r["setup_times"]:
    if t["what"].startswith("grow by"):     # a whole growth, and its peak, in the label
        print("\t".join([sys.argv[2], t["what"], str(t["seconds"]), "0"]))
PY
    done
done

# Responsiveness and CPU, under tmux.
TMPD=$(mktemp -d)
trap 'stop; rm -rf "$TMPD"' EXIT
. tests/e2e/lib.sh
TRACE="$TMPD/trace"
start bench 120 40 "'$BIN' --host pinned --dir h2d --size 64M --trace '$TRACE'"
wait_for "RUNNING" 30 || { echo "bench: TUI did not start"; screen; exit 1; }
for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done
lines() { [ -f "$TRACE" ] && wc -l <"$TRACE" || echo 0; }
for i in $(seq "$PRESSES"); do
    n=$(lines)
    if [ $((i % 2)) = 1 ]; then tm send-keys -t t +; else tm send-keys -t t -; fi
    for _ in $(seq 200); do [ "$(lines)" -gt "$n" ] && break; sleep 0.02; done
    sleep 0.3
done
cp "$TRACE" "$LOG/trace.txt"
pid=$(pgrep -P "$(tm display -p -t t '#{pane_pid}')" gputui)
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
cpu_window() {  # percent of one core over $1 seconds
    local a b; a=$(ticks); sleep "$1"; b=$(ticks)
    python3 -c "print(100.0 * ($b - $a) / $hz / $1)"
}
running=$(for _ in 1 2 3; do cpu_window 3; done | sort -g | sed -n 2p)
tm send-keys -t t p
wait_for "PAUSED" 5
sleep 1
paused=$(for _ in 1 2 3; do cpu_window 5; done | sort -g | sed -n 2p)
tm send-keys -t t q
stop

python3 - "$LOG/bench-batch.tsv" "$LOG/trace.txt" "$paused" "$running" "$GPU" "$REPEATS" \
    "$SAMPLES" "$LOG/bench-zc.tsv" "$LOG/bench-lat.tsv" <<'PY' | tee "$LOG/bench.txt"
import statistics as st, sys
tsv, trace, paused, running, gpu, reps, samples, zc, lat_tsv = sys.argv[1:]
rows = {}
for line in open(tsv):
    label, p50, ceil, clabel, factor, ref, what = line.rstrip("\n").split("\t")
    rows.setdefault(label, dict(v=[], ceil=float(ceil), clabel=clabel, factor=float(factor),
                                ref=ref, what=what))["v"].append(float(p50))
print(f"gputui bench on {gpu}")
print(f"bandwidth: median over {reps} runs of each run's p50 ({samples} verified samples a run), GB/s, bytes counted once")
print(f"{'configuration':<22}{'gputui':>9}{'runs min-max':>16}{'ceiling':>9}{'% ceil':>8}  "
      f"{'reference':>10}{'vs ref':>8}  reference source")
for label, r in rows.items():
    m = st.median(r["v"])
    pct = 100 * m * r["factor"] / r["ceil"] if r["ceil"] else float("nan")
    lo, _, hi = r["ref"].partition("-")
    lo = float(lo); hi = float(hi) if hi else lo
    if m < lo: diff = f"{100 * (m - lo) / lo:+.1f}%"
    elif m > hi: diff = f"{100 * (m - hi) / hi:+.1f}%"
    else: diff = "within" if hi != lo else "+0.0%"
    ceil = f"{r['ceil']:.1f}" + ("*" if r["factor"] != 1 else "")
    print(f"{label:<22}{m:>9.2f}{min(r['v']):>8.2f}-{max(r['v']):<7.2f}{ceil:>9}{pct:>7.1f}%  "
          f"{r['ref']:>10}{diff:>8}  {r['what']}")
print("  * device memory peak (clock x bus width x 2); a copy reads and writes, so % uses 2x the bytes")
zrows = {}
for line in open(zc):
    name, p50 = line.split("\t")
    zrows.setdefault(name, []).append(float(p50) * 1e3)
zref = {"explicit": 0.245, "mapped": 0.168}
print(f"zero-copy, n = 1,000,000 floats, 32 x 1024 threads: median over {reps} runs of each run's p50 (ms)")
for name, v in zrows.items():
    m = st.median(v)
    ref = zref.get(name)
    cmp = f"reference {ref:.3f} ms (the article's program), {100 * (m - ref) / ref:+.1f}%" if ref else "no reference"
    print(f"  {name:<18}{m:>8.3f} ms  runs {min(v):.3f}-{max(v):.3f}  {cmp}")
lrows = {}
for line in open(lat_tsv):
    label, series, p50, bw = line.rstrip("\n").split("\t")
    lrows.setdefault(label, {}).setdefault(series, []).append((float(p50), float(bw)))
print(f"streams, host allocation, CPU access, VMM, L2, pitched: median over {reps} runs of each run's p50")
for label, series in lrows.items():
    parts = []
    for name, v in series.items():
        m = st.median(x[0] for x in v)
        txt = f"{name} {m * 1e3:.3f} ms"
        if label.startswith("VMM calls"):
            txt = f"{name} {m * 1e6:.1f} us"
        if label.startswith(("CPU", "pitched", "L2 set-aside")) or " vs cudaMalloc " in label:
            txt = f"{name} {st.median(x[1] for x in v):.2f} GB/s"
        parts.append(txt)
    for slow, fast in (("serial", "streams"), ("no window", "with window"),
                       ("D2D under set-aside", "D2D, limit 0"),
                       ("packed (pitch = W)", "cudaMallocPitch")):
        if slow in series and fast in series:
            sp = st.median(a[0] / b[0] for a, b in zip(series[slow], series[fast]))
            parts.append(f"{slow} / {fast} time {sp:.2f}x")
    print(f"  {label:<36}" + ", ".join(parts))
print("  reference (DESIGN.md, H200 host): cudaMallocHost 1 GiB ~420 ms, malloc + cudaHostRegister ~38 ms")
lat = [float(l.split()[1]) for l in open(trace)][1:]
up, down = lat[0::2], lat[1::2]
print(f"key press -> first new sample on screen, pinned H2D (includes freeing the old and "
      f"allocating the new pinned buffer, warm-up, one verified copy):")
print(f"  all {len(lat)} presses: median {st.median(lat):.1f} ms (min {min(lat):.1f}, max {max(lat):.1f}); "
      f"64M->128M median {st.median(up):.1f} ms, 128M->64M median {st.median(down):.1f} ms")
print(f"TUI CPU use: paused {float(paused):.2f}% of a core, running {float(running):.1f}% "
      f"(median of 3 windows)")
PY
