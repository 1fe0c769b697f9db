#!/usr/bin/env bash
# make bench: one table, on a machine with a GPU.
#  - gputui's batch figures (median over REPEATS runs of each run's p50)
#    against the physical ceiling and NVIDIA's nvbandwidth and the CUDA
#    samples' bandwidthTest run in the same bench (NVBANDWIDTH=path,
#    BANDWIDTHTEST=path; without them, the H200 figures of DESIGN.md, said
#    so), and zero-copy against the article's program (refprobe);
#  - the first frame and live sample after the command, and a key press to
#    its first sample on screen (tests/gpu/respond.py, from outside through
#    tmux: PRESSES/2 presses each way of three changes);
#  - every experiment's samples a second in the TUI; CPU use while paused.
# Usage: bench.sh BIN REFPROBE
set -u
BIN=$(realpath "$1"); PROBE=$(realpath "$2")
cd "$(dirname "$0")/.."
LOG=${GPUTUI_LOG_DIR:-build/bench}
mkdir -p "$LOG"
REPEATS=${REPEATS:-3} PRESSES=${PRESSES:-40} SAMPLES=${SAMPLES:-50}
GPU=$("$BIN" --list-devices | head -1) || { echo "bench: no usable CUDA device"; exit 1; }

# NVIDIA's programs in this run, when given.
: >"$LOG/ref-nvbandwidth.json"; : >"$LOG/ref-bandwidthtest.txt"
NGPU=$("$BIN" --list-devices | grep -c '^[0-9][0-9]*: ')
PEER_TESTS=()
[ "$NGPU" -ge 2 ] && PEER_TESTS=(device_to_device_memcpy_read_ce device_to_device_memcpy_write_ce
                                 device_to_device_memcpy_read_sm)
if [ -n "${NVBANDWIDTH:-}" ] && [ -x "$NVBANDWIDTH" ]; then
    "$NVBANDWIDTH" -t host_to_device_memcpy_ce device_to_host_memcpy_ce host_to_device_memcpy_sm \
        device_to_host_memcpy_sm device_local_copy "${PEER_TESTS[@]}" -b 512 -i 10 -j >"$LOG/ref-nvbandwidth.json" \
        2>"$LOG/ref-nvbandwidth.err" || echo "bench: nvbandwidth failed: $(tail -3 "$LOG/ref-nvbandwidth.err")"
fi
if [ -n "${BANDWIDTHTEST:-}" ] && [ -x "$BANDWIDTHTEST" ]; then
    for m in pinned pageable; do
        "$BANDWIDTHTEST" --memory=$m --csv >>"$LOG/ref-bandwidthtest.txt" 2>&1 ||
            echo "bench: bandwidthTest --memory=$m failed"
    done
fi
"$PROBE" zc >"$LOG/ref-zc.jsonl" 2>"$LOG/ref-zc.err" || echo "bench: refprobe zc failed: $(cat "$LOG/ref-zc.err")"

