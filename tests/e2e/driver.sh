#!/usr/bin/env bash
# End-to-end tests of a driver older than the build, without a GPU: a
# stand-in driver (tests/tools/fakedriver.c, as libcuda.so.1 and
# libnvidia-ml.so.1 on LD_LIBRARY_PATH) answers an older CUDA version and
# names one GPU, as a fleet's long-term driver does for a newer gputui.
# The full build only (the viewer has no CUDA runtime to ask).
# Usage: driver.sh BIN TMPDIR (writes TMPDIR/driver.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
FAKE=$(dirname "$BIN")/fakedriver

if "$BIN" --version | grep -q '^build: replay viewer'; then
    echo "skip driver: the replay viewer has no CUDA runtime"
    e2e_part_done driver
    exit 0
fi
if [ ! -e "$FAKE/libcuda.so.1" ]; then
    bad "driver: the stand-in driver is missing ($FAKE; make test-build makes it)"
    e2e_part_done driver
    exit 0
fi
built=$("$BIN" --version | sed -n 's/.*CUDA runtime \([0-9.]*\).*/\1/p')
fake() { LD_LIBRARY_PATH="$FAKE" FAKE_CUDA_VERSION=12020 FAKE_GPU_NAME="NVIDIA A100-PCIE-40GB" \
         FAKE_DRIVER_VERSION=535.183.01 "$@"; }
SAYS="NVIDIA A100-PCIE-40GB: driver 535.183.01 runs CUDA 12.2, older than the CUDA $built this gputui was built with"
TODO="rebuild gputui with a toolkit the driver runs (make clean && make CUDA_HOME=/usr/local/cuda-12.2) or update the driver (CUDA ${built%%.*}.x needs"

msg=$(fake "$BIN" --batch --inspect --format json 2>&1 >"$TMPD/card.json"); rc=$?
check "old driver: --batch --inspect exits 1 (not run)" [ $rc = 1 ]
check "old driver: --batch --inspect names the GPU, both CUDA versions and what to do" \
    bash -c "grep -qF \"\$1\" <<<\"\$0\" && grep -qF \"\$2\" <<<\"\$0\"" "$msg" "$SAYS" "$TODO"
check "old driver: --batch --inspect writes no card (it never replays)" [ ! -s "$TMPD/card.json" ]
check "old driver: one line" [ "$(printf '%s\n' "$msg" | wc -l)" = 1 ]

msg=$(fake "$BIN" --list-devices 2>&1); rc=$?
check "old driver: --list-devices exits 1 with the same reason" \
    bash -c "[ $rc = 1 ] && grep -qF \"\$1\" <<<\"\$0\"" "$msg" "$SAYS"
msg=$(fake "$BIN" --batch -e transfer 2>&1); rc=$?
check "old driver: --batch exits 1, says what works until then" \
    bash -c "[ $rc = 1 ] && grep -qF \"\$1; \" <<<\"\$0\" && grep -q 'until then, gputui --batch --replay' <<<\"\$0\"" \
    "$msg" "$SAYS"

fake "$BIN" --batch --lesson pinned --format json >"$TMPD/lesson.json" 2>"$TMPD/lesson.err"; rc=$?
check "old driver: --batch --lesson runs on the bundled recording and says why" \
    bash -c "[ $rc = 0 ] && grep -qF \"\$1: lesson pinned runs on the bundled\" '$TMPD/lesson.err'" "$SAYS"

# A driver of the build's own version that still refuses: the plain
# error, with the GPU NVML sees.
msg=$(LD_LIBRARY_PATH="$FAKE" FAKE_CUDA_VERSION=$(( ${built%%.*} * 1000 + ${built#*.} * 10 )) \
      "$BIN" --batch 2>&1); rc=$?
check "a driver as new as the build that refuses: the CUDA error and the GPU NVML sees" \
    bash -c "[ $rc = 1 ] && grep -q 'no usable CUDA device: cudaGetDeviceCount.*cudaError.*NVML sees NVIDIA A100-PCIE-40GB' <<<\"\$0\"" "$msg"

# The TUI replays the bundled recording; its banner says why, naming the GPU.
start olddrv 140 40 "LC_ALL=C.UTF-8 LD_LIBRARY_PATH='$FAKE' FAKE_CUDA_VERSION=12020 '$BIN'"
check "old driver: the TUI's banner names the GPU and the versions" \
    wait_for "NVIDIA A100-PCIE-40GB: driver 535.183.01 runs CUDA 12.2, older than the CUDA $built" 10
check "old driver: ... and replays the bundled recording" wait_for "— replaying NVIDIA H200" 10
quit_ok olddrv "old driver TUI"

e2e_part_done driver
