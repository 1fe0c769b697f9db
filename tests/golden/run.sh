#!/usr/bin/env bash
# What gputui reports must not change by accident: every batch output
# (text, JSON, CSV, HTML) of every bundled recording, of each experiment's
# defaults, of every lesson, of the inspection cards and of a comparison,
# replayed (no GPU is used: CUDA_VISIBLE_DEVICES is empty). Each output's
# standard output and exit status is reduced to a SHA-256, and the list is
# compared with tests/golden/digests.
#
# Usage: tests/golden/run.sh BIN             compare (prints "golden: N passed, M failed")
#        tests/golden/run.sh BIN --update    rewrite digests (in a commit that says why)
#        GOLDEN_KEEP=DIR tests/golden/run.sh BIN   also keep the outputs in DIR,
#                                             to diff two builds' reports
set -u
BIN=$(realpath "$1"); MODE=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIG=$HERE/digests
OUTD=${GOLDEN_KEEP:-$(mktemp -d)}
[ -n "${GOLDEN_KEEP:-}" ] || trap 'rm -rf "$OUTD"' EXIT
mkdir -p "$OUTD"
cd "$ROOT"
NP=$(nproc 2>/dev/null || echo 2)

cases() {
    local f r e l
    for r in h200 h100 2xh200; do
        for f in text json csv html; do echo "--batch --replay $r --format $f"; done
    done
    for r in h200 h100; do
        for f in text json; do echo "--batch --inspect --replay $r --format $f"; done
    done
    # Each experiment's defaults, from the bundled recording that holds
    # them (the h200's, else the one its message names: one()).
    for e in $("$BIN" --help | sed -n '/^experiments/,/^$/p' | sed '1d'); do
        for f in text json csv html; do echo "@home $e $f"; done
    done
    for l in $("$BIN" --list-lessons | sed -n 's/^\([a-z][a-z0-9_-]*\) .*/\1/p'); do
        for f in text json; do echo "--batch --lesson $l --format $f"; done
    done
    for f in text json csv html; do echo "--batch --compare h200 h100 --format $f"; done
}

# one ARGS: the case's output in OUTD (paths to this tree written as ROOT),
# its exit status last, and "DIGEST  ARGS". "@home EXP FORMAT": EXP's
# defaults from the H200's recording, or from the one its message names.
one() {
    local args=$1 name out err rc r
    if [[ $args == @home* ]]; then
        set -- $args
        args="--batch --replay h200 -e $2 --format $3"
    fi
    name=$(tr ' /' '_%' <<<"$args")
    out=$OUTD/$name err=$OUTD/$name.err
    # shellcheck disable=SC2086
    CUDA_VISIBLE_DEVICES= NO_COLOR=1 "$BIN" $args 2>"$err" | sed "s|$ROOT|ROOT|g" >"$out"
    rc=${PIPESTATUS[0]}
    r=$(sed -n 's/.*the bundled \([0-9a-z]*\) recording holds it.*/\1/p' "$err" | head -1)
    rm -f "$err"
    if [ -n "$r" ] && [[ $1 == @home ]]; then
        rm -f "$out"
        one "--batch --replay $r -e $2 --format $3"
        return
    fi
    echo "exit $rc" >>"$out"
    echo "$(sha256sum <"$out" | cut -c1-64)  $args"
}
export -f one
export BIN OUTD ROOT
cases | xargs -P "$NP" -I{} bash -c 'one "$1"' _ {} | sort -k2 >"$OUTD/digests.now"

if [ "$MODE" = --update ]; then
    cp "$OUTD/digests.now" "$DIG"
    echo "golden: wrote $(wc -l <"$DIG") digests to $DIG"
    exit 0
fi
pass=0 fail=0
while read -r d args; do
    want=$(awk -v a="$args" '{ d = $1; $1 = ""; sub(/^ +/, ""); if ($0 == a) print d }' "$DIG")
    if [ "$d" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        if [ -n "$want" ]; then echo "FAIL gputui $args: its output changed"
        else echo "FAIL gputui $args: no digest kept (tests/golden/run.sh BIN --update)"; fi
    fi
done <"$OUTD/digests.now"
gone=$(cut -c67- "$DIG" | sort | comm -23 - <(cut -c67- "$OUTD/digests.now" | sort))
[ -n "$gone" ] && { fail=$((fail + 1)); echo "FAIL cases no longer run: $gone"; }
[ $fail = 0 ] && echo "ok   $pass batch outputs byte-identical to tests/golden/digests"
[ $fail != 0 ] && echo "     to see a change: GOLDEN_KEEP=DIR with the build before and after, then diff -r"
echo "golden: $pass passed, $fail failed"
