#!/usr/bin/env bash
# A class following the teacher on the GPU machine: the teacher's live TUI
# records (--record, --trace), and 30 students follow it under tmux, 29
# from the file and one across a pipe (tail -F | --replay - --follow).
# For three of the teacher's keys: from the key (the teacher's --trace
# gives when it was read) to the new configuration's first sample drawn
# on each student's screen (theirs), all under 1.5 s.
# Usage: follow.sh BIN
set -u
BIN=$(realpath "$1")
TMPD=$(mktemp -d)
N=${FOLLOWERS:-30}
cd "$(dirname "$0")/../.."
. tests/e2e/lib.sh
trap 'tmux -L "gputui-follow-$$" kill-server 2>/dev/null; stop; rm -rf "$TMPD"' EXIT

C=$TMPD/class.gtr
start teacher 140 45 "LC_ALL=C.UTF-8 '$BIN' --size 16M --record '$C' --trace '$TMPD/teacher.trace'"
check "teacher: live, recording" wait_for "REC [0-9]+/300" 20
MANY="gputui-follow-$$"
for i in $(seq 1 "$N"); do
    if [ "$i" = 1 ]; then
        cmd="tail -c +1 -F $(printf %q "$C.partial") 2>/dev/null | $(printf %q "$BIN") --replay - --follow"
    else
        cmd="$(printf %q "$BIN") --replay $(printf %q "$C") --follow"
    fi
    printf 'export TERM=%s LC_ALL=C.UTF-8\n%s --trace %q\n' "$E2E_TERM" "$cmd" \
        "$TMPD/s$i.trace" >"$TMPD/s$i.sh"
    tmux -L "$MANY" -f /dev/null new-session -d -s "s$i" -x 120 -y 40 "bash $TMPD/s$i.sh"
done
# Every student has drawn a sample (a --trace line) after T0.
drawn_after() {
    awk -v t0="$1" -v n="$N" '$3 > t0 && !(FILENAME in s) { s[FILENAME] = 1; k++ }
        END { exit k < n }' "$TMPD"/s*.trace 2>/dev/null
}
lines_above() { [ "$(wc -l <"$1")" -gt "$2" ]; }
until_ok 20 drawn_after 0 || echo "FAIL students: not all $N drew a sample in 20 s"
check "students: the teacher's configuration on the screen of one following the file" \
    bash -c "tmux -L '$MANY' capture-pane -p -t s2 | grep -q 'following: last sample'"
check "students: ... and of the one following across a pipe" \
    bash -c "tmux -L '$MANY' capture-pane -p -t s1 | grep -q 'FOLLOWING standard input'"
for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done        # the size
# Each key once the one before is on every student's screen.
for k in + + -; do
    c=$(wc -l <"$TMPD/teacher.trace")
    tm send-keys -t t "$k"
    until_ok 5 lines_above "$TMPD/teacher.trace" "$c" ||
        echo "FAIL teacher: no sample of the new configuration 5 s after '$k'"
    until_ok 5 drawn_after "$(tail -n 1 "$TMPD/teacher.trace" | awk '{ printf "%.6f", $3 - $2 / 1e3 }')"
done
tm send-keys -t t q
# The teacher's trace: a line a configuration, "gen ms drawn": the key was
# read at drawn - ms. Its last three are the keys above.
keys=$(tail -n 3 "$TMPD/teacher.trace" | awk '{ printf "%.6f\n", $3 - $2 / 1e3 }')
lats=$(for i in $(seq 1 "$N"); do
    for t0 in $keys; do
        awk -v t0="$t0" '$3 > t0 { printf "%.3f\n", $3 - t0; f = 1; exit } END { if (!f) print 99 }' \
            "$TMPD/s$i.trace"
    done
done | sort -n)
n=$(wc -l <<<"$lats")
med=$(sed -n "$(( (n + 1) / 2 ))p" <<<"$lats"); max=$(tail -n 1 <<<"$lats")
teacher=$(tail -n 3 "$TMPD/teacher.trace" | awk '{ printf "%s%.0f", (NR > 1 ? ", " : ""), $2 }')
check "follow: $N students, 3 keys: from the teacher's key to each screen's first sample, median ${med} s, slowest ${max} s (the teacher's own: ${teacher} ms; under 1.5 s)" \
    awk -v l="$max" -v n="$n" -v want=$((N * 3)) 'BEGIN { exit !(n == want && l < 1.5) }'
check "students: the recording ended (the teacher quit)" \
    until_ok 5 bash -c "tmux -L '$MANY' capture-pane -p -t s2 | grep -q 'the recording ended'"
for i in $(seq 1 "$N"); do tmux -L "$MANY" send-keys -t "s$i" q; done
check "students: all quit" until_ok 5 bash -c "! tmux -L '$MANY' ls 2>/dev/null | grep -q ."
echo "$E2E_PASS passed, $E2E_FAIL failed"
[ "$E2E_FAIL" = 0 ]
