#!/usr/bin/env bash
# Installs gputui with EasyBuild as an HPC centre would: `make dist`'s
# tarball as the source, scripts/packages/gputui.eb as the recipe, into
# PREFIX (software/ and modules/), then loads the module and runs gputui
# from it. EasyBuild comes from the package registry (pip, into a virtual
# environment under PREFIX) and the modules tool is Lmod.
# Usage: easybuild.sh PREFIX VERSION   (make easybuild EB_PREFIX=...)
set -eu
prefix=$(realpath -m "${1:?usage: easybuild.sh PREFIX VERSION}")
version=${2:?usage: easybuild.sh PREFIX VERSION}
cd "$(dirname "$0")/../.."
grep -q "^version = '$version'$" scripts/packages/gputui.eb ||
    { echo "gputui: scripts/packages/gputui.eb is not at version $version" >&2; exit 1; }
lmod=$(ls /usr/share/lmod/lmod/init/bash 2>/dev/null || ls /usr/share/lmod/*/init/bash 2>/dev/null | head -1) ||
    { echo "gputui: Lmod is not installed (apt-get install lmod)" >&2; exit 1; }
mkdir -p "$prefix/sources"
if [ ! -x "$prefix/eb/bin/eb" ]; then
    python3 -m venv "$prefix/eb"
    "$prefix/eb/bin/pip" install -q easybuild-framework easybuild-easyblocks
fi
if [ -e "gputui-$version.tar.gz" ]; then
    echo "gputui: gputui-$version.tar.gz is in the way (make dist never replaces a file): move it away" >&2
    exit 1
fi
rm -f "$prefix/sources/gputui-$version.tar.gz"
make -s dist >/dev/null
mv "gputui-$version.tar.gz" "$prefix/sources/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC1090
. "$lmod"
export PATH="$prefix/eb/bin:$PATH"
root_ok=
[ "$(id -u)" = 0 ] && root_ok=--allow-use-as-root-and-accept-consequences
eb scripts/packages/gputui.eb --sourcepath="$prefix/sources" --installpath="$prefix" \
    --buildpath="$tmp/build" --tmpdir="$tmp" --modules-tool=Lmod --module-syntax=Lua \
    --rebuild $root_ok
module use "$prefix/modules/all"
module load "gputui/$version"
command -v gputui
gputui --version
gputui --batch --replay h200 --format json >/dev/null
echo "easybuild: gputui/$version installed in $prefix; its module loads, and gputui --version and --batch --replay h200 run from it"
