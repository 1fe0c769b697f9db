# shellcheck shell=bash
# The GPU suite's configurations judged on what they compute, not on how
# fast: every sample verified, every figure under the device's ceilings
# (a time slice only slows a copy), each refusal naming the problem.
# tests/gpu/run.sh runs these jobs first, POOL at once (run_jobs), on 3
# samples a configuration (a check of what is computed needs no more), their
# processes without turns (--no-share-lock), so that one's CPU work (set-up,
# verification, a child process's CUDA context) overlaps another's GPU
# work. What is judged against a bound or a reference runs in run.sh, one
# process at a time.
# Sourced after lib.sh; each job_* prints ok/FAIL lines.

# Every host-memory kind (with its flags) x direction x method at 4 KiB
# and 64 MiB, each configuration once: one process per host kind, its
# directions, methods and sizes as lists. Pinned copies' rate against
# nvbandwidth's: the fidelity checks (alternate.py pinned).
SIZES=${SIZES:-4K 64M}
HOSTS=("pageable" "pinned" "hostalloc" "hostalloc --portable" "hostalloc --write-combined"
       "hostalloc --mapped" "hostalloc --portable --write-combined --mapped"
       "register" "register --portable" "register --mapped")
transfer_hosts() {  # transfer_hosts FIRST LAST: HOSTS[FIRST..LAST]
    local k host methods
    for k in $(seq "$1" "$2"); do
        host=${HOSTS[$k]} methods=ce,sm
        [ "$host" = pageable ] && methods=ce
        # shellcheck disable=SC2086
        run_one --host $host --dir h2d,d2h,bidir --method $methods --size "${SIZES// /,}"
    done
}

job_transfer_d2d() {
    section "transfer: device to device"
    TRACE=1 run_one --dir d2d --method ce,sm --size "${SIZES// /,}"
}

# Pageable memory, a direction a job: a 256 MiB read before each sample
# pushes it out of the CPU's caches.
job_transfer_pageable() {  # job_transfer_pageable DIR
    section "transfer: pageable $1"
    run_one --host pageable --dir "$1" --method ce --size "${SIZES// /,}"
    [ "$1" = h2d ] || return 0
    # Kernels reach pageable memory only where the device says pageableMemoryAccess.
    if msg=$("$BIN" --batch --samples 2 --host pageable --method sm --size 4K 2>&1 >/dev/null); then
        run_one --host pageable --dir h2d,d2h,bidir --method sm --size 4K,64M
    elif grep -q "pageableMemoryAccess = 0" <<<"$msg"; then
        ok "method=sm on pageable memory -> refused as documented: $msg"
    else
        bad "method=sm on pageable memory: $msg"
    fi
}

job_transfer_host() {   # job_transfer_host K: HOSTS[K], every direction and method
    section "transfer: ${HOSTS[$1]}"
    transfer_hosts "$1" "$1"
}

job_latency() {
    section "latency: every memory kind, load policy and walker count"
    LA=(-e latency --warmup 1)
    TRACE=1 run_one "${LA[@]}" --kind device,mapped,managed,managed-cpu --size 2M
    run_one "${LA[@]}" --cache default,cg,volatile --size 16K,16M
    run_one "${LA[@]}" --threads warp --order linear --size 64M
    run_one "${LA[@]}" --size 4G --stride 2M
    run_one "${LA[@]}" --size 20G --stride 64K         # past 16 GiB: addresses past 2^32 words
    refused "latency: a stride not a multiple of 8" "allowed: a multiple of 8 bytes" "${LA[@]}" \
        --size 12M --stride 12
    [ "$(gpu_count)" -ge 2 ] &&
        run_one "${LA[@]}" --kind peer --size 2M
    refused "latency: one slot" "leaves 1 slots in 8 KiB" "${LA[@]}" --size 8K --stride 8K
    refused "latency: a size not a multiple of the stride" "is not a multiple of the stride" \
        "${LA[@]}" --size 100K --stride 384
}

job_zerocopy() {
    section "zerocopy"
    ZC=(-e zerocopy --warmup 1)
    TRACE=1 run_one "${ZC[@]}"
    run_one "${ZC[@]}" --blocks auto --passes 8
    run_one "${ZC[@]}" --count 1024 --blocks 1 --threads 32
    run_one "${ZC[@]}" --variant explicit,mapped --check gpu,cpu --repeat 1,10
}

