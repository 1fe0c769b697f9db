#!/usr/bin/env bash
# End-to-end tests of the classroom without a GPU: a replayed configuration
# stays live, 'd' moves between the bundled GPUs, "before" belongs to one
# experiment, and compare mode (TUI and batch) on the bundled H200 and
# H100 recordings. Needs no GPU.
# Usage: classroom.sh BIN TMPDIR (writes TMPDIR/classroom.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
A=share/gputui/h200.gtr.gz
B=share/gputui/h100.gtr.gz

samples() { screen | sed -n 's/.* \([0-9][0-9]*\) samples.*/\1/p' | head -1; }

# One configuration for 10 s: its 300 recorded samples play in well under
# a second, then again and again, pass after pass, and the screen keeps
# changing; the figures are of the 300, each counted once.
start live 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay $A --size 4M"
wait_for " [1-9][0-9]* samples" 10
pass() { screen | sed -n 's/.*recorded samples, pass \([0-9][0-9]*\) .*/\1/p' | head -1; }
changes=0 last=$(pass) h_last=$(screen) stuck=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
    sleep 1
    now=$(pass); h_now=$(screen)
    [ "${now:-0}" -gt "${last:-0}" ] || stuck=1
    [ "$h_now" != "$h_last" ] && changes=$((changes + 1))
    last=$now h_last=$h_now
done
check "one configuration for 10 s: the pass rose every second (now pass $last)" [ $stuck = 0 ]
check "one configuration for 10 s: the screen changed in $changes of 10 seconds" [ $changes = 10 ]
n=$(samples)
want=$("$BIN" --batch --replay $A --size 4M --format json 2>/dev/null |
       python3 -c "import json, sys; print(json.load(sys.stdin)['runs'][0]['series'][0]['latency_s']['count'])")
check "... and its figures are of the recorded samples, each once ($n, as --batch --replay counts)" \
    [ "$n" = "$want" ]
check "the status line counts the passes" wait_for "replaying [0-9]+ recorded samples, pass ([2-9]|[1-9][0-9]+)" 5
tm send-keys -t t n
check "n still steps to the next recorded configuration" wait_for "recorded configuration [0-9]+ of [0-9]+" 5
tm send-keys -t t p
check "p still pauses the replay" wait_for "PAUSED  replaying" 5
sleep 0.5                   # samples already queued still arrive
a=$(pass); sleep 1; b=$(pass)
check "paused: the replay stands (pass $a, then $b)" [ "$a" = "$b" ]
tm send-keys -t t p
quit_ok live "live replay"

# "before" belongs to an experiment: after e, the zero-copy blocks have no
# transfer run behind them; coming back, transfer's own last run is there.
start before 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay $A"
wait_for "^ now +[0-9]" 10
tm send-keys -t t e
wait_for "Experiment: Zero-copy" 10
wait_for "explicit latency per sample" 10
check "switching experiments leaves no foreign 'before'" wait_for "^ before -  \\(change a parameter" 5
check "... and no 'before' figures at all in zero-copy" bash -c "! tmux -L '$SOCK' capture-pane -p -t t | grep -q '^ before  *[0-9]'"
tm send-keys -t t E
wait_for "Experiment: Host/device transfer" 10
check "coming back restores the experiment's own previous run as 'before'" wait_for "^ before +[0-9.]+ +[0-9.]+" 10
tm send-keys -t t q
wait_rc before 10 >/dev/null
stop

# d: the bundled recordings, one after the other (an H200, an H100, and
# GPU 0 of two H200s joined by NVLink, which holds the peer experiment);
# the header says which. (GPUTUI_DATA_DIR points at them as an
# installation would.)
if "$BIN" --list-devices >/dev/null 2>&1; then
    echo "skip d between bundled recordings: a CUDA device is present"
else
    start dev 120 40 "LC_ALL=C.UTF-8 GPUTUI_DATA_DIR=share/gputui '$BIN'"
    check "no GPU: the header names the recorded GPU shown" wait_for "REPLAY recorded GPU 1 of 3 \\(d: next\\): NVIDIA H200" 10
    tm send-keys -t t d
    check "d: the other recorded GPU" wait_for "REPLAY recorded GPU 2 of 3 \\(d: next\\): NVIDIA H100" 10
    check "d: the status line says so" wait_for "device 2 of 3: NVIDIA H100" 5
    check "d: samples from the H100 recording" wait_for " [1-9][0-9]* samples" 10
    tm send-keys -t t d
    check "d: the two-GPU recording" wait_for "REPLAY recorded GPU 3 of 3 \\(d: next\\): NVIDIA H200" 10
    tm send-keys -t t d
    check "d again: back to the H200" wait_for "REPLAY recorded GPU 1 of 3 \\(d: next\\): NVIDIA H200" 10
    quit_ok dev "d"
    start dev1 120 40 "LC_ALL=C.UTF-8 GPUTUI_DATA_DIR=share/gputui '$BIN' --device 1"
    check "--device 1 starts on the second recorded GPU" wait_for "REPLAY recorded GPU 2 of 3 \\(d: next\\): NVIDIA H100" 10
    tm send-keys -t t q
    wait_rc dev1 10 >/dev/null
    stop
    start dev5 120 40 "GPUTUI_DATA_DIR=share/gputui '$BIN' --device 5"
    check "--device 5 without a GPU: exit 64" [ "$(wait_rc dev5 10)" = 64 ]
    check "... naming the recorded devices" wait_for "hold devices 0 to 2 \(h200, h100, 2xh200\)" 5
