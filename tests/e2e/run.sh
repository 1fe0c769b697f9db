#!/usr/bin/env bash
# End-to-end tests that need no GPU: command-line behaviour, the no-device
# path (one clear line, exit 1, terminal untouched) and the man page.
set -u
BIN=$(realpath "${1:-build/gputui}")
TMPD=$(mktemp -d)
trap 'stop; rm -rf "$TMPD"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."

out=$("$BIN" --help); rc=$?
check "--help exits 0 and lists the options" [ $rc = 0 ]
for o in --batch --format --samples --list-devices --device --host --dir --method --size \
         --iters --warmup --portable --write-combined --mapped --no-color --record --replay \
         --no-fallback; do
    grep -q -- "$o" <<<"$out" || bad "--help lists $o"
done
check "--version" bash -c "'$BIN' --version | grep -q '^gputui [0-9]'"

usage() {   # usage ARGS... : exit 64 and a message naming the problem
    local expect=$1; shift
    local msg; msg=$("$BIN" "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc = 64 ] && grep -q -- "$expect" <<<"$msg"; then ok "usage error: $*"; else
        bad "usage error: $* (rc $rc: $msg)"; fi
}
usage "allowed: 4 KiB to 4 GiB" --batch --size 9G
usage "allowed: pageable, pinned, hostalloc, register" --batch --host gpu
usage "allowed: h2d, d2h, d2d, bidir" --dir sideways
usage "unknown option '--frobnicate'" --frobnicate
usage "applies only with host=hostalloc" --write-combined
usage "only with --batch" --format json
usage "--force applies only with --record FILE or --trace FILE" --force
: >"$TMPD/taken.trace"
usage "--trace $TMPD/taken.trace: the file exists; give --force to replace it" \
    --replay share/gputui/h200.gtr.gz --trace "$TMPD/taken.trace"
check "--trace does not touch the file it refuses" [ ! -s "$TMPD/taken.trace" ]

# The binary must start without an NVIDIA driver: no link-time libcuda/NVML.
libs=$(ldd "$BIN" 2>&1)
check "ldd lists neither libcuda nor NVML" bash -c "! grep -Eq 'libcuda|libnvidia-ml' <<<\"\$0\"" "$libs"
check "cudart, jansson and zlib are linked statically" bash -c "! grep -Eq 'libcudart|libjansson|libz\\.' <<<\"\$0\"" "$libs"

dest="$TMPD/prefix"
if make -s install PREFIX="$dest" BIN="$BIN" >/dev/null 2>&1 && [ -x "$dest/bin/gputui" ] &&
   [ -f "$dest/share/man/man1/gputui.1" ] && [ -f "$dest/share/gputui/h200.gtr.gz" ] && [ -f "$dest/share/gputui/h100.gtr.gz" ]; then
    ok "make install PREFIX=... (binary, man page, bundled recordings)"
else
    bad "make install PREFIX=..."
fi

if "$BIN" --list-devices >/dev/null 2>&1; then
    echo "skip no-device tests: a CUDA device is present"
else
    msg=$("$BIN" --batch 2>&1); rc=$?
    check "no device: batch exits 1" [ $rc = 1 ]
    check "no device: one line naming the CUDA error" \
        bash -c "[ \$(printf '%s\n' \"\$0\" | wc -l) = 1 ] && grep -q 'no usable CUDA device: cudaGetDeviceCount' <<<\"\$0\"" "$msg"
    "$BIN" --list-devices >/dev/null 2>&1
    check "no device: --list-devices exits 1" [ $? = 1 ]

    # --no-fallback: the plain error, and the terminal is not taken over.
    start nodev 100 30 "'$BIN' --no-fallback"
    check "no device, --no-fallback: TUI prints the reason" wait_for "no usable CUDA device" 10
    check "no device, --no-fallback: exits 1" [ "$(wait_rc nodev 10)" = 1 ]
    check "no device, --no-fallback: the screen is clean" clean_screen
    check "no device, --no-fallback: terminal not left in the alternate screen" \
        bash -c "[ \"\$(tmux -L '$SOCK' display -p -t t '#{alternate_on}')\" = 0 ]"
    stop

    # Otherwise the TUI replays the bundled recording and says why.
    start fallback 120 40 "LC_ALL=C.UTF-8 '$BIN'"
    check "no device: fallback banner" \
        wait_for "no CUDA device here \(cudaError[A-Za-z]+\) — replaying NVIDIA H[0-9]+, recorded 20" 10
    check "no device: fallback shows histograms" wait_for "bandwidth GB/s +p50" 10
    tm send-keys -t t q
    check "no device: fallback q exits 0" [ "$(wait_rc fallback 10)" = 0 ]
    stop

    # An installed gputui finds the installed recording.
    start installed 120 40 "'$dest/bin/gputui'"
    check "no device: the installed binary replays the installed recording" \
        wait_for "no CUDA device here .* replaying NVIDIA" 10
    tm send-keys -t t q
    wait_rc installed 10 >/dev/null
    stop
    check "an installed gputui finds the installed lessons" \
        bash -c "'$dest/bin/gputui' --list-lessons | grep -q '^overlap '"
fi

for part in replay classroom lessons peers crash; do
    tests/e2e/$part.sh "$BIN" "$TMPD"
    E2E_PASS=$((E2E_PASS + $(cat "$TMPD/$part.pass"))); E2E_FAIL=$((E2E_FAIL + $(cat "$TMPD/$part.fail")))
done

if command -v groff >/dev/null; then
    warn=$(groff -man -Tutf8 -ww man/gputui.1 2>&1 >/dev/null)
    check "man page renders without warnings" [ -z "$warn" ]
    page=$(groff -man -Tutf8 man/gputui.1 2>/dev/null | col -b 2>/dev/null || groff -man -Tascii man/gputui.1)
    for o in --batch --format --samples --list-devices --device --host --dir --method --size \
             --iters --warmup --portable --write-combined --mapped --no-color --trace --record \
             --replay --no-fallback --compare --record-samples --record-seconds \
             --lesson --list-lessons --trace-calls --alloc-between; do
        grep -q -- "$o" <<<"$page" || bad "man page documents $o"
    done
    for k in "Tab" "Enter" "Space" "F1"; do
        grep -q -- "$k" <<<"$page" || bad "man page documents key $k"
    done
    grep -qi "bytes.*once" <<<"$page" || bad "man page states the byte-counting method"
fi

echo "e2e: $E2E_PASS passed, $E2E_FAIL failed"
[ $E2E_FAIL = 0 ]
