#!/usr/bin/env bash
# How soon the viewer's first figures are on screen (tests/e2e/start.py):
# the median of 5 starts of each way to open a recording, within 200 ms, on
# a machine nothing else loads. Prints "ok"/"FAIL" lines.
# Usage: starts.sh BIN
set -u
cd "$(dirname "$0")/../.."
exec python3 tests/e2e/start.py "$1" 5 200 "gputui (the bundled recording)=" \
    "--compare h200 h100=--compare h200 h100" "--lesson pinned=--lesson pinned" \
    "--replay h200.gtr.gz --follow=--replay share/gputui/h200.gtr.gz --follow"
