#!/usr/bin/env bash
# deps.sh build|test - checks what building (and testing) gputui needs.
# As root it installs the missing Debian/Ubuntu packages with apt-get;
# otherwise it prints the exact install line and fails.
set -u
what=${1:-build}
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if command -v pkg-config >/dev/null 2>&1; then
    pkg-config --exists ncursesw 2>/dev/null || need+=(libncurses-dev)
else
    need+=(libncurses-dev)
fi
[ -e /usr/include/jansson.h ] || need+=(libjansson-dev)
[ -e /usr/include/zlib.h ] || need+=(zlib1g-dev)
command -v make >/dev/null 2>&1 || need+=(make)
command -v cc >/dev/null 2>&1 || need+=(gcc)
if [ "$what" = test ]; then
    [ -e /usr/include/cmocka.h ] || need+=(libcmocka-dev)
    command -v tmux >/dev/null 2>&1 || need+=(tmux)
    command -v groff >/dev/null 2>&1 || need+=(groff-base)
    command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
    command -v python3 >/dev/null 2>&1 || need+=(python3)
    command -v nm >/dev/null 2>&1 || need+=(binutils)
fi
nvcc=${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
if ! command -v "$nvcc" >/dev/null 2>&1 && ! command -v nvcc >/dev/null 2>&1; then
    echo "gputui: the CUDA toolkit (nvcc) was not found at $nvcc." >&2
    echo "  Install the CUDA toolkit (package cuda-toolkit from NVIDIA's repository) or set CUDA_HOME." >&2
    exit 1
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "gputui: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "${need[@]}"; } >/dev/null || {
        echo "gputui: apt-get install ${need[*]} failed" >&2; exit 1; }
    exit 0
fi
echo "gputui: missing build dependencies: ${need[*]}" >&2
echo "  install with: sudo apt-get install -y ${need[*]}" >&2
exit 1
