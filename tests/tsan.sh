#!/usr/bin/env bash
# make test-tsan: every unit test built with ThreadSanitizer (the engine's
# worker thread and sample queue driven by the fake and replay back-ends),
# then the replay TUI built the same way, driven under tmux for a few
# seconds of parameter changes, pauses, experiment switches and a sweep.
# Any ThreadSanitizer report fails it.
# Usage: tsan.sh TSAN_GPUTUI TSAN_UNIT_TEST...
set -u
BIN=$(realpath "$1"); shift
pass=0 fail=0
TMPD=$(mktemp -d)
trap 'stop; rm -rf "$TMPD"' EXIT
. "$(dirname "$0")/e2e/lib.sh"
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"

for t in "$@"; do
    if "$t" >"$TMPD/unit.log" 2>&1; then
        pass=$((pass + 1)); echo "ok   tsan $(basename "$t")"
    else
        fail=$((fail + 1)); echo "FAIL tsan $(basename "$t")"; grep -A30 "ThreadSanitizer\|FAILED" "$TMPD/unit.log" | head -60
    fi
done

# The replay TUI: the engine's thread feeds samples while keys reconfigure.
export TSAN_OPTIONS="$TSAN_OPTIONS log_path=$TMPD/tui-tsan"
# (in the scratch directory: 'x' writes its files there)
start tsan 120 40 "cd '$TMPD' && TSAN_OPTIONS='$TSAN_OPTIONS' '$BIN' --replay '$PWD/share/gputui/h200.gtr.gz'"
if wait_for "Experiment: Host/device transfer" 30; then
    for k in j + + - - p p e e e w w e x x r c n n N; do
        tm send-keys -t t "$k"; sleep 0.3
    done
    tm send-keys -t t q
    rc=$(wait_rc tsan 30)
else
    rc="did not start"
fi
stop
if [ "$rc" = 0 ] && ! ls "$TMPD"/tui-tsan* >/dev/null 2>&1; then
    pass=$((pass + 1)); echo "ok   tsan replay TUI: keys for 6 s, q exits 0, no report"
else
    fail=$((fail + 1)); echo "FAIL tsan replay TUI: exit $rc"; cat "$TMPD"/tui-tsan* 2>/dev/null | head -80
fi
echo "tsan: $pass passed, $fail failed"
[ $fail = 0 ]
