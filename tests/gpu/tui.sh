#!/usr/bin/env bash
# The TUI on a real GPU under tmux: live histograms, a parameter change
# with the before/after view, help, pause, resize, monochrome and ASCII
# rendering, quitting with q and with SIGTERM.
set -u
BIN=$(realpath "$1")
TMPD=$(mktemp -d)
trap 'stop; rm -rf "$TMPD"' EXIT
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh

samples() { screen | sed -n 's/.* \([0-9][0-9]*\) samples.*/\1/p' | head -1; }

start main 120 40 "LC_ALL=C.UTF-8 '$BIN' --size 16M --record '$TMPD/live.gtr'"
check "starts and runs" wait_for "RUNNING" 20
check "device panel: name" wait_for "^Name +NVIDIA" 5
check "device panel: L2 size" wait_for "^L2 cache +[0-9.]+ MiB" 5
check "device panel: global memory" wait_for "^Global memory +[0-9.]+ GiB" 5
check "histogram titles" wait_for "H2D bandwidth GB/s +p50 [0-9.]+ = [0-9.]+% of PCIe" 10
a=$(samples); sleep 0.5; b=$(samples)
check "sample count grows ($a -> $b)" [ "${b:-0}" -gt "${a:-0}" ]
check "--record: the status line counts towards --record-samples" wait_for "REC [0-9]+/300" 5
tm send-keys -t t d
check "d while recording: refused with the reason" wait_for "d: not while recording" 5
for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done          # select size
tm send-keys -t t +
check "size doubled to 32 MiB" wait_for "size +32 MiB" 5
check "before row shows the previous run" wait_for "^ before +[0-9]" 10
check "new samples after the change" wait_for " [1-9][0-9]* samples" 10
tm send-keys -t t Enter; tm send-keys -t t -l "1.5G"; tm send-keys -t t Enter
check "typed size 1.5G" wait_for "size +1.50 GiB" 10
tm send-keys -t t Enter; tm send-keys -t t -l "9G"; tm send-keys -t t Enter
check "bad typed size names the allowed range" wait_for "allowed: 4 KiB to 4 GiB" 5
tm send-keys -t t p
check "pause" wait_for "PAUSED" 5
a=$(samples); sleep 0.5; b=$(samples)
check "no samples while paused ($a = $b)" [ "$a" = "$b" ]
tm send-keys -t t p
check "resume" wait_for "RUNNING" 5
common_tui_checks main
stop
# The session was recorded: every configuration it ran, with samples.
"$BIN" --batch --replay "$TMPD/live.gtr" --format json >"$TMPD/live.json" 2>"$TMPD/live.err"
check "TUI --record: the recording replays in batch mode" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
sizes = [r['config']['size'] for r in d['runs']]
assert 16 << 20 in sizes and 32 << 20 in sizes, sizes
assert all(s['failed'] == 0 for r in d['runs'] for s in r['series'])
" "$TMPD/live.json"

# 'I' on the live GPU: the steps measured on screen, the card, Enter on a
# row shows its measurement, I brings the card back; --record keeps it.
# The card's verdict is judged in batch (tests/gpu/run.sh, inspect): here,
# whatever it is, the same card comes back and replays.
CARD="^ (PASS|WARN|FAIL|BUSY): GPU [0-9]+ .* [0-9]+ pass, [0-9]+ warn, [0-9]+ fail"
start insp 120 40 "LC_ALL=C.UTF-8 '$BIN' --inspect --record '$TMPD/insp.gtr' --record-samples 20"
check "--inspect: the steps measured on screen" wait_for "Inspecting GPU [0-9]+: .*step [0-9]+ of [0-9]+" 20
check "--inspect: the card follows" wait_for "$CARD" 40
card=$(screen | grep -m1 -E "$CARD" | sed 's/ on .*//; s/^ //')
tm send-keys -t t j j Enter
check "Enter on a row: its measurement" wait_for "the measurement behind it" 5
check "... which is pinned D2H 64 MiB" wait_for "direction +< d2h >" 5
tm send-keys -t t I
check "I: the card again, without measuring again ($card)" \
    wait_for "^ $(literal "$card") on " 5
quit_ok insp "--inspect"
"$BIN" --batch --inspect --replay "$TMPD/insp.gtr" --format json >"$TMPD/insp.json" 2>"$TMPD/insp.err"
check "the TUI's recorded inspection prints in batch mode, its status the screen's (exit $?)" \
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
want = {'PASS': 0, 'WARN': 2, 'FAIL': 3, 'BUSY': 4}[sys.argv[2].split(':')[0]]
assert d['status'] == want and len(d['rows']) > 20, (d['status'], want)
" "$TMPD/insp.json" "$card"

# Two TUIs on one GPU take turns, and each says so on its status line.
SOCK2="gputui-e2e-$$-second"
tmux -L "$SOCK2" new-session -d -s t -x 160 -y 40 \
    "TERM=$E2E_TERM LC_ALL=C.UTF-8 '$BIN' -e zerocopy; sleep 5"
