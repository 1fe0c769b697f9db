#!/usr/bin/env bash
# End-to-end tests of replay, on the bundled recordings made on real GPUs:
# the TUI under tmux, batch reports, and bad recordings. Needs no GPU.
# Usage: replay.sh BIN TMPDIR (writes TMPDIR/replay.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
REC=share/gputui/h200.gtr.gz
PLAIN=$TMPD/h200.gtr                # the same, uncompressed, to edit
gzip -dc "$REC" >"$PLAIN"
# A small recording (each experiment's first configurations) for valgrind.
SMALL=$TMPD/small.gtr
python3 - "$PLAIN" "$SMALL" <<'EOF'
import json, sys
keep, per_exp = set(), {}
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for n, line in enumerate(f):
        o = json.loads(line)
        if o["type"] == "config":
            k = per_exp.setdefault(o["experiment"], [])
            if len(k) < 4:
                k.append(o["gen"]); keep.add(o["gen"])
        if n == 0 or o.get("gen") in keep:
            out.write(line)
EOF

samples() { screen | sed -n 's/.* \([0-9][0-9]*\) samples.*/\1/p' | head -1; }

# A configuration keeps producing samples after its recorded ones have
# played: the replay goes round them again at the recorded pace.
start replay 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay $REC --dir bidir --host pageable --size 1G"
check "banner says REPLAY, device and date" wait_for "REPLAY of $REC: NVIDIA H[0-9]+, recorded 20[0-9]{2}-[0-9]{2}-[0-9]{2}" 10
check "device panel: recorded device name" wait_for "^Name +NVIDIA H[0-9]+" 5
check "device panel: recorded L2 size" wait_for "^L2 cache +[0-9]+ MiB" 5
check "histograms drawn for both directions" bash -c "tmux -L '$SOCK' capture-pane -p -t t | grep -q 'H2D bandwidth GB/s' && tmux -L '$SOCK' capture-pane -p -t t | grep -q 'D2H bandwidth GB/s'"
wait_for " [1-9][0-9]* samples" 5
a=$(samples); sleep 0.6; b=$(samples)
check "sample count grows during playback ($a -> $b)" [ "${b:-0}" -gt "${a:-0}" ]
check "the status line says which pass of the recorded samples plays" \
    wait_for "replaying [0-9]+ recorded samples, pass [0-9]+" 5
for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done        # select size
tm send-keys -t t +
check "a size that was not recorded is refused, naming the recorded ones" \
    wait_for "not recorded: size=2G \(recorded: 19 values from 4K to 1G\)" 15
tm send-keys -t t Enter; tm send-keys -t t -l 64M; tm send-keys -t t Enter
check "changing the size moves to the recorded 64 MiB configuration" wait_for "size +64 MiB" 5
check "the previous configuration stays as 'before'" wait_for "^ before +[0-9]" 10
wait_for "^ now +[0-9]" 10      # the new configuration has samples: two runs to export
tm send-keys -t t x
# The message's end may be cut at the terminal's width (a replay's pass
# count grows beside it): its start on screen, its three files on disk.
check "x: statistics exported" wait_for "exported 2 runs: gputui-[0-9-]+\.json, " 5
exported=$(ls gputui-*.json 2>/dev/null | head -1)
check "x: its .csv and .html beside the .json" \
    test -s "${exported%.json}.csv" -a -s "${exported%.json}.html"
check "x: the export is a report of both runs" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d['runs']) == 2 and d['recording']['format'].startswith('1.'), d.keys()
" "$exported"
check "x: the HTML page beside it, both runs on it" \
    bash -c "[ \$(grep -c '<section class=\"run\"' '${exported%.json}.html') = 2 ]"
rm -f gputui-*.json gputui-*.csv gputui-*.html
tm send-keys -t t n
check "n: next recorded configuration" wait_for "recorded configuration [0-9]+ of [0-9]+" 5
tm send-keys -t t '>'
check "speed x2" wait_for "x2 \(< >\)" 5
tm send-keys -t t e
check "e: the next experiment, at its first recorded configuration" \
    wait_for "Experiment: Zero-copy vs explicit copies" 5
