#!/usr/bin/env bash
# End-to-end tests of --replay FILE --follow without a GPU: a teacher's
# recording written as it goes by fakewriter (the engine on a fake
# back-end, the replay of the bundled H200, through the recorder), and
# students following it under tmux: from the file, across a pipe (tail -F),
# through garbage, a cut line and a writer that restarts; 30 followers at
# once, each new configuration on every screen within 1.5 s.
# Usage: follow.sh BIN TMPDIR (writes TMPDIR/follow.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
FW=$(dirname "$BIN")/fakewriter
REC=share/gputui/h200.gtr.gz
[ -x "$FW" ] || { bad "fakewriter is built beside $BIN"; e2e_part_done follow; exit 0; }

# teacher FILE: fakewriter writes FILE, taking commands on fd 7.
FWPID=""
teacher() {
    rm -f "$TMPD/cmd"; mkfifo "$TMPD/cmd"
    "$FW" "$REC" "$1" <"$TMPD/cmd" >>"$TMPD/shown.txt" 2>>"$TMPD/fw.err" &
    FWPID=$!
    exec 7>"$TMPD/cmd"
}
say() { echo "$*" >&7; }
teacher_done() { exec 7>&-; wait "$FWPID" 2>/dev/null; FWPID=""; }
# The CLOCK_MONOTONIC second the teacher's newest configuration was on disk
# (up to 15 s: the teacher first reads the bundled recording, which on a
# loaded 2-core machine takes several seconds).
shown_at() { local n=$1 i=0; while [ $i -lt 300 ]; do
    [ "$(grep -c '^shown' "$TMPD/shown.txt" 2>/dev/null)" -ge "$n" ] &&
        { sed -n 's/^shown [0-9]* //p' "$TMPD/shown.txt" | sed -n "${n}p"; return 0; }
    sleep 0.05; i=$((i + 1)); done; echo 0; }
: >"$TMPD/shown.txt"

# ---- following a file: before the teacher starts, and as the teacher goes on
C=$TMPD/class.gtr
start file 140 45 "LC_ALL=C.UTF-8 '$BIN' --replay '$C' --follow --trace '$TMPD/file.trace'"
check "follow: waits for the teacher's file, and says which" \
    wait_for "waiting for .*class.gtr.partial" 10
teacher "$C"
say "cfg 0"
check "follow: the teacher's first configuration on screen" \
    wait_for "following: .*configuration 1 of 1 \| FOLLOWING .*class.gtr" 10
check "follow: its samples arrive" wait_for " [1-9][0-9]* samples" 10
check "follow: the banner says when the last sample came" \
    wait_for "following: last sample (under 1|[0-9]+) s ago" 5
tm send-keys -t t +
check "follow: + is refused, naming the teacher's session" \
    wait_for "following the teacher's session" 5
tm send-keys -t t e
check "follow: e is refused too" wait_for "following the teacher's session" 5
say next
t0=$(shown_at 2)
check "follow: the teacher's next configuration follows" wait_for "configuration 2 of 2" 5
tm send-keys -t t p
say next
sleep 1
check "follow: paused, the screen stays on its configuration" wait_for "configuration 2 of 3" 2
tm send-keys -t t p
check "follow: resumed, it catches up with the teacher" wait_for "configuration 3 of 3" 5
tm send-keys -t t y
check "follow: y works" wait_for "why: " 5
tm send-keys -t t y y y y y y
say quit
teacher_done
check "follow: the writer closed: 'the recording ended'" \
    wait_for "the recording ended \\(the writer closed it\\)" 5
tm send-keys -t t +
check "follow: once it ended, the keys move through it as in a replay" \
    wait_gone "following the teacher's session" 5
lat=$(awk -v t0="$t0" 'NR == 2 { printf "%.3f", $3 - t0 }' "$TMPD/file.trace")
check "follow: the second configuration drawn ${lat} s after the teacher's first sample of it (under 1.5 s)" \
    awk -v l="${lat:-99}" 'BEGIN { exit !(l > 0 && l < 1.5) }'
quit_ok file "follow a file"
check "follow: the file the teacher closed is the recording (its end line last)" \
    bash -c "tail -n 1 '$C' | grep -q '\"type\":\"end\"'"

# ---- across a pipe (tail -F), with a writer that is killed and starts again
P=$TMPD/pipe.gtr
: >"$TMPD/shown.txt"
teacher "$P"
say "cfg 0"
shown_at 1 >/dev/null
start pipe 140 45 "LC_ALL=C.UTF-8 tail -c +1 -F '$P.partial' 2>/dev/null | '$BIN' --replay - --follow --compare h100"
check "pipe: the teacher's configuration arrives over standard input" \
    wait_for "configuration 1 of 1 \| FOLLOWING standard input" 10
