#!/usr/bin/env bash
# make recordings: record this machine's GPU into share/gputui/MODEL.gtr.gz
# (MODEL from the device name: h200, h100, ...). What is recorded comes from
# build/recplan: every configuration a class reaches with +/- from the
# defaults on the parameters it changes (tests/tools/recplan_plans.c has the table).
#
#   scripts/make-recordings.sh BIN RECPLAN [OUTDIR] [PART...]
#
# Each batch line is written to its own part in $GPUTUI_REC_PARTS (default
# build/recordings) and skipped when that part exists, so a run cut off by
# a time limit goes on where it stopped; PART limits the run to "transfer"
# or "rest" ("peers": the two-GPU configurations, on a machine with two;
# "pageable" or an experiment's name ("latency"): those configurations
# alone, to merge over a recording with merge-recordings.py --drop;
# EXPERIMENT:PARAM=VALUE ("vmm:op=read"): the experiment's configurations
# with that value, to merge with --drop EXPERIMENT:PARAM=VALUE;
# "inspect": the card of gputui --inspect, to merge with merge-recordings.py;
# "traces": the configurations one key from the defaults whose CUDA calls
# the recording lacks, to merge with merge-recordings.py --drop-gens).
# Without PART, or with "merge", the parts are merged into one
# compressed recording and its coverage is printed. "lessons" records the
# configurations of the lessons' steps that $GPUTUI_REC_BASE (a recording,
# by default none) does not hold, for 1 s each; merge them with
#   scripts/merge-recordings.py OUT BASE PARTS/lesson-*.gtr.gz
set -uo pipefail
BIN=$(realpath "${1:-build/gputui}")
PLAN=$(realpath "${2:-build/recplan}")
OUTDIR=${3:-share/gputui}
shift $(( $# < 3 ? $# : 3 ))
what=${*:-transfer rest inspect merge}
cd "$(dirname "$0")/.."
PARTS=${GPUTUI_REC_PARTS:-build/recordings}
mkdir -p "$PARTS" "$OUTDIR"

# Per configuration: at least 300 samples per series or 0.4 s of them; the
# transfer sweep has 1000 configurations, so its cap is shorter.
record() {      # record NAME SECONDS ARGS...
    local name=$1 secs=$2; shift 2
    local f="$PARTS/$name.gtr.gz"
    [ -s "$f" ] && return 0
    # gputui writes $f.partial and names it $f only when it closes cleanly;
    # --force clears a .partial an interrupted run left.
    if "$BIN" --batch --force --record "$f" --record-samples 300 --record-seconds "$secs" \
        --samples "${MIN_SAMPLES:-5}" --format csv "$@" >/dev/null 2>"$PARTS/$name.err"; then
        :
    elif [ -s "$f" ] && "$BIN" --batch --replay "$f" >/dev/null 2>&1; then
        # some configurations were refused: keep the rest
        echo "  $name: $(grep -c . "$PARTS/$name.err") configurations refused or failed (see $PARTS/$name.err)"
    else
        echo "  $name: nothing recorded: $(head -c 300 "$PARTS/$name.err")"
        rm -f "$f" "$f.partial"
    fi
}

run_plan() {    # run_plan PREFIX SECONDS [--props REC] EXPERIMENT...
    local prefix=$1 secs=$2 n=0; shift 2
    while read -r line; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        record "$prefix-$(printf %03d $n)" "$secs" $line
    done < <("$PLAN" plan "$@")
    echo "$prefix: $n batch runs"
}

# The experiments of one GPU besides transfer, from the binary itself.
ONE_GPU=$("$BIN" --batch -e none 2>&1 | sed -n 's/.*(allowed: \(.*\))$/\1/p' | tr -d , |
          tr ' ' '\n' | grep -vxE 'transfer|peer' | tr '\n' ' ')
[ -n "$ONE_GPU" ] || { echo "$BIN did not list its experiments"; exit 1; }

for w in $what; do
    case $w in
    transfer)
        run_plan transfer 0.4 transfer ;;
    lessons)
        n=0
        while read -r line; do
            n=$((n + 1))
            # shellcheck disable=SC2086
            record "lesson-$(printf %03d $n)" 1 $line
        done < <("$PLAN" lessons share/gputui/lessons ${GPUTUI_REC_BASE:+--missing-from "$GPUTUI_REC_BASE"})
        echo "lessons: $n batch runs" ;;
    traces)
        # The configurations a key reaches from each experiment's defaults
        # that $GPUTUI_REC_BASE holds no CUDA calls for ('t' in a replay),
        # recorded again with their calls; merge them over the base with
        #   scripts/merge-recordings.py --drop-gens "$(recplan dups BASE PARTS/traces-*)" \
        #       OUT BASE PARTS/traces-*.gtr.gz
        n=0
        while read -r line; do
            n=$((n + 1))
            # shellcheck disable=SC2086
            record "traces-$(printf %03d $n)" 0.4 $line
        done < <("$PLAN" traces "${GPUTUI_REC_BASE:?set GPUTUI_REC_BASE to the recording they join}")
        echo "traces: $n batch runs" ;;
    pageable)
        # transfer's pageable configurations alone, to merge over a recording:
        #   scripts/merge-recordings.py --drop transfer:host=pageable OUT BASE PARTS/pageable-*.gtr.gz
        n=0
        while read -r line; do
            case " $line " in *" --host=pageable "*) ;; *) continue ;; esac
            n=$((n + 1))
            # shellcheck disable=SC2086
            record "pageable-$(printf %03d $n)" 0.4 $line
        done < <("$PLAN" plan transfer)
        echo "pageable: $n batch runs" ;;
    inspect)
        # An inspection (gputui --inspect), kept without the configurations
        # it measured: the bundled recording holds those already.
        f="$PARTS/inspect.gtr.gz"
        if [ ! -s "$f" ]; then
            "$BIN" --batch --inspect --force --record "$PARTS/inspect-full.gtr" --format json \
                >"$PARTS/inspect.json" 2>"$PARTS/inspect.err"
            echo "inspect: exit $? ($(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(r["verdict"]=="pass" for r in d["rows"]), "of", len(d["rows"]), "rows pass")' "$PARTS/inspect.json" 2>&1))"
            python3 - "$PARTS/inspect-full.gtr" "$f" <<'PY' || exit 1
