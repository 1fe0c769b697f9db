#!/usr/bin/env bash
# make fuzz: fuzzes one target (the recording reader, what gputui writes
# of a recording, the command line or the lesson reader) with libFuzzer for
# FUZZ_TIME seconds (default 60). Inputs that crash it are kept under
# tests/fuzz/regressions/ (recordings), regressions-report/,
# regressions-cli/ or regressions-lesson/, which the unit tests replay on
# every run. The two recording targets then read the large files of
# tests/fuzz/bigfiles.py (4 GiB of samples or of newlines, a million
# configurations: past libFuzzer's 64 KiB) once each.
# Usage: fuzz.sh FUZZER DICT
set -u
FUZZER=$(realpath "$1")
DICT=$2
cd "$(dirname "$0")/.."
name=$(basename "$FUZZER")
corpus=build/$name-corpus
keep=tests/fuzz/regressions
[ "$name" = fuzz_report ] && keep=tests/fuzz/regressions-report
[ "$name" = fuzz_cli ] && keep=tests/fuzz/regressions-cli
[ "$name" = fuzz_lesson ] && keep=tests/fuzz/regressions-lesson
mkdir -p "$corpus" "$keep"
if [ "$name" = fuzz_record ] || [ "$name" = fuzz_report ]; then
    # Seeds: the head of a bundled recording, small hand-made files, and
    # the same compressed (the reader takes gzip through zlib).
    gzip -dc "$(ls share/gputui/*.gtr.gz | head -n 1)" | head -n 40 >"$corpus/seed-bundled.gtr"
    cp tests/fuzz/corpus/* "$corpus/" 2>/dev/null
    for f in "$corpus"/*.gtr; do gzip -9c "$f" >"$f.gz"; done
elif [ "$name" = fuzz_lesson ]; then
    cp share/gputui/lessons/*.json "$corpus/"
else
    printf -- '--batch\0--size\0001.5G,64M\0--dir=bidir\0-e\0zerocopy\0--blocks\0auto' >"$corpus/seed-cli"
fi
before=$(ls "$keep" | wc -l)
"$FUZZER" "$corpus" -dict="$DICT" -max_total_time="${FUZZ_TIME:-60}" \
    -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$keep/" -print_final_stats=1 2>&1 | tail -6
rc=${PIPESTATUS[0]}
if [ $rc = 0 ] && { [ "$name" = fuzz_record ] || [ "$name" = fuzz_report ]; }; then
    big=build/fuzz-bigfiles
    mkdir -p "$big"
    [ -s "$big/samples4g.gtr.gz" ] || python3 tests/fuzz/bigfiles.py "$big"
    "$FUZZER" -rss_limit_mb=2048 -timeout=120 -artifact_prefix="$keep/" "$big"/*.gtr.gz 2>&1 |
        grep -E '^Executed|ERROR|SUMMARY'
    rc=${PIPESTATUS[0]}
fi
after=$(ls "$keep" | wc -l)
echo "fuzz $name: exit $rc; $((after - before)) new crashing input(s) kept in $keep/"
exit "$rc"