check "zero-copy: every variant's histogram" bash -c "tmux -L '$SOCK' capture-pane -p -t t | grep -q 'explicit latency' && tmux -L '$SOCK' capture-pane -p -t t | grep -q 'managed+prefetch latency'"
check "zero-copy: ratios to explicit" wait_for "mapped / explicit: [0-9.]+x" 10
tm send-keys -t t E
check "E: back to the transfer experiment" wait_for "Experiment: Host/device transfer" 5
tm send-keys -t t '?'
check "help lists the replay keys" wait_for "replay: next recorded configuration" 5
tm send-keys -t t x
common_tui_checks replay
stop

# Streams: the recorded timeline, one row per stream, and the toggle that
# serialises the work again (recorded on the GPU).
start streams 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay $REC -e streams --streams 4"
check "streams: timeline legend" wait_for "Timeline of the last iteration +> H2D +# kernel +< D2H" 10
check "streams: serial row and four stream rows" bash -c "tmux -L '$SOCK' capture-pane -p -t t | grep -q '^ serial  *|[>#<]' && tmux -L '$SOCK' capture-pane -p -t t | grep -q '^ stream 3  *|.*[>#<]'"
check "streams: ideal bound marked" wait_for "\\^ideal" 5
check "streams: speed-up and ideal in the summary" wait_for "speed-up [2-9]\\.[0-9]+x" 10
check "streams: the copy engines are shown" wait_for "asyncEngineCount [0-9]+, concurrentKernels yes" 5
for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done         # select legacy-sync
tm send-keys -t t Space
check "streams: a legacy default-stream kernel serialises the streams" wait_for "speed-up (0\\.9|1\\.0)[0-9]x" 10
check "streams: no stream row overlaps another's operations" bash -c "tmux -L '$SOCK' capture-pane -p -t t | grep -q '^ stream 0  *|[>#<]*  '"
quit_ok streams "streams"

# The VMM, L2 and pitched experiments from the recording.
start vmm 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay $REC -e vmm --size 64M"
wait_for "cudaFreeAsync +[0-9.]+ us" 10
check "vmm: a row per call, eleven in all, beside the first call's histogram" bash -c "s=\$(tmux -L '$SOCK' capture-pane -p -t t); for c in cuMemAddressReserve cuMemCreate cuMemMap cuMemSetAccess cuMemUnmap cuMemRelease cuMemAddressFree cudaMalloc cudaFree cudaMallocAsync cudaFreeAsync; do grep -Eq \"^ \$c +[0-9.]+ [mun]?s\" <<<\"\$s\" || exit 1; done; grep -q 'cuMemAddressReserve latency per' <<<\"\$s\""
check "vmm: granularity and rounding" wait_for "granularity: minimum 2 MiB, recommended 2 MiB" 10
check "vmm: VMM against the runtime" wait_for "allocate \\(sum of p50s\\): VMM .*cudaMalloc .*cudaMallocAsync" 10
tm send-keys -t t e
check "e: l2 from the recording" wait_for "Experiment: L2 persistence" 10
check "l2: speed-up with the window" wait_for "speed-up with the window [0-9.]+x" 10
check "l2: the granted set-aside" wait_for "set-aside: asked 37.5 MiB, granted 37.5 MiB" 10
for _ in 1 2 3; do tm send-keys -t t j; done                 # select hit-ratio
tm send-keys -t t w
check "w: a sweep of hit-ratio runs" wait_for "Sweep of hit-ratio: p50 at each value" 10
check "w: the sweep finishes" wait_for "sweep of hit-ratio done: 21 values" 30
check "sweep plot: a recorded value has its medians and bars" wait_for "^  100 +[0-9.]+ ms #+ +[0-9.]+ ms #+" 5
tm send-keys -t t j; tm send-keys -t t j; tm send-keys -t t j; tm send-keys -t t j  # region
tm send-keys -t t w
check "w: a region sweep marks the set-aside" wait_for "---------- set-aside asked: 37.5 MiB ----------" 30
wait_for "sweep of region done" 30
tm send-keys -t t k; tm send-keys -t t k; tm send-keys -t t k; tm send-keys -t t k
tm send-keys -t t k; tm send-keys -t t k; tm send-keys -t t k                         # op
tm send-keys -t t w
check "w on a choice sweeps its choices" wait_for "Sweep of op: p50 at each value" 10
check "the sweep of a choice ends" wait_for "Sweep of op: p50 at each value \\(w sweeps again" 20
check "sweep plot: a value the recording lacks is marked -" wait_for "^  compete +- +-" 5
tm send-keys -t t e
check "e: pitched from the recording" wait_for "Experiment: Pitched 2D/3D memory" 10
check "pitched: the pitch cudaMallocPitch chose" wait_for "pitched: cudaMallocPitch, pitch [0-9]+ B" 10
tm send-keys -t t q
check "q exits 0" [ "$(wait_rc vmm 10)" = 0 ]
stop

