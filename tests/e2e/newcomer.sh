#!/usr/bin/env bash
# End-to-end tests of what a newcomer meets on a fresh clone without a GPU
# (issue by issue): no terminal, a dumb one, a lesson or an experiment the
# bundled recording it opens lacks, the lesson list on 80x24, the device
# pane against the recorded card, a replay's loops, sweeping a size, the
# keys that quit and close, the short --help, make run, and what the
# tree holds. The parts that replay for want of a GPU are skipped where
# one is present.
# Usage: newcomer.sh BIN TMPDIR (writes TMPDIR/newcomer.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
NODEV=1
"$BIN" --list-devices >/dev/null 2>&1 && NODEV=0

# No terminal at all (a session with no controlling terminal, standard
# input and output files): refused at once with a clear line, no escapes.
timeout 10 setsid "$BIN" </dev/null >"$TMPD/noterm.out" 2>&1
rc=$?
check "no terminal: gputui </dev/null >file exits 64 at once (was: spun writing escapes)" [ $rc = 64 ]
check "... one line that says why and what works (--batch), no escape codes" \
    bash -c "[ \$(wc -l <'$TMPD/noterm.out') = 1 ] && grep -q 'standard output is not one.*gputui --batch' '$TMPD/noterm.out' && ! grep -q \$'\\e' '$TMPD/noterm.out'"
# A terminal, but standard input from /dev/null: keys come from the terminal.
start devnull 100 30 "LC_ALL=C.UTF-8 '$BIN' </dev/null"
check "stdin from /dev/null in a terminal: the TUI draws" wait_for "q:quit" 10
tm send-keys -t t q
check "... and q quits it (keys read from /dev/tty), exit 0" [ "$(wait_rc devnull 10)" = 0 ]
stop
# A terminal to draw on but none to read keys from.
start nokeys 100 30 "setsid -w '$BIN' </dev/null"
check "no terminal for keys: exit 64" [ "$(wait_rc nokeys 10)" = 64 ]
check "... naming /dev/tty and --batch" bash -c "tmux -L '$SOCK' capture-pane -p -J -t t | grep -q 'nor is there a /dev/tty.*gputui --batch'"
stop
# TERM=dumb cannot draw the screen in place.
start dumb 100 30 "TERM=dumb '$BIN'"
check "TERM=dumb: exit 64 (was: ' q:quit' alone)" [ "$(wait_rc dumb 10)" = 64 ]
check "... saying what to do" bash -c "tmux -L '$SOCK' capture-pane -p -J -t t | grep -q 'TERM=dumb cannot move the cursor.*TERM=xterm-256color.*--batch'"
stop