# label | gputui arguments | reference: nvb:TEST, bwt:KIND or a constant
# (low-high) | the constant's source
CONFIGS=(
  "pinned H2D 32 MiB|--host pinned --dir h2d --size 32M|bwt:H2D-Pinned|55.3|bandwidthTest"
  "pinned D2H 32 MiB|--host pinned --dir d2h --size 32M|bwt:D2H-Pinned|55.2|bandwidthTest"
  "pinned H2D 512 MiB|--host pinned --dir h2d --size 512M|nvb:host_to_device_memcpy_ce|55.2|nvbandwidth CE"
  "pinned D2H 512 MiB|--host pinned --dir d2h --size 512M|nvb:device_to_host_memcpy_ce|55.3|nvbandwidth CE"
  "SM copy H2D 512 MiB|--host pinned --dir h2d --method sm --size 512M|nvb:host_to_device_memcpy_sm|51.1|nvbandwidth SM"
  "SM copy D2H 512 MiB|--host pinned --dir d2h --method sm --size 512M|nvb:device_to_host_memcpy_sm|52.6|nvbandwidth SM"
  "pageable H2D 32 MiB|--host pageable --dir h2d --size 32M|bwt:H2D-Pageable|9.0|bandwidthTest"
  "pageable D2H 32 MiB|--host pageable --dir d2h --size 32M|bwt:D2H-Pageable|14.7|bandwidthTest"
  "pageable H2D 512 MiB|--host pageable --dir h2d --size 512M|-|6.6-9.0|DESIGN.md"
  "pageable D2H 512 MiB|--host pageable --dir d2h --size 512M|-|9.8-15|DESIGN.md"
  "D2D 512 MiB|--dir d2d --size 512M|nvb:device_local_copy|2093|nvbandwidth, bytes once"
)
# Two GPUs: GPU 0 with GPU 1 (nvbandwidth's [0][1]; constants: two H200s over NV18).
if [ "$NGPU" -ge 2 ]; then
    CONFIGS+=(
  "peer CE read 512 MiB, GPU 0 <- 1|-e peer --engine ce --op read|nvb:device_to_device_memcpy_read_ce|394.1|nvbandwidth CE"
  "peer CE write 512 MiB, GPU 0 -> 1|-e peer --engine ce --op write|nvb:device_to_device_memcpy_write_ce|396.4|nvbandwidth CE"
  "peer SM read 512 MiB, GPU 0 <- 1|-e peer --engine sm --op read|nvb:device_to_device_memcpy_read_sm|376.1|nvbandwidth SM"
    )
fi
: >"$LOG/bench-batch.tsv"
for c in "${CONFIGS[@]}"; do
    IFS='|' read -r label args key ref what <<<"$c"
    for r in $(seq "$REPEATS"); do
        # shellcheck disable=SC2086
        "$BIN" --batch --format json --samples "$SAMPLES" $args >"$LOG/b.json" 2>"$LOG/b.err" ||
            { echo "bench: $label failed: $(cat "$LOG/b.err")"; exit 1; }
        python3 - "$LOG/b.json" "$label" "$ref" "$what" "$key" >>"$LOG/bench-batch.tsv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["runs"][0]["series"][0]
assert s["failed"] == 0, "verification failed"
print("\t".join([sys.argv[2], str(s["bandwidth_GBps"]["p50"]), str(s["ceiling_GBps"] or 0),
                 s["ceiling"], str(s["ceiling_factor"]), sys.argv[3], sys.argv[4], sys.argv[5]]))
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
  "managed 32 MiB, demand paging|-e managed|20"
  "managed 32 MiB, prefetched|-e managed --prefetch|20"
  "managed 32 MiB, preferred host, 4 reads|-e managed --preferred host --accessed-by --access repeat|20"
  "texture 4096x4096, rows|-e texture --access row|20"
  "texture 4096x4096, columns|-e texture --access column|20"
  "texture 4096x4096, columns, bilinear|-e texture --access column --filter linear|20"
)
# L2: the hitRatio sweep at a 32 MiB region, the region sweep at hitRatio 1.
for h in 0 25 50 75 100; do
    LCONFIGS+=("L2 region 32M hitRatio $h%|-e l2 --region 32M --hit-ratio $h|20")
done
for r in 8M 24M 40M 64M 120M; do
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

# Load latency: one plateau of each level, random order (the latency
# experiment), and mapped host memory beside nvbandwidth's
# host_device_latency_sm in this run.
: >"$LOG/ref-nvb-latency.json"
[ -n "${NVBANDWIDTH:-}" ] && [ -x "$NVBANDWIDTH" ] &&
    { "$NVBANDWIDTH" -t host_device_latency_sm -j >"$LOG/ref-nvb-latency.json" 2>/dev/null ||
      echo "bench: nvbandwidth host_device_latency_sm failed"; }