start shared 160 40 "LC_ALL=C.UTF-8 '$BIN' -e zerocopy"
check "two TUIs: the first says the GPU is shared" \
    wait_for "GPU shared with 1 other gputui \(waited [0-9.]+ ms a sample\)" 20
seen=no
for _ in $(seq 100); do
    tmux -L "$SOCK2" capture-pane -p -t t >"$TMPD/second.txt" 2>&1
    grep -q "GPU shared with 1 other gputui" "$TMPD/second.txt" &&
        { seen=yes; break; }
    sleep 0.2
done
[ $seen = yes ] || tail -3 "$TMPD/second.txt"
check "two TUIs: the second says so too" [ $seen = yes ]
tmux -L "$SOCK2" kill-server 2>/dev/null
tm send-keys -t t q
wait_rc shared 15 >/dev/null
stop

# Compare mode: this GPU live (A) against its model's bundled recording (B).
model=$("$BIN" --list-devices | head -1 | sed -n 's/^0: NVIDIA \([A-Za-z0-9]*\).*/\1/p' | tr 'A-Z' 'a-z')
if [ -f "share/gputui/$model.gtr.gz" ]; then
    start cmp 120 40 "LC_ALL=C.UTF-8 '$BIN' --compare $model"
    check "compare live: A is this GPU, live" wait_for "COMPARE A: NVIDIA .* \(this GPU, live\)" 20
    check "compare live: the ratio to the recording" wait_for "H2D bandwidth GB/s .* A/B [0-9]+\.[0-9]+x" 20
    tm send-keys -t t d
    n=$(nvidia-smi -L 2>/dev/null | wc -l)
    check "compare live: d keeps A and B" wait_for "d: compare mode keeps A and B" 5
    quit_ok cmp "compare live" 15
    if [ "$n" = 1 ]; then
        start one 120 40 "LC_ALL=C.UTF-8 '$BIN'"
        wait_for "RUNNING" 20
        tm send-keys -t t d
        check "d on a machine with one GPU says so" wait_for "d: this machine has one CUDA device" 5
        tm send-keys -t t q
        wait_rc one 15 >/dev/null
        stop
    fi
else
    echo "skip compare live: no bundled recording of '$model'"
fi

# Two GPUs: the peer experiment live, and d moves it to the other GPU (the
# worker's context torn down, the other one's made). As one GPU
# (CUDA_VISIBLE_DEVICES=0) the pane says what is missing.
start peer0 120 40 "LC_ALL=C.UTF-8 CUDA_VISIBLE_DEVICES=0 '$BIN' -e peer"
check "peer on one GPU, -e peer: exit 64" [ "$(wait_rc peer0 20)" = 64 ]
check "... with the reason, the terminal given back" \
    bash -c "tmux -L '$SOCK' capture-pane -p -J -t t | grep -q 'needs two GPUs; this machine has one' && [ \"\$(tmux -L '$SOCK' display -p -t t '#{alternate_on}')\" = 0 ]"
stop
start peer1 120 40 "LC_ALL=C.UTF-8 CUDA_VISIBLE_DEVICES=0 '$BIN'"
wait_for "RUNNING" 20
for _ in 1 2 3 4 5 6 7; do tm send-keys -t t e; done      # transfer ... pitched, peer
check "peer on one GPU, chosen in the TUI: the status says it needs two" \
    wait_for "needs two GPUs; this machine has one" 20
quit_ok peer1 "peer on one GPU" 15
gpus=$("$BIN" --list-devices 2>/dev/null | grep -c '^[0-9][0-9]*: ')
if [ "$gpus" -ge 2 ]; then
    start peer2 120 40 "LC_ALL=C.UTF-8 '$BIN' -e peer --size 64M"
    check "peer live: the copy against the NVLink ceiling" \
        wait_for "this reads peer bandwidth GB/s +p50 [0-9.]+ = [0-9.]+% of NVL" 20
    check "peer live: GPU 0 with GPU 1" wait_for "GPU 0 with GPU 1, peer access enabled" 10
    tm send-keys -t t d
    check "peer live, d: device 2 of $gpus" wait_for "device 2 of $gpus: NVIDIA" 20
    check "peer live, d: now GPU 1 with GPU 0" wait_for "GPU 1 with GPU 0, peer access enabled" 20
    check "peer live, d: samples on the other GPU" wait_for " [1-9][0-9]* samples" 20
    quit_ok peer2 "peer live" 15
fi