job_zerocopy_wc() {
    section "zerocopy: write-combined, 16M floats"
    run_one -e zerocopy --warmup 1 --write-combined --count 16777216 --threads 256
}

job_vmm_alloc() {
    section "vmm: allocation"
    VM=(-e vmm --warmup 1)
    TRACE=1 run_one "${VM[@]}" --op alloc --size 2M
    for size in 3M 64M 1G; do run_one "${VM[@]}" --op alloc --size $size; done
    run_one "${VM[@]}" --op alloc --size 64M --granularity minimum
}

job_vmm_use() {
    section "vmm: bandwidth and growth"
    VM=(-e vmm --warmup 1)
    for dir in h2d d2h d2d; do run_one "${VM[@]}" --op bandwidth --dir $dir --size 512M; done
    run_one "${VM[@]}" --op grow --start 64M --end 1G --step 64M
    run_one "${VM[@]}" --op grow --start 2M --end 64M --step 2M --granularity minimum
    refused "vmm grow end not above start" "end: 64 MiB is not above start" "${VM[@]}" --op grow --end 64M
    refused "vmm grow step not a granularity multiple" "multiples of the" "${VM[@]}" --op grow --step 3M --granularity minimum
}

# A kernel's read of VMM and cudaMalloc memory holding each kind of data,
# compressible where the device has generic compression (a 4 MiB read
# with compression=on runs there and is refused, naming the attribute,
# elsewhere); compressible allocations and copies; this GPU's read-only
# mapping; VMM memory on the host beside mapped pinned memory.
# A source registered read-only (cudaHostRegisterReadOnly), copied by the
# copy engine and read by a kernel, where the device takes the flag.
job_transfer_read_only() {
    section "transfer: a read-only registration"
    if "$BIN" --batch -e transfer --host register --read-only on --size 4M --samples 1 \
        >/dev/null 2>&1; then
        run_one -e transfer --host register --dir h2d --method ce,sm --read-only off,on \
            --size 64M
    else
        echo "# read-only registration: not on this device"
    fi
}

job_vmm_flags() {
    section "vmm: compression, the data, read-only, host memory"
    VM=(-e vmm --warmup 1)
    local comp=off
    if "$BIN" --batch "${VM[@]}" --op read --compression on --size 4M --samples 1 \
        >/dev/null 2>&1; then comp=off,on; fi
    echo "# compression here: $comp"
    TRACE=1 run_one "${VM[@]}" --op read --size 256M --data pattern,random,zeros,constant \
        --compression "$comp"
    run_one "${VM[@]}" --op bandwidth --dir d2d --size 256M --data random,zeros --compression "$comp"
    run_one "${VM[@]}" --op alloc --size 64M --compression "$comp"
    # GPUDirect RDMA capable memory, where the device takes the flag.
    if "$BIN" --batch "${VM[@]}" --op alloc --rdma on --size 2M --samples 1 >/dev/null 2>&1; then
        run_one "${VM[@]}" --op alloc,read --size 64M --rdma off,on
    fi
    # This GPU's own mapping read-only: read whole, a write refused in a child.
    run_one "${VM[@]}" --op read --size 256M --access ro,rw
    # Another gputui process imports the memory by a file descriptor.
    run_one "${VM[@]}" --op share --size 2M,64M,1G
    run_one "${VM[@]}" --op read --size 64M --location host,host-numa
    run_one "${VM[@]}" --op alloc --size 64M --location host-numa
    if [ -r /sys/devices/system/node/online ]; then
        refused "vmm numa node that is not there" "is not a NUMA node of this host; allowed:" \
            "${VM[@]}" --op read --location host-numa --numa 62
    fi
}

# A new process a sample: its first calls, cudaDeviceReset, the call after
# (op=init); one module loaded as cubins and as PTX (op=jit). Not in the
# pool: run.sh runs them alone, before it (beside seven other contexts a
# child's context takes seconds to make, alone a tenth of one).
job_runtime() {  # job_runtime OP
    section "runtime: op=$1, a new process a sample"
    local built
    built=$("$BIN" --version | sed -n 's/.*CUDA runtime \([0-9]*\)\.\([0-9]\).*/\1\2/p')
    if [ "$1" = init ]; then
        TRACE=1 run_one -e runtime --op init --warmup 0
    elif [ "$1" = jit ] && [ "${built:-999}" -lt 124 ]; then
        refused "runtime: op=jit on a gputui built before CUDA 12.4" \
            "op=jit needs CUDA 12.4 (cuModuleGetFunctionCount); this gputui was built with" \
            -e runtime --op jit
    else
        run_one -e runtime --op "$1" --warmup 0
    fi
}

