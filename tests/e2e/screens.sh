#!/usr/bin/env bash
# End-to-end tests of the layout from 80x24 to 250x70, on the bundled
# recordings (no GPU): every experiment's default screen, the help, the
# lesson list, a sweep and the call trace keep the experiment, the state
# and "?:help" in the header and cut no text without a mark
# (tests/tools/screencheck.py); many series become a table; the time strip
# moves; clicks and the wheel pick and change a parameter.
# Usage: screens.sh BIN TMPDIR (writes TMPDIR/screens.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
REC=share/gputui/h200.gtr.gz
. "$(dirname "$0")/gaps.sh"
EXPS=$("$BIN" --batch -e none 2>&1 | sed -n 's/.*(allowed: \(.*\))$/\1/p' | tr -d ,)

# look NAME COLS EXP: the screen passes screencheck.py
look() {
    screen >"$TMPD/$1.txt"
    if out=$(python3 tests/tools/screencheck.py "$TMPD/$1.txt" "$2" "$3"); then ok "$1"
    else bad "$1: $out"; fi
}

for size in 80x24 120x40 160x48 250x70; do
    c=${size%x*} r=${size#*x}
    for e in $EXPS; do
        rec=$REC
        [ "$e" = peer ] && rec=share/gputui/2xh200.gtr.gz
        # every experiment at the smallest and largest; three between
        case "$size:$e" in 80x24:* | 250x70:* | *:transfer | *:vmm | *:latency) ;; *) continue ;; esac
        # a gap: the replay names what is missing (for the first gap of a
        # recording: the message is the same); the screens come from the
        # H100's recording where it holds the experiment
        if [[ $GAPS == *" $(basename "$rec"):$e "* ]]; then
            if [ "$size" = 80x24 ] && [[ " ${said:-} " != *" $rec "* ]]; then
                said="${said:-} $rec"
                start "s-$e" "$c" "$r" "LC_ALL=C.UTF-8 '$BIN' --replay $rec -e $e"
                check "$size $e: not in $(basename "$rec"), and says so" \
                    wait_for "$e is not in " 10
                stop
            fi
            [[ $GAPS == *" h100.gtr.gz:$e "* ]] && continue
            rec=share/gputui/h100.gtr.gz
        fi
        start "s-$e" "$c" "$r" "LC_ALL=C.UTF-8 '$BIN' --replay $rec -e $e"
        if wait_for "\| $e \| (RUNNING|ERROR|DONE)" 10; then look "$size $e: default screen" "$c" "$e"
        else bad "$size $e: starts"; fi
        if [ "$size" = 80x24 ]; then
            # a class with no GPU sees the calls behind every default screen
            tm send-keys -t t t
            check "$e: t lists the recorded calls of the default configuration" \
                wait_for "CUDA calls of this configuration \(t: close" 5
            tm send-keys -t t t
        fi
        if [ "$e" = transfer ]; then
            tm send-keys -t t '?'
            wait_for "gputui keys" 5 && look "$size help" "$c" "$e"
            tm send-keys -t t x
            tm send-keys -t t L
            wait_for "Lessons  \(1-9" 5 && look "$size lesson list" "$c" "$e"
            tm send-keys -t t Escape
            tm send-keys -t t t
            wait_for "CUDA calls|none recorded" 5 && look "$size call trace" "$c" "$e"
            tm send-keys -t t t
            tm send-keys -t t w
            wait_for "Sweep of direction" 5 && look "$size sweep" "$c" "$e"
        fi
        stop
    done
done

# Every configuration a key reaches from an experiment's defaults holds
# its CUDA calls in the bundled one-GPU recordings, but those listed in
# tests/e2e/known/MODEL-traces.txt: exactly those, so that a new gap fails
# and a filled one must leave the list.
RECPLAN=$(dirname "$BIN")/recplan
if [ -x "$RECPLAN" ]; then
    for rec in share/gputui/h200.gtr.gz share/gputui/h100.gtr.gz; do
        known=tests/e2e/known/$(basename "$rec" .gtr.gz)-traces.txt
        out=$("$RECPLAN" traces "$rec" --check 2>/dev/null)
        want=$([ -f "$known" ] && grep -v '^#' "$known")
        what="the calls of every configuration a key reaches from the defaults"
        [ -n "$want" ] && what="$what, but the $(printf '%s\n' "$want" | wc -l) in $known"
        check "$(basename "$rec"): $what" \
            bash -c '[ "$0" = "$1" ] || { diff <(echo "$1") <(echo "$0"); false; }' "$out" "$want"
    done
    # A lesson step's two configurations one parameter apart are recorded
    # by one process, as the lesson runs them: one batch line.
    out=$("$RECPLAN" lessons share/gputui/lessons)
    check "recplan lessons: vmm's 3 MiB and 4 MiB in one line, and not apart" \
        bash -c 'grep -qx -- "-e vmm --size=3M,4M" <<<"$0" && ! grep -qx -- "-e vmm --size=3M" <<<"$0"' "$out"
    # Part of an experiment, as merge-recordings.py --drop takes it out:
    # every configuration with that value, also those a line lists with
    # other values of it (op=alloc,share,read,...).
    out=$("$RECPLAN" plan vmm:op=read 2>&1); rc=$?
    check "recplan plan vmm:op=read: each of vmm's op=read configurations, the minimum granularity's too" \
        bash -c '[ "$1" = 0 ] && grep -qx -- "-e vmm --granularity=minimum --op=read" <<<"$0" &&
                 ! grep -v -- "--op=read" <<<"$0" && [ "$(wc -l <<<"$0")" -ge 8 ]' "$out" "$rc"
    out=$("$RECPLAN" plan vmm:op=raed 2>&1); rc=$?
    check "recplan plan vmm:op=raed: exit 2, naming the values allowed" \
        bash -c '[ "$1" = 2 ] && grep -q "vmm op: .raed. is not a valid value (allowed: alloc, bandwidth, grow, peer, read, share)" <<<"$0"' "$out" "$rc"
