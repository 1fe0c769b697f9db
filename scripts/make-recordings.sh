#!/usr/bin/env bash
# make recordings: regenerate tests/data/bundled.gtr on a machine with a
# GPU. Run it whenever an experiment changes. The sweep covers every host
# memory kind, direction and copy method of the transfer experiment at
# three sizes; combinations the GPU cannot run are reported and skipped.
set -euo pipefail
BIN=$(realpath "${1:-build/gputui}")
OUTF=${2:-tests/data/bundled.gtr}
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$OUTF")"
"$BIN" --batch --record "$OUTF.1" --samples 40 --format csv \
    --dir h2d,d2h,bidir,d2d --method ce,sm --host pageable,pinned,hostalloc,register \
    --write-combined=off,on --size 4M,64M,256M >/dev/null
"$BIN" --batch --record "$OUTF.2" --samples 60 --format csv -e zerocopy \
    --count 1000000,16777216 --passes 1,8 --write-combined=off,on >/dev/null
"$BIN" --batch --record "$OUTF.3" --samples 15 --format csv -e hostalloc --op alloc \
    --kind pageable,pinned,hostalloc,register --write-combined=off,on --size 64M,1G >/dev/null
"$BIN" --batch --record "$OUTF.4" --samples 15 --format csv -e hostalloc --op cpu \
    --kind pageable,pinned,hostalloc,register --write-combined=off,on --size 64M >/dev/null
"$BIN" --batch --record "$OUTF.5" --samples 30 --format csv -e streams \
    --streams 1,2,4,8,16 --legacy-sync=off,on >/dev/null
"$BIN" --batch --record "$OUTF.6" --samples 30 --format csv -e streams \
    --streams 4 --legacy-sync --stream-flags non-blocking >/dev/null
"$BIN" --batch --record "$OUTF.7" --samples 10 --format csv -e streams \
    --streams 4 --host pageable >/dev/null
"$BIN" --batch --record "$OUTF.8" --samples 30 --format csv -e vmm --op alloc \
    --size 2M,3M,64M,1G >/dev/null
"$BIN" --batch --record "$OUTF.9" --samples 20 --format csv -e vmm --op bandwidth \
    --dir h2d,d2h,d2d --size 512M >/dev/null
"$BIN" --batch --record "$OUTF.10" --samples 63 --format csv -e vmm --op grow \
    --start 64M --end 4G --step 64M >/dev/null
python3 scripts/merge-recordings.py "$OUTF".{1,2,3,4,5,6,7,8,9,10} >"$OUTF"
rm -f "$OUTF".{1,2,3,4,5,6,7,8,9,10}
ls -l "$OUTF"
"$BIN" --batch --replay "$OUTF" --format text | grep -c '^== run' | sed 's/^/configurations: /'
