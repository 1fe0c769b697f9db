#!/usr/bin/env bash
# make test: unit tests (ASan+UBSan), the same and the replay TUI under
# ThreadSanitizer (TSAN_GPUTUI, TSAN_UNITS), the structure of the source
# tree (tests/layers.py), the documentation (tests/docs.py), the GPU
# suite's judging on recorded figures (tests/gpu/test_judge.py), the batch
# outputs kept byte for byte (tests/golden/run.sh) and the end-to-end
# tests, all at once (most of their time is waiting on a TUI under tmux,
# each on its own socket); then each one's output in turn and one summary
# line. The GPU suite needs a GPU; without one it is reported
# as skipped.
set -u
BIN=$1; shift
UNIT=("$@")
pass=0 fail=0 skip=0
LOGD=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$LOGD"' EXIT
t0=$SECONDS

unit() {
    export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
    local log=$LOGD/unit.one p f rc np=0 nf=0
    for t in "${UNIT[@]}"; do
        "$t" >"$log" 2>&1
        rc=$?
        p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log")
        f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log")
        np=$((np + ${p:-0})); nf=$((nf + ${f:-0}))
        if [ $rc != 0 ]; then
            cat "$log"
            [ -z "$f" ] && nf=$((nf + 1))     # crashed or sanitizer report
            echo "FAILED: $t"
        else
            echo "ok   $(basename "$t"): ${p:-0} tests"
        fi
    done
    echo "unit: $np passed, $nf failed"
}

# run NAME CMD...: in the background, its output in LOGD/NAME.log
run() {
    local name=$1; shift
    ( s=$SECONDS; "$@"; echo "($name: $((SECONDS - s)) s)" ) >"$LOGD/$name.log" 2>&1 &
    pids+=($!)
}
# How soon the viewer's first figures are on screen, first and alone: the
# suites below, all at once, load both cores of a small machine (a start
# beside them took 40 to 470 ms).
tests/e2e/starts.sh "$BIN" >"$LOGD/starts.log" 2>&1
rc=$? np=$(grep -c '^ok' "$LOGD/starts.log") nf=$(grep -c '^FAIL' "$LOGD/starts.log")
[ $rc != 0 ] && [ "$nf" = 0 ] && nf=1          # it did not run
echo "starts: $np passed, $nf failed" >>"$LOGD/starts.log"
export GPUTUI_STARTS_TAKEN=1
run unit unit
[ -n "${TSAN_GPUTUI:-}" ] && run tsan tests/tsan.sh "$TSAN_GPUTUI" ${TSAN_UNITS:-}
run layers python3 tests/layers.py "$(dirname "$BIN")"
run docs python3 tests/docs.py "$BIN"
run judge python3 tests/gpu/test_judge.py
run e2e tests/e2e/run.sh "$BIN"
run golden tests/golden/run.sh "$BIN"
wait "${pids[@]}"

count() {   # count NAME: adds "NAME: N passed, M failed" from its log
    local p f
    p=$(sed -n "s/^$1: \([0-9]*\) passed, \([0-9]*\) failed\$/\1/p" "$LOGD/$1.log")
    f=$(sed -n "s/^$1: \([0-9]*\) passed, \([0-9]*\) failed\$/\2/p" "$LOGD/$1.log")
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))
}
echo "== the viewer's first figures, alone on the machine (tests/e2e/starts.sh)"
cat "$LOGD/starts.log"; count starts
echo "== unit tests (cmocka, ASan + UBSan)"
cat "$LOGD/unit.log"; count unit
if [ -n "${TSAN_GPUTUI:-}" ]; then
    echo "== ThreadSanitizer: unit tests and the replay TUI"
    cat "$LOGD/tsan.log"; count tsan
fi
echo "== structure: folders and their rules, no files that call each other, tables"
grep -v '^ok ' "$LOGD/layers.log"; count layers
echo "== documentation: README.md, docs/ and their links and commands"
grep -v '^ok ' "$LOGD/docs.log"; count docs
echo "== the GPU suite's judging, on recorded figures (no GPU)"
grep -v '^ok ' "$LOGD/judge.log"; count judge
echo "== batch outputs of the bundled recordings, byte for byte (tests/golden)"
cat "$LOGD/golden.log"; count golden
echo "== end-to-end tests (tmux)"
cat "$LOGD/e2e.log"; count e2e

if "$BIN" --version | grep -q '^build: replay viewer'; then
    echo "GPU suite SKIPPED: this is the replay viewer, built without the CUDA toolkit; build with the toolkit and run 'make test-gpu' on a machine with a GPU."
    skip=1
elif scripts/gpu-available.sh "$BIN"; then
    echo "GPU present: the GPU suite is 'make test-gpu' (not part of make test)."
else
    echo "GPU suite SKIPPED: no usable CUDA device here; run 'make test-gpu' on a machine with a GPU."
    skip=1
fi
echo "test: $pass passed, $fail failed, $skip skipped, in $((SECONDS - t0)) s"
[ $fail = 0 ]
