#!/usr/bin/env bash
# make test-gpu: on a machine with a CUDA GPU.
#  1. the configurations judged on what they compute (tests/gpu/jobs.sh),
#     eight jobs at once, 3 samples a configuration: every host-memory
#     kind (with its flags) x direction x method at 4 KiB and 64 MiB,
#     zero-copy, VMM, constant, the concurrent kernels, pitched memory,
#     host allocation (before them, alone, runtime's new process a
#     sample): verified, plausible against the device's ceilings,
#     refusals naming the problem;
#  2. then one process at a time, what is timed against a bound or a
#     reference: streams' overlap, the L2 window, the latency staircase,
#     when calls return, sharing, the lessons, the traces; the two-GPU parts
#     (tests/gpu/multi.sh: with NVBANDWIDTH=path, the peer matrix within 3%
#     of nvbandwidth's), or their refusals on one GPU;
#  3. fidelity in alternation (tests/gpu/alternate.py): zero-copy within 2%
#     of the article's program (tests/gpu/refprobe.cu), pageable copies
#     within 10% of a CPU-timed cudaMemcpy, pinned copies and D2D within
#     1% of nvbandwidth's (NVBANDWIDTH=path); with nvbandwidth, a neighbour
#     that only copies, an idle one and none (tests/gpu/neighbour.sh);
#  4. the unwind test (no device memory leaked at any failure point);
#  5. every experiment's sample rate in the TUI under tmux, and how fast
#     it answers: its first frame, its first sample, a key's first sample
#     (tests/gpu/respond.py); before them the TUI's own checks.
# Logs go to $GPUTUI_LOG_DIR (default build/test-gpu).
set -u
BIN=$(realpath "$1"); UNWIND=$(realpath "$2"); PROBE=$(realpath "$3")
cd "$(dirname "$0")/../.."
LOG=${GPUTUI_LOG_DIR:-build/test-gpu}
mkdir -p "$LOG"
. tests/gpu/lib.sh
. tests/gpu/jobs.sh
. tests/gpu/neighbour.sh

if ! "$BIN" --list-devices; then
    echo "test-gpu: no usable CUDA device; nothing was run"
    exit 1
fi
SAMPLES=${SAMPLES:-8}
: >"$LOG/traced.list"
: >"$LOG/times.txt"
: >"$LOG/margins.tsv"
echo "0 runtime: a new process a sample, alone" >"$LOG/sections.txt"
# Judged on what they compute, 3 samples each (a child process a sample,
# 0.4 s); the runtime lesson judges their timings, twice.
SAMPLES=3 JOB=r- job_runtime init
SAMPLES=3 JOB=r- job_runtime jit
echo "$SECONDS the jobs judged on what they compute, $POOL at once" >>"$LOG/sections.txt"
run_jobs

# The unwind test: no device memory left at any failure point.
unwind() {
    section "unwind"
    if "$UNWIND" >"$LOG/unwind.log" 2>&1; then ok "unwind: $(grep -c '^ok' "$LOG/unwind.log") checks"
    else cat "$LOG/unwind.log"; bad "unwind"; fi
}

# NOCODE (make test-gpu builds it): gputui with kernels for the newest
# architecture alone. On an older GPU it must name the GPU, its
# architecture and the GPU_ARCH to build, and measure nothing.
if [ -n "${NOCODE:-}" ] && [ -x "$NOCODE" ]; then
    section "a gputui without code for this GPU"
    cc=$("$BIN" --list-devices 2>/dev/null | sed -n 's/^0: .*, cc \([0-9]*\)\.\([0-9]\), .*/\1\2/p')
    built=$("$NOCODE" --version | sed -n 's/.*kernels for sm \([0-9 ]*\) and PTX.*/\1/p')
    if [ -z "$cc" ] || [ "$cc" -ge "${built##* }" ]; then
        skip "no code for this GPU: it is sm_${cc:-?}, and $NOCODE has sm $built"
    else
        msg=$("$NOCODE" --batch --inspect 2>&1 >"$LOG/nocode.out"); rc=$?
        if [ $rc = 1 ] && [ ! -s "$LOG/nocode.out" ] &&
           grep -q "(sm_$cc): this gputui has no code it can run (cudaErrorNoKernelImageForDevice): it was built for sm $built and PTX for compute_${built##* }; rebuild with make clean && make GPU_ARCH=$cc" <<<"$msg"; then
            ok "no code for this GPU: --batch --inspect exits 1 and says so: $msg"
        else
            bad "no code for this GPU: rc $rc: $msg"
        fi
        msg=$("$NOCODE" --batch -e transfer 2>&1 >/dev/null); rc=$?
        [ $rc = 1 ] && grep -q "no code it can run" <<<"$msg" &&
            ok "no code for this GPU: --batch exits 1 with the reason" ||
            bad "no code for this GPU: --batch: rc $rc: $msg"
    fi