job_runtime_return() {
    section "runtime: every call's destination"
    # When each call returns behind a 1 ms kernel, every destination
    # checked (when they return is judged in run.sh).
    run_one -e runtime --op return --call h2d-pageable,h2d-pinned,d2h-pageable,d2d,memset --size 4K,64K,128K,1M
    refused "runtime: a size with op=init" "only with op=return" -e runtime --size 1M
    refused "runtime: a size not a multiple of 4 KiB" "is not a multiple of 4096 bytes" -e runtime --op return --size 6K
}

job_small_kernels() {
    section "constant"
    # __constant__ memory: the three reads and the three copies, each verified.
    CO=(-e constant --warmup 1)
    TRACE=1 run_one "${CO[@]}" --op read --reads 256,4096
    run_one "${CO[@]}" --op copy --size 4,1K,64K
    refused "constant: a size not a multiple of 4" "is not a multiple of 4 bytes" "${CO[@]}" --op copy --size 6
    refused "constant: reads with op=copy" "only with op=read" "${CO[@]}" --op copy --reads 512

    section "concurrent"
    # Kernels on one stream and on a stream each, small and filling the GPU,
    # each kernel's mark checked; and the timeline a batch report prints.
    CK=(-e concurrent --warmup 1)
    TRACE=1 run_one "${CK[@]}" --kernels 2,16 --blocks 1,fill --spin 50
    refused "concurrent: more kernels than the timeline's streams" "allowed: 2 to 16" "${CK[@]}" --kernels 17
    if "$BIN" --batch --samples 5 "${JOB_FLAGS[@]}" "${CK[@]}" >"$LOG/concurrent.txt" 2>&1 &&
        grep -q "timeline of the last iteration" "$LOG/concurrent.txt" &&
        grep -q "a stream each: 5 samples (5 fully verified" "$LOG/concurrent.txt"; then
        ok "concurrent: the text report's timeline and summary: $(grep -m1 'kernels of' "$LOG/concurrent.txt")"
    else
        bad "concurrent: text report: $(tail -5 "$LOG/concurrent.txt")"
    fi

}

job_pitched_rows() {
    section "pitched: 32768 rows"
    # Every width x measure once at 32768 rows (32-128 MiB, beyond the L2 at
    # W = 4096): at the default height each sample is verified byte by byte
    # on the CPU over up to 1 GiB, and nine of them took three minutes. The
    # default height runs once, on the kernel (job_pitched).
    PI=(-e pitched --warmup 1)
    for w in 1000 4096 4100; do
        for m in h2d d2h kernel; do run_one "${PI[@]}" --width $w --measure $m --height 32768; done
    done
}

job_pitched() {
    section "pitched: the default height, 3D, one byte"
    PI=(-e pitched --warmup 1)
    TRACE=1 run_one "${PI[@]}" --width 4100 --measure kernel
    run_one "${PI[@]}" --dims 3d --width 1000 --height 512 --depth 32 --measure h2d
    run_one "${PI[@]}" --dims 3d --width 4100 --height 512 --depth 32 --measure kernel
    run_one "${PI[@]}" --width 1 --height 1 --measure d2h
}

