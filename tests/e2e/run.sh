#!/usr/bin/env bash
# End-to-end tests that need no GPU: command-line behaviour, the no-device
# path (one clear line, exit 1, terminal untouched) and the man page.
set -u
BIN=$(realpath "${1:-build/gputui}")
TMPD=$(mktemp -d)
part_pids=()
trap 'kill "${part_pids[@]}" 2>/dev/null; stop; rm -rf "$TMPD"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."

# How soon the first figures are on screen (tests/e2e/starts.sh), before
# the parts load the machine; make test takes it before every suite
# (tests/run-all.sh) and says so in GPUTUI_STARTS_TAKEN.
if [ -z "${GPUTUI_STARTS_TAKEN:-}" ]; then
    while read -r verdict line; do
        if [ "$verdict" = ok ]; then ok "$line"; else bad "$line"; fi
    done < <(tests/e2e/starts.sh "$BIN" 2>&1)
fi

# The parts first, in the background: replay, classroom, lessons, peers,
# crash, screens, html, follow, driver, hostile, bombs and newcomer
# (tests/e2e/PART.sh BIN OUTDIR).
PARTS=(screens lessons replay classroom peers crash html follow driver hostile bombs newcomer)
for part in "${PARTS[@]}"; do
    ( s=$SECONDS; tests/e2e/$part.sh "$BIN" "$TMPD"; echo "(e2e part $part: $((SECONDS - s)) s)" ) \
        >"$TMPD/$part.log" 2>&1 &
    part_pids+=($!)
done

out=$("$BIN" --help); rc=$?
check "--help exits 0: a page of $(wc -l <<<"$out") lines, under 50, none over 80 columns" \
    bash -c "[ $rc = 0 ] && [ \$(wc -l <<<\"\$0\") -lt 50 ] && ! awk 'length > 80' <<<\"\$0\" | grep -q ." "$out"
for o in --batch --format --samples --list-devices --device --no-color --record --replay \
         --no-fallback --lesson --inspect --compare coalesce transpose "--help EXP"; do
    grep -q -- "$o" <<<"$out" || bad "--help lists $o"
done
out=$("$BIN" --help transfer); rc=$?
check "--help transfer: its parameters, allowed values and defaults" \
    bash -c "[ $rc = 0 ] && grep -q 'allowed: h2d, d2h, d2d, bidir; default h2d' <<<\"\$0\" && ! grep -q -- '--lesson' <<<\"\$0\"" "$out"
out=$("$BIN" --help all); rc=$?
for o in --batch --format --samples --list-devices --device --host --dir --method --size \
         --iters --warmup --portable --write-combined --mapped --no-color --record --replay \
         --no-fallback; do
    grep -q -- "$o" <<<"$out" || bad "--help all lists $o"
done
check "--help all: every option and every experiment's parameters ($(wc -l <<<"$out") lines)" \
    bash -c "[ $rc = 0 ] && [ \$(grep -c \"^experiment '\" <<<\"\$0\") = \$(grep -c '^GT_EXP(' src/experiments/all.h) ]" "$out"
check "--version" bash -c "'$BIN' --version | grep -q '^gputui [0-9]'"