ACONFIGS=(
  "L1: 16 KiB|--size 16K"
  "L2: 16 MiB|--size 16M"
  "device memory: 1 GiB|--size 1G"
  "mapped host: 2 MiB|--kind mapped --size 2M"
)
: >"$LOG/bench-load.tsv"
for c in "${ACONFIGS[@]}"; do
    IFS='|' read -r label args <<<"$c"
    for r in $(seq "$REPEATS"); do
        # shellcheck disable=SC2086
        "$BIN" --batch --format json --samples "$SAMPLES" -e latency $args >"$LOG/a.json" 2>"$LOG/a.err" ||
            { echo "bench: $label failed: $(cat "$LOG/a.err")"; exit 1; }
        python3 - "$LOG/a.json" "$label" >>"$LOG/bench-load.tsv" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))["runs"][0]
s = r["series"][0]
assert s["failed"] == 0, "verification failed"
m = re.search(r"SM clock ([0-9.]+) GHz", " ".join(r["summary"]))
print("\t".join([sys.argv[2], str(s["latency_s"]["p50"]), m.group(1) if m else "0"]))
PY
    done
done

# Every experiment's default configuration in the TUI: samples a second.
tests/gpu/rate.sh "$BIN" 10 >"$LOG/rate.txt" 2>&1

# Responsiveness from outside through tmux (tests/gpu/respond.py): the
# first frame and the first live sample after the command, and a key's
# first sample on screen, PRESSES/2 presses each way per change.
python3 tests/gpu/respond.py "$BIN" $((PRESSES / 2)) >"$LOG/respond.json" 2>"$LOG/respond.err" ||
    echo "bench: respond.py: $(tail -2 "$LOG/respond.err")"
# CPU use, under tmux.
TMPD=$(mktemp -d)
trap 'stop; rm -rf "$TMPD"' EXIT
. tests/e2e/lib.sh
start bench 120 40 "'$BIN' --host pinned --dir h2d --size 64M"
wait_for "RUNNING" 30 || { echo "bench: TUI did not start"; screen; exit 1; }
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

python3 - "$LOG/bench-batch.tsv" "$LOG/respond.json" "$paused" "$running" "$GPU" "$REPEATS" \
    "$SAMPLES" "$LOG/bench-zc.tsv" "$LOG/bench-lat.tsv" "$LOG" "$LOG/bench-load.tsv" <<'PY' | tee "$LOG/bench.txt"
import json, re, statistics as st, sys
tsv, respond, paused, running, gpu, reps, samples, zc, lat_tsv, log, load_tsv = sys.argv[1:]

# NVIDIA's figures from this run: nvbandwidth's JSON (GPU 0's entry of
# each test's matrix), bandwidthTest's CSV lines.
same_run = {}
try:
    doc = json.load(open(f"{log}/ref-nvbandwidth.json"))
    for t in doc["nvbandwidth"]["testcases"]:
        # GPU 0's figure: row 0, column 0 (host and local tests have one
        # row, a column per GPU), or column 1 (GPU 0 with GPU 1).
        m = t.get("bandwidth_matrix", [])
        col = 1 if t["name"].startswith("device_to_device") else 0
        x = m[0][col] if m and len(m[0]) > col else None
        if t.get("status", "Passed") == "Passed" and re.fullmatch(r"[0-9.]+", str(x)):
            same_run["nvb:" + t["name"]] = (float(x), "nvbandwidth, same run")
except (OSError, ValueError, KeyError, TypeError):
    pass
for line in open(f"{log}/ref-bandwidthtest.txt"):
    m = re.search(r"bandwidthTest-(\w+-\w+), Bandwidth = ([0-9.]+) (GB|MB)/s", line)
    if m:   # "H2D-Paged" is what bandwidthTest calls pageable memory
        v = float(m.group(2)) / (1000 if m.group(3) == "MB" else 1)
        same_run["bwt:" + m.group(1).replace("Paged", "Pageable")] = \
            (v, "bandwidthTest --csv (32 MB), same run")