fi

# GPU_SUITE=jobs: only what is judged on what it computes (every
# experiment's configurations verified) and the unwind test: a build on
# another toolkit's runtime (make CUDART=DIR) runs its API paths so.
if [ "${GPU_SUITE:-all}" = jobs ]; then
    unwind
    echo "test-gpu (GPU_SUITE=jobs, $("$BIN" --version | sed -n 2p)): $pass passed, $fail failed," \
         "$skipped not judged, in ${SECONDS}s"
    [ $fail = 0 ]
    exit
fi

section "streams"
ST=(-e streams --warmup 1)
# Several configurations a process where only one parameter differs.
TRACE=1 run_one "${ST[@]}" --streams 1,4,8
run_one "${ST[@]}" --host pageable --chunks 8
run_one "${ST[@]}" --legacy-sync --stream-flags default,non-blocking
run_one "${ST[@]}" --chunks 256 --chunk-size 64K --streams 16
run_one "${ST[@]}" --chunks 1 --streams 16 --work 1
run_one "${ST[@]}" --chunks 3 --chunk-size 1M --streams 2 --work 20000
run_one "${ST[@]}" --alloc-between cudaMalloc,cudaMallocHost

section "l2"
L2=(-e l2 --warmup 1)
TRACE=1 run_one "${L2[@]}" --apply stream,graph
run_one "${L2[@]}" --hit-ratio 0,50
run_one "${L2[@]}" --set-aside 0
run_one "${L2[@]}" --hit-prop normal --miss-prop normal --window 16M
run_one "${L2[@]}" --region 120M --streaming 256M
run_one "${L2[@]}" --op cost --streaming 512M
run_one "${L2[@]}" --op compete --hit-ratio 100,50
refused "l2 apply=graph with op=compete" "apply applies only with op=window" "${L2[@]}" --op compete --apply graph
refused "l2 window above the region" "window: 64 MiB is larger than the persisting region" "${L2[@]}" --window 64M
# No set-aside left behind: D2D right after the L2 experiment beside D2D
# alone, in alternation.
tally < <(python3 tests/gpu/alternate.py l2after "$BIN" "$PROBE" "$LOG" 2>&1)

section "latency: the staircase, the TLB's reach, the L2's end, mapped host memory"
# The plateaus in order (L1 < L2 < device memory < mapped host memory);
# the staircase beside an independent chase and mapped host memory beside
# nvbandwidth's host_device_latency_sm (NVBANDWIDTH=path), in alternation
# (tests/gpu/alternate.py chase, hostlat); the TLB's reach: 2 MiB apart
# from 1 GiB to 64 GiB (as free memory allows), printed.
LA=(-e latency --warmup 1)
"$BIN" --batch --format json --samples 20 "${LA[@]}" --size 16K,16M,1G >"$LOG/lat-stairs.json" 2>&1
"$BIN" --batch --format json --samples 20 "${LA[@]}" --kind mapped --size 2M --order linear \
    >"$LOG/lat-mapped.json" 2>&1
FREE_G=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["device"]["free_mem_bytes"] >> 30)' \
         <"$LOG/lat-stairs.json" 2>/dev/null)
TLB=1G,4G,16G
[ "${FREE_G:-0}" -gt 70 ] && TLB=$TLB,64G
"$BIN" --batch --format json --samples 10 "${LA[@]}" --stride 2M --size $TLB \
    >"$LOG/lat-tlb.json" 2>"$LOG/lat-tlb.err" || bad "latency past 4 GiB: $(head -c 300 "$LOG/lat-tlb.err")"
