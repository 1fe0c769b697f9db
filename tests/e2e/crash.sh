#!/usr/bin/env bash
# End-to-end: a crash of the TUI gives the terminal back. gputui is killed
# with SIGSEGV and with SIGABRT under tmux; the pane must leave the
# alternate screen, show the one-line bug report request, the shell's
# status must say the signal (re-raised, so a core dump would happen), and
# the terminal must be usable as it was: what is typed is echoed and read
# a line at a time, with no "stty sane". Needs no GPU.
# Usage: crash.sh BIN TMPDIR (writes TMPDIR/crash.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"

for sig in SEGV ABRT; do
    # After gputui: the status, the terminal's modes, then a line read
    # from the terminal as a user would type it.
    start "crash-$sig" 120 40 "ulimit -c 0; '$BIN' --replay share/gputui/h200.gtr.gz; st=\$?;" \
        "stty -a >'$TMPD/stty-$sig'; echo \"STATUS=\$st\"; read -r line; echo \"GOT=[\$line]\""
    wait_for "Experiment: Host/device transfer" 10
    pid=$(pgrep -P "$(tm display -p -t t '#{pane_pid}')" gputui)
    check "SIG$sig: gputui is running in the pane" [ -n "$pid" ]
    kill -s "$sig" "$pid"
    want=$([ $sig = SEGV ] && echo 139 || echo 134)
    check "SIG$sig: the signal is re-raised (status $want)" wait_for "STATUS=$want" 10
    check "SIG$sig: one line asks for a bug report, with the version" \
        wait_for "gputui [0-9.]+ crashed \\((Segmentation fault|Aborted)\\)\\. This is a bug: please report it" 5
    check "SIG$sig: the alternate screen is left" \
        bash -c "[ \"\$(tmux -L '$SOCK' display -p -t t '#{alternate_on}')\" = 0 ]"
    check "SIG$sig: the cursor is visible" \
        bash -c "[ \"\$(tmux -L '$SOCK' display -p -t t '#{cursor_flag}')\" = 1 ]"
    check "SIG$sig: canonical mode and echo are back" \
        bash -c "grep -q ' icanon ' '$TMPD/stty-$sig' && grep -Eq ' echo( |$)' '$TMPD/stty-$sig'"
    tm send-keys -t t "typed after the crash" Enter
    check "SIG$sig: what is typed is echoed and read as a line" wait_for "GOT=\\[typed after the crash\\]" 5
    check "SIG$sig: ... and was echoed as it was typed" \
        bash -c "tmux -L '$SOCK' capture-pane -p -t t | grep -q '^typed after the crash\$'"
    stop
done
e2e_part_done crash