start mono 100 30 "NO_COLOR=1 LC_ALL=C '$BIN' --replay $REC --dir d2d --size 256M"
check "NO_COLOR + LANG=C: runs" wait_for "D2D bandwidth GB/s" 10
check "NO_COLOR + LANG=C: clean screen" clean_screen
check "NO_COLOR + LANG=C: ASCII only" bash -c "! tmux -L '$SOCK' capture-pane -p -t t | LC_ALL=C grep -q '[^ -~]'"
quit_ok mono "NO_COLOR + LANG=C"

# Samples taken while the GPU was shared (every other one): the
# histogram's corner counts them, the title gives way (the ceiling shrinks
# to its percentage, and is not cut through), and the clean samples'
# figures stand under all of them.
SHARED=$TMPD/shared.gtr
python3 - "$SMALL" "$SHARED" <<'EOF'
import json, sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    k = 0
    for line in f:
        o = json.loads(line)
        if o["type"] == "sample":
            o["disturbed"] = k % 2 == 0
            k += 1
        out.write(json.dumps(o) + "\n")
EOF
start shared 100 34 "LC_ALL=C.UTF-8 '$BIN' --replay $SHARED"
check "disturbed samples: counted in the histogram's corner" wait_for "H2D bandwidth GB/s .* [0-9]+ disturbed" 10
check "disturbed samples: the title ends whole before the corner" \
    wait_for "H2D bandwidth GB/s  p50 [0-9.]+( = [0-9.]+%( of .* [0-9]+\\.[0-9])?)? +[0-9]+ disturbed" 5
check "disturbed samples: the statistics of all of them" wait_for "^ all +[0-9]" 5
check "disturbed samples: ... and of the clean ones" wait_for "^ clean +[0-9]" 5
quit_ok shared "disturbed samples"

# SIGHUP and SIGTERM: the terminal is restored and the exit status is 128+N.
for sig in HUP TERM; do
    start "sig$sig" 100 30 "'$BIN' --replay $REC"
    wait_for "Experiment:" 10
    pkill "-$sig" -P "$(tm display -p -t t '#{pane_pid}')" gputui
    want=$((128 + $(kill -l "$sig")))
    check "SIG$sig: exits $want" [ "$(wait_rc "sig$sig" 10)" = "$want" ]
    check "SIG$sig: terminal restored" bash -c "[ \"\$(tmux -L '$SOCK' display -p -t t '#{alternate_on}')\" = 0 ]"
    stop
done

