#!/usr/bin/env bash
# cross-aarch64.sh NATIVE-BIN - make check-aarch64: gputui for aarch64 (a
# Jetson, a Grace machine) from this one. The replay viewer and every unit
# test are built with Debian's cross compiler against Debian's arm64
# libraries (scripts/deps.sh cross) and run under qemu-user:
# the tests with UBSan (ASan and LeakSanitizer run on the same code in
# make test; under qemu ASan makes the suite four times slower and LSan
# cannot run), the viewer's batch replays, a lesson and a card compared
# with NATIVE-BIN's, byte for byte. The GPU back-end's host side for aarch64 is
# compiled by make check-cuda. Environment: JOBS, BUILD (build-aarch64).
set -u
cd "$(dirname "$0")/.."
native=${1:?usage: cross-aarch64.sh NATIVE-BIN}
build=${BUILD:-build-aarch64}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cc=aarch64-linux-gnu-gcc
libdir=/usr/lib/aarch64-linux-gnu
start=$(date +%s)
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# The cross compiler, qemu-user and the arm64 libraries: installed as
# root, else the line that installs them.
scripts/deps.sh cross || exit 1

# The arm64 .pc files; the multiarch libc the programs run on under qemu
# (with no -L prefix: the cross toolchain's own libc beside Debian's arm64
# one leaves threads hanging).
pkg="env PKG_CONFIG_LIBDIR=$libdir/pkgconfig:/usr/share/pkgconfig pkg-config"
units=$(ls tests/unit/test_*.c | sed "s|tests/unit/\\(.*\\)\\.c|$build/san/\\1|")
echo "== the viewer and $(echo "$units" | wc -w) unit tests, built with $cc"
san="-fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
mkdir -p "$build"       # its log inside it, not beside the sources
if ! make -s -j"$jobs" CC=$cc CUDA=0 BUILD="$build" PKG_CONFIG="$pkg" SAN="$san" WERROR=1 all \
        $units "$build/san/test_port_posix" >"$build/make.log" 2>&1; then
    tail -20 "$build/make.log"
    fail "the aarch64 build (log: $build/make.log)"
    echo "check-aarch64: $fails failed"
    exit 1
fi
file -b "$build/gputui" | grep -q 'ARM aarch64' && echo "ok   $build/gputui is an aarch64 program" ||
    fail "$build/gputui is not an aarch64 program: $(file -b "$build/gputui")"

echo "== the unit tests under qemu-aarch64"
results=$(mktemp)
# The soak's harness first: the longest by far.
# shellcheck disable=SC2016
printf '%s\n' "$build/san/test_soak" $units "$build/san/test_port_posix" | awk '!seen[$0]++' |
    xargs -P "$jobs" -I{} sh -c '
    out=$(timeout -s KILL 600 qemu-aarch64 {} 2>&1); rc=$?
    n=$(printf "%s\n" "$out" | sed -n "s/.*PASSED  \] \([0-9]*\) test.*/\1/p")
    if [ $rc = 0 ]; then echo "ok   {}: ${n:-0} tests"; else
        echo "FAIL {}: exit $rc: $(printf "%s\n" "$out" | grep -E "FAILED|ERROR|error" | head -3 | tr "\n" " ")"; fi
' >"$results"
sort "$results"
fails=$((fails + $(grep -c '^FAIL' "$results")))
rm -f "$results"


echo "== the viewer under qemu-aarch64 beside $native"
rec=share/gputui/h200.gtr.gz
for what in "--batch --replay $rec -e transfer --format json" \
            "--batch --replay $rec -e latency --format csv" \
            "--batch --replay share/gputui/h100.gtr.gz --lesson pinned --format json" \
            "--batch --inspect --replay $rec --format json"; do
    # shellcheck disable=SC2086
    a=$(qemu-aarch64 "$build/gputui" $what 2>&1); ra=$?
    # shellcheck disable=SC2086
    b=$("$native" $what 2>&1); rb=$?
    if [ $ra = $rb ] && [ "$a" = "$b" ] && [ ${#a} -gt 100 ]; then
        echo "ok   gputui $what: the same ${#a} bytes and exit $ra on aarch64 and here"
    else
        fail "gputui $what: aarch64 exit $ra (${#a} bytes), here exit $rb (${#b} bytes): $(diff <(echo "$a") <(echo "$b") | head -4 | tr '\n' ' ')"
    fi
done
echo "check-aarch64: $fails failed, in $(( $(date +%s) - start )) s"
[ $fails = 0 ]
