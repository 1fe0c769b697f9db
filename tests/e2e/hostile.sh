#!/usr/bin/env bash
# End-to-end tests of files from a stranger: a recording, a lesson, a
# fleet's card and command-line values that carry terminal escapes (OSC
# titles and clipboard writes, CSI, C1 and DEL). No control byte may reach
# any output (batch text, JSON, CSV, HTML, compare, lessons, fleets,
# errors on stderr), nor the terminal from the TUI; JSON still reads back
# the text it was given.
# Usage: hostile.sh BIN TMPDIR (writes TMPDIR/hostile.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"

EVIL=$'\e]0;pwned\aH200\e[2J\xc2\x9b31m\x7f'
python3 tests/e2e/hostile.py make share/gputui/h200.gtr.gz "$TMPD"

# clean FILE...: no C0 but newline and tab, no DEL, no C1, nothing not UTF-8.
clean() { python3 tests/e2e/hostile.py clean "$@"; }

out() {     # out NAME ARGS...: stdout and stderr of gputui ARGS into NAME.out/.err
    local name=$1; shift
    "$BIN" "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err"
    echo $? >"$TMPD/$name.rc"
}

for f in text json csv html; do
    out "replay-$f" --batch --replay "$TMPD/evil.gtr" --format "$f"
    check "a stranger's recording, --batch --format $f: replayed (exit 0), no control byte out" \
        bash -c "[ \$(cat '$TMPD/replay-$f.rc') = 0 ] && python3 tests/e2e/hostile.py clean '$TMPD/replay-$f.out' '$TMPD/replay-$f.err'"
    out "compare-$f" --batch --compare "$TMPD/evil.gtr" share/gputui/h200.gtr.gz --format "$f"
    check "--batch --compare with it, --format $f: no control byte out" \
        clean "$TMPD/compare-$f.out" "$TMPD/compare-$f.err"
    out "inspect-$f" --batch --inspect --replay "$TMPD/evil.gtr" --format "$f"
    check "--batch --inspect --replay it, --format $f: no control byte out" \
        clean "$TMPD/inspect-$f.out" "$TMPD/inspect-$f.err"
done
out inspect-prom --batch --inspect --replay "$TMPD/evil.gtr" --format prometheus
check "--batch --inspect --replay it, --format prometheus: no control byte out" \
    clean "$TMPD/inspect-prom.out" "$TMPD/inspect-prom.err"
check "JSON escapes the text and keeps it: the device name reads back whole" \
    python3 tests/e2e/hostile.py json-name "$TMPD/replay-json.out" "$EVIL"
check "HTML: the page's <title> holds the name escaped" \
    grep -q '<title>gputui: \\x1b\]0;pwned\\x07H200\\x1b\[2J\\x9b31m\\x7f</title>' "$TMPD/replay-html.out"
check "text: the name escaped, in \\x form" \
    grep -q 'device 0: \\x1b\]0;pwned\\x07H200\\x1b\[2J\\x9b31m\\x7f, cc 9.0' "$TMPD/replay-text.out"

# A stranger's lessons (GPUTUI_DATA names their folder).
DATA=$TMPD/data
out lessons-list --list-lessons
GPUTUI_DATA=$DATA out evil-list --list-lessons
check "--list-lessons of a stranger's lesson: no control byte out" \
    clean "$TMPD/evil-list.out" "$TMPD/evil-list.err"
check "... and it is listed, escaped" grep -q '^evil .*\\x1b\]0;pwned' "$TMPD/evil-list.out"
for f in text json html; do
    GPUTUI_DATA=$DATA out "lesson-$f" --batch --lesson evil --replay h200 --format "$f"
    check "--batch --lesson from a stranger, --format $f: no control byte out" \
        clean "$TMPD/lesson-$f.out" "$TMPD/lesson-$f.err"
done
GPUTUI_DATA=$DATA out lesson-unknown --batch --lesson nosuch --replay h200
check "an unknown lesson names the others, escaped" \
    bash -c "[ \$(cat '$TMPD/lesson-unknown.rc') = 64 ] && grep -q 'allowed: .*evil' '$TMPD/lesson-unknown.err' && python3 tests/e2e/hostile.py clean '$TMPD/lesson-unknown.err'"

# A fleet of cards, one of them a stranger's.
"$BIN" --batch --inspect --replay h200 --format json >"$TMPD/cards/h200.json" 2>/dev/null
python3 tests/e2e/hostile.py evil-card "$TMPD/cards/h200.json" "$TMPD/cards/evil.json"
out fleet --fleet "$TMPD/cards"
for f in json html; do out "fleet-$f" --fleet "$TMPD/cards" --format "$f"; done
check "--fleet with a stranger's card (text, JSON, HTML): no control byte out" \
    clean "$TMPD/fleet.out" "$TMPD/fleet.err" "$TMPD/fleet-json.out" "$TMPD/fleet-html.out"

# Values on the command line, and files that do not parse.
out arg-exp --batch --replay h200 -e "$EVIL"
out arg-size --batch --replay h200 --size "1$EVIL"
out arg-lesson --batch --lesson "$EVIL"
out arg-replay --batch --replay "$TMPD/$EVIL.gtr"
printf '{"type":"header","format":[1,5],"device":{}}\n{"type":"config" \e[2J\xc2\x9b\n' >"$TMPD/broken.gtr"
out arg-broken --batch --replay "$TMPD/broken.gtr"
out arg-option "--$EVIL"
for a in exp size lesson replay broken option; do
    check "a bad value ($a) is refused, and its message holds no control byte" \
        bash -c "[ \$(cat '$TMPD/arg-$a.rc') != 0 ] && [ -s '$TMPD/arg-$a.err' ] && python3 tests/e2e/hostile.py clean '$TMPD/arg-$a.err' '$TMPD/arg-$a.out'"
done
check "... the message shows the value escaped" grep -q "unknown experiment '\\\\x1b\]0;pwned" "$TMPD/arg-exp.err"

# The TUI on the stranger's recording: what it writes to the terminal
# (pipe-pane keeps every byte) holds none of the escapes, and the pane's
# title is the shell's, not "pwned".
start tui 120 40 "sleep 0.3; LC_ALL=C.UTF-8 '$BIN' --replay '$TMPD/evil.gtr'"
tm pipe-pane -t t -o "cat >'$TMPD/tui.bytes'"
check "TUI: the stranger's device name shown in caret form" wait_for "REPLAY GPU 0: \^\[\]0;pwned\^GH200" 10
check "TUI: its date too, a carriage return and a newline first, the banner whole" \
    wait_for "recorded \^M\^J2026\^\[\]52 to 2026-11-28 \| x1" 5
check "TUI: the pane's title is not set by the recording" \
    bash -c "! tmux -L '$SOCK' display -p -t t '#{pane_title}' | grep -q pwned"
quit_ok tui "TUI on a stranger's recording"
check "TUI: no OSC, CSI or C1 of the recording's reached the terminal" \
    python3 tests/e2e/hostile.py tui-bytes "$TMPD/tui.bytes"

e2e_part_done hostile