fi
stop

# Compare mode in the TUI: both devices named, A as now and B as the ghost
# with the ratio of medians; a change moves both; B's missing configuration
# is said.
start cmp 120 40 "LC_ALL=C.UTF-8 '$BIN' --compare h200 h100 --size 64M"
check "compare: the header names both devices" wait_for "COMPARE A: NVIDIA H200 vs B: NVIDIA H100" 10
check "compare: a ratio of medians in the blocks" wait_for "H2D bandwidth GB/s .* H200/H100 [0-9]+\\.[0-9]+x" 10
check "compare: A's and B's statistics rows" bash -c "tmux -L '$SOCK' capture-pane -p -t t | grep -q '^ H200  *[0-9]' && tmux -L '$SOCK' capture-pane -p -t t | grep -q '^ H100  *[0-9]'"
tm send-keys -t t j; tm send-keys -t t Space          # method: sm
check "compare: a change moves both sides" wait_for "copy method +< sm >" 5
check "compare: B follows (its row at the new configuration)" wait_for "^ H100  *[0-9]" 10
tm send-keys -t t e
check "compare: zero-copy on both" wait_for "explicit latency per sample  H200/H100 [0-9.]+x" 10
for _ in 1 2 3 4; do tm send-keys -t t e; done        # l2
wait_for "Experiment: L2 persistence" 10
for _ in 1 2 3 4 5 6 7; do tm send-keys -t t j; done     # region
tm send-keys -t t Enter; tm send-keys -t t -l 13M; tm send-keys -t t Enter
check "compare: a configuration only A holds says so" wait_for "H100 +-  \\(B has no recording of this configuration\\)" 10
tm send-keys -t t d
check "compare: d says A and B stay" wait_for "d: compare mode keeps A and B" 5
quit_ok cmp "compare"

# Compare in batch mode: every shared configuration with both medians, the
# ratio and the verification counts, then the one-sided ones.
"$BIN" --batch --compare h200 h100 --format json >"$TMPD/cmp.json" 2>"$TMPD/cmp.err"
check "batch compare: JSON with shared and one-sided configurations" python3 - "$TMPD/cmp.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"]["device"] == "NVIDIA H200" and d["b"]["device"].startswith("NVIDIA H100"), d["a"]
assert len(d["shared"]) > 1000, len(d["shared"])
assert d["only_a"] and d["only_b"], "the L2 region sweep differs between the two L2 sizes"
for c in d["shared"]:
    for s in c["series"]:
        for side in ("a", "b"):
            assert s[side]["verified"] > 0 and s[side]["failed"] == 0, (c["config"], s)
        # a series all of whose samples another program disturbed (sharing
        # beside=stranger) has no clean median, so no ratio, and says so
        if any(s[side]["disturbed_left_out"] == s[side]["verified"] for side in ("a", "b")):
            assert s["latency_a_over_b"] is None, (c["config"], s)
            continue
        assert s["latency_a_over_b"] > 0
pin = [c for c in d["shared"] if c["experiment"] == "transfer" and
       c["config"].startswith("dir=h2d method=ce host=pinned size=64M ")]
assert pin, "no pinned 64 MiB H2D on both"
for c in pin:
    s = c["series"][0]
    r = s["a"]["bandwidth_p50_GBps"] / s["b"]["bandwidth_p50_GBps"]
    assert abs(r - s["bandwidth_a_over_b"]) < 1e-6, (r, s)
EOF
check "batch compare: CSV rows for shared and one-sided" bash -c "
    '$BIN' --batch --compare $A $B --format csv >'$TMPD/cmp.csv' &&
    head -1 '$TMPD/cmp.csv' | grep -q '^kind,experiment,config,series,a_latency_p50_s' &&
    grep -q '^shared,transfer,' '$TMPD/cmp.csv' && grep -q '^only_a,l2,' '$TMPD/cmp.csv' &&
    grep -q '^only_b,l2,' '$TMPD/cmp.csv'"
check "batch compare: text ends with the counts" bash -c "
    '$BIN' --batch --compare h200 h100 | tail -1 | grep -Eq '^[0-9]+ configurations on both, [0-9]+ on A \\(H200\\) only, [0-9]+ on B \\(H100\\) only'"
msg=$("$BIN" --batch --compare h200 h300 2>&1); rc=$?
check "compare: an unknown name is exit 64 naming the bundled models" \
    bash -c "[ $rc = 64 ] && grep -q \"'h300' is neither a file nor a bundled recording (bundled: h200, h100\" <<<\"\$0\"" "$msg"
msg=$("$BIN" --batch --compare h200 2>&1); rc=$?
check "batch compare with one recording: exit 64, says both are needed" \
    bash -c "[ $rc = 64 ] && grep -q 'needs two recordings' <<<\"\$0\"" "$msg"

e2e_part_done classroom