usage() {   # usage ARGS... : exit 64 and a message naming the problem
    local expect=$1; shift
    local msg; msg=$("$BIN" "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc = 64 ] && grep -q -- "$expect" <<<"$msg"; then ok "usage error: $*"; else
        bad "usage error: $* (rc $rc: $msg)"; fi
}
usage "allowed: 4 KiB to 4 GiB" --batch --size 9G
usage "'nope' is neither an experiment nor all (allowed: all, transfer, zerocopy, streams" --help nope
usage "-e needs a value (allowed: transfer, zerocopy, streams, hostalloc, vmm, l2, pitched, peer, latency, constant, concurrent, runtime, sharing, managed, texture, coalesce, banks, async, cluster, atomics, transpose, pool)" -e
usage "allowed: pageable, pinned, hostalloc, register" --batch --host gpu
usage "--device 99: .*h200.gtr.gz is a recording of device 0 (NVIDIA H200): allowed: 0" --batch --replay h200 -d 99
usage "--trace FILE logs the TUI's key-press to first-sample latency; --batch has no keys" --batch --trace "$TMPD/t.log"
usage "-d all inspects every GPU of this machine: it applies only with --batch --inspect" --batch -d all
usage "-d all inspects every GPU .* (not with --replay or --record)" --batch --inspect -d all --replay h200
usage "--inspect -d all prints text, json, html or prometheus (allowed: --format text, json, html, prometheus)" --batch --inspect -d all --format csv
usage "--trace /nonexistent-gputui/t.log: the folder /nonexistent-gputui does not exist" --replay h200 --trace /nonexistent-gputui/t.log
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

# make for this binary's own build: its folder and its kind, so nothing is made again.
MK=(make -s BUILD="$(dirname "$BIN")" CUDA="$("$BIN" --version | grep -q '^build: replay viewer' && echo 0 || echo 1)")
dest="$TMPD/prefix"
if "${MK[@]}" install PREFIX="$dest" >/dev/null 2>&1 && [ -x "$dest/bin/gputui" ] &&
   [ -f "$dest/share/man/man1/gputui.1" ] && [ -f "$dest/share/gputui/h200.gtr.gz" ] && [ -f "$dest/share/gputui/h100.gtr.gz" ]; then
    ok "make install PREFIX=... (binary, man page, bundled recordings)"
else
    bad "make install PREFIX=..."
fi

# Without a device the full build says which CUDA error it met (exit 1);
# the replay viewer says it was built without the toolkit (exit 64). Both
# fall back to the bundled recording in the TUI.
if "$BIN" --version | grep -q '^build: replay viewer'; then
    NODEV_RC=64 NODEV_MSG='this gputui was built without the CUDA toolkit: it can replay, compare and run lessons from recordings'
    BANNER="this gputui was built without the CUDA toolkit — replaying NVIDIA H[0-9]+, recorded 20"
    check "viewer: --version names the build" bash -c "'$BIN' --version | grep -q '^build: replay viewer, built without the CUDA toolkit'"
    for what in "--batch" "--batch -e latency" "--record $TMPD/v.gtr" "--batch -e peer --pairs all"; do
        # shellcheck disable=SC2086
        msg=$("$BIN" $what 2>&1 </dev/null); rc=$?
        check "viewer: '$what' exits 64 with the reason" \
            bash -c "[ $rc = 64 ] && [ \$(printf '%s\n' \"\$0\" | wc -l) = 1 ] && grep -q \"\$1\" <<<\"\$0\"" "$msg" "$NODEV_MSG"
    done
    check "viewer: --record wrote nothing" [ ! -e "$TMPD/v.gtr" -a ! -e "$TMPD/v.gtr.partial" ]
    for target in test-gpu soak bench; do
        msg=$("${MK[@]}" "$target" 2>&1); rc=$?
        check "viewer: make $target says it needs the GPU back-end" \
            bash -c "[ $rc != 0 ] && grep -q 'needs the GPU back-end, and this is the replay viewer' <<<\"\$0\"" "$msg"
    done
else
    NODEV_RC=1 NODEV_MSG='no usable CUDA device: cudaGetDeviceCount'
    # With no driver at all, the banner says what the batch message says.
    if [ -e /usr/lib/x86_64-linux-gnu/libcuda.so.1 ] || ldconfig -p 2>/dev/null | grep -q libcuda.so.1; then
        BANNER="no CUDA device here: cudaError[A-Za-z]+ — replaying NVIDIA H[0-9]+, recorded 20"
    else
        BANNER="no CUDA device here: driver not found \(libcuda\.so\.1\) — replaying NVIDIA H[0-9]+, recorded 20"
    fi
fi
if "$BIN" --list-devices >/dev/null 2>&1; then
    echo "skip no-device tests: a CUDA device is present"
else
    msg=$("$BIN" --batch 2>&1); rc=$?
    check "no device: batch exits $NODEV_RC" [ $rc = $NODEV_RC ]
    check "no device: one line naming the reason" \
        bash -c "[ \$(printf '%s\n' \"\$0\" | wc -l) = 1 ] && grep -q \"\$1\" <<<\"\$0\"" "$msg" "$NODEV_MSG"
    "$BIN" --list-devices >/dev/null 2>&1
    check "no device: --list-devices exits $NODEV_RC" [ $? = $NODEV_RC ]
    # --inspect: exit 1 (the inspection could not run) and the reason.
    msg=$("$BIN" --batch --inspect --format prometheus 2>&1 >"$TMPD/inspect.out"); rc=$?
    check "no device: --inspect exits 1 with the reason, and writes no card" \
        bash -c "[ $rc = 1 ] && grep -q \"\$1\" <<<\"\$0\" && [ ! -s '$TMPD/inspect.out' ]" "$msg" "$NODEV_MSG"

    # Every "cannot do this here" names the command that does work here.
    for what in "--batch" "--batch --inspect" "--list-devices" "--batch --record $TMPD/n.gtr" \
                "--batch -e peer --pairs all"; do
        # shellcheck disable=SC2086
        msg=$("$BIN" $what 2>&1 </dev/null)
        check "no device: '$what' names a command that works here" \
            bash -c "grep -Eq '(without a GPU|here|replays one).* gputui --' <<<\"\$0\"" "$msg"
    done
    # --batch --lesson runs on the bundled recording of the first model.
    "$BIN" --batch --lesson pinned --format json >"$TMPD/lesson.json" 2>"$TMPD/lesson.err"; rc=$?
    check "no device: --batch --lesson pinned runs on the bundled recording (exit 0, 3 verdicts, each with what it expected)" \
        python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (
            $rc == 0 and d['replayed_from'].endswith('h200.gtr.gz') and
            [s['verdict'] for s in d['steps']] == ['as expected'] * 3 and
            [s['expect'] for s in d['steps']] == [{'relation': 'above', 'bounds': [1.5]}] * 2 +
            [{'relation': 'ceiling_below', 'bounds': [0.5]}] and
            all(s['interval'][0] <= s['ratio'] <= s['interval'][1] for s in d['steps'])))" "$TMPD/lesson.json"
    check "no device: --batch --lesson says on stderr that it replays, and how to refuse" \
        grep -q "lesson pinned runs on the bundled h200 recording (.*h200.gtr.gz); --no-fallback refuses instead" "$TMPD/lesson.err"
    msg=$("$BIN" --batch --lesson pinned --no-fallback 2>&1 >/dev/null); rc=$?
    check "no device: --batch --lesson --no-fallback refuses (exit $NODEV_RC) and names what works" \
        bash -c "[ $rc = $NODEV_RC ] && grep -q 'gputui --batch --lesson pinned, without --no-fallback, runs it' <<<\"\$0\"" "$msg"

    # --no-fallback: the plain error, and the terminal is not taken over.
    start nodev 100 30 "'$BIN' --no-fallback"
    check "no device, --no-fallback: TUI prints the reason" wait_for "${NODEV_MSG:0:40}" 10
    check "no device, --no-fallback: exits $NODEV_RC" [ "$(wait_rc nodev 10)" = $NODEV_RC ]
    check "no device, --no-fallback: the screen is clean" clean_screen
    check "no device, --no-fallback: terminal not left in the alternate screen" \
        bash -c "[ \"\$(tmux -L '$SOCK' display -p -t t '#{alternate_on}')\" = 0 ]"
    stop

    # Otherwise the TUI replays the bundled recording and says why.
    start fallback 120 40 "LC_ALL=C.UTF-8 '$BIN'"
    check "no device: fallback banner" wait_for "$BANNER" 10
    check "no device: fallback shows histograms" wait_for "bandwidth GB/s +p50" 10
    quit_ok fallback "no device: fallback"

    # --inspect with no GPU: the bundled H200's card.
    start nodevcard 120 40 "LC_ALL=C.UTF-8 '$BIN' --inspect"
    check "no device: --inspect shows the bundled H200's card" \
        wait_for "^ PASS: GPU 0 NVIDIA H200 on .*[0-9]+ pass, 0 warn, 0 fail" 10
    quit_ok nodevcard "no device: --inspect"

    # An installed gputui finds the installed recording.
    start installed 120 40 "'$dest/bin/gputui'"
    check "no device: the installed binary replays the installed recording" \
        wait_for "replaying NVIDIA" 10
    tm send-keys -t t q
    wait_rc installed 10 >/dev/null
    stop
    check "an installed gputui finds the installed lessons" \
        bash -c "'$dest/bin/gputui' --list-lessons | grep -q '^overlap '"