# Where the L2 plateau ends: linear order at 3/4 and 3/2 of the L2 the
# properties give (whole MiB), beside 4 MiB and 1 GiB.
L2B=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["device"]["l2_bytes"])' <"$LOG/lat-stairs.json" 2>/dev/null)
if [ -n "$L2B" ] && [ "$L2B" -gt 0 ]; then
    "$BIN" --batch --format json --samples 20 "${LA[@]}" --order linear \
        --size "4M,$((L2B * 3 / 4 >> 20))M,$((L2B * 3 / 2 >> 20))M,1G" >"$LOG/lat-l2end.json" 2>&1
fi
tally < <(python3 - "$LOG" <<'PY'
import json, sys
sys.path.insert(0, "tests/gpu")
import judge
log = sys.argv[1]
try:
    stairs = [(r["config"]["size"], r["series"][0]["latency_s"]["p50"] * 1e9)
              for r in json.load(open(f"{log}/lat-stairs.json"))["runs"]]
    mapped = json.load(open(f"{log}/lat-mapped.json"))["runs"][0]["series"][0]["latency_s"]["p50"] * 1e9
    cc = json.load(open(f"{log}/lat-stairs.json"))["device"]["compute_capability"]
except (OSError, ValueError, KeyError, IndexError) as e:
    print(f"FAIL latency plateaus: no figures ({e!r})")
    sys.exit()
ns = [t for _, t in stairs] + [mapped]
names = "16 KiB (L1), 16 MiB (L2), 1 GiB (device memory), mapped host 2 MiB".split(", ")
good = all(a < b for a, b in zip(ns, ns[1:]))
print(("ok " if good else "FAIL ") + "latency plateaus in order: " +
      ", ".join(f"{n} {t:.0f} ns" for n, t in zip(names, ns)))
print(judge.margin("latency plateaus in order (the closest step)", "x%.2f" % min(b / a for a, b in zip(ns, ns[1:])),
                   "> x1", min(b / a for a, b in zip(ns, ns[1:])) - 1))
if cc // 10 == 9:
    good, m = judge.below("the L1 plateau on Hopper, ns", ns[0], 25)
    print(("ok " if good else "FAIL ") + f"the L1 plateau on Hopper: {ns[0]:.1f} ns at 16 KiB (under 25)")
    print(m)
try:
    d = json.load(open(f"{log}/lat-tlb.json"))
    print("ok latency past 4 GiB, 2 MiB stride (printed): " + ", ".join(
        f"{r['config']['size']}: {r['series'][0]['latency_s']['p50'] * 1e9:.0f} ns" for r in d["runs"]))
except (OSError, ValueError, KeyError, IndexError) as e:
    print(f"FAIL latency past 4 GiB: no figures ({e!r})")
try:
    d = json.load(open(f"{log}/lat-l2end.json"))
    l2 = d["device"]["l2_bytes"]
    p = [r["series"][0]["latency_s"]["p50"] * 1e9 for r in d["runs"]]
    in_l2, m1 = judge.below("L2 plateau: 3/4 of the L2 over 1 GiB", p[1] / p[3], 0.85)
    past, m2 = judge.above("L2 plateau: 3/2 of the L2 over 1 GiB", p[2] / p[3], 0.9)
    print(("ok " if in_l2 and past else "FAIL ") + f"the L2 plateau ends near the L2's {l2 >> 20} MiB: "
          f"linear order, {3 * l2 // 4 >> 20} MiB {p[1]:.0f} ns (< 0.85 x 1 GiB's {p[3]:.0f}; 4 MiB {p[0]:.0f}), "
          f"{3 * l2 // 2 >> 20} MiB {p[2]:.0f} ns (> 0.9 x 1 GiB's {p[3]:.0f})")
    print(m1)
    print(m2)
except (OSError, ValueError, KeyError, IndexError) as e:
    print(f"FAIL the L2 plateau's end: no figures ({e!r})")
PY
)
for what in chase hostlat; do
    tally < <(python3 tests/gpu/alternate.py $what "$BIN" "$PROBE" "$LOG" 2>&1)