job_hostalloc() {   # job_hostalloc KIND...: each kind (flags after _) allocated and read
    section "hostalloc: $*"
    HA=(-e hostalloc --warmup 1)
    local kind
    for kind in "$@"; do
        kind=${kind//_/ }
        # shellcheck disable=SC2086
        if [ "$kind" = pinned ]; then   # its calls: cudaMallocHost and cudaFreeHost each sample
            TRACE=1 run_one "${HA[@]}" --op alloc,cpu --kind $kind --size 64M
        else
            run_one "${HA[@]}" --op alloc,cpu --kind $kind --size 64M
        fi
    done
}

job_hostalloc_1g() {   # job_hostalloc_1g KIND: the large path once (0.3 to 0.5 s a sample alone)
    section "hostalloc: $1 1 GiB"
    run_one -e hostalloc --warmup 1 --op alloc --kind "$1" --size 1G
    [ "$1" = pinned ] && run_one -e hostalloc --warmup 1 --op alloc --kind pageable --size 4K
}

# A compressed recording replayed: judged on what it holds.
job_managed() {
    section "managed: first touch, prefetch, advice, access"
    MG=(-e managed --warmup 1)
    TRACE=1 run_one "${MG[@]}"
    run_one "${MG[@]}" --touch host,device --access repeat,pingpong
    run_one "${MG[@]}" --touch device --prefetch
    run_one "${MG[@]}" --read-mostly --preferred device,host --accessed-by --access repeat
    run_one "${MG[@]}" --prefetch --preferred host --access once,pingpong --size 64K,256M
    refused "managed beyond half of the free memory" "more than half of the GPU's free memory" \
        "${MG[@]}" --size 1000G
}

job_texture() {
    section "texture: every walk, filter, address mode and texel type"
    TX=(-e texture --warmup 1)
    TRACE=1 run_one "${TX[@]}" --access row,column,rotated,tile
    run_one "${TX[@]}" --type float,uchar4 --filter linear --access column,rotated
    run_one "${TX[@]}" --type uchar4 --access tile
    run_one "${TX[@]}" --address wrap --normalized --filter point,linear --access rotated
    run_one "${TX[@]}" --width 64 --height 64,72 --normalized --access tile
    refused "texture: wrap without normalized coordinates" "wrap needs normalized=on" \
        "${TX[@]}" --address wrap
    refused "texture: a width not a multiple of 32" "allowed: a multiple of 32" "${TX[@]}" --width 100
}

# How a warp touches memory: every side, element width and memory once,
# strides and offsets where the sectors change, every bank stride class,
# the compiled and the run-time transpose shapes; and the refusals.
job_coalesce() {
    section "coalesce: every side, width and memory; strides and offsets"
    CO=(-e coalesce --warmup 1)
    TRACE=1 run_one "${CO[@]}" --stride 1,2,32,128 --size 16M
    run_one "${CO[@]}" --op write,both --width float,float2,float4 --stride 3 --offset 5 --size 16M
    run_one "${CO[@]}" --memory mapped --op read,write,both --stride 1,8 --size 4M
    run_one "${CO[@]}" --buffer 1G --stride 15,16 --offset 15 --size 64M
    refused "coalesce: a stride that reads past the buffer" "past the 1 GiB buffer of 268435456; allowed at this size and offset: stride 1 to 16, or buffer=auto" \
        "${CO[@]}" --buffer 1G --stride 32
    refused "coalesce: mapped memory past its limit" "spans 8.00 GiB of pinned host memory; at most 4 GiB: lower size or stride" \
        "${CO[@]}" --memory mapped --stride 128 --width float4
}

job_banks_transpose() {
    section "banks and transpose: every width, the shapes compiled and not"
    TRACE=1 run_one -e banks --warmup 1 --stride 1,2,32,33 --width float,float2,float4 --reads 1024
    TRACE=1 run_one -e transpose --warmup 1 --n 2048 --tile 32,16 --rows 8
    run_one -e transpose --warmup 1 --n 1000 --tile 8 --rows 2,8
    TP=(-e transpose)
    refused "transpose: N not a multiple of the tile" "not a multiple of the tile (32); allowed: a multiple such as 992 or 1024" \
        "${TP[@]}" --n 1000
    refused "transpose: a tile that does not fit the shared memory" "more than the 49152 B a block has without opting in; allowed: tile 4 to 110" \
        "${TP[@]}" --tile 128 --rows 8
    refused "transpose: a block beyond 1024 threads" "at most 1024: rows 1 to 16" "${TP[@]}" --tile 64 --rows 32
    refused "transpose: rows that do not divide the tile" "allowed: a divisor of 32" "${TP[@]}" --rows 12
    refused "banks: reads not a multiple of 8" "allowed: multiples of 8" -e banks --reads 300
}

# Global memory into shared memory: every way at one and four stages and
# one and two blocks an SM, each cp.async width, the smallest and largest
# tiles with work on each word, plain loads' tiles that end in one, two
# and three loads a thread; the latency's carveout, and its walks
# through shared memory, a block's own and another's in clusters of every
# size; the refusals of what a block's and an SM's shared memory cannot
# hold.
job_async() {
    section "async: every way, width, tile and stage count; the latency's carveout, shared memory and DSMEM"
    AS=(-e async --warmup 1 --size 64M)
    TRACE=1 run_one "${AS[@]}" --way plain,cp.async,bulk,tma --stages 1,4 --blocks 1,2
    run_one "${AS[@]}" --way cp.async --width 4,8 --stages 2 --tile 4K
    run_one "${AS[@]}" --way bulk,tma --tile 1K,64K --stages 2 --compute 64
    run_one -e async --warmup 1 --size 60M --way plain --tile 1K,12K,20K --compute 0,64
    run_one -e latency --warmup 1 --size 48K --carveout default,0,100
    run_one -e latency --warmup 1 --kind shared,dsmem --size 4K,192K --threads thread,warp
    run_one -e latency --warmup 1 --kind dsmem --size 16K --cluster 2,4,8,16 --order linear
    TRACE=1 run_one -e cluster --warmup 1 --cluster 2,4,8,16 --access coalesced,scattered --size 8K,64K
    refused "async: stages beyond a block's shared memory" "allowed here: fewer stages, at most 3 of 64 KiB" \
        "${AS[@]}" --way bulk --tile 64K --stages 4
    refused "async: blocks beyond the SM's shared memory" "do not fit the SM's .*; allowed here: 1 to 1" \
        "${AS[@]}" --way bulk --tile 64K --stages 3 --blocks 2
}

# Atomics: every operation and type at every scope in global and shared
# memory, one address, 32 and each thread its own; the warp's aggregation
# by hand; mapped host memory; the refusals.
job_atomics() {
    section "atomics: operations, types, scopes, places, aggregation"
    AT=(-e atomics --warmup 1 --ops 16)
    TRACE=1 run_one "${AT[@]}" --op add --type u32,u64,f32,f64 --scope block,device,system --addresses 1,32,each
    run_one "${AT[@]}" --op cas --type u32,u64,f32,f64 --scope block,device,system --addresses 1024,each
    run_one "${AT[@]}" --op min,max --type u32,u64 --scope block,device,system --addresses 1,1024
    run_one "${AT[@]}" --op mul --type u32,u64 --scope block,device,system --addresses 1024,4096
    refused "atomics: min on floats" "allowed with type=f32: add, cas" "${AT[@]}" --op min --type f32
    refused "atomics: too many operations" "allowed: at most 2^26" "${AT[@]}" --ops 65536
    refused "atomics: a CAS loop on one hot address" "allowed: at most 2^23, so that a sample stays short: addresses of at least" \
        "${AT[@]}" --op cas --addresses 1
}

# The other places: shared memory, aggregated by hand, mapped host memory.
job_atomics_places() {
    section "atomics: shared memory, warp aggregation, mapped host memory"
    AT=(-e atomics --warmup 1 --ops 16)
    run_one "${AT[@]}" --where shared --op add,min,max,cas,mul --type u32,u64 --addresses 1,256 --stride 1,33
    run_one "${AT[@]}" --where shared --type u32,u64 --addresses 8192
    run_one "${AT[@]}" --aggregate warp --where global,shared --type u32,f64 --addresses 1,32
    run_one "${AT[@]}" --where mapped --op add --addresses 1,each --ops 2
    run_one "${AT[@]}" --where mapped --op cas --addresses 1024,each --ops 2
    refused "atomics: bins past a block's shared memory" "where=shared: 512 KiB of bins" \
        "${AT[@]}" --where shared --addresses 65536 --type u64
}

# The stream-ordered allocator: every allocator and threshold, trimmed
# or not; each reuse order under each policy alone; the free beside a
# kernel; and the refusal.
job_pool() {
    section "pool: allocators, thresholds, reuse policies, cudaFree beside a kernel"
    PL=(-e pool --warmup 1)
    TRACE=1 run_one "${PL[@]}" --op alloc,sync --count 16
    run_one "${PL[@]}" --threshold zero,keep --trim --count 4,64 --size 4K,16M
    run_one "${PL[@]}" --op reuse --order running,done,synced,event --spin 200
    run_one "${PL[@]}" --op reuse --order running,done,synced,event --follow-events=off \
        --opportunistic=off --internal-deps=off --spin 200 --count 8
    refused "pool: more than half of the free memory" "more than half of the .* free; allowed: a total up to" \
        "${PL[@]}" --count 4096 --size 1G
}

job_recording() {
    section "compressed recording"
    # Two configurations recorded through zlib: the per-configuration
    # minimum (--record-samples) holds, and the replay reports the medians
    # of the same samples.
    local rec="$LOG/short.gtr.gz"
    rm -f "$rec"
    if "$BIN" --batch --format json --samples 5 --record "$rec" --record-samples 40 \
            --record-seconds 5 --dir h2d,d2h --size 4M >"$LOG/rec-live.json" 2>"$LOG/rec.err" &&
       "$BIN" --batch --format json --replay "$rec" >"$LOG/rec-replay.json" 2>>"$LOG/rec.err" &&
       python3 - "$rec" "$LOG/rec-live.json" "$LOG/rec-replay.json" <<'EOF'
import gzip, json, sys
lines = [json.loads(l) for l in gzip.open(sys.argv[1], "rt")]
samples = [l for l in lines if l["type"] == "sample"]
live, replay = (json.load(open(p))["runs"] for p in sys.argv[2:])
assert len(replay) == 2, "two configurations replayed"
for a, b in zip(live, replay):
    for sa, sb in zip(a["series"], b["series"]):
        assert sb["latency_s"]["count"] >= 40, "at least --record-samples samples"
        assert sb["failed"] == 0
        assert abs(sa["latency_s"]["p50"] / sb["latency_s"]["p50"] - 1) < 0.2
print(len(samples), "samples in", len(lines), "lines")
EOF
    then ok "compressed recording: $(head -c 2 "$rec" | od -An -tx1 | tr -d ' ') magic, replays with the live medians"
    else bad "compressed recording: $(cat "$LOG/rec.err")"; fi
}

# The jobs, longest first (seconds of their processes on an H200 beside
# seven others, 3 samples a configuration, 2026-11-28), so that the pool
# ends with short ones.
JOBS=(
    job_pool                        # 19 (one process of 16)
    job_managed                     # 19
    job_texture                     # 19
    job_vmm_flags                   # 18
    job_atomics                     # 18
    job_async                       # 17
    "job_hostalloc_1g register"     # 15
    job_pitched_rows                # 15
    job_atomics_places              # 14
    "job_hostalloc_1g pinned"       # 10
    job_vmm_use                     # 9
    "job_hostalloc pageable pinned hostalloc hostalloc_--write-combined"      # 8
    job_coalesce                    # 8
    job_vmm_alloc                   # 8
    "job_hostalloc register register_--mapped hostalloc_--portable_--mapped" # 7
    job_pitched                     # 7
    job_latency                     # 7
    job_zerocopy                    # 6
    job_zerocopy_wc                 # 6
    job_banks_transpose             # 5
    "job_transfer_pageable d2h"     # 2
    "job_transfer_pageable bidir"   # 2
    "job_transfer_pageable h2d"     # 2
    job_transfer_read_only          # 0 (not on the H200)
)
for k in $(seq 1 $((${#HOSTS[@]} - 1))); do JOBS+=("job_transfer_host $k"); done   # 2 to 3 each
JOBS+=(job_small_kernels job_runtime_return job_recording job_transfer_d2d)        # 1 to 3 each
# Eight at once: twelve on the H200's 16 cores took as long (each job
# half as long again; 2026-11-28).
POOL=${POOL:-8}

run_jobs() {    # every job, POOL at once, each its own log; their lines in order, counted
    local pids=() k
    for k in "${!JOBS[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$POOL" ]; do wait -n; done
        # shellcheck disable=SC2086
        ( JOB="$k-" JOB_FLAGS=(--no-share-lock) SAMPLES=3; ${JOBS[$k]}
          echo "# ${JOBS[$k]}: done at ${SECONDS}s" ) >"$LOG/job-$k.log" 2>&1 &
        pids+=($!)
    done
    wait "${pids[@]}"
    for k in "${!JOBS[@]}"; do
        cat "$LOG/job-$k.log"
        pass=$((pass + $(grep -c '^ok' "$LOG/job-$k.log")))
        fail=$((fail + $(grep -c '^FAIL' "$LOG/job-$k.log")))
        skipped=$((skipped + $(grep -c '^SKIP' "$LOG/job-$k.log")))
    done
}