import gzip, json, sys
lines = open(sys.argv[1]).read().splitlines()
keep = [lines[0]] + [l for l in lines[1:] if json.loads(l).get("type") == "inspection"]
assert len(keep) == 2, "no inspection line"
with gzip.open(sys.argv[2], "wt") as f:
    f.write("\n".join(keep) + "\n")
PY
            rm -f "$PARTS/inspect-full.gtr"
        fi ;;
    peers)
        # A machine with two GPUs: what needs both, into its own recording
        # (GPUTUI_REC_PARTS=build/recordings-2x GPUTUI_REC_MODEL=2xh200).
        run_plan peers 0.4 peer vmm/peer-access transfer/alloc-on ;;
    rest)
        first=$(ls "$PARTS"/transfer-*.gtr.gz 2>/dev/null | head -n 1)
        [ -n "$first" ] || { echo "record the transfer part first (its header gives the L2 size)"; exit 1; }
        # shellcheck disable=SC2086
        MIN_SAMPLES=3 run_plan rest 0.4 --props "$first" $ONE_GPU ;;
    merge)
        model=${GPUTUI_REC_MODEL:-}
        [ -n "$model" ] || model=$("$BIN" --batch --replay "$(ls "$PARTS"/*.gtr.gz | head -n 1)" --format json |
                python3 -c 'import json,sys; n=json.load(sys.stdin)["device"]["name"]; print(n.replace("NVIDIA","").split()[0].lower())')
        out="$OUTDIR/$model.gtr.gz"
        # shellcheck disable=SC2046
        python3 scripts/merge-recordings.py "$out" $(ls "$PARTS"/*.gtr.gz) || exit 1
        # What a viewer opens on first: it shows it before it reads the rest.
        python3 scripts/merge-recordings.py --first "$("$PLAN" openings "$out" share/gputui/lessons)" \
            "$out.tmp.gz" "$out" && mv "$out.tmp.gz" "$out" || exit 1
        ls -l "$out"
        "$PLAN" check "$out" ;;
    *:*=*)
        # Part of one experiment, recorded again on changed code:
        #   scripts/merge-recordings.py --drop EXP:PARAM=VALUE OUT BASE PARTS/EXP-PARAM-VALUE-*.gtr.gz
        if [[ " $ONE_GPU " == *" ${w%%:*} "* ]]; then
            run_plan "$(tr ':=' '--' <<<"$w")" 0.4 \
                --props "${GPUTUI_REC_BASE:?set GPUTUI_REC_BASE to the recording it joins}" "$w"
        else
            echo "unknown experiment in '$w' (allowed: $ONE_GPU)"
            exit 64
        fi ;;
    *)
        if [[ " $ONE_GPU " == *" $w "* ]]; then
            # One experiment alone, to merge into a recording made before it:
            #   scripts/merge-recordings.py --drop EXP OUT BASE PARTS/EXP-*.gtr.gz
            run_plan "$w" 0.4 --props "${GPUTUI_REC_BASE:?set GPUTUI_REC_BASE to the recording it joins}" \
                "$w"
        else
            echo "unknown part '$w' (allowed: transfer, rest, inspect, traces, pageable, peers, lessons, merge, one of: $ONE_GPU, or EXPERIMENT:PARAM=VALUE)"
            exit 64
        fi ;;
    esac
done