done

section "runtime: when each call returns"
# The documented cases: memset and device-to-device copies return while the
# kernel ahead still runs; pinned H2D and D2H return once the copy is done.
# Pageable H2D of 64 KiB and of 1 MiB is the lesson's claim: reported.
"$BIN" --batch --format json --samples 20 -e runtime --op return --size 64K,1M \
    --call h2d-pageable,h2d-pinned,d2h-pageable,d2d,memset >"$LOG/returns.json" 2>"$LOG/returns.err" ||
    bad "runtime op=return: $(cat "$LOG/returns.err")"
tally < <(python3 - "$LOG/returns.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/gpu")
import judge
runs = {}
for r in json.load(open(sys.argv[1]))["runs"]:
    p = r["config"]
    s = {x["name"]: x["latency_s"]["p50"] * 1e6 for x in r["series"]}
    runs[p["call"], p["size"]] = s
for (call, size), s in runs.items():
    ratio = s["call returns"] / s["stream idle"]
    what = (f'{call} {size >> 10} KiB: returns after {s["call returns"]:.1f} us, idle after '
            f'{s["stream idle"]:.1f} us')
    if call in ("memset", "d2d"):
        good, m = judge.below(f"{call} {size >> 10} KiB returns before the work: at / idle",
                              ratio, 0.5, "{:.2f}")
        print(("ok " if good else "FAIL ") + what + " (returns at once: below half)")
        print(m)
    elif call in ("h2d-pinned", "d2h-pageable"):
        good, m = judge.above(f"{call} {size >> 10} KiB waits for the copy: at / idle",
                              ratio, 0.9, "{:.2f}")
        print(("ok " if good else "FAIL ") + what + " (waits for the copy: above 0.9)")
        print(m)
    else:
        pinned = runs["h2d-pinned", size]["work left at return"]
        left = s["work left at return"]
        print("ok " + what + f"; work left at return {left:.1f} us against pinned's {pinned:.1f} us"
              f" (the claim: {'returned before the copy was done' if left > 2 * pinned else 'done'})")
PY
)

section "sharing: several gputui at once, with and without turns, and a foreign load"
# Solo, then 4 processes at once without the lock (the GPU time-slices
# them: pinned H2D and zero-copy inflated), then 4 taking turns (each of
# pinned H2D, zero-copy and latency within 3% of solo, in alternation:
# solo, turns, solo, turns, solo); alone, no sample is marked disturbed.
# Then a foreign load beside one: its samples are marked disturbed and the
# load is named.
share_run() {   # share_run TAG N FLAG [EXPERIMENT...]: N processes of each (default all three), recorded
    local tag=$1 n=$2 flag=$3 pids=() k exp args exps
    shift 3
    exps=("$@"); [ $# -gt 0 ] || exps=(pinned zerocopy latency)
    for exp in "${exps[@]}"; do
        case $exp in
        pinned) args=(-e transfer --dir h2d --host pinned --size 64M --samples 150) ;;
        zerocopy) args=(-e zerocopy --variant explicit --samples 500) ;;
        latency) args=(-e latency --size 16M --samples 400) ;;
        esac
        for k in $(seq "$n"); do
            # shellcheck disable=SC2086
            "$BIN" --batch --format json $flag "${args[@]}" \
                --record "$LOG/share-$tag-$exp-$k.gtr" --force \
                >"$LOG/share-$tag-$exp-$k.json" 2>"$LOG/share-$tag-$exp-$k.err" &
            pids+=($!)
        done
        wait "${pids[@]}"; pids=()
    done
}
# The sharing experiment: both measures beside both loads, each verified.
TRACE=1 run_one -e sharing --measure latency,copy --beside kernels,copies --warmup 1
# In alternation: solo, 4 taking turns, solo, 4 taking turns, solo; the
# processes taking turns against the solo ones, each side's per-process
# p50s (tests/gpu/judge.py), within 3%.
share_run solo 1 ""
# Without turns: a chase timed inside its kernel is rarely cut by a time
# slice, so only the copies are run so (and judged inflated).
share_run free 4 --no-share-lock pinned zerocopy
for k in 1 2; do
    share_run "turns$k" 4 ""
    share_run "solo$k" 1 ""
