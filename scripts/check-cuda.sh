#!/usr/bin/env bash
# check-cuda.sh - make check-cuda: gputui against every CUDA toolkit it
# builds with, on a machine with one toolkit or none.
#   1. The host side of every C file that includes a CUDA header (src/gpu/,
#      the experiments' GPU sides,
#      tests/gpu/) compiles with -Werror against the headers of each
#      toolkit the package registry carries, 11.7 to 13.5
#      (scripts/cuda-headers.sh fetches them once into BUILD/cuda-headers);
#      with an aarch64 cross compiler, against the aarch64 wheels of one
#      toolkit of each major version as well.
#   2. The Makefile's choice of architectures, with a stand-in nvcc for
#      11.8, 12.4, 12.9 and 13.0 (tests/tools/nvcc-standin), and what it
#      says to a GPU_ARCH no toolkit builds, an nvcc whose --list-gpu-arch
#      fails and a CUDA_HOME without nvcc.
# The kernels' device code needs the toolkit's own nvcc, which the
# registry does not carry: it is compiled by the toolkit at hand only.
# Environment: CC, CPPFLAGS (the Makefile's), BUILD, JOBS.
set -u
cd "$(dirname "$0")/.."
build=${BUILD:-build}
cc=${CC:-cc}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
fails=0
start=$(date +%s)
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

files=$(grep -l -E '#include (<cuda|"(gpu/)?gpu\.h"|"[a-z_]*_gpu[a-z_]*\.h")' src/gpu/*.c src/experiments/*/*_gpu*.c tests/gpu/*.c | sort)
nfiles=$(echo "$files" | wc -w)
warn="-std=c11 -Wall -Wextra -Wshadow -Wno-missing-field-initializers -Werror"
$cc -Werror -Wno-format-truncation -x c -c -o /dev/null /dev/null 2>/dev/null &&
    warn="$warn -Wno-format-truncation"

# compile_all CC INCLUDE: each file, -fsyntax-only; the failing ones' first
# errors on stdout, and their count as the exit status (at most 125).
compile_all() {
    local c=$1 inc=$2 log
    log=$(mktemp)
    # shellcheck disable=SC2086
    echo "$files" | tr ' ' '\n' | xargs -P "$jobs" -I{} sh -c \
        "$c $warn ${CPPFLAGS:--Iinclude -Isrc} -DGT_GPU_ARCH='\"75\"' -I'$inc' -fsyntax-only {} \
         >{}.cc.log 2>&1 || echo {}" >"$log"
    local n
    n=$(wc -l <"$log")
    while read -r f; do
        [ -n "$f" ] || continue
        echo "    $f: $(grep -m 2 -E 'error|warning' "$f.cc.log" | tr '\n' ' ')"
    done <"$log"
    echo "$files" | tr ' ' '\n' | sed 's/$/.cc.log/' | xargs rm -f
    rm -f "$log"
    return $(( n > 125 ? 125 : n ))
}

# check_set CC WHAT DIR: the files against the headers in DIR/include.
check_set() {
    local c=$1 what=$2 d=$3 out n
    out=$(compile_all "$c" "$d/include")
    n=$?
    if [ $n -eq 0 ]; then echo "ok   $what: $nfiles files"
    else fail "$what: $n of $nfiles files do not compile"; echo "$out"; fi
}

echo "== 1. the GPU back-end's $nfiles files against each toolkit's headers"
sets=$(scripts/cuda-headers.sh "$build/cuda-headers" x86_64) || { fail "fetching the headers"; sets=; }
for d in $sets; do
    rt=$(sed -n 's/^#define CUDART_VERSION *\([0-9]*\).*/\1/p' "$d/include/cuda_runtime_api.h")
    check_set "$cc" "CUDA $(basename "$d") (CUDART_VERSION $rt)" "$d"
done

cross=aarch64-linux-gnu-gcc
if command -v $cross >/dev/null; then
    asets=$(scripts/cuda-headers.sh "$build/cuda-headers-aarch64" aarch64 11.8 12.9 13.5) ||
        { fail "fetching the aarch64 headers"; asets=; }
    for d in $asets; do
        check_set $cross "CUDA $(basename "$d") for aarch64 ($cross)" "$d"
    done
else
    echo "skip aarch64: no $cross (apt-get install gcc-aarch64-linux-gnu)"
fi

echo "== 2. the architectures the Makefile chooses"
standin=tests/tools/nvcc-standin
# Any folder with cuda_runtime_api.h stands for the toolkit's headers.
home=$(mktemp -d)
mkdir -p "$home/include" "$home/bin"
: >"$home/include/cuda_runtime_api.h"
ln -s "$PWD/$standin" "$home/bin/nvcc"
trap 'rm -rf "$home"' EXIT
arch() {    # STANDIN_CUDA [GPU_ARCH]: stdout and stderr of make print-gpu-arch
    STANDIN_CUDA=$1 env -u MAKELEVEL -u MAKEFLAGS make -s --no-print-directory CUDA=1 CUDA_HOME="$home" BUILD="$home/b" \
        ${2:+GPU_ARCH="$2"} print-gpu-arch 2>&1
}
while read -r v want; do
    got=$(arch "$v" | tail -n 1)
    if [ "$got" = "$want" ]; then echo "ok   nvcc $v: $got (PTX for compute_${got##* })"
    else fail "nvcc $v: chose '$got', expected '$want'"; fi
done <<'EOF'
11.8 60 70 75 80 86 89 90
12.4 60 70 75 80 86 89 90
12.9 60 70 75 80 86 89 90 100 120
13.0 75 80 86 89 90 100 110 120
EOF
out=$(arch 12.4 "80 90")
[ "$(echo "$out" | tail -n 1)" = "80 90" ] && echo "ok   GPU_ARCH=\"80 90\" with nvcc 12.4: taken" ||
    fail "GPU_ARCH=\"80 90\" with nvcc 12.4: $out"
out=$(arch 12.4 35)
if echo "$out" | grep -q 'GPU_ARCH="35": not supported: 35; allowed: .*60 .*90' &&
   echo "$out" | grep -q 'refused'; then
    echo "ok   GPU_ARCH=35: refused, naming the architectures allowed"
else
    fail "GPU_ARCH=35: $out"
fi
out=$(arch 13.0 "70 90")
echo "$out" | grep -q 'not supported: 70; allowed: .*75' && echo "ok   GPU_ARCH=70 with nvcc 13.0: refused" ||
    fail "GPU_ARCH=70 with nvcc 13.0 (which has no sm_70): $out"
out=$(arch broken)
if [ "$(echo "$out" | tail -n 1)" = "75 80 86 89 90" ] && echo "$out" | grep -q 'gave no list'; then
    echo "ok   an nvcc whose --list-gpu-arch fails: the default list, and make says so"
else
    fail "an nvcc whose --list-gpu-arch fails: $out"
fi
out=$(make -s --no-print-directory CUDA_HOME="$home/none" BUILD="$home/b" print-gpu-arch 2>&1)
if echo "$out" | grep -q "CUDA_HOME=$home/none holds no bin/nvcc: building the replay viewer" &&
   [ "$(echo "$out" | tail -n 1)" = none ]; then
    echo "ok   CUDA_HOME without nvcc: the viewer, and make says why"
else
    fail "CUDA_HOME without nvcc: $out"
fi

echo "check-cuda: $fails failed, in $(( $(date +%s) - start )) s"
[ $fails -eq 0 ]
