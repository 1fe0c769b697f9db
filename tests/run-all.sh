#!/usr/bin/env bash
# make test: unit tests (ASan+UBSan), the same and the replay TUI under
# ThreadSanitizer (TSAN_GPUTUI, TSAN_UNITS), the structure of the source tree
# (tests/layers.py), end-to-end tests, then one summary line. The GPU suite
# needs a GPU; without one it is reported as skipped.
set -u
BIN=$1; shift
UNIT=("$@")
pass=0 fail=0 skip=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== unit tests (cmocka, ASan + UBSan)"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
for t in "${UNIT[@]}"; do
    "$t" >"$log" 2>&1
    rc=$?
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log")
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log")
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
    if [ $rc != 0 ]; then
        cat "$log"
        [ -z "$f" ] && fail=$((fail + 1))     # crashed or sanitizer report
        echo "FAILED: $t"
    else
        echo "ok   $(basename "$t"): ${p:-0} tests"
    fi
done

if [ -n "${TSAN_GPUTUI:-}" ]; then
    echo "== ThreadSanitizer: unit tests and the replay TUI"
    # shellcheck disable=SC2086
    tests/tsan.sh "$TSAN_GPUTUI" $TSAN_UNITS | tee "$log"
    p=$(sed -n 's/^tsan: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log")
    f=$(sed -n 's/^tsan: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log")
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))
fi

echo "== structure: folders and their rules, no files that call each other"
python3 tests/layers.py "$(dirname "$BIN")" >"$log" 2>&1
grep -v '^ok ' "$log"
p=$(sed -n 's/^layers: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log")
f=$(sed -n 's/^layers: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log")
pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))

echo "== end-to-end tests (tmux)"
tests/e2e/run.sh "$BIN" | tee "$log"
p=$(sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log")
f=$(sed -n 's/^e2e: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log")
pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))

if "$BIN" --version | grep -q '^build: replay viewer'; then
    echo "GPU suite SKIPPED: this is the replay viewer, built without the CUDA toolkit; build with the toolkit and run 'make test-gpu' on a machine with a GPU."
    skip=1
elif scripts/gpu-available.sh "$BIN"; then
    echo "GPU present: the GPU suite is 'make test-gpu' (not part of make test)."
else
    echo "GPU suite SKIPPED: no usable CUDA device here; run 'make test-gpu' on a machine with a GPU."
    skip=1
fi
echo "test: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