# Memory errors and leaks, through the whole TUI path: valgrind under tmux.
if command -v valgrind >/dev/null; then
    start vg 120 40 "valgrind --leak-check=full --errors-for-leak-kinds=definite --log-file='$TMPD/vg.log' '$BIN' --replay $SMALL"
    if wait_for "Experiment: Host/device transfer" 60; then
        for k in n e '?' z E '>' j j j j j j - x c r Tab j Tab Enter; do
            tm send-keys -t t "$k"; sleep 0.3
        done
        tm send-keys -t t -l 64M; tm send-keys -t t Enter; sleep 0.5
        tm send-keys -t t q
    fi
    check "valgrind: the TUI exits 0" [ "$(wait_rc vg 60)" = 0 ]
    check "valgrind: no memory errors" grep -q "ERROR SUMMARY: 0 errors" "$TMPD/vg.log"
    check "valgrind: nothing definitely lost" bash -c "! grep -q 'definitely lost: [1-9]' '$TMPD/vg.log'"
    stop
    rm -f gputui-*.json gputui-*.csv gputui-*.html
fi

# Batch reports of the recording: machines compared without a GPU.
"$BIN" --batch --replay $REC --format json >"$TMPD/replay.json"
check "batch replay: JSON with every configuration" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['recording']['format'].startswith('1.'), d['recording']
assert d['device']['name'].startswith('NVIDIA'), d['device']
assert len(d['runs']) > 20, len(d['runs'])
assert all(s['failed'] == 0 and s['latency_s']['count'] > 0 for r in d['runs'] for s in r['series'])
" "$TMPD/replay.json"
check "batch replay: CSV" bash -c "'$BIN' --batch --replay $REC --format csv | head -1 | grep -q '^run,experiment,config,series'"
check "batch replay: text names the recording" bash -c "'$BIN' --batch --replay $REC | grep -q '^replayed from $REC (recorded 20'"

# -e and parameters pick what the same command would measure live: the
# recorded configurations among them, and a clear answer when none is there.
n=$("$BIN" --batch --replay $REC -e transfer --dir h2d --size 64M,32M --format csv 2>/dev/null | cut -d, -f1 | sort -u | grep -c '^[0-9]')
check "batch replay -e transfer --dir h2d --size 64M,32M: those 2 runs only ($n)" [ "$n" = 2 ]
msg=$("$BIN" --batch --replay $REC -e transfer --size 3M 2>&1 >/dev/null); rc=$?
check "batch replay of a configuration not recorded: says so, exit 1 (rc $rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'not recorded: dir=h2d method=ce host=pinned size=3M' <<<\"\$0\" && grep -q 'holds none of the 1 configuration asked for; it holds [0-9]* of transfer' <<<\"\$0\"" "$msg"
msg=$("$BIN" --batch --replay $REC -e transfer --size 64M,3M --dir h2d 2>&1 >/dev/null); rc=$?
check "batch replay, one of two recorded: reports it, names the other (rc $rc)" \
    bash -c "[ $rc = 0 ] && grep -q 'reporting the 1 of 2 configurations asked for' <<<\"\$0\"" "$msg"