check "pipe: --compare B draws B's ghost beside it" wait_for "B \\(ghost, h100.gtr.gz\\)" 5
say crash
wait "$FWPID" 2>/dev/null
exec 7>&-
teacher "$P"                    # fakewriter replaces a .partial, as --force does
say "cfg 0"
check "pipe: a writer that starts again is said, and followed" \
    wait_for "the writer restarted" 10
check "pipe: ... its configuration after the earlier one" wait_for "configuration 2 of 2" 5
say quit
teacher_done
check "pipe: 'the recording ended'" wait_for "the recording ended" 5
quit_ok pipe "follow a pipe"

# ---- garbage, a cut line, a stream that closes without the end line
G=$TMPD/g.gtr
: >"$TMPD/shown.txt"
teacher "$G"
say "cfg 0"
shown_at 1 >/dev/null
sleep 0.6
say quit
teacher_done
grep -v '"type":"end"' "$G" >"$TMPD/g.lines"
mkfifo "$TMPD/feed"
start bad 140 45 "LC_ALL=C.UTF-8 '$BIN' --replay - --follow <'$TMPD/feed'"
exec 8>"$TMPD/feed"
cat "$TMPD/g.lines" >&8
check "bad input: the stream's configuration on screen" wait_for "configuration 1 of 1" 10
printf '\001\002 not a recording line\n' >&8
check "bad input: garbage is said and skipped" wait_for "-:[0-9]+: not a JSON object.*skipped" 5
printf '{"type":"sample","gen":1,"t":1' >&8
exec 8>&-
check "bad input: a stream cut in a line, closed without its end: said" \
    wait_for "the stream (was cut in the middle of a line|stopped: the stream closed)" 5
check "bad input: what arrived stays on screen" wait_for " [1-9][0-9]* samples" 2
quit_ok bad "follow through bad input"

# ---- usage errors
fusage() {  # fusage EXPECT ARGS...: exit 64 and the message
    local expect=$1; shift
    local msg rc
    msg=$("$BIN" "$@" 2>&1 </dev/null >/dev/null); rc=$?
    check "follow usage: $* (rc $rc)" bash -c '[ "$1" = 64 ] && grep -q -- "$2" <<<"$3"' _ \
        "$rc" "$expect" "$msg"
}
fusage "--follow applies only with --replay FILE" --follow
fusage "is for the TUI" --batch --replay "$C" --follow
fusage "reads standard input only with --follow" --replay -
fusage "the folder /nonexistent-gputui does not exist" --replay /nonexistent-gputui/c.gtr --follow
fusage "takes --compare B alone" --replay "$C" --follow --compare h200 h100
fusage "shows the teacher's configurations; --lesson" --replay "$C" --follow --lesson pinned
start tty 100 30 "'$BIN' --replay - --follow"
check "follow usage: --replay - with the terminal on standard input is refused (rc 64)" \
    [ "$(wait_rc tty 10)" = 64 ]
stop

# ---- 30 followers of one file: every screen within 1.5 s of the teacher
M=$TMPD/many.gtr
: >"$TMPD/shown.txt"
N=30
SOCK="gputui-e2e-$$-many"
teacher "$M"
say "cfg 0"
shown_at 1 >/dev/null
for i in $(seq 1 $N); do
    printf 'export TERM=%s\nLC_ALL=C.UTF-8 %q --replay %q --follow --trace %q\n' "$E2E_TERM" \
        "$BIN" "$M" "$TMPD/many-$i.trace" >"$TMPD/many-$i.sh"
    tm -f /dev/null new-session -d -s "f$i" -x 120 -y 40 "bash $TMPD/many-$i.sh"
done
sleep 3
for k in 2 3 4; do
    say next
    shown_at "$k" >/dev/null
    sleep 2
done
lats=$(for i in $(seq 1 $N); do
    for k in 2 3 4; do
        t0=$(sed -n 's/^shown [0-9]* //p' "$TMPD/shown.txt" | sed -n "${k}p")
        awk -v t0="$t0" '$3 > t0 { printf "%.3f\n", $3 - t0; found = 1; exit }
                         END { if (!found) print 99 }' "$TMPD/many-$i.trace"
    done
done | sort -n)
med=$(sed -n "$(( (N * 3 + 1) / 2 ))p" <<<"$lats"); max=$(tail -n 1 <<<"$lats")
check "30 followers: each of 3 new configurations on all 30 screens, median ${med} s, slowest ${max} s (under 1.5 s)" \
    awk -v l="$max" 'BEGIN { exit !(l < 1.5) }'
say quit
teacher_done
for i in $(seq 1 $N); do tm send-keys -t "f$i" q; done
sleep 1
check "30 followers: all quit" bash -c "! tmux -L '$SOCK' ls 2>/dev/null | grep -q ."
stop

e2e_part_done follow
