#!/usr/bin/env bash
# make deb: a Debian package of gputui, built without root and without a
# GPU: BUILD/deb/gputui_VERSION_ARCH.deb. The binary is the one make builds
# (the GPU back-end when the toolkit is there, for GPU_ARCH), relinked
# against the distribution's jansson and zlib; the recordings, lessons and
# manual beside it as make install lays them out under /usr. Checked with
# lintian when it is installed.
# DEB_MAINTAINER ("Name <address>") names who built it; by default git's
# user.name and user.email.
# Usage: deb.sh VERSION BIN OUTDIR
set -eu
version=${1:?usage: deb.sh VERSION BIN OUTDIR} bin=${2:?} outdir=${3:?}
cd "$(dirname "$0")/.."
arch=$(dpkg --print-architecture)
built=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
maintainer=${DEB_MAINTAINER:-$(git config user.name 2>/dev/null) <$(git config user.email 2>/dev/null)>}
case $maintainer in
*?" <"?*@?*">") ;;
*) echo "gputui: make deb needs who builds the package: DEB_MAINTAINER=\"Name <address>\" (or git's user.name and user.email); got '$maintainer'" >&2
   exit 64 ;;
esac
pkg=$outdir/gputui_${version}_$arch.deb
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/gputui

install -d "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/gputui/lessons" \
    "$root/usr/share/doc/gputui" "$root/DEBIAN"
install -m 755 "$bin" "$root/usr/bin/gputui"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/gputui"
gzip -9n <man/gputui.1 >"$root/usr/share/man/man1/gputui.1.gz"
install -m 644 share/gputui/*.gtr.gz share/gputui/inspect.json "$root/usr/share/gputui/"
install -m 644 share/gputui/lessons/*.json "$root/usr/share/gputui/lessons/"

cat >"$root/usr/share/doc/gputui/copyright" <<COPY
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gputui

Files: *
Copyright: $(date +%Y -d @"$built") the gputui authors
License: none
 The gputui sources state no licence yet; this package carries the
 authors' copyright alone.
COPY
{
    echo "gputui ($version) unstable; urgency=low"
    echo
    echo "  * Built from the gputui sources by make deb."
    echo
    echo " -- $maintainer  $(date -R -d @"$built")"
} | gzip -9n >"$root/usr/share/doc/gputui/changelog.gz"

# Depends: the packages that hold the shared libraries the binary needs.
depends=$(objdump -p "$root/usr/bin/gputui" | awk '/NEEDED/ {print $2}' | while read -r lib; do
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
    [ -n "$path" ] || continue
    # the library as the package lists it: /lib or /usr/lib (merged /usr)
    for p in "$path" "$(readlink -f "$path")" "/usr$path" "${path#/usr}"; do
        dpkg -S "$p" 2>/dev/null | sed -n '1s/:.*//p' | grep . && break
    done
done | sed 's/:.*//' | sort -u | paste -sd, | sed 's/,/, /g')
size=$(du -k -s "$root/usr" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: gputui
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: man-db
Section: utils
Priority: optional
Description: see how CUDA memory behaves, in a terminal
 gputui shows a GPU's properties and lets a person change one memory
 setting at a time (allocation kinds and flags, VMM, the L2 window, access
 patterns, allocators, copies within and between GPUs); every change
 re-runs a verified kernel or copy and live histograms update in place.
 Without an NVIDIA GPU it replays the bundled recordings of an H200, an
 H100 and two H200s, and runs its lessons from them.
CONTROL
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k2) >"$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$outdir"
rm -f "$pkg"
dpkg-deb --root-owner-group -Zxz --build "$root" "$pkg" >/dev/null
echo "gputui: $pkg ($(du -h "$pkg" | cut -f1); Depends: $depends)"
if command -v lintian >/dev/null; then
    if ! out=$(lintian --fail-on error,warning "$pkg" 2>&1); then
        grep -v 'root privileges' <<<"$out"
        echo "lintian: the package fails (above)"
        exit 1
    fi
    echo "lintian: no error and no warning"
else
    echo "lintian: not installed; the package was not checked"
fi
# Unpacked without installing (dpkg -x), its gputui runs and finds its data.
x=$stage/x
dpkg -x "$pkg" "$x"
"$x/usr/bin/gputui" --version | grep -q "^data: $x/usr/share/gputui (beside the binary)" ||
    { echo "gputui: the unpacked package's gputui does not find its data" >&2; exit 1; }
"$x/usr/bin/gputui" --batch --replay h200 --format json >/dev/null ||
    { echo "gputui: the unpacked package's gputui --batch --replay h200 failed" >&2; exit 1; }
echo "dpkg -x: its gputui runs, --version and --batch --replay h200 from its own data"
