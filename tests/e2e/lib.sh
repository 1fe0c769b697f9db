# Helpers for end-to-end tests driven under tmux. Each test gets its own
# tmux socket, removed afterwards; waits poll the screen with a bound.
E2E_PASS=0
E2E_FAIL=0
SOCK=""
# A part of the e2e suite (PART.sh BIN OUTDIR) starts with
#   . "$(dirname "$0")/lib.sh"; e2e_part "$@"
# (BIN, OUTD, a scratch TMPD removed at exit, the repository as the working
# directory) and ends with e2e_part_done NAME (its counts for run.sh).
e2e_part() {
    BIN=$(realpath "$1")
    OUTD=$2
    TMPD=$(mktemp -d)
    trap 'stop; rm -rf "$TMPD"' EXIT
    cd "$(dirname "${BASH_SOURCE[1]}")/../.." || exit 1
}
e2e_part_done() {
    echo "$E2E_PASS" >"$OUTD/$1.pass"
    echo "$E2E_FAIL" >"$OUTD/$1.fail"
}
# The terminal type tmux emulates, as a program inside it should see it.
E2E_TERM=xterm-256color
for t in tmux-256color screen-256color; do
    if [ -e "/usr/share/terminfo/${t:0:1}/$t" ] || [ -e "/lib/terminfo/${t:0:1}/$t" ]; then
        E2E_TERM=$t; break
    fi
done

tm() { tmux -L "$SOCK" "$@"; }

# start NAME COLS ROWS CMD... : runs CMD (a bash command line) in a
# detached session; its exit status goes to $TMPD/NAME.rc when it ends.
start() {
    local name=$1 cols=$2 rows=$3
    shift 3
    SOCK="gputui-e2e-$$-$name"
    rm -f "$TMPD/$name.rc"
    printf 'export TERM=%s\n%s\necho $? > %s\nsleep 30\n' "$E2E_TERM" "$*" "$TMPD/$name.rc" \
        >"$TMPD/$name.sh"
    tm -f /dev/null new-session -d -s t -x "$cols" -y "$rows" "bash $TMPD/$name.sh"
}

# Ends the session and removes its socket.
stop() {
    [ -n "$SOCK" ] || return 0
    local path
    path=$(tm display -p '#{socket_path}' 2>/dev/null)
    tm kill-server 2>/dev/null
    [ -n "$path" ] && rm -f "$path"
    SOCK=""
}
screen() { tm capture-pane -p -t t; }

# until_ok SECONDS CMD...: runs CMD every 50 ms until it succeeds; fails
# after SECONDS.
until_ok() {
    local limit=$1 i=0
    shift
    until "$@"; do
        [ $i -ge $((limit * 20)) ] && return 1
        sleep 0.05
        i=$((i + 1))
    done
}
# wait_for REGEX [SECONDS]: until REGEX shows in the pane.
# wait_gone REGEX [SECONDS]: until it is gone.
screen_has() { screen | grep -Eq -- "$1"; }
screen_lacks() { ! screen_has "$1"; }
wait_for() { until_ok "${2:-10}" screen_has "$1"; }
wait_gone() { until_ok "${2:-10}" screen_lacks "$1"; }
# literal TEXT: TEXT as a regex that matches it alone (a GPU's name, a title).
literal() { sed 's/[][()/.*+?^$|\\]/\\&/g' <<<"$1"; }

# wait_rc NAME [SECONDS]: waits for the command's exit status file.
wait_rc() {
    if until_ok "${2:-10}" test -s "$TMPD/$1.rc"; then cat "$TMPD/$1.rc"; else echo timeout; return 1; fi
}

ok() { E2E_PASS=$((E2E_PASS + 1)); echo "ok   $1"; }
bad() {
    E2E_FAIL=$((E2E_FAIL + 1)); echo "FAIL $1"
    [ -n "$SOCK" ] && { echo "---- screen ----"; screen; echo "----------------"; }
}
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }

# quit_ok NAME LABEL [SECONDS]: q, then the session NAME must exit 0; stop.
quit_ok() {
    tm send-keys -t t q
    check "$2: q exits 0" [ "$(wait_rc "$1" "${3:-10}")" = 0 ]
    stop
}

# The checks every TUI session shares: help overlay, resize below the
# minimum and back, a clean screen, q quits with 0 and restores the terminal.
common_tui_checks() {
    local name=$1
    tm send-keys -t t '?'
    check "help overlay opens" wait_for "gputui keys" 5
    tm send-keys -t t x
    check "help overlay closes" wait_gone "gputui keys" 5
    tm resize-window -t t -x 60 -y 20
    check "too small at 60x20" wait_for "terminal too small: 60x20" 5
    tm resize-window -t t -x 120 -y 40
    check "redraws at 120x40" wait_for "Experiment: Host/device transfer" 5
    check "clean screen" clean_screen
    tm send-keys -t t q
    check "q exits 0" [ "$(wait_rc "$name" 15)" = 0 ]
    check "terminal restored" bash -c "[ \"\$(tmux -L '$SOCK' display -p -t t '#{alternate_on}')\" = 0 ]"
}

# No raw escape sequences or control characters on the captured screen.
clean_screen() { ! screen | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]'; }
