#!/usr/bin/env bash
# cuda-headers.sh DIR [ARCH] [VERSION...] - the CUDA runtime's headers (and
# libcudart) of every toolkit gputui builds with, from the package
# registry's wheels, each in DIR/VERSION/{include,lib}; a version already
# there is not fetched again. Prints each folder it made ready, one a line.
#
# A toolkit's headers come in two wheels: the runtime's (cuda.h,
# cuda_runtime_api.h, libcudart) and the compiler's (crt/, which
# cuda_runtime_api.h includes): nvidia-cuda-runtime-cu11 / -cu12 with
# nvidia-cuda-nvcc-cu11 / -cu12, and from 13.0 nvidia-cuda-runtime with
# nvidia-cuda-crt. ARCH is x86_64 (the default) or aarch64.
set -euo pipefail
dir=${1:?usage: cuda-headers.sh DIR [x86_64|aarch64] [VERSION...]}
arch=${2:-x86_64}
shift $(( $# >= 2 ? 2 : 1 ))

# version  runtime wheel                    headers of the compiler
# The newest patch release of each minor version the registry carries.
sets=(
    "11.7 nvidia-cuda-runtime-cu11==11.7.99  nvidia-cuda-nvcc-cu11==11.7.99"
    "11.8 nvidia-cuda-runtime-cu11==11.8.89  nvidia-cuda-nvcc-cu11==11.8.89"
    "12.0 nvidia-cuda-runtime-cu12==12.0.146 nvidia-cuda-nvcc-cu12==12.0.140"
    "12.1 nvidia-cuda-runtime-cu12==12.1.105 nvidia-cuda-nvcc-cu12==12.1.105"
    "12.2 nvidia-cuda-runtime-cu12==12.2.140 nvidia-cuda-nvcc-cu12==12.2.140"
    "12.3 nvidia-cuda-runtime-cu12==12.3.101 nvidia-cuda-nvcc-cu12==12.3.107"
    "12.4 nvidia-cuda-runtime-cu12==12.4.127 nvidia-cuda-nvcc-cu12==12.4.131"
    "12.5 nvidia-cuda-runtime-cu12==12.5.82  nvidia-cuda-nvcc-cu12==12.5.82"
    "12.6 nvidia-cuda-runtime-cu12==12.6.77  nvidia-cuda-nvcc-cu12==12.6.85"
    "12.8 nvidia-cuda-runtime-cu12==12.8.90  nvidia-cuda-nvcc-cu12==12.8.93"
    "12.9 nvidia-cuda-runtime-cu12==12.9.79  nvidia-cuda-nvcc-cu12==12.9.86"
    "13.0 nvidia-cuda-runtime==13.0.96       nvidia-cuda-crt==13.0.88"
    "13.1 nvidia-cuda-runtime==13.1.80       nvidia-cuda-crt==13.1.115"
    "13.2 nvidia-cuda-runtime==13.2.86       nvidia-cuda-crt==13.2.86"
    "13.3 nvidia-cuda-runtime==13.3.29       nvidia-cuda-crt==13.3.73"
    "13.4 nvidia-cuda-runtime==13.4.92       nvidia-cuda-crt==13.4.92"
    "13.5 nvidia-cuda-runtime==13.5.37       nvidia-cuda-crt==13.5.37"
)
case $arch in
    x86_64) platform=manylinux2014_x86_64 ;;
    aarch64) platform=manylinux2014_aarch64 ;;
    *) echo "cuda-headers.sh: ARCH $arch: allowed values are x86_64 and aarch64" >&2; exit 2 ;;
esac
pip=(python3 -m pip)
"${pip[@]}" --version >/dev/null 2>&1 || {
    echo "cuda-headers.sh: python3 -m pip is missing (install python3-pip)" >&2; exit 1; }

want=" $* "
mkdir -p "$dir"
for s in "${sets[@]}"; do
    read -r ver rt hdr <<<"$s"
    [ "$want" = "  " ] || [[ $want == *" $ver "* ]] || continue
    out=$dir/$ver
    if [ -f "$out/.ready" ]; then echo "$out"; continue; fi
    rm -rf "$out" "$out.tmp"
    mkdir -p "$out.tmp/wheels"
    # manylinux1 (the 11.x wheels' tag) is older than manylinux2014: pip
    # takes it for the newer tag's platform.
    if ! "${pip[@]}" download -q --no-deps --only-binary=:all: --platform "$platform" \
           --python-version 3.11 -d "$out.tmp/wheels" "$rt" "$hdr" >"$out.tmp/pip.log" 2>&1; then
        echo "cuda-headers.sh: CUDA $ver ($arch): pip download $rt $hdr failed:" >&2
        tail -n 3 "$out.tmp/pip.log" >&2
        rm -rf "$out.tmp"
        exit 1
    fi
    python3 - "$out.tmp" <<'PY'
import os, sys, zipfile, glob, shutil
out = sys.argv[1]
for whl in glob.glob(os.path.join(out, "wheels", "*.whl")):
    with zipfile.ZipFile(whl) as z:
        for n in z.namelist():
            parts = n.split("/")
            # nvidia/<pkg>/include/... and nvidia/<pkg>/lib/...
            if len(parts) < 4 or parts[0] != "nvidia" or parts[2] not in ("include", "lib"):
                continue
            if n.endswith("/") or n.endswith("__init__.py"):
                continue
            dest = os.path.join(out, parts[2], *parts[3:])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(n) as src, open(dest, "wb") as dst:
                shutil.copyfileobj(src, dst)
PY
    ls "$out.tmp"/wheels >"$out.tmp/.ready"
    rm -rf "$out.tmp/wheels" "$out.tmp/pip.log"
    [ -f "$out.tmp/include/cuda_runtime_api.h" ] && [ -f "$out.tmp/include/crt/host_defines.h" ] || {
        echo "cuda-headers.sh: CUDA $ver ($arch): the wheels hold no cuda_runtime_api.h or crt/" >&2
        exit 1; }
    mv "$out.tmp" "$out"
    echo "$out"
done