done
"$PROBE" load 4 >"$LOG/share-load.txt" 2>"$LOG/share-load.err" &
load_pid=$!
# Its context and its first round of copies (300 samples take under 1.5 s
# beside it).
wait_ready "$LOG/share-load.err" 20 || bad "refprobe load: not ready in 20 s"
"$BIN" --batch --format json -e transfer --dir h2d --host pinned --size 64M --samples 300 \
    >"$LOG/share-foreign.json" 2>"$LOG/share-foreign.err"
kill "$load_pid" 2>/dev/null    # the rest of its 4 s is not needed
wait "$load_pid"
tally < <(python3 - "$LOG" <<'PY'
import json, sys, glob
sys.path.insert(0, "tests/gpu")
import judge
log = sys.argv[1]
def series(tag, exp):
    return [json.load(open(f))["runs"][0]["series"][0]
            for f in sorted(glob.glob(f"{log}/share-{tag}-{exp}-*.json"))]
def p50s(tag, exp):
    return [s["latency_s"]["p50"] for s in series(tag, exp)]
unit = {"pinned": (1e3, "ms"), "zerocopy": (1e6, "us"), "latency": (1e9, "ns")}
# Alone on the GPU, no sample is marked disturbed.
alone = [(exp, s) for exp in unit for tag in ("solo", "solo1", "solo2") for s in series(tag, exp)]
marked, n = sum(s.get("disturbed", 0) for _, s in alone), sum(s["latency_s"]["count"] for _, s in alone)
print(("ok " if n and not marked else "FAIL ") + f"alone: {marked} of {n} samples marked disturbed "
      f"({len(alone)} processes: pinned H2D, zero-copy, latency; wanted none)")
for exp in ("pinned", "zerocopy", "latency"):
    k, u = unit[exp]
    solo = p50s("solo", exp) + p50s("solo1", exp) + p50s("solo2", exp)
    free = p50s("free", exp)
    turns = p50s("turns1", exp) + p50s("turns2", exp)
    txt = lambda v: " ".join(f"{x * k:.3g}" for x in v)
    # A chase timed inside its kernel is rarely cut by a time slice: its
    # p50 without turns is reported, not judged.
    if exp != "latency":
        good, m = judge.above(f"sharing {exp}: without turns over solo", max(free) / solo[0], 1.5,
                              "{:.2f}")
        print(("ok " if good else "FAIL ") + f"{exp}: solo {solo[0] * k:.4g} {u}; 4 at once without "
              f"turns {txt(free)}: inflated {max(free) / solo[0]:.2f}x (wanted above 1.5x)")
        print(m)
    verdict, text, head = judge.ratio(turns, solo, 0.03)
    line = (f"{exp}: solo {txt(solo)} {u}, 4 taking turns {txt(turns)} {u}, in alternation; {text}")
    print({"ok": "ok ", "FAIL": "FAIL "}.get(verdict, "SKIP ") + line +
          (" (wanted within 3%)" if verdict != "noisy" else "; host too noisy to judge"))
    print(judge.margin(f"sharing {exp}: taking turns over solo", text.split(",")[0].split()[-1],
                       "1 +/- 0.03", head))
    # Fairness: each one's samples over the window in which all four ran.
    times = []
    for f in sorted(glob.glob(f"{log}/share-turns1-{exp}-*.gtr")):
        lines = [json.loads(x) for x in open(f)]
        t0 = lines[0]["t0_unix_ns"] * 1e-9
        times.append([t0 + x["t"] for x in lines if x["type"] == "sample" and x["series"] == 0])
    lo, hi = max(t[0] for t in times), min(t[-1] for t in times)
    counts = [sum(1 for x in t if lo <= x <= hi) for t in times]
    shares = [c * len(counts) / sum(counts) for c in counts]
    worst = max(abs(x - 1) for x in shares)
    print(("ok " if hi > lo and worst <= 0.2 else "FAIL ") +
          f"{exp} taking turns: shares of a quarter over {hi - lo:.2f} s: " +
          " ".join(f"{x:.2f}" for x in shares) + " (wanted within 20%)")
    print(judge.margin(f"sharing {exp}: a process's share of the turns", f"{worst:+.2f}",
                       "within 0.2", 1 - worst / 0.2))
s = json.load(open(f"{log}/share-foreign.json"))["runs"][0]["series"][0]
err = open(f"{log}/share-foreign.err").read()
named = "refprobe" in err
print(("ok " if s.get("disturbed", 0) > 0 and named else "FAIL ") +
      f"a foreign load beside: {s.get('disturbed', 0)} of {s['latency_s']['count']} samples "
      f"disturbed, p50 {s['latency_s']['p50'] * 1e3:.3f} ms; stderr: {err.strip()[:200]}")
PY
)

