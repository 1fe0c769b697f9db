#!/usr/bin/env bash
# make fuzz: fuzzes the recording reader with libFuzzer for FUZZ_TIME
# seconds (default 60). Inputs that crash it are kept under
# tests/fuzz/regressions/, which the unit tests replay on every run.
set -u
FUZZER=$(realpath "$1")
cd "$(dirname "$0")/.."
corpus=build/fuzz-corpus
mkdir -p "$corpus" tests/fuzz/regressions
# Seeds: the head of the bundled recording, and small hand-made files.
head -n 40 tests/data/bundled.gtr >"$corpus/seed-bundled.gtr"
cp tests/fuzz/corpus/* "$corpus/" 2>/dev/null
before=$(ls tests/fuzz/regressions | wc -l)
"$FUZZER" "$corpus" -dict=tests/fuzz/gtr.dict -max_total_time="${FUZZ_TIME:-60}" \
    -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=tests/fuzz/regressions/ -print_final_stats=1 2>&1 | tail -25
rc=${PIPESTATUS[0]}
after=$(ls tests/fuzz/regressions | wc -l)
echo "fuzz: exit $rc; $((after - before)) new crashing input(s) kept in tests/fuzz/regressions/"
exit "$rc"