if [ $NODEV = 1 ]; then
    # Every lesson runs on a laptop: from the bundled recording that holds
    # it; those in tests/e2e/known/lessons.txt (no bundled recording holds
    # all of their configurations yet) say so, and leave the list once one
    # does.
    known=" $(grep -v '^#' tests/e2e/known/lessons.txt | tr '\n' ' ') "
    for l in $("$BIN" --list-lessons | awk '/^[a-z]/ {print $1}'); do
        "$BIN" --batch --lesson "$l" >"$TMPD/l.out" 2>"$TMPD/l.err"
        rc=$?
        if [[ $known == *" $l "* ]]; then
            check "no GPU: lesson $l (known: not all recorded) runs (exit $rc) and says which recording lacks what" \
                bash -c "[ $rc = 1 ] && grep -q \"no bundled recording holds all of lesson $l's configurations\" '$TMPD/l.err' && grep -q 'was not recorded' '$TMPD/l.err'"
            continue
        fi
        check "no GPU: lesson $l runs (exit $rc) with no step that did not run" \
            bash -c "[ $rc = 0 ] && ! grep -q 'did not run' '$TMPD/l.out'"
    done
    # A bundled recording that lacks an experiment: a copy of the bundle
    # (GPUTUI_DATA) whose H200 recording lacks coalesce and pool.
    FB=$TMPD/fb
    mkdir -p "$FB"
    python3 scripts/merge-recordings.py --drop coalesce --drop pool "$FB/h200.gtr.gz" \
        share/gputui/h200.gtr.gz
    for f in h100.gtr.gz 2xh200.gtr.gz inspect.json lessons; do
        ln -s "$PWD/share/gputui/$f" "$FB/$f"
    done
    GPUTUI_DATA=$FB "$BIN" --batch --lesson coalescing >"$TMPD/l.out" 2>"$TMPD/l.err"
    check "no GPU: lesson coalescing says it replays the h100 recording, which holds it, and names d" \
        bash -c "grep -q 'the bundled h200 recording lacks lesson coalescing.s configurations: replaying the bundled h100 recording, which holds them (-d 1; in the TUI, d steps' '$TMPD/l.err' && grep -q '^replaying NVIDIA H100' '$TMPD/l.out'"
    # The TUI: -e an experiment only the H100's recording holds there.
    start coalesce 120 40 "LC_ALL=C.UTF-8 GPUTUI_DATA='$FB' '$BIN' -e coalesce"
    check "no GPU: -e coalesce opens on coalesce from the H100's recording (was: transfer)" \
        wait_for "REPLAY recorded GPU 2 of [0-9]+ \(d: next\): NVIDIA H100.* \| coalesce \|" 15
    check "... and says why on the status line" wait_for "the bundled h200 recording lacks coalesce" 5
    quit_ok coalesce "-e coalesce"
    # E from transfer is pool, which that H200 recording lacks: it moves.
    start prevexp 120 40 "LC_ALL=C.UTF-8 GPUTUI_DATA='$FB' '$BIN'"
    wait_for "\| transfer \|" 10
    tm send-keys -t t E
    check "no GPU: E to pool moves to the recording that holds it (was: skipped)" \
        wait_for "NVIDIA H100.* \| pool \|" 15
    check "... saying so" wait_for "pool is not in the recorded h200: replaying the recorded h100" 5
    quit_ok prevexp "E to pool"
    # The device pane of the H200's replay: ECC as its recorded card says.
    start ecc 120 40 "LC_ALL=C.UTF-8 '$BIN'"
    check "no GPU: the H200 replay's device pane says ECC on, as its card (was: N/A)" \
        wait_for "^ECC +(on|yes)" 15
    # A replay goes round its samples: the figures are of each once.
    check "a replay's loop is said as one, each sample counted once" \
        wait_for "replaying 280 recorded samples, pass [1-9][0-9]* \(the same\)  280 samples" 15
    check "... its p50 stays the recorded one (55.17 GB/s, as --batch --replay reports)" \
        bash -c "sleep 1; tmux -L '$SOCK' capture-pane -p -t t | grep -q '^ now  *55.17 '"
    # w on transfer's size sweeps the recorded sizes, doubling.
    for _ in 1 2 3 4 5 6; do tm send-keys -t t j; done
    tm send-keys -t t w
    check "w on the size sweeps it, doubling (was: 'no fixed steps'), recorded values alone" \
        wait_for "^  1G +[0-9.]+ ms" 30
    check "... saying which were left out" bash -c "! tmux -L '$SOCK' capture-pane -p -t t | grep -q '^  4G'"
    # Esc closes the t panel; F10 quits.
    tm send-keys -t t t
    wait_for "CUDA calls" 5
    tm send-keys -t t Escape
    check "Esc closes the t panel (was: nothing)" wait_gone "CUDA calls of" 5
    tm send-keys -t t F10
    check "F10 quits, exit 0" [ "$(wait_rc ecc 10)" = 0 ]
    stop
    start esc 120 40 "LC_ALL=C.UTF-8 '$BIN'"
    wait_for "q:quit" 10
    tm send-keys -t t Escape
    check "Esc with nothing open quits, exit 0" [ "$(wait_rc esc 10)" = 0 ]
    stop
    # The lesson list at 80x24: every lesson reachable, the last one starts.
    start list 80 24 "LC_ALL=C.UTF-8 '$BIN'"
    wait_for "q:quit" 10
    tm send-keys -t t L
    n=$("$BIN" --list-lessons | grep -c '^[a-z]')
    last=$("$BIN" --list-lessons | awk '/^[a-z]/ {l = $1} END {print l}')
    for _ in $(seq $((n - 1))); do tm send-keys -t t Down; done
    check "80x24: the last of the $n lessons shown and selected (was: off-screen)" \
        wait_for ">$n $last" 5
    tm send-keys -t t Enter
    check "... Enter starts it" wait_for "Lesson $last, step 1" 15
    quit_ok list "the lesson list"
fi

# README's screen is the screen gputui draws now (the passes aside).
start readme 100 34 "LC_ALL=C.UTF-8 '$BIN' --replay h200"
wait_for "replaying 280 recorded samples, pass ([2-9]|[1-9][0-9]+) " 15
wait_for "^ECC +(on|yes)" 15   # the device pane drawn
# ... and to its end, where README's banner shows the count of
# configurations, which grows while it is read.
ncfg=$(sed -n 's/.*n\/N: configuration 1 of \([0-9]*\).*/\1/p' README.md | head -1)
[ -z "$ncfg" ] || wait_for "configuration 1 of ${ncfg}[^0-9]" 30
screen | sed 's/ *$//; s/pass [0-9]*/pass N/' >"$TMPD/screen.txt"
sed -n '/^```$/,/^```$/p' README.md | sed -n '2,/^```$/p' | sed '$d' |
    sed 's/ *$//; s/pass [0-9]*/pass N/' >"$TMPD/readme.txt"
check "README.md's screen is the one gputui draws (diff: $(diff "$TMPD/readme.txt" "$TMPD/screen.txt" | grep -c '^[<>]') lines)" \
    diff -q "$TMPD/readme.txt" "$TMPD/screen.txt"
# The short pane folds what does not apply into one line; the selected
# parameter stays on it, folded or not, with why it does not apply.
check "a short pane: the parameters that do not apply, folded and named" \
    wait_for "not with these values: portable, write-combined, mapped" 5
for _ in 1 2 3; do tm send-keys -t t Down; done
check "... the one selected shown, and why it does not apply" \
    wait_for "portable +\[ \] +\(only with host=" 5
quit_ok readme "README's screen"

# make run builds with every core, as make test does.
check "make run builds in parallel (-j)" \
    bash -c "make -n run 2>/dev/null | grep -q -- '-j[0-9]'"
# The top of the tree holds what it should, and nothing built.
check "the top level holds sources and docs alone (no build log)" \
    bash -c "git ls-files 2>/dev/null | sed 's|/.*||' | sort -u | grep -vxE 'Makefile|README.md|\\.gitignore|\\.ci|docs|include|kernels|man|scripts|share|src|tests' | (! grep -q .)"

e2e_part_done newcomer
