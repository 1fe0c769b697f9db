#!/usr/bin/env bash
# deps.sh WHAT... - checks what building gputui needs (build), what its tests
# need as well (test), clang (clang, for the portability checks), and the
# aarch64 cross build (cross: Debian's cross compiler, qemu-user and the
# arm64 libraries, for make check-aarch64) and the Debian package (deb:
# dpkg-deb and lintian, for make deb) and EasyBuild's test (easybuild:
# Lmod and python3's venv; EasyBuild itself comes from the package
# registry, scripts/packages/easybuild.sh).
# CUDA=0 (the replay viewer, as make sets it) needs no CUDA toolkit; CUDA=1
# does. Missing packages: as root with apt-get it installs them; otherwise it
# prints the exact line (apt-get, or brew on macOS) and fails.
set -u
want=" ${*:-build} "
need=()     # Debian/Ubuntu package names
pip=
have() { command -v "$1" >/dev/null 2>&1; }
pc() { have pkg-config && pkg-config --exists "$1" 2>/dev/null; }

have pkg-config || need+=(pkg-config)
pc ncursesw || pc ncurses || need+=(libncurses-dev)
pc jansson || [ -e /usr/include/jansson.h ] || need+=(libjansson-dev)
pc zlib || [ -e /usr/include/zlib.h ] || need+=(zlib1g-dev)
have make || need+=(make)
have cc || need+=(gcc)
case $want in *" test "*)
    pc cmocka || [ -e /usr/include/cmocka.h ] || need+=(libcmocka-dev)
    have tmux || need+=(tmux)
    have groff || need+=(groff-base)
    have valgrind || [ "$(uname -s)" = Darwin ] || need+=(valgrind)
    have python3 || need+=(python3)
    have nm || need+=(binutils)
    # --format html's tests: a real SVG renderer and an HTML5 parser
    have rsvg-convert || need+=(librsvg2-bin)
    python3 -c 'import html5lib' 2>/dev/null || /usr/bin/python3 -c 'import html5lib' 2>/dev/null ||
        need+=(python3-html5lib)
    ;;
esac
case $want in *" clang "*) have clang || need+=(clang) ;; esac
case $want in *" deb "*)
    have dpkg-deb || need+=(dpkg)
    have lintian || need+=(lintian) ;;
esac
case $want in *" easybuild "*)
    [ -e /usr/share/lmod/lmod/init/bash ] || need+=(lmod)
    python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv) ;;
esac
case $want in *" test "*|*" cross "*)
    # make check-cuda fetches the toolkits' headers with pip
    python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip) ;;
esac
cross=()
case $want in *" cross "*)
    have aarch64-linux-gnu-gcc || cross+=(gcc-aarch64-linux-gnu)
    have qemu-aarch64 || cross+=(qemu-user)
    for p in ncursesw:libncurses-dev jansson:libjansson-dev zlib:zlib1g-dev cmocka:libcmocka-dev; do
        [ -e "/usr/lib/aarch64-linux-gnu/pkgconfig/${p%%:*}.pc" ] || cross+=("${p#*:}:arm64")
    done
    [ -e /usr/lib/aarch64-linux-gnu/libubsan.so.1 ] || cross+=(libubsan1:arm64)
    ;;
esac
if [ ${#cross[@]} -gt 0 ]; then
    if [ "$(uname -s)" = Linux ] && [ "$(id -u)" = 0 ] && have apt-get && have dpkg; then
        echo "gputui: installing ${cross[*]} (aarch64 cross build)"
        export DEBIAN_FRONTEND=noninteractive
        { dpkg --add-architecture arm64 && apt-get update -qq &&
          apt-get install -y -qq "${cross[@]}"; } >/dev/null || {
            echo "gputui: apt-get install ${cross[*]} failed" >&2; exit 1; }
    else
        echo "gputui: the aarch64 cross build needs: ${cross[*]}" >&2
        echo "  on Debian or Ubuntu: sudo dpkg --add-architecture arm64 && sudo apt-get update &&" \
             "sudo apt-get install -y ${cross[*]}" >&2
        exit 1
    fi
fi

if [ "${CUDA:-}" = 1 ]; then
    nvcc=${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
    if ! have "$nvcc"; then
        echo "gputui: CUDA=1 needs the CUDA toolkit, and $nvcc was not found." >&2
        echo "  Install it (package cuda-toolkit from NVIDIA's repository) and set CUDA_HOME," >&2
        echo "  or build the replay viewer without it: make CUDA=0" >&2
        exit 1
    fi
fi

[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(uname -s)" = Darwin ]; then
    brew=()
    for p in "${need[@]}"; do
        case $p in
            libncurses-dev) brew+=(ncurses) ;;
            libjansson-dev) brew+=(jansson) ;;
            libcmocka-dev) brew+=(cmocka) ;;
            groff-base) brew+=(groff) ;;
            librsvg2-bin) brew+=(librsvg) ;;
            python3-html5lib) pip=1 ;;
            zlib1g-dev|gcc|make|binutils|python3) ;;   # Xcode's command line tools
            *) brew+=("$p") ;;
        esac
    done
    echo "gputui: missing: ${need[*]}" >&2
    echo "  install with: xcode-select --install; brew install ${brew[*]}${pip:+; python3 -m pip install html5lib}" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ] && have apt-get; then
    echo "gputui: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "${need[@]}"; } >/dev/null || {
        echo "gputui: apt-get install ${need[*]} failed" >&2; exit 1; }
    exit 0
fi
echo "gputui: missing build dependencies: ${need[*]}" >&2
echo "  install with: sudo apt-get install -y ${need[*]}" >&2
exit 1
