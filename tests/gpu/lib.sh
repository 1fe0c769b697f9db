# shellcheck shell=bash
# The GPU suite's helpers (sourced by tests/gpu/run.sh and jobs.sh): one
# line per check, "ok ..." or "FAIL ...", counted at the end.
# Needs BIN, LOG and SAMPLES; in a job (jobs.sh), JOB names its batch
# files and JOB_FLAGS are given to each of its processes.
pass=0 fail=0 skipped=0 noisy=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
skip() {        # not judged; "host too noisy" ones are counted apart (two fail the suite)
    skipped=$((skipped + 1)); echo "SKIP $1"
    case $1 in *"host too noisy"*) noisy=$((noisy + 1)) ;; esac
}
section() {     # section TITLE: a heading; outside the jobs, its start in $LOG/sections.txt
    echo "== $1 (at ${SECONDS}s)"
    [ -n "${JOB:-}" ] || echo "$SECONDS $1" >>"$LOG/sections.txt"
}
took() {        # took T0-MS WHAT: a process's wall time, in $LOG/times.txt (where the time goes)
    echo "$(( $(date +%s%3N) - $1 )) ms ${JOB:+job ${JOB%-} }$2" >>"$LOG/times.txt"
}
tally() {       # tally < LINES: "ok ..." and "FAIL ..." lines counted, "SKIP ..." not judged,
    local line  # "margin ..." kept for the table of margins (tests/gpu/judge.py)
    while read -r line; do
        case $line in ok*) ok "${line#ok }" ;; SKIP*) skip "${line#SKIP }" ;;
                      "margin "*) printf '%s\n' "${line#margin }" >>"$LOG/margins.tsv" ;;
                      "#"*) echo "$line" ;; *) bad "${line#FAIL }" ;; esac
    done
}
wait_ready() {  # wait_ready FILE SECONDS: until a helper writes "ready" to FILE
    local k
    for k in $(seq "$(( $2 * 20 ))"); do
        grep -qx ready "$1" 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}
gpu_count() { "$BIN" --list-devices 2>/dev/null | grep -c '^[0-9][0-9]*: '; }
i=0
JOB_FLAGS=()
run_one() {     # [TRACE=1] run_one ARGS...: every run of one batch process
    local f="$LOG/batch-${JOB:-}$i.json" err="$LOG/batch-${JOB:-}$i.err" extra=() e=transfer a prev=""
    i=$((i + 1))
    if [ "${TRACE:-0}" = 1 ]; then    # this run also lists its CUDA calls (the trace section)
        extra=(--trace-calls)
        for a in "$@"; do [ "$prev" = -e ] && e=$a; prev=$a; done
        echo "$e $f" >>"$LOG/traced.list"
    fi
    local t0; t0=$(date +%s%3N)
    "$BIN" --batch --format json --samples "$SAMPLES" --warmup 2 "${JOB_FLAGS[@]}" "$@" "${extra[@]}" \
        >"$f" 2>"$err"
    local rc=$?
    took "$t0" "$*"
    if [ $rc != 0 ]; then bad "$* -> exit $rc: $(cat "$err")"; return; fi
    local out
    out=$(python3 tests/gpu/check_batch.py "$f" "$SAMPLES")
    echo "$out"
    pass=$((pass + $(grep -c '^ok' <<<"$out"))); fail=$((fail + $(grep -c '^FAIL' <<<"$out")))
}
refused() {     # refused NAME PATTERN ARGS...: exit 64 with a message naming the problem
    local name=$1 pat=$2; shift 2
    local msg; msg=$("$BIN" --batch --samples 2 "$@" 2>&1 >/dev/null); local rc=$?
    if [ $rc = 64 ] && grep -q "$pat" <<<"$msg"; then ok "$name: $msg"; else bad "$name: rc $rc: $msg"; fi
}
lesson_run() {  # lesson_run NAME [SUFFIX]: one batch run of a lesson, its exit status
    local t0 rc; t0=$(date +%s%3N)
    "$BIN" --batch --lesson "$1" --format json >"$LOG/lesson-$1${2:-}.json" 2>"$LOG/lesson-$1${2:-}.err"
    rc=$?
    took "$t0" "--lesson $1"
    return $rc
}
