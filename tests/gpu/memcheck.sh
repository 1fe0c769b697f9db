#!/usr/bin/env bash
# make test-gpu-memcheck: batch mode and the unwind test under
# compute-sanitizer memcheck (with leak checking): zero errors expected.
set -u
BIN=$(realpath "$1"); UNWIND=$(realpath "$2")
cd "$(dirname "$0")/../.."
LOG=${GPUTUI_LOG_DIR:-build/test-gpu}
mkdir -p "$LOG"
CS=${COMPUTE_SANITIZER:-compute-sanitizer}
pass=0 fail=0
one() {     # one NAME [--report-api-errors no | --target-processes application-only] CMD...
    local name=$1; shift
    local api=()
    case $1 in --report-api-errors|--target-processes) api=("$1" "$2"); shift 2 ;; esac
    if "$CS" --tool memcheck --leak-check full --error-exitcode 99 "${api[@]}" "$@" >"$LOG/memcheck-$name.log" 2>&1 \
        && grep -q "ERROR SUMMARY: 0 errors" "$LOG/memcheck-$name.log"; then
        pass=$((pass + 1)); echo "ok   memcheck $name"
    else
        fail=$((fail + 1)); echo "FAIL memcheck $name"; tail -30 "$LOG/memcheck-$name.log"
    fi
}
B=("$BIN" --batch --samples 3 --warmup 1 --size 8M)
one h2d-pinned-ce "${B[@]}" --dir h2d
one d2h-pageable-ce "${B[@]}" --dir d2h --host pageable
one d2d-sm "${B[@]}" --dir d2d --method sm
one bidir-hostalloc-sm "${B[@]}" --dir bidir --host hostalloc --mapped --write-combined --method sm
one bidir-register-ce "${B[@]}" --dir bidir --host register --mapped
one record "$BIN" --batch --samples 3 --warmup 1 --size 1M,2M --record "$LOG/memcheck.gtr" --force
one hostalloc "$BIN" --batch --samples 3 --warmup 1 -e hostalloc --kind register --mapped --size 16M
one transfer-kept "${B[@]}" --dir bidir --size 8M,4M,16M
one zerocopy-cpu-repeat "$BIN" --batch --samples 3 --warmup 1 -e zerocopy --count 100000 --check cpu --repeat 3
one pitched-d2h "$BIN" --batch --samples 3 --warmup 1 -e pitched --width 1000 --height 256 --measure d2h
one zerocopy "$BIN" --batch --samples 3 --warmup 1 -e zerocopy --count 100000 --passes 2 --write-combined
one streams "$BIN" --batch --samples 3 --warmup 1 -e streams --chunks 6 --chunk-size 1M --streams 3
one streams-legacy "$BIN" --batch --samples 3 --warmup 1 -e streams --chunks 4 --chunk-size 1M --legacy-sync --host pageable
one streams-alloc "$BIN" --batch --samples 3 --warmup 1 -e streams --chunks 4 --chunk-size 1M --alloc-between cudaMallocHost --trace-calls
one vmm-alloc "$BIN" --batch --samples 3 --warmup 1 -e vmm --op alloc --size 3M
one vmm-bandwidth "$BIN" --batch --samples 3 --warmup 1 -e vmm --op bandwidth --dir d2d --size 8M
one vmm-grow "$BIN" --batch --samples 3 --warmup 1 -e vmm --op grow --start 2M --end 16M --step 2M --granularity minimum
# access=ro: a child process writes through the read-only mapping on
# purpose, and its fault is what the row shows; gputui itself is checked.
one vmm-read --target-processes application-only "$BIN" --batch --samples 3 --warmup 1 -e vmm --op read --size 8M --data zeros --access ro
one vmm-read-host "$BIN" --batch --samples 3 --warmup 1 -e vmm --op read --size 8M --location host-numa
one vmm-share "$BIN" --batch --samples 3 --warmup 1 -e vmm --op share --size 8M
one l2 "$BIN" --batch --samples 3 --warmup 1 -e l2 --region 4M --streaming 64M
one l2-graph "$BIN" --batch --samples 3 --warmup 1 -e l2 --region 4M --streaming 64M --apply graph
one l2-compete "$BIN" --batch --samples 3 --warmup 1 -e l2 --op compete --region 4M --streaming 64M --trace-calls
one l2-cost "$BIN" --batch --samples 3 --warmup 1 -e l2 --op cost --streaming 64M
one pitched "$BIN" --batch --samples 3 --warmup 1 -e pitched --width 1000 --height 256 --measure kernel
one pitched-3d "$BIN" --batch --samples 3 --warmup 1 -e pitched --dims 3d --width 4100 --height 64 --depth 8
L=("$BIN" --batch --samples 3 --warmup 1 -e latency --size 1M)
one latency-device "${L[@]}"
one latency-mapped-warp "${L[@]}" --kind mapped --threads warp --order linear
one latency-managed-cpu "${L[@]}" --kind managed-cpu --cache cg
one constant "$BIN" --batch --samples 3 --warmup 1 -e constant --op read,copy --reads 256 --size 64K
one concurrent "$BIN" --batch --samples 3 --warmup 1 -e concurrent --kernels 4 --blocks 1,fill --spin 50
one sharing "$BIN" --batch --samples 2 --warmup 1 -e sharing --measure latency,copy
M=("$BIN" --batch --samples 3 --warmup 1 -e managed --size 4M)
one managed "${M[@]}" --touch host,device --access once,pingpong
one managed-advice "${M[@]}" --prefetch --read-mostly --preferred host --accessed-by --access repeat
one coalesce "$BIN" --batch --samples 3 --warmup 1 -e coalesce --size 2M --op read,write,both --stride 3 --offset 5 --width float,float4
one coalesce-mapped "$BIN" --batch --samples 3 --warmup 1 -e coalesce --size 1M --memory mapped --op write --stride 8
one banks "$BIN" --batch --samples 3 --warmup 1 -e banks --reads 256 --stride 1,33 --width float,float2,float4
one transpose "$BIN" --batch --samples 3 --warmup 1 -e transpose --n 512 --tile 32,8 --rows 8
one async "$BIN" --batch --samples 3 --warmup 1 -e async --size 4M --way plain,cp.async,bulk,tma --stages 1,3 --tile 4K
one latency-carveout "$BIN" --batch --samples 3 --warmup 1 -e latency --size 48K --carveout 0,100
one latency-dsmem "$BIN" --batch --samples 3 --warmup 1 -e latency --size 16K --kind shared,dsmem
one cluster "$BIN" --batch --samples 3 --warmup 1 -e cluster --cluster 2,16 --access coalesced,scattered --reads 256
one atomics "$BIN" --batch --samples 3 --warmup 1 -e atomics --ops 4 --op add,mul --where global,shared --addresses 256,1024
one atomics-mapped "$BIN" --batch --samples 3 --warmup 1 -e atomics --ops 2 --where mapped --aggregate warp --addresses 32
one pool "$BIN" --batch --samples 3 --warmup 1 -e pool --op alloc,sync --count 4 --size 64K --spin 100
one pool-reuse "$BIN" --batch --samples 3 --warmup 1 -e pool --op reuse --order running,done,synced,event --count 4 --size 64K --spin 100
T=("$BIN" --batch --samples 3 --warmup 1 -e texture --width 256 --height 128)
one texture "${T[@]}" --access row,tile --filter linear --normalized --address wrap
one texture-uchar4 "${T[@]}" --type uchar4 --access column,rotated --filter point,linear
one runtime "$BIN" --batch --samples 2 --warmup 0 -e runtime --op init,jit
one runtime-return "$BIN" --batch --samples 3 --warmup 1 -e runtime --op return --size 64K \
    --call h2d-pageable,h2d-pinned,d2h-pageable,d2d,memset --ahead 250
if [ "$("$BIN" --list-devices 2>/dev/null | grep -c '^[0-9][0-9]*: ')" -ge 2 ]; then
    P=("$BIN" --batch --samples 3 --warmup 1 -e peer --size 8M)
    one peer-ce-read-both "${P[@]}" --dir both
    one peer-sm-write-both "${P[@]}" --engine sm --op write --dir both
    one peer-ce-staged "${P[@]}" --access off
    one peer-latency "$BIN" --batch --samples 3 --warmup 1 -e peer --measure latency
    one vmm-peer-rw "$BIN" --batch --samples 3 --warmup 1 -e vmm --op peer --peer-access rw --size 8M
    one vmm-alloc-peer "$BIN" --batch --samples 3 --warmup 1 -e vmm --op alloc --peer-access rw --size 8M
    one transfer-alloc-on-other "${B[@]}" --dir bidir --host hostalloc --alloc-on other
fi
# The unwind test makes allocations fail on purpose: API errors are expected there.
one unwind --report-api-errors no "$UNWIND"
echo "memcheck: $pass passed, $fail failed"
[ $fail = 0 ]