else
    echo "skip: $RECPLAN not built (make build/recplan)"
fi

# Many series: vmm's eleven calls as a table beside the selected one's
# histogram at 80x24; Tab then Down picks the next call.
start many 80 24 "LC_ALL=C.UTF-8 '$BIN' --replay $REC -e vmm"
check "80x24 vmm: a table of the 11 series" wait_for "^ 11 series +p50 +p90" 10
check "... each with its p50" wait_for "^ cuMemCreate +[0-9.]+ us" 5
check "... beside the first one's histogram" wait_for "│ cuMemAddressReserve latency per sa" 5
tm send-keys -t t Tab Tab Down
check "Tab, Down: the next series' histogram" wait_for "│ cuMemCreate latency per sa" 5
stop
start few 250 70 "LC_ALL=C.UTF-8 '$BIN' --replay $REC -e vmm"
# (the screen first drawn, whenever the recording is read: a loaded machine
# takes seconds)
wait_for "cudaFreeAsync latency per sample" 15
check "250x70 vmm: a histogram block a series, no table" \
    bash -c "s=\$(tmux -L '$SOCK' capture-pane -p -t t); grep -q 'cudaFreeAsync latency per sample' <<<\"\$s\" && ! grep -q '11 series' <<<\"\$s\""
stop

# A sweep over a choice whose values measure different series is refused
# (wide enough for the whole message after "pass N (the same)").
start sweepop 170 40 "LC_ALL=C.UTF-8 '$BIN' --replay $REC -e vmm"
wait_for "RUNNING" 10
tm send-keys -t t w
check "w over vmm op: refused, naming each value's series" \
    wait_for "op: its values measure different series \(alloc 11, bandwidth 2" 5
stop

# The time strip moves under replay.
start strip 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay $REC -e latency"
wait_for "RUNNING" 10
tm send-keys -t t s
check "s: the time strip is on" wait_for "time strip on" 5
check "... with a point a second" wait_for " p50 +[2-9]s " 8
a=$(screen | sed -n 's/.* p50 *\([0-9]*\)s .*/\1/p' | head -1); sleep 2
b=$(screen | sed -n 's/.* p50 *\([0-9]*\)s .*/\1/p' | head -1)
check "... and it moves ($a -> $b seconds)" [ "${b:-0}" -gt "${a:-0}" ]
stop

# The mouse, as the terminal reports it (SGR for xterm, else X10: the
# terminfo entry's kmous says which): a click picks a parameter, the wheel
# changes its value, "?:help" opens the help; --no-mouse leaves the mouse
# to the terminal. mouse X Y B: button B (0 left, 64/65 wheel up/down) at
# column X, row Y, counted from 1.
if infocmp "$E2E_TERM" 2>/dev/null | grep -q 'kmous=\\E\[<'; then
    mouse() { tm send-keys -t t -l $'\e[<'"$3;$1;$2"'M'; [ "$3" = 0 ] && tm send-keys -t t -l $'\e[<'"$3;$1;$2"'m'; }
else
    mouse() {
        local b x y
        printf -v b '\\x%x' $((32 + $3)); printf -v x '\\x%x' $((32 + $1)); printf -v y '\\x%x' $((32 + $2))
        tm send-keys -t t -l "$(printf "\e[M$b$x$y")"
        [ "$3" = 0 ] && tm send-keys -t t -l "$(printf "\e[M\\x23$x$y")"
    }
fi
start mouse 90 30 "LC_ALL=C.UTF-8 '$BIN' --replay $REC"
wait_for "RUNNING" 10
row=$(screen | grep -n "│ size  " | head -1 | cut -d: -f1)
check "the mouse is asked for" [ "$(tm display -p -t t '#{mouse_any_flag}')" = 1 ]
mouse 50 "$row" 0
mouse 50 "$row" 64
check "a click on size and the wheel up: 128 MiB" wait_for "│ size +128 MiB" 5
mouse 50 "$row" 65
check "the wheel down: 64 MiB again" wait_for "│ size +64 MiB" 5
help_x=$(( $(screen | head -1 | grep -bo "?:help" | head -1 | cut -d: -f1) + 2 ))
mouse "$help_x" 1 0
check "a click on ?:help opens the help" wait_for "gputui keys" 5
mouse 40 20 0
check "a click closes it" wait_gone "gputui keys" 5
quit_ok mouse "mouse session"
start nomouse 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay $REC --no-mouse"
wait_for "RUNNING" 10
check "--no-mouse: the mouse is left to the terminal" [ "$(tm display -p -t t '#{mouse_any_flag}')" = 0 ]
stop

e2e_part_done screens