start mono 100 30 "NO_COLOR=1 LC_ALL=C '$BIN' --dir bidir --size 8M"
check "monochrome ASCII: runs" wait_for "RUNNING" 20
check "monochrome ASCII: both directions" wait_for "D2H bandwidth" 10
check "monochrome ASCII: clean screen" clean_screen
check "monochrome ASCII: no UTF-8 blocks" bash -c "! tmux -L '$SOCK' capture-pane -p -t t | grep -q $'\u2588'"
pid=$(tm display -p -t t '#{pane_pid}')
pkill -TERM -P "$pid" gputui
check "SIGTERM exits 143" [ "$(wait_rc mono 15)" = 143 ]
check "SIGTERM: terminal restored" bash -c "[ \"\$(tmux -L '$SOCK' display -p -t t '#{alternate_on}')\" = 0 ]"
stop

start small 80 24 "'$BIN' --host register --mapped --method sm"
check "80x24 fits" wait_for "RUNNING" 20
check "80x24: histogram drawn" wait_for "H2D latency" 5
tm send-keys -t t C-c
check "Ctrl-C exits 130" [ "$(wait_rc small 15)" = 130 ]
stop

# A failed allocation: message in the status line, no exit, and another
# configuration works afterwards.
start fault 120 40 "GPUTUI_FAULT_ALLOC=2 '$BIN' --size 32M"
check "failed allocation: shown in the status line" wait_for "ERROR: .*cudaErrorMemoryAllocation" 20
for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done
tm send-keys -t t -
check "failed allocation: another size then runs" wait_for "RUNNING .* [1-9][0-9]* samples" 20
tm send-keys -t t q
check "failed allocation: q exits 0" [ "$(wait_rc fault 15)" = 0 ]
stop

# Streams: the timeline, one row per stream, and the toggles.
start streams 120 40 "'$BIN' -e streams --streams 4"
check "streams: runs" wait_for "RUNNING" 30
check "streams: timeline legend" wait_for "Timeline of the last iteration +> H2D +# kernel +< D2H" 10
check "streams: four stream rows" wait_for "^ stream 3 +\\|" 5
check "streams: speed-up line" wait_for "speed-up [0-9.]+x" 10
check "streams: engines shown" wait_for "asyncEngineCount [0-9]+, concurrentKernels" 5
screen >"${GPUTUI_LOG_DIR:-/tmp}/tui-streams.txt" 2>/dev/null || true
for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done         # select legacy-sync
tm send-keys -t t Space
check "streams: legacy default-stream kernel on" wait_for "default-stream kernel +\\[x\\]" 5
check "streams: new samples" wait_for "RUNNING .* [1-9][0-9]* samples" 20
tm send-keys -t t q
check "streams: q exits 0" [ "$(wait_rc streams 15)" = 0 ]
stop

# VMM: eleven series on one screen, each call's histogram.
start vmm 120 40 "'$BIN' -e vmm --size 64M"
check "vmm: runs" wait_for "RUNNING" 30
wait_for "^ cudaFreeAsync +[0-9.]+ [mun]?s" 15
check "vmm: every call has a row of the table of series" bash -c "s=\$(tmux -L '$SOCK' capture-pane -p -t t); for c in cuMemAddressReserve cuMemCreate cuMemMap cuMemSetAccess cuMemUnmap cuMemRelease cuMemAddressFree cudaMalloc cudaFree cudaMallocAsync cudaFreeAsync; do grep -Eq \"^ \$c +[0-9.]+ [mun]?s\" <<<\"\$s\" || exit 1; done"
check "vmm: granularity and rounding" wait_for "size 64 MiB rounds up to 64 MiB: .* wasted" 10
screen >"${GPUTUI_LOG_DIR:-/tmp}/tui-vmm.txt" 2>/dev/null || true
tm send-keys -t t q
check "vmm: q exits 0" [ "$(wait_rc vmm 15)" = 0 ]
stop

# L2: the panel shows the persisting limit the experiment set, and the
# context's own limit again once another experiment runs.
start l2 120 40 "'$BIN' -e pitched --height 1024"
check "l2: pitched runs first" wait_for "RUNNING" 30
limit0=$(screen | sed -n 's/^  persisting limit *\([0-9.]* [KMG]*i*B\).*/\1/p' | head -1)
check "l2: the panel shows the context's persisting limit ($limit0)" [ -n "$limit0" ]
tm send-keys -t t E
check "l2: runs" wait_for "Experiment: L2 persistence" 10
check "l2: speed-up line" wait_for "speed-up with the window [0-9.]+x" 30
pmax=$(screen | sed -n 's/^  persisting max *\([0-9.]* [KMG]*i*B\).*/\1/p' | head -1)
check "l2: the panel shows the set-aside, all of persisting max ($pmax)" \
    wait_for "^  persisting limit +$pmax" 10
screen >"${GPUTUI_LOG_DIR:-/tmp}/tui-l2.txt" 2>/dev/null || true
tm send-keys -t t e
check "l2: leaving restores the context's limit ($limit0)" wait_for "^  persisting limit +$limit0" 20
tm send-keys -t t q
check "l2: q exits 0" [ "$(wait_rc l2 15)" = 0 ]
stop

echo "tui: $E2E_PASS passed, $E2E_FAIL failed"
[ $E2E_FAIL = 0 ]