# Every bundled recording holds each experiment's default configuration
# (today's defaults, every parameter), so a class without a GPU sees what a
# live user sees: the one-GPU recordings every one-GPU experiment, the
# two-GPU recording the peer experiment. recplan checks all of them from
# one load of each recording (screens.sh: the calls of the defaults and of
# every configuration a key reaches, which the defaults are among); gputui
# itself replays the first of each recording's list, the last, and the
# gaps (tests/e2e/gaps.sh), which it must name.
EXPS=$("$BIN" --batch -e none 2>&1 | sed -n 's/.*(allowed: \(.*\))$/\1/p' | tr -d ,)
check "the experiment list is read from gputui ($EXPS)" [ "$(wc -w <<<"$EXPS")" -ge 9 ]
. tests/e2e/gaps.sh
for rec in share/gputui/*.gtr.gz; do
    case $(basename "$rec") in
    2x*) want=peer ;;
    *) all=(${EXPS/peer/}); want="${all[0]} ${all[${#all[@]} - 1]}"
       for e in "${all[@]:1:${#all[@]}-2}"; do [[ $GAPS == *" $(basename "$rec"):$e "* ]] && want+=" $e"; done ;;
    esac
    for e in $want; do
        msg=$("$BIN" --batch --replay "$rec" -e "$e" --format csv 2>&1 >/dev/null); rc=$?
        if [[ $GAPS == *" $(basename "$rec"):$e "* ]]; then
            check "$(basename "$rec") lacks $e, and says so (rc $rc)" \
                bash -c "[ $rc = 1 ] && grep -q 'it holds 0 of $e' <<<\"\$0\"" "$msg"
            continue
        fi
        check "$(basename "$rec") holds $e's default configuration" bash -c "[ $rc = 0 ] || { echo \"\$0\"; false; }" "$msg"
    done
done

# The inspection card recorded with the bundled H200 recording: on the
# 'I' screen (Enter shows a row's measurement, I brings the card back, Esc
# closes it), and in batch mode, where a recording without one says so.
start insp 100 30 "LC_ALL=C.UTF-8 '$BIN' --replay $REC --inspect"
check "--inspect on a recording: its card" \
    wait_for "^ PASS: GPU 0 NVIDIA H200 on .*: 24 pass, 0 warn, 0 fail, 1 cannot tell" 10
check "the card: a row's figure, verdict and reason" \
    wait_for "pinned H2D 64 MiB +[0-9.]+ GB/s +pass +8[0-9.]+% of ceiling" 5
check "the card: its sections" bash -c "s=\$(tmux -L '$SOCK' capture-pane -p -t t); for x in PCIe NUMA Memory; do grep -q \"^ \$x\" <<<\"\$s\" || exit 1; done"
tm send-keys -t t j j
check "the selected row's expectation below the list" wait_for "^ expected >= 80% of PCIe Gen5 x16" 5
tm send-keys -t t Enter
check "Enter: the row's recorded measurement" wait_for "direction +< d2h >" 5
check "... and the message says so" wait_for "the measurement behind it" 5
tm send-keys -t t I
check "I: the card again" wait_for "^ PASS: GPU 0" 5
tm send-keys -t t r
check "r on a recorded card: refused with the reason" wait_for "a recorded card cannot be measured again" 5
tm send-keys -t t Escape
check "Esc closes the card" wait_for "Experiment: Host/device transfer" 5
quit_ok insp "--inspect on a recording"
"$BIN" --batch --inspect --replay $REC --format json >"$TMPD/card.json" 2>"$TMPD/card.err"; rc=$?
check "batch --inspect --replay: the recorded card as JSON (rc $rc)" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['status'] == 0 and len(d['rows']) == 25 and d['name'] == 'NVIDIA H200', d
" "$TMPD/card.json"
"$BIN" --batch --inspect --replay $REC --format prometheus >"$TMPD/card.prom" 2>&1
check "batch --inspect --replay: Prometheus text that passes the strict check" \
    python3 tests/tools/promcheck.py "$TMPD/card.prom"
msg=$("$BIN" --batch --inspect --replay share/gputui/2xh200.gtr.gz 2>&1); rc=$?
check "a recording without an inspection: exit 1 and why (rc $rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'holds no inspection (it was recorded before format 1.4)' <<<\"\$0\"" "$msg"
start noinsp 100 30 "LC_ALL=C.UTF-8 '$BIN' --replay share/gputui/2xh200.gtr.gz"
check "the two-GPU recording replays" wait_for "RUNNING" 10
tm send-keys -t t I
check "I on a recording without an inspection: says so" \
    wait_for "this recording holds no inspection \(it was recorded before format 1.4\)" 5
quit_ok noinsp "I without an inspection"
{ head -n 1 "$PLAIN"; grep '"type":"inspection"' "$PLAIN"; } >"$TMPD/only.gtr"
"$BIN" --batch --inspect --replay "$TMPD/only.gtr" >/dev/null 2>&1; rc=$?
check "a recording of an inspection alone prints its card (rc $rc)" [ $rc = 0 ]
msg=$("$BIN" --replay "$TMPD/only.gtr" 2>&1); rc=$?
check "... and is not replayed in the TUI, with the reason (rc $rc)" \
    bash -c "[ $rc = 1 ] && grep -q 'holds an inspection and no configuration to replay' <<<\"\$0\"" "$msg"

# Bad recordings: a clear message, exit 1, never a crash.
head -c 3000 "$PLAIN" >"$TMPD/cut.gtr"
msg=$("$BIN" --batch --replay "$TMPD/cut.gtr" --format csv 2>&1 >/dev/null); rc=$?
check "cut-off recording: loads, says a line was dropped (rc $rc)" \
    bash -c "[ $rc = 0 ] && grep -q 'last line was cut off; 1 line dropped' <<<\"\$0\"" "$msg"
sed '1s/"format":\[1,[0-9]*\]/"format":[2,0]/' "$PLAIN" >"$TMPD/v2.gtr"
msg=$("$BIN" --batch --replay "$TMPD/v2.gtr" 2>&1); rc=$?
check "unknown major version: clear error" bash -c "[ $rc = 1 ] && grep -q 'v2.gtr:1: recording format 2.0 is not supported' <<<\"\$0\"" "$msg"
sed '5s/.*/{"type":"sample",garbage/' "$PLAIN" >"$TMPD/bad.gtr"
msg=$("$BIN" --batch --replay "$TMPD/bad.gtr" 2>&1); rc=$?
check "corrupt line: error names line 5" bash -c "[ $rc = 1 ] && grep -q 'bad.gtr:5: not a JSON object' <<<\"\$0\"" "$msg"
head -c 300000 "$REC" >"$TMPD/cut.gtr.gz"
msg=$("$BIN" --batch --replay "$TMPD/cut.gtr.gz" --format csv 2>&1 >/dev/null); rc=$?
check "cut-off compressed recording: loads what came before the cut (rc $rc)" \
    bash -c "[ $rc = 0 ] && grep -q 'cut.gtr.gz:[0-9]*: the compressed data ends early' <<<\"\$0\"" "$msg"
# 'e' walks every experiment of the H100 recording, the last of the list
# included, and wraps to the first.
start walk 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay share/gputui/h100.gtr.gz -e texture"
wait_for "Experiment: CUDA arrays, textures" 10
tm send-keys -t t e
check "e from texture: coalescing" wait_for "Experiment: Coalescing: a warp's addresses" 5
tm send-keys -t t e
check "e: the banks" wait_for "Experiment: Shared-memory banks" 5
check "... the conflict degree its addresses give" wait_for "stride 1: conflict degree 1 \\(the addresses" 10
tm send-keys -t t e
check "e: the copies into shared memory" wait_for "Experiment: Global to shared memory: loads, cp.async" 5
tm send-keys -t t e
check "e: the cluster's shared memory" wait_for "Experiment: A cluster's distributed shared memory" 5
tm send-keys -t t e
check "e: the atomics" wait_for "Experiment: Atomics: contention, privatization" 5
tm send-keys -t t e
check "e: the transpose" wait_for "Experiment: Matrix transpose: naive, tiled, padded" 5
check "... its four kernels against the copy" wait_for "of the copy's rate: naive [0-9]+%" 10
tm send-keys -t t e
check "e: the stream-ordered allocator, the last of the list" \
    wait_for "Experiment: The stream-ordered allocator" 5
check "... cudaMalloc against the pools" wait_for "64 allocations and frees: cudaMalloc [0-9]+ us" 10
tm send-keys -t t e
check "e from the last: the first again" wait_for "Experiment: Host/device transfer" 5
stop
# The rest of the recording is read behind the screen: a key that needs a
# configuration not read yet waits for it ("reading the recording: N%"),
# while the screen goes on (its samples count on); then it is applied.
start lazy 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay share/gputui/h100.gtr.gz"
wait_for "^ now +[0-9]" 10
tm send-keys -t t Down Down Down Down Down Down +
seen=0 moved=0 last=""
for _ in $(seq 100); do
    s=$(screen)
    if grep -q "reading the recording: [0-9]*%; the key waits for it" <<<"$s"; then
        seen=$((seen + 1))
        n=$(sed -n 's/.* \([0-9]*\) samples.*/\1/p' <<<"$s" | tail -1)
        [ -n "$last" ] && [ "$n" != "$last" ] && moved=1
        last=$n
    elif grep -q "size  *128 MiB" <<<"$s"; then
        break
    fi
    sleep 0.05
done
check "a key for a configuration not read yet: applied once it is read (said so ${seen}x)" \
    wait_for "size  *128 MiB" 10
check "... and the screen went on meanwhile" bash -c "[ $seen -lt 2 ] || [ $moved = 1 ]"
stop
# w while the rest is read: the sweep waits for it, then sweeps the
# recorded sizes alone (the H200's has none of 2G and 4G at these values).
start lazysweep 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay share/gputui/h200.gtr.gz"
wait_for "^ now +[0-9]" 10
tm send-keys -t t Down Down Down Down Down Down w
check "w before the recording is read: the recorded sizes swept" wait_for "^  1G +[0-9.]+ ms" 30
check "... none it lacks (was: 2G and 4G, and an error)" \
    bash -c "! tmux -L '$SOCK' capture-pane -p -t t | grep -q '^  [24]G\\|ERROR'"
stop
# --replay takes the bundled models' names, as --compare does.
out=$("$BIN" --batch --replay h100 -e constant --format json 2>&1); rc=$?
check "--replay h100: the bundled H100 recording" \
    bash -c "[ $rc = 0 ] && grep -q '\"path\": \".*h100.gtr.gz\"' <<<\"\$0\"" "$out"
msg=$("$BIN" --replay h201 2>&1); rc=$?
check "--replay h201: exit 64, naming the bundled models" \
    bash -c "[ $rc = 64 ] && grep -q \"'h201' is neither a file nor a bundled recording (bundled: h200, h100, 2xh200\" <<<\"\$0\"" "$msg"
msg=$("$BIN" --replay /nonexistent.gtr 2>&1); rc=$?
check "missing file: clear error" bash -c "[ $rc = 1 ] && grep -q '/nonexistent.gtr: No such file' <<<\"\$0\"" "$msg"

# A recording merged from parts (scripts/merge-recordings.py) keeps when
# the oldest and the newest part were made, in whatever order they are
# given, and a replay says both; the bundled H200 recording is one.
for k in 1 2; do
    printf '%s\n' "{\"type\":\"header\",\"format\":[1,5],\"version\":\"0.1.0\",\"created\":\"2026-11-2${k}T10:00:00Z\",\"device\":{\"name\":\"G\"}}" \
        '{"type":"config","gen":1,"experiment":"transfer","values":{"size":"8M"}}' \
        '{"type":"sample","gen":1,"t":0.5,"series":0,"verify":"full","sec":0.001,"bytes":8388608}' \
        >"$TMPD/part$k.gtr"
done
python3 scripts/merge-recordings.py "$TMPD/merged.gtr" "$TMPD/part2.gtr" "$TMPD/part1.gtr"
check "merged from parts: the replay says when the first and the last part were made" \
    bash -c "\"\$0\" --batch --replay '$TMPD/merged.gtr' 2>/dev/null | grep -q 'recorded 2026-11-21 to 2026-11-22 by'" "$BIN"
check "the bundled H200 recording, merged from parts, says when they were made" \
    bash -c "\"\$0\" --batch --replay h200 2>/dev/null | grep -q 'recorded 2026-11-25 to 2026-11-28 by'" "$BIN"

e2e_part_done replay
