#!/usr/bin/env bash
# make dist: gputui-VERSION.tar.gz in the top folder, holding gputui-VERSION/
# with the sources, the bundled recordings and the lessons: every file git
# tracks (as it is in the working tree), or, where there is no git (an
# unpacked tarball), every file but build output. Never replaces a file.
set -eu
version=${1:?usage: dist.sh VERSION}
cd "$(dirname "$0")/.."
name=gputui-$version
out=$name.tar.gz
if [ -e "$out" ] || [ -L "$out" ]; then
    echo "gputui: $out exists; remove it or move it away first (make dist never replaces a file)" >&2
    exit 1
fi
list=$(mktemp)
stage=$(mktemp -d)
trap 'rm -rf "$list" "$stage"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files >"$list"
else
    find . -type f ! -path './build*' ! -path './.git/*' ! -path './.dev/*' ! -path './.ref/*' \
        ! -name 'gputui-*.tar.gz' ! -name 'gputui-*.json' ! -name 'gputui-*.csv' \
        ! -path '*/__pycache__/*' | sed 's|^\./||' | sort >"$list"
fi
mkdir "$stage/$name"
n=0
while IFS= read -r f; do
    [ -f "$f" ] || continue             # a tracked file deleted in the working tree
    mkdir -p "$stage/$name/$(dirname "$f")"
    cp -p "$f" "$stage/$name/$f"
    n=$((n + 1))
done <"$list"
for must in Makefile README.md src/main.c share/gputui/h200.gtr.gz share/gputui/lessons; do
    [ -e "$stage/$name/$must" ] || { echo "gputui: dist: $must is missing" >&2; exit 1; }
done
tmp=$(mktemp "./.$name.XXXXXX")
tar -czf "$tmp" -C "$stage" "$name"
chmod 644 "$tmp"
# The name is taken only now, and only if it is still free.
if ! ln "$tmp" "$out" 2>/dev/null; then
    rm -f "$tmp"
    echo "gputui: $out appeared meanwhile; it was left as it is" >&2
    exit 1
fi
rm -f "$tmp"
echo "gputui: wrote $out: $n files, $(du -k "$out" | cut -f1) KiB"
