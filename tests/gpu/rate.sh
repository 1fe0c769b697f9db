#!/usr/bin/env bash
# Every experiment's default configuration in the TUI under tmux (peer with
# two GPUs): samples a second per series once it runs, against a floor
# (default 10; 1 for runtime, which starts a process every sample). One
# TUI steps through the experiments with 'e', as a user would; each is
# counted from its own first sample (the status line's "N samples" belong
# to the configuration on screen). Prints one "ok"/"FAIL" line per
# experiment. Usage: rate.sh BIN [FLOOR]
set -u
BIN=$(realpath "$1"); FLOOR=${2:-10}
TMPD=$(mktemp -d)
trap 'stop; rm -rf "$TMPD"' EXIT
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh

# The status line: "RUNNING  N iterations  M samples"; M: samples a series
# of the configuration on screen.
samples() { screen | sed -n 's/.*RUNNING  [0-9][0-9]* iterations  \([0-9][0-9]*\) samples.*/\1/p' | head -1; }
# Every experiment gputui lists, in the order 'e' steps through them, with
# its title as the parameter pane shows it ("Experiment: TITLE").
mapfile -t exps < <("$BIN" --help all | sed -n "s/^experiment '\([a-z0-9_]*\)' (\(.*\)):$/\1|\2/p")
two=0
[ "$("$BIN" --list-devices 2>/dev/null | grep -c '^[0-9][0-9]*: ')" -ge 2 ] && two=1
start rate 160 50 "'$BIN' -e ${exps[0]%%|*}"
for k in "${!exps[@]}"; do
    e=${exps[$k]%%|*} title=${exps[$k]#*|}
    [ "$k" = 0 ] || tm send-keys -t t e
    if ! wait_for "Experiment: $(literal "$title")" 10; then
        echo "FAIL tui rate -e $e: 'e' did not bring it up: $(screen | tail -2 | tr -s ' ')"
        break
    fi
    [ "$e" = peer ] && [ $two = 0 ] && continue     # needs two GPUs: says so, not counted
    if ! wait_for "RUNNING  [0-9]+ iterations  [1-9][0-9]* samples" 60; then
        echo "FAIL tui rate -e $e: did not start sampling: $(screen | grep -m1 -i 'error\|fail')"
        continue
    fi
    # Counted from a first reading until 30 more samples or 1.5 s, whichever
    # comes first: a fast experiment needs no second and a half.
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
done
tm send-keys -t t q
stop