fi
check "an installed gputui names where its data is" \
    bash -c "'$dest/bin/gputui' --version | grep -q \"^data: $dest/share/gputui (beside the binary): recordings of h200, h100\""
check "GPUTUI_DATA_DIR names another place" \
    bash -c "GPUTUI_DATA_DIR='$PWD/share/gputui' '$dest/bin/gputui' --version | grep -q \"^data: $PWD/share/gputui (GPUTUI_DATA_DIR)\""
check "GPUTUI_DATA names another place, before GPUTUI_DATA_DIR" \
    bash -c "GPUTUI_DATA='$PWD/share/gputui' GPUTUI_DATA_DIR=/nonexistent '$dest/bin/gputui' --version | grep -q \"^data: $PWD/share/gputui (GPUTUI_DATA)\""
if "${MK[@]}" uninstall PREFIX="$dest" >/dev/null 2>&1 && [ ! -e "$dest/bin/gputui" ] &&
   [ ! -e "$dest/share/man/man1/gputui.1" ] && [ ! -e "$dest/share/gputui" ]; then
    ok "make uninstall PREFIX=... removes what install put there"
else
    bad "make uninstall PREFIX=..."
fi

# The parts ran at once, each on its own tmux sockets, since the start
# (most of their time is a TUI drawing at its recorded pace); their output
# follows in order.
wait "${part_pids[@]}"
for part in "${PARTS[@]}"; do
    cat "$TMPD/$part.log"
    if [ -s "$TMPD/$part.pass" ] && [ -s "$TMPD/$part.fail" ]; then
        E2E_PASS=$((E2E_PASS + $(cat "$TMPD/$part.pass"))); E2E_FAIL=$((E2E_FAIL + $(cat "$TMPD/$part.fail")))
    else
        bad "e2e part $part ended without its counts"
    fi
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
