# shellcheck shell=bash
# The GPU suite's configurations judged on what they compute, not on how
# fast: every sample verified, every figure under the device's ceilings
# (a time slice only slows a copy), each refusal naming the problem.
# tests/gpu/run.sh runs these lanes at once, before the timed parts, their
# processes without turns (--no-share-lock), so that one's CPU work (set-up,
# verification) overlaps another's GPU work. What is judged against a bound
# or a reference runs in run.sh, one process at a time.
# Sourced after lib.sh; each lane_* prints ok/FAIL lines.

# Every host-memory kind (with its flags) x direction x method at three
# sizes: one process per host kind, its directions, methods and sizes as
# lists (pinned 64 MiB, judged against the link, runs in run.sh).
SIZES=${SIZES:-4K 64M 256M}
HOSTS=("pageable" "pinned" "hostalloc" "hostalloc --portable" "hostalloc --write-combined"
       "hostalloc --mapped" "hostalloc --portable --write-combined --mapped"
       "register" "register --portable" "register --mapped")
transfer_hosts() {  # transfer_hosts FIRST LAST: HOSTS[FIRST..LAST]
    local k s host methods sizes
    for k in $(seq "$1" "$2"); do
        host=${HOSTS[$k]} methods=ce,sm sizes=()
        [ "$host" = pageable ] && methods=ce
        for s in $SIZES; do [ "$host" = pinned ] && [ "$s" = 64M ] || sizes+=("$s"); done
        [ ${#sizes[@]} -gt 0 ] || continue
        # shellcheck disable=SC2086
        run_one "" --host $host --dir h2d,d2h,bidir --method $methods --size "$(IFS=,; echo "${sizes[*]}")"
    done
}

lane_transfer_a() {
    section "transfer: device to device, pageable, pinned, hostalloc"
    TRACE=1 run_one "" --dir d2d --method ce,sm --size "${SIZES// /,}"
    # Kernels reach pageable memory only where the device says pageableMemoryAccess.
    if msg=$("$BIN" --batch --samples 2 --host pageable --method sm --size 4K 2>&1 >/dev/null); then
        run_one "" --host pageable --dir h2d,d2h,bidir --method sm --size 4K,64M
    elif grep -q "pageableMemoryAccess = 0" <<<"$msg"; then
        ok "method=sm on pageable memory -> refused as documented: $msg"
    else
        bad "method=sm on pageable memory: $msg"
    fi
    transfer_hosts 0 3
}

lane_transfer_b_latency() {
    section "transfer: write-combined, mapped, registered"
    transfer_hosts 4 9

    section "latency: every memory kind, load policy and walker count"
    LA=(-e latency --warmup 1)
    TRACE=1 run_one "" "${LA[@]}" --kind device,mapped,managed,managed-cpu --size 2M
    run_one "" "${LA[@]}" --cache default,cg,volatile --size 16K,16M
    run_one "" "${LA[@]}" --threads warp --order linear --size 64M
    run_one "" "${LA[@]}" --size 4G --stride 2M
    run_one "" "${LA[@]}" --size 20G --stride 64K         # past 16 GiB: addresses past 2^32 words
    refused "latency: a stride not a multiple of 8" "allowed: a multiple of 8 bytes" "${LA[@]}" \
        --size 12M --stride 12
    [ "$(gpu_count)" -ge 2 ] &&
        run_one "" "${LA[@]}" --kind peer --size 2M
    refused "latency: one slot" "leaves 1 slots in 8 KiB" "${LA[@]}" --size 8K --stride 8K
    refused "latency: a size not a multiple of the stride" "is not a multiple of the stride" \
        "${LA[@]}" --size 100K --stride 384
}

lane_zerocopy() {
    section "zerocopy"
    ZC=(-e zerocopy --warmup 1)
    TRACE=1 run_one "" "${ZC[@]}"
    run_one "" "${ZC[@]}" --blocks auto --passes 8
    run_one "" "${ZC[@]}" --write-combined --count 16777216 --threads 256
    run_one "" "${ZC[@]}" --count 1024 --blocks 1 --threads 32
    run_one "" "${ZC[@]}" --variant explicit,mapped --check gpu,cpu --repeat 1,10

}

lane_vmm() {
    section "vmm"
    VM=(-e vmm --warmup 1)
    TRACE=1 run_one "" "${VM[@]}" --op alloc --size 2M
    for size in 3M 64M 1G; do run_one "" "${VM[@]}" --op alloc --size $size; done
    run_one "" "${VM[@]}" --op alloc --size 64M --granularity minimum
    for dir in h2d d2h d2d; do run_one "" "${VM[@]}" --op bandwidth --dir $dir --size 512M; done
    run_one "" "${VM[@]}" --op grow --start 64M --end 1G --step 64M
    run_one "" "${VM[@]}" --op grow --start 2M --end 64M --step 2M --granularity minimum
    refused "vmm grow end not above start" "end: 64 MiB is not above start" "${VM[@]}" --op grow --end 64M
    refused "vmm grow step not a granularity multiple" "multiples of the" "${VM[@]}" --op grow --step 3M --granularity minimum

}

lane_runtime() {
    section "runtime: new processes, JIT, every call's destination"
    # A new process a sample: its first calls, cudaDeviceReset, the call
    # after; one module loaded as cubins and as PTX. Then when each call
    # returns behind a 1 ms kernel, every destination checked (when they
    # return is judged in run.sh).
    TRACE=1 run_one "" -e runtime --op init,jit --warmup 0
    run_one "" -e runtime --op return --call h2d-pageable,h2d-pinned,d2h-pageable,d2d,memset --size 4K,64K,128K,1M
    refused "runtime: a size with op=init" "only with op=return" -e runtime --size 1M
    refused "runtime: a size not a multiple of 4 KiB" "is not a multiple of 4096 bytes" -e runtime --op return --size 6K
}

lane_small_kernels() {
    section "constant"
    # __constant__ memory: the three reads and the three copies, each verified.
    CO=(-e constant --warmup 1)
    TRACE=1 run_one "" "${CO[@]}" --op read --reads 256,4096
    run_one "" "${CO[@]}" --op copy --size 4,1K,64K
    refused "constant: a size not a multiple of 4" "is not a multiple of 4 bytes" "${CO[@]}" --op copy --size 6
    refused "constant: reads with op=copy" "only with op=read" "${CO[@]}" --op copy --reads 512

    section "concurrent"
    # Kernels on one stream and on a stream each, small and filling the GPU,
    # each kernel's mark checked; and the timeline a batch report prints.
    CK=(-e concurrent --warmup 1)
    TRACE=1 run_one "" "${CK[@]}" --kernels 2,16 --blocks 1,fill --spin 50
    refused "concurrent: more kernels than the timeline's streams" "allowed: 2 to 16" "${CK[@]}" --kernels 17
    if "$BIN" --batch --samples 5 "${LANE_FLAGS[@]}" "${CK[@]}" >"$LOG/concurrent.txt" 2>&1 &&
        grep -q "timeline of the last iteration" "$LOG/concurrent.txt" &&
        grep -q "a stream each: 5 samples (5 fully verified" "$LOG/concurrent.txt"; then
        ok "concurrent: the text report's timeline and summary: $(grep -m1 'kernels of' "$LOG/concurrent.txt")"
    else
        bad "concurrent: text report: $(tail -5 "$LOG/concurrent.txt")"
    fi

}

lane_pitched() {
    section "pitched"
    # Every width x measure once at 32768 rows (32-128 MiB, beyond the L2 at
    # W = 4096): at the default height each sample is verified byte by byte
    # on the CPU over up to 1 GiB, and nine of them took three minutes. The
    # default height runs once, on the kernel.
    PI=(-e pitched --warmup 1)
    for w in 1000 4096 4100; do
        for m in h2d d2h kernel; do run_one "" "${PI[@]}" --width $w --measure $m --height 32768; done
    done
    TRACE=1 run_one "" "${PI[@]}" --width 4100 --measure kernel
    run_one "" "${PI[@]}" --dims 3d --width 1000 --height 512 --depth 32 --measure h2d
    run_one "" "${PI[@]}" --dims 3d --width 4100 --height 512 --depth 32 --measure kernel
    run_one "" "${PI[@]}" --width 1 --height 1 --measure d2h
}

lane_hostalloc() {
    section "hostalloc"
    HA=(-e hostalloc --warmup 1)
    for kind in "pageable" "pinned" "hostalloc" "hostalloc --write-combined" \
                "hostalloc --portable --mapped" "register" "register --mapped"; do
        # shellcheck disable=SC2086
        if [ "$kind" = pinned ]; then   # its calls: cudaMallocHost and cudaFreeHost each sample
            TRACE=1 run_one "" "${HA[@]}" --op alloc,cpu --kind $kind --size 64M
        else
            run_one "" "${HA[@]}" --op alloc,cpu --kind $kind --size 64M
        fi
    done
    # 1 GiB: the large path once, on 3 samples (0.3 to 0.5 s each).
    SAMPLES=3 run_one "" "${HA[@]}" --op alloc --kind pinned,register --size 1G
    run_one "" "${HA[@]}" --op alloc --kind pageable --size 4K
}

# A compressed recording replayed: judged on what it holds.
lane_recording() {
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

# Six lanes, each 35-45 s on an H200 with the others beside it (eight
# took longer: the lanes share one GPU and its driver).
lane_zerocopy_recording() { lane_zerocopy; lane_recording; }
lane_vmm_pitched() { lane_vmm; lane_pitched; }
lane_runtime_small() { lane_runtime; lane_small_kernels; }
LANES=(lane_transfer_a lane_transfer_b_latency lane_zerocopy_recording lane_vmm_pitched
       lane_runtime_small lane_hostalloc)
run_lanes() {   # every lane at once, each its own log; their lines in order, counted
    local pids=() k
    for k in "${!LANES[@]}"; do
        ( LANE="$k-" LANE_FLAGS=(--no-share-lock); "${LANES[$k]}" ) >"$LOG/lane-$k.log" 2>&1 &
        pids+=($!)
    done
    wait "${pids[@]}"
    for k in "${!LANES[@]}"; do
        cat "$LOG/lane-$k.log"
        pass=$((pass + $(grep -c '^ok' "$LOG/lane-$k.log")))
        fail=$((fail + $(grep -c '^FAIL' "$LOG/lane-$k.log")))
        skipped=$((skipped + $(grep -c '^SKIP' "$LOG/lane-$k.log")))
    done
}