section "two GPUs: peer copies, portable memory, VMM from a peer (or the refusals on one)"
tally < <(tests/gpu/multi.sh "$BIN" "$LOG" "$SAMPLES" 2>&1)

section "fidelity: refprobe and nvbandwidth in alternation"
# Zero-copy (the article's program, events around 10 back-to-back repeats;
# gputui --repeat 10), pageable H2D/D2H (a CPU-timed cudaMemcpy with the
# host buffer out of the caches), pinned H2D/D2H 64 MiB by copy engines and
# by kernels and D2D 512 MiB (nvbandwidth -i 10; gputui --iters 10) beside
# gputui in turn, R G R G ... R, each a process of its own, judged by the
# ratio of the two sides' means and its bootstrap interval, within 2%, 10%,
# 1% and 1% (tests/gpu/alternate.py). Where
# the processes differ too much to say, "host too noisy to judge": more
# rounds, then SKIP, never ok. The texture experiment's stencil from
# linear memory beside a plain kernel of it (refprobe stencil), within 15%
# (gputui's general kernel takes 1.11 of its time on an H200). The
# coalescing, bank and transpose kernels beside plain kernels of the same
# accesses (refprobe coalesce, banks, transpose), within 3% (the
# transposes within 1%); the
# stream-ordered allocator's costs beside a plain program of the same
# calls (refprobe pool), within 10%. At the end, each check's margin.
checks="zc pageable pinned texture coalesce banks transpose async dsmem cluster atomics pool d2d"
# Compressible memory where the device has it (gputui refuses it elsewhere).
if "$BIN" --batch -e vmm --op read --compression on --size 4M --samples 1 >/dev/null 2>&1; then
    checks="$checks vmm-read"
fi
# VMM memory on the host where this build and driver place it there.
if "$BIN" --batch -e vmm --op read --location host-numa --size 4M --samples 1 >/dev/null 2>&1; then
    checks="$checks vmm-host"
fi
# VMM memory shared with a second process where the driver exports it.
if "$BIN" --batch -e vmm --op share --size 2M --samples 1 >/dev/null 2>&1; then
    checks="$checks vmm-share"
fi
for what in $checks; do
    echo "$SECONDS   fidelity: $what" >>"$LOG/sections.txt"
    tally < <(python3 tests/gpu/alternate.py $what "$BIN" "$PROBE" "$LOG" 2>&1)
done

section "a neighbour that only copies, an idle one, none"
tally < <(neighbour_checks 2>&1)

section "lessons (live, each step's verdict)"
for l in $("$BIN" --list-lessons | awk '/^[a-z]/ {print $1}'); do
    lesson_run "$l"
    rc=$?
    tally < <(python3 - "$l" "$rc" "$LOG" <<'PY'
import json, sys
sys.path.insert(0, "tests/gpu")
import judge
name, rc, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    err = " ".join(open(f"{log}/lesson-{name}.err", errors="replace").read()[:300].split())
    d = json.load(open(f"{log}/lesson-{name}.json"))
except (OSError, ValueError) as e:
    print(f"FAIL lesson {name} (exit {rc}): no report ({e!r})")
    sys.exit()
bad = [s for s in d["steps"] if s["verdict"] == "measuring" or
       (s["verdict"] == "cannot tell here" and "peer access" not in s["text"])]
text = "; ".join("%d %s" % (s["step"], s["text"]) for s in d["steps"])
print(f"FAIL lesson {name} (exit {rc}): {text} {err}" if bad or rc else f"ok lesson {name}: {text}")
# Each step's margin: how far its interval lies from the bound it cleared.
for s in d["steps"]:
    m = judge.lesson_margin(name, s)
    if m:
        print(m)
PY
)
done