rows = {}
for line in open(tsv):
    label, p50, ceil, clabel, factor, ref, what, key = line.rstrip("\n").split("\t")
    if key in same_run:
        ref, what = f"{same_run[key][0]:.2f}", same_run[key][1]
    elif key != "-":
        what += " (not run here: the H200 figure of DESIGN.md)"
    else:
        what += " (no reference program for this size)"
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
zref, zwhat = {"explicit": 0.245, "mapped": 0.168}, "the article's figures on an H200 (DESIGN.md)"
try:
    probe = {json.loads(l)["probe"]: json.loads(l) for l in open(f"{log}/ref-zc.jsonl")}
    zref = {k: probe[f"zc_article_{k}"]["p50"] for k in ("explicit", "mapped")}
    zwhat = "the article's program (refprobe zc: 10 back-to-back repeats), same run"
except (OSError, KeyError, ValueError):
    pass
print(f"zero-copy, n = 1,000,000 floats, 32 x 1024 threads: median over {reps} runs of each run's p50 (ms), "
      f"per iteration, checked on the GPU; reference: {zwhat}")
for name, v in zrows.items():
    m = st.median(v)
    ref = zref.get(name)
    cmp = f"reference {ref:.3f} ms, {100 * (m - ref) / ref:+.1f}%" if ref else "no reference"
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
arows = {}
for line in open(load_tsv):
    label, p50, ghz = line.rstrip("\n").split("\t")
    arows.setdefault(label, []).append((float(p50) * 1e9, float(ghz)))
try:
    t = json.load(open(f"{log}/ref-nvb-latency.json"))["nvbandwidth"]["testcases"][0]
    nvb_lat = float(t["bandwidth_matrix"][0][0])
except (OSError, ValueError, KeyError, IndexError, TypeError):
    nvb_lat = None
print(f"load latency (-e latency, random order, 128 B stride, one thread): median over {reps} runs "
      f"of each run's p50, ns and SM cycles at the clock the walk measured")
for label, v in arows.items():
    ns = st.median(x[0] for x in v)
    ghz = st.median(x[1] for x in v)
    txt = f"  {label:<24}{ns:>8.1f} ns {ns * ghz:>7.0f} cycles  runs {min(x[0] for x in v):.1f}-{max(x[0] for x in v):.1f}"
    if label.startswith("mapped"):
        txt += (f"  nvbandwidth host_device_latency_sm {nvb_lat:.1f} ns, same run, "
                f"{100 * (ns - nvb_lat) / nvb_lat:+.1f}%" if nvb_lat else "  nvbandwidth not run")
    print(txt)
try:
    r = json.load(open(respond))
    print("from outside through tmux (tests/gpu/respond.py), pinned H2D 64 MiB:")
    print(f"  start: first frame {r['start_first_frame_ms']:.0f} ms (target 100), first live "
          f"sample {r['start_first_sample_ms']:.0f} ms (target 400)")
    for name, k in r["keys"].items():
        target = "p90 allocation + 20 ms" if "allocates" in name else "p90 20 ms"
        print(f"  key -> first sample on screen, {name}: median {k.get('median_ms', 0):.1f} ms, "
              f"p90 {k.get('p90_ms', 0):.1f} ms, max {k.get('max_ms', 0):.1f} ms, "
              f"{k['presses']} presses, {k['missed']} missed (target {target})")
except (OSError, ValueError, KeyError) as e:
    print(f"responsiveness: no figures ({e!r})")
print("TUI samples a second, each experiment's default configuration (floor 10):")
for line in open(f"{log}/rate.txt"):
    print("  " + line.rstrip())
print(f"TUI CPU use: paused {float(paused):.2f}% of a core, running {float(running):.1f}% "
      f"(median of 3 windows)")
PY
