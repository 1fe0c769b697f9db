# shellcheck shell=bash
# The GPU suite's helpers (sourced by tests/gpu/run.sh and lanes.sh): one
# line per check, "ok ..." or "FAIL ...", counted at the end.
# Needs BIN, LOG and SAMPLES; in a lane (lanes.sh), LANE names its batch
# files and LANE_FLAGS are given to each of its processes.
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $1"; }
section() { echo "== $1 (at ${SECONDS}s)"; }
tally() {       # tally < LINES: "ok ..." and "FAIL ..." lines counted, "SKIP ..." not judged
    local line
    while read -r line; do
        case $line in ok*) ok "${line#ok }" ;; SKIP*) skip "${line#SKIP }" ;;
                      "#"*) echo "$line" ;; *) bad "${line#FAIL }" ;; esac
    done
}
gpu_count() { "$BIN" --list-devices 2>/dev/null | grep -c '^[0-9][0-9]*: '; }
i=0
LANE_FLAGS=()
run_one() {     # [TRACE=1] run_one EXPECTED-MIN-PCT ARGS...: every run of one batch process
    local min=$1; shift
    local f="$LOG/batch-${LANE:-}$i.json" err="$LOG/batch-${LANE:-}$i.err" extra=() e=transfer a prev=""
    i=$((i + 1))
    if [ "${TRACE:-0}" = 1 ]; then    # this run also lists its CUDA calls (the trace section)
        extra=(--trace-calls)
        for a in "$@"; do [ "$prev" = -e ] && e=$a; prev=$a; done
        echo "$e $f" >>"$LOG/traced.list"
    fi
    "$BIN" --batch --format json --samples "$SAMPLES" --warmup 2 "${LANE_FLAGS[@]}" "$@" "${extra[@]}" \
        >"$f" 2>"$err"
    local rc=$?
    if [ $rc != 0 ]; then bad "$* -> exit $rc: $(cat "$err")"; return; fi
    local out
    out=$(python3 tests/gpu/check_batch.py "$f" "$SAMPLES" ${min:+--min-pcie-pct $min})
    echo "$out"
    pass=$((pass + $(grep -c '^ok' <<<"$out"))); fail=$((fail + $(grep -c '^FAIL' <<<"$out")))
}
refused() {     # refused NAME PATTERN ARGS...: exit 64 with a message naming the problem
    local name=$1 pat=$2; shift 2
    local msg; msg=$("$BIN" --batch --samples 2 "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc = 64 ] && grep -q "$pat" <<<"$msg"; then ok "$name: $msg"; else bad "$name: rc $rc: $msg"; fi
}
lesson_run() {  # lesson_run NAME [SUFFIX]: one batch run of a lesson, its exit status
    "$BIN" --batch --lesson "$1" --format json >"$LOG/lesson-$1${2:-}.json" 2>"$LOG/lesson-$1${2:-}.err"
}