section "lessons: the same verdicts run after run"
# The four lessons whose steps came nearest their bounds above (the
# margins' table), once more: a verdict that can flip flips there. Every
# step's verdict must be the one of the run above (five runs of every
# lesson, done by hand, are in docs/measured.md).
again=$(python3 tests/gpu/margins.py "$LOG/margins.tsv" --nearest-lessons 4)
echo "# again, nearest their bounds first: ${again:-none}"
for l in $again; do
    lesson_run "$l" -2
    if out=$(python3 - "$LOG" "$l" <<'PY'
import json, sys
log, l = sys.argv[1:3]
runs = []
for f in (f"{log}/lesson-{l}.json", f"{log}/lesson-{l}-2.json"):
    try:
        runs.append([(s["verdict"], s.get("ratio")) for s in json.load(open(f))["steps"]])
    except (OSError, ValueError, KeyError) as e:
        print(f"{f}: no verdicts ({e!r})")
        sys.exit(1)
out = []
same = True
for i, step in enumerate(zip(*runs)):
    v = {x[0] for x in step}
    same &= len(v) == 1
    r = " ".join("-" if x[1] is None else f"{x[1]:.2f}" for x in step)
    out.append(f"{i + 1} {'/'.join(sorted(v))} ({r})")
print("; ".join(out))
sys.exit(0 if same and len(runs) == 2 else 1)
PY
    ); then ok "lesson $l, 2 runs, every step the same verdict: $out"
    else bad "lesson $l, 2 runs, a verdict changed: $out"; fi
done

section "inspect: the health card"
# A healthy lent GPU passes (exit 0) in under 30 s; the Prometheus text
# passes the strict format check.
t0=$SECONDS
"$BIN" --batch --inspect --format json --record "$LOG/inspect.gtr" --force --record-samples 20 \
    >"$LOG/inspect.json" 2>"$LOG/inspect.err"
rc=$?
if out=$(python3 - "$LOG/inspect.json" "$rc" "$((SECONDS - t0))" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2]); wall = int(sys.argv[3])
bad = [f"{r['id']} {r['verdict']}: {r['figure']} ({r['reason']})" for r in d["rows"]
       if r["verdict"] in ("warn", "fail")]
print(f"exit {rc}, {len(d['rows'])} rows, {d['wall_s']:.1f} s inside, {wall} s in all; "
      + ("; ".join(bad) if bad else "every row passes or cannot tell"))
sys.exit(0 if rc == 0 and not bad and wall < 30 else 1)
PY
); then ok "inspect: $out"; else bad "inspect: $out $(head -c 300 "$LOG/inspect.err")"; fi
# The recorded inspection gives the same card again.
"$BIN" --batch --inspect --replay "$LOG/inspect.gtr" --format json >"$LOG/inspect-replay.json" \
    2>"$LOG/inspect-replay.err"
if out=$(python3 - "$LOG/inspect.json" "$LOG/inspect-replay.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda d: [(r["id"], r["figure"], r["verdict"], r["reason"]) for r in d["rows"]]
assert key(a) == key(b), [x for x in zip(key(a), key(b)) if x[0] != x[1]][:3]
print(f"{len(a['rows'])} rows alike, status {b['status']}")
PY
); then ok "inspect --record, then --replay: $out"; else bad "inspect --replay: $out"; fi
"$BIN" --batch --inspect --replay "$LOG/inspect.gtr" --format prometheus >"$LOG/inspect.prom" \
    2>"$LOG/inspect-prom.err"
if out=$(python3 tests/tools/promcheck.py "$LOG/inspect.prom"); then ok "inspect --format prometheus: $out"
else bad "inspect --format prometheus: $out"; fi

