#!/usr/bin/env bash
# End-to-end tests of recordings made to exhaust memory or time
# (tests/fuzz/bigfiles.py makes them in seconds): each is read within the
# limits docs/recordings.md states, and says what it did not keep, or is
# refused with FILE:LINE and why, in bounded time.
# Usage: bombs.sh BIN TMPDIR (writes TMPDIR/bombs.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
python3 tests/fuzz/bigfiles.py "$TMPD"

# What one recording may make gputui take at most (docs/recordings.md).
LIMIT_MB=384

# run NAME ARGS...: gputui ARGS, its exit status, the seconds of processor
# it took (user and system: what the other tests running at once do not
# stretch), its wall seconds and its peak resident memory (MB) in NAME.rc,
# .s, .wall, .mb; stdout in NAME.out, stderr in NAME.err.
run() {
    local name=$1; shift
    python3 - "$TMPD/$name" "$BIN" "$@" <<'EOF'
import resource, subprocess, sys, time
out = sys.argv[1]
t = time.monotonic()
with open(out + '.out', 'w') as o, open(out + '.err', 'w') as err:
    rc = subprocess.call(sys.argv[2:], stdout=o, stderr=err)
wall = time.monotonic() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
for ext, v in (('rc', rc), ('s', '%.2f' % (u.ru_utime + u.ru_stime)), ('wall', '%.2f' % wall),
               ('mb', '%.0f' % (u.ru_maxrss / 1024))):
    open(out + '.' + ext, 'w').write('%s\n' % v)
EOF
}
get() { cat "$TMPD/$1.$2"; }
# within NAME RC SECONDS MB: the run NAME exited RC, in under SECONDS (-:
# any) and under MB.
within() {
    [ "$(get "$1" rc)" = "$2" ] &&
        awk -v s="$(get "$1" s)" -v S="$3" -v m="$(get "$1" mb)" -v M="$4" \
            'BEGIN { exit !((S == "-" || s < S) && m < M) }'
}

run samples --batch --replay "$TMPD/samples4g.gtr.gz" -e transfer --format json
check "4 GiB of one sample line: read (exit 0) in $(get samples s) s, peak $(get samples mb) MB, under $LIMIT_MB MB" \
    within samples 0 - $LIMIT_MB
check "... and it says what it did not keep" \
    grep -q "samples4g.gtr.gz: 47652864 of its 47718400 samples were not kept (a reader keeps 65536 of a series" "$TMPD/samples.err"
check "... in the JSON report too: truncated, with the count read and kept" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
r = d['recording']
assert r['truncated'] and r['samples_read'] == 47718400 and r['samples_kept'] == 65536, r
run = d['runs'][0]
assert run['truncated'] and run['samples_read'] == 47718400 and run['samples_kept'] == 65536, run
" "$TMPD/samples.out"

run fill --batch --replay "$TMPD/fill.gtr.gz" -e transfer --size 4K
check "the samples' and the extras' budgets filled: read in $(get fill s) s, peak $(get fill mb) MB, under $LIMIT_MB MB" \
    within fill 0 - $LIMIT_MB
check "... the samples and traces it did not keep said" \
    grep -q "838864 of its 4194304 samples were not kept.*831 timelines, call traces or inspections were not kept (past 64 MiB of them)" "$TMPD/fill.err"

run newlines --batch --replay "$TMPD/newlines4g.gtr.gz"
check "4 GiB of newlines: refused (exit 1) in $(get newlines s) s of processor ($(get newlines wall) s wall), under 2 s, in $(get newlines mb) MB" \
    within newlines 1 2 $LIMIT_MB
check "... naming the line and why" \
    grep -q "newlines4g.gtr.gz:4097: 4097 lines in a row carry nothing" "$TMPD/newlines.err"

run configs --batch --replay "$TMPD/configs200k.gtr.gz" -e transfer --size 64M
check "200,000 configurations: loaded (exit 0) in $(get configs s) s of processor ($(get configs wall) s wall), under 5 s, peak $(get configs mb) MB" \
    within configs 0 5 $LIMIT_MB
run configs-all --batch --replay "$TMPD/configs200k.gtr.gz"
check "... and all of them reported, a run at a time: $(get configs-all s) s, peak $(get configs-all mb) MB" \
    within configs-all 0 - $LIMIT_MB
run configs-cmp --batch --compare "$TMPD/configs200k.gtr.gz" "$TMPD/configs200k.gtr.gz"
check "... compared with itself: $(get configs-cmp s) s, peak $(get configs-cmp mb) MB for the two" \
    within configs-cmp 0 - $((2 * LIMIT_MB))

run toomany --batch --replay "$TMPD/configs1m.gtr.gz"
check "1,000,000 configurations with their set-up: refused (exit 1) in $(get toomany s) s, peak $(get toomany mb) MB" \
    within toomany 1 - $LIMIT_MB
check "... naming the line and the limit" \
    grep -q "configs1m.gtr.gz:[0-9]*: the recording's configurations take more than 96 MiB" "$TMPD/toomany.err"

run blanks --batch --replay "$TMPD/blanks.gtr.gz"
check "a run of 100,000 blank lines inside a recording: refused at its 4,097th" \
    bash -c "[ $(get blanks rc) = 1 ] && grep -q 'blanks.gtr.gz:4100: 4097 lines in a row carry nothing' '$TMPD/blanks.err'"

# Every bundled recording fits whole: nothing left out.
for m in $(ls share/gputui/*.gtr.gz | sed 's|.*/||; s|\.gtr\.gz||'); do
    run "bundled-$m" --batch --replay "$m" --format json
    check "the bundled $m recording replays whole (nothing past a limit), peak $(get "bundled-$m" mb) MB" \
        python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit('truncated' in d['recording'] or any('truncated' in r for r in d['runs']))" "$TMPD/bundled-$m.out"
done

# Bytes joined after the last gzip member are refused, not dropped.
gzip -dc share/gputui/2xh200.gtr.gz | head -n 200 | gzip -c >"$TMPD/joined.gtr.gz"
printf 'plain text after the member\n' >>"$TMPD/joined.gtr.gz"
run joined --batch --replay "$TMPD/joined.gtr.gz"
check "plain bytes after the last gzip member: refused, naming the line" \
    bash -c "[ $(get joined rc) = 1 ] && grep -q 'joined.gtr.gz:201: bytes after the last gzip member that are not gzip (28 of them)' '$TMPD/joined.err'"

# The TUI loads the sample bomb behind the screen and stays live: q quits.
start tui 120 40 "LC_ALL=C.UTF-8 '$BIN' --replay '$TMPD/samples4g.gtr.gz'"
check "TUI on 4 GiB of samples: the first configuration on screen" wait_for "REPLAY of .*samples4g" 10
check "... the status line says what was not kept" wait_for "replaying 65536 recorded samples.*\(47652864 more read, not kept\)" 30
quit_ok tui "TUI on 4 GiB of samples" 5

e2e_part_done bombs
