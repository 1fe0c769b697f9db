#!/usr/bin/env bash
# End-to-end tests of the lessons without a GPU: every bundled lesson runs
# to its end in the TUI on the bundled H200 recording, each step showing a
# verdict; L opens the list and a digit starts a lesson; y shows the
# decomposition of a headline and t the recorded CUDA calls; --batch
# --lesson on both bundled recordings; bad names and bad lesson files.
# Usage: lessons.sh BIN TMPDIR (writes TMPDIR/lessons.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
A=share/gputui/h200.gtr.gz
VERDICT="VERDICT: (as expected|not on this machine|cannot tell here|too close to call here)"

for l in $("$BIN" --list-lessons | awk '/^[a-z]/ {print $1}'); do
    n=$("$BIN" --list-lessons | awk -v l="$l" '/^[a-z]/ && $1 == l {gsub(/[()]/, "", $(NF-1)); print $(NF-1)}')
    start "l-$l" 140 44 "LC_ALL=C.UTF-8 '$BIN' --replay $A --lesson $l"
    got=0
    for s in $(seq 1 "$n"); do
        wait_for "Lesson $l, step $s/$n" 10 && wait_for "$VERDICT" 60 && got=$((got + 1))
        [ "$s" -lt "$n" ] && tm send-keys -t t Space
    done
    check "lesson $l in replay: all $n steps reach a verdict ($got did)" [ "$got" = "$n" ]
    quit_ok "l-$l" "lesson $l"
done

# L, a digit: a lesson in two key presses; Backspace, Esc; y and t.
start keys 140 44 "LC_ALL=C.UTF-8 '$BIN' --replay $A"
wait_for " [1-9][0-9]* samples" 10
tm send-keys -t t L
check "L lists the lessons" wait_for "Lessons  \\(1-9" 5
tm send-keys -t t 5
check "L 5 starts the fifth lesson (overlap)" wait_for "Lesson overlap, step 1/6" 5
tm send-keys -t t Space Space Space Space
check "Space moves on: step 5 (an allocation between the chunks)" wait_for "Lesson overlap, step 5/6" 5
check "... and it reaches a verdict" wait_for "$VERDICT" 30
tm send-keys -t t t
check "t shows the recorded CUDA calls: the set-up" wait_for "cudaMallocHost\\(128 MiB\\) x2 -> cudaSuccess" 5
for _ in $(seq 1 40); do tm send-keys -t t Down; done
check "... scrolled: one iteration, with the allocations between the chunks" \
    wait_for "cudaMalloc\\(1 MiB\\) -> cudaSuccess" 5
for _ in $(seq 1 60); do tm send-keys -t t Down; done
check "... and the teardown" wait_for "^ teardown" 5
tm send-keys -t t t BSpace
check "Backspace goes back a step" wait_for "Lesson overlap, step 4/6" 5
tm send-keys -t t Escape
check "Esc leaves the lesson, the experiment stays" wait_for "left lesson overlap" 5
check "... the device panel is back" wait_for "asyncEngineCount" 5
for _ in $(seq 1 20); do      # e steps the recorded experiments round to transfer
    tm send-keys -t t e
    wait_for "Experiment: Host/device transfer" 1 && break
done
wait_for "H2D bandwidth GB/s +p50 [0-9]" 10
tm send-keys -t t y
check "y decomposes the headline: the PCIe steps" wait_for "line encoding 128b/130b: 63.0 GB/s" 5
check "... the max payload from the recording's device" wait_for "packets of 256 B payload" 5
check "... and the median's share of each" wait_for "measured p50 [0-9.]+ GB/s = [0-9]+% of raw" 5
quit_ok keys "lesson keys"

# --batch --lesson on both bundled recordings, text and JSON
for m in h200 h100; do
    out=$("$BIN" --batch --replay share/gputui/$m.gtr.gz --lesson overlap --format json 2>&1); rc=$?
    check "batch lesson on the $m recording: exit 0, six verdicts" bash -c "[ $rc = 0 ] &&
        python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert len(d[\"steps\"]) == 6 and all(s[\"verdict\"] in (\"as expected\", \"not on this machine\", \"too close to call here\") for s in d[\"steps\"])' \"\$0\"" "$out"
done
msg=$("$BIN" --lesson pinnned 2>&1); rc=$?
check "an unknown lesson: exit 64 naming the lessons" bash -c "[ $rc = 64 ] && grep -q \"unknown lesson 'pinnned' (allowed: pinned, pin-cost\" <<<\"\$0\"" "$msg"
msg=$("$BIN" --lesson pinned --size 4M 2>&1); rc=$?
check "--lesson with experiment options: exit 64" bash -c "[ $rc = 64 ] && grep -q 'cannot be used with experiment options' <<<\"\$0\"" "$msg"
mkdir -p "$TMPD/data/lessons"
cp share/gputui/h200.gtr.gz "$TMPD/data/"
printf '{\n  "lesson": "x",\n  "title": "x",\n  "steps": [{"title": "t", "experiment": "transfer",\n   "configs": [{"hots": "pinned"}], "say": ["s"], "expect": {"a": {"series": "H2D"}, "ceiling_above": 0.5}}]\n}\n' >"$TMPD/data/lessons/x.json"
msg=$(GPUTUI_DATA_DIR="$TMPD/data" "$BIN" --list-lessons 2>&1); rc=$?
check "a bad lesson file: exit 1, FILE:LINE and the problem" bash -c "[ $rc = 1 ] && grep -q 'x.json:5: unknown parameter \"hots\" of experiment transfer' <<<\"\$0\"" "$msg"

e2e_part_done lessons