section "CUDA call trace"
# Each experiment's first run above listed its CUDA calls (TRACE=1): the
# set-up, the first iteration and the teardown, each call's result.
EXPS=$("$BIN" --batch -e none 2>&1 | sed -n 's/.*(allowed: \(.*\))$/\1/p' | tr -d ,)
for e in $EXPS; do
    f=$(awk -v e="$e" '$1 == e {print $2; exit}' "$LOG/traced.list")
    if [ -z "$f" ]; then
        [ "$e" = peer ] && [ "$(gpu_count)" -lt 2 ] && continue
        bad "trace $e: no run of it listed its calls"
        continue
    fi
    if out=$(python3 - "$f" "$e" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
for run in runs:
    c = run["cuda_calls"]
    ph = {x["phase"] for x in c}
    assert all(x.get("ok", True) for x in c), "a traced call failed"
    if sys.argv[2] == "runtime" and run["config"]["op"] != "return":
        # its iterations start a child process, which makes the CUDA calls
        continue
    # hostalloc op=alloc allocates and frees inside its iterations (no
    # set-up to trace); its op=cpu reads memory set up once (no CUDA call
    # in an iteration)
    cpu_only = sys.argv[2] == "hostalloc" and run["config"]["op"] == "cpu"
    assert ph and ("one iteration" in ph or cpu_only), ph
    assert ("set-up" in ph) == ("teardown" in ph), ph
first = [x for x in runs[0]["cuda_calls"] if "call" in x]
print(len(runs), "configurations; e.g.",
      first[0]["call"] + " -> " + first[0]["result"] if first else "calls in child processes")
PY
    ); then ok "trace $e: $out"; else bad "trace $e: $out"; fi
done

unwind

section "TUI on the device"
# Serial: the TUI says what else is on the GPU, and judges it.
if tests/gpu/tui.sh "$BIN" >"$LOG/tui.log" 2>&1; then ok "tui: $(tail -1 "$LOG/tui.log")"
else cat "$LOG/tui.log"; bad "tui"; fi
section "follow: 30 students following the teacher's live session"
tests/gpu/follow.sh "$BIN" >"$LOG/follow.log" 2>&1
tally < <(grep -E '^(ok|FAIL)' "$LOG/follow.log" || echo "FAIL follow: $(tail -3 "$LOG/follow.log")")
section "TUI sample rate, every experiment's default"
tally < <(tests/gpu/rate.sh "$BIN" 10 2>&1)

section "responsiveness: start, and a key to its first sample on screen"
# From outside through tmux (tests/gpu/respond.py): copies per sample and
# a size within the kept buffer, 10 presses each way, p90 under 30 ms (the
# target is 20); the first frame under 150 ms, the first live sample under
# 600 ms (targets 100 and 400).
python3 tests/gpu/respond.py "$BIN" 10 --check >"$LOG/respond.txt" 2>&1
tally < <(grep -E '^(ok|FAIL)' "$LOG/respond.txt" ||
          echo "FAIL responsiveness: $(tail -3 "$LOG/respond.txt")")
# The suite's time budget is 300 s on a lent H100 or H200 (docs/suite-runs.md):
# said, not judged, since a slower host takes longer with nothing wrong.
budget=${SUITE_BUDGET_S:-300}
over=""
[ "$SECONDS" -gt "$budget" ] && over=", over by $((SECONDS - budget)) s: the sections below say where it went"
echo "wall time: ${SECONDS}s (budget $budget s$over)"
echo "$SECONDS end" >>"$LOG/sections.txt"
# Where the time went: each section's seconds (each process's: times.txt).
awk 'NR > 1 { printf "%5d s  %s\n", $1 - t, s } { t = $1; $1 = ""; s = substr($0, 2) }' \
    "$LOG/sections.txt"

# Each timing check's margin: what is left of its allowance (1: all of
# it, 0: at the bound, below 0: over it), thinnest first; a thin one is
# seen before it fails.
python3 tests/gpu/margins.py "$LOG/margins.tsv"
if [ "$noisy" -ge 2 ]; then
    bad "$noisy checks not judged (host too noisy): two or more fail the suite"
fi
echo "test-gpu: $pass passed, $fail failed, $skipped not judged ($noisy of them: host too noisy)"
[ $fail = 0 ]
