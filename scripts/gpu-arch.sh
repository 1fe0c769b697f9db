#!/usr/bin/env bash
# gpu-arch.sh NVCC [GPU_ARCH] - the GPU architectures a build of gputui
# targets, on one line ("75 80 86 89 90 100 110 120"; the last also gets
# PTX, so a GPU newer than the toolkit still runs). What it says about the
# choice goes to stderr; an unusable GPU_ARCH prints nothing on stdout and
# says why.
#
# Without GPU_ARCH: one architecture of each family gputui has kernels for
# that the toolkit lists (nvcc --list-gpu-arch): a cubin for X.0 also runs
# on X.y, so 8.7 (Orin) runs sm_86's and 10.3 sm_100's; 86 and 89 are
# built apart from 80 for their own scheduling. With GPU_ARCH, each must be
# 60 or newer and one the toolkit lists. GT_ARCH_QUIET=1: no remarks.
set -u
nvcc=${1:?usage: gpu-arch.sh NVCC [GPU_ARCH]}
want=${2:-}
families="60 70 75 80 86 89 90 100 110 120"
fallback="75 80 86 89 90"      # every toolkit from 11.8 to 13.x has these
say() { [ "${GT_ARCH_QUIET:-0}" = 1 ] || echo "gputui: $*" >&2; }

release=$("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p' | head -n 1)
listed=$("$nvcc" --list-gpu-arch 2>/dev/null | sed -n 's/^compute_\([0-9][0-9]*\)$/\1/p' | sort -n | tr '\n' ' ')
listed=${listed% }

if [ -n "$want" ]; then
    bad=
    for a in $want; do
        case $a in
            *[!0-9]*) bad="$bad $a" ;;
            *) if [ "$a" -lt 60 ] || { [ -n "$listed" ] && [[ " $listed " != *" $a "* ]]; }; then
                   bad="$bad $a"
               fi ;;
        esac
    done
    if [ -n "$bad" ]; then
        allowed= example=
        for a in ${listed:-$families}; do [ "$a" -ge 60 ] && allowed="$allowed $a"; done
        for a in $families; do [[ " $allowed " == *" $a "* ]] && example="$example $a"; done
        echo "gputui: GPU_ARCH=\"$want\": not supported:$bad; allowed: the architectures" \
             "from 60 (Pascal) that nvcc${release:+ $release} builds:$allowed" \
             "(make GPU_ARCH=\"${example# }\", or leave GPU_ARCH out for that list)" >&2
        exit 2
    fi
    echo "$want"
    exit 0
fi

if [ -z "$listed" ]; then
    say "'$nvcc --list-gpu-arch' gave no list: building the default architectures ($fallback)"
    echo "$fallback"
    exit 0
fi
out=
for a in $families; do
    [[ " $listed " == *" $a "* ]] && out="$out $a"
done
if [ -z "$out" ]; then
    say "nvcc ${release:-?} lists none of gputui's architectures ($families): building the default ($fallback)"
    echo "$fallback"
    exit 0
fi
echo "${out# }"
