#!/usr/bin/env bash
# Every experiment's default configuration in the TUI under tmux (peer with
# two GPUs): samples a second per series once it runs, against a floor
# (default 10; 1 for runtime, which starts a process every sample). Prints
# one "ok"/"FAIL" line per experiment. Usage: rate.sh BIN [FLOOR]
set -u
BIN=$(realpath "$1"); FLOOR=${2:-10}
TMPD=$(mktemp -d)
trap 'stop; rm -rf "$TMPD"' EXIT
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh

# The status line: "RUNNING  N iterations  M samples"; an iteration gives
# one sample of each series.
samples() { screen | sed -n 's/.*RUNNING  \([0-9][0-9]*\) iterations .*/\1/p' | head -1; }
# Every experiment gputui lists; peer only with two GPUs.
exps=$("$BIN" --batch -e none 2>&1 | sed -n 's/.*(allowed: \(.*\))$/\1/p' | tr -d ,)
[ "$("$BIN" --list-devices 2>/dev/null | grep -c '^[0-9][0-9]*: ')" -ge 2 ] || exps=${exps/peer/}
for e in $exps; do
    start "rate-$e" 160 50 "'$BIN' -e $e"
    if ! wait_for "RUNNING" 60 || ! wait_for "RUNNING  [1-9][0-9]* iterations" 30; then
        echo "FAIL tui rate -e $e: did not start sampling: $(screen | grep -m1 -i 'error\|fail')"
        stop; continue
    fi
    # Counted from a first reading until 30 more iterations or 1.5 s,
    # whichever comes first: a fast experiment needs no second and a half.
    sleep 0.3
    a=$(samples); t0=$(date +%s%3N)
    while :; do
        sleep 0.05
        b=$(samples); t1=$(date +%s%3N)
        [ $((${b:-0} - ${a:-0})) -ge 30 ] || [ $((t1 - t0)) -ge 1500 ] && break
    done
    rate=$(python3 -c "print('%.1f' % ((${b:-0} - ${a:-0}) / (($t1 - $t0) / 1e3)))")
    # runtime starts a process and a CUDA context every sample (~0.3 s)
    floor=$FLOOR; [ "$e" = runtime ] && floor=1
    if python3 -c "import sys; sys.exit(0 if $rate >= $floor else 1)"; then
        echo "ok   tui rate -e $e: $rate samples/s a series (floor $floor)"
    else
        echo "FAIL tui rate -e $e: $rate samples/s a series, below $floor"
    fi
    tm send-keys -t t q
    stop
done
