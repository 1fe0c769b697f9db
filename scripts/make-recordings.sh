#!/usr/bin/env bash
# make recordings: regenerate tests/data/bundled.gtr on a machine with a
# GPU. Run it whenever an experiment changes. It covers every host memory
# kind, direction and copy method of the transfer experiment at three
# sizes, and the main configurations and sweeps of the other experiments;
# combinations the GPU cannot run are reported and skipped.
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
"$BIN" --batch --record "$OUTF.11" --samples 30 --format csv -e l2 \
    --hit-ratio 0,10,20,30,40,50,60,70,80,90,100 >/dev/null
"$BIN" --batch --record "$OUTF.12" --samples 30 --format csv -e l2 \
    --region 5M,10M,16M,24M,32M,40M,48M,64M,96M,120M >/dev/null
"$BIN" --batch --record "$OUTF.13" --samples 30 --format csv -e l2 --op cost --streaming 512M >/dev/null
"$BIN" --batch --record "$OUTF.14" --samples 30 --format csv -e pitched \
    --width 1000,4096,4100 --measure h2d,d2h,kernel >/dev/null
"$BIN" --batch --record "$OUTF.15" --samples 30 --format csv -e pitched --dims 3d \
    --width 1000,4100 --height 512 --depth 32 --measure h2d,kernel >/dev/null
parts=$(for i in $(seq 15); do echo "$OUTF.$i"; done)
# shellcheck disable=SC2086
python3 scripts/merge-recordings.py $parts >"$OUTF"
# shellcheck disable=SC2086
rm -f $parts
ls -l "$OUTF"
"$BIN" --batch --replay "$OUTF" --format text | grep -c '^== run' | sed 's/^/configurations: /'
