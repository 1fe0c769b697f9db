#!/usr/bin/env bash
# End-to-end: --format html on the bundled recording (no GPU). The page of
# a replay against the JSON of the same replay (tests/tools/htmlcheck.py:
# HTML5 and XML, nothing from elsewhere, the same figures, every histogram
# drawn by rsvg-convert with its bars), and a lesson's page against its
# JSON, verdict by verdict, and an inspection card's, row by row; every
# experiment's default page, all together
# under 2 MB; the reports that have no HTML form refuse it.
# The pages and the drawn histograms stay in build/html/.
# Usage: html.sh BIN TMPDIR (writes TMPDIR/html.pass and .fail).
set -u
. "$(dirname "$0")/lib.sh"
e2e_part "$@"
REC=share/gputui/h200.gtr.gz
PY=python3     # the one with html5lib (scripts/deps.sh test installs it)
OUT=build/html # the pages and their histograms drawn (NAME/svg-N.png), kept to look at
rm -rf "$OUT"
mkdir -p "$OUT"
for p in python3 /usr/bin/python3; do "$p" -c 'import html5lib' 2>/dev/null && { PY=$p; break; }; done

page() {    # page NAME ARGS...: NAME.html and NAME.json of one replay (or lesson), then their check
    local name=$1; shift
    "$BIN" --batch --replay "$REC" "$@" --format html >"$TMPD/$name.html" 2>"$TMPD/$name.err" &&
        "$BIN" --batch --replay "$REC" "$@" --format json >"$TMPD/$name.json" 2>>"$TMPD/$name.err" ||
        { bad "$name: $(head -c 300 "$TMPD/$name.err")"; return; }
    mkdir -p "$OUT/$name"
    cp "$TMPD/$name.html" "$OUT/$name.html"
    while read -r line; do
        case $line in ok*) ok "$name: ${line#ok   }" ;; *) bad "$name: ${line#FAIL }" ;; esac
    done < <("$PY" tests/tools/htmlcheck.py "$TMPD/$name.html" "$TMPD/$name.json" "$OUT/$name" 2>&1)
}
page transfer -e transfer --dir h2d,d2h,bidir --size 64M
check "transfer: d2h drawn over h2d's ghost, the configuration before" \
    grep -q 'class="ghost"' "$TMPD/transfer.html"
page zerocopy -e zerocopy
page managed -e managed --access once,repeat
page lesson-managed --lesson managed
page lesson-pinned --lesson pinned
page inspect --inspect

# A fleet of three cards made from the bundled one, one of them slow.
mkdir -p "$TMPD/fleet"
"$BIN" --batch --inspect --replay "$REC" --format json >"$TMPD/card.json" 2>/dev/null
"$PY" - "$TMPD/card.json" "$TMPD/fleet" <<'PY'
import json, sys
card = json.load(open(sys.argv[1]))
for k, host in enumerate(("node-a", "node-b", "node-c")):
    c = json.loads(json.dumps(card))
    c["host"] = host
    for r in c["rows"]:
        if r["id"] == "pcie.h2d" and k == 2 and r["value"]:
            r["value"] *= 0.8       # 20% slow: an outlier
    json.dump(c, open(f"{sys.argv[2]}/{host}.json", "w"))
PY
"$BIN" --fleet "$TMPD/fleet" --format html >"$TMPD/fleet.html" 2>/dev/null
"$BIN" --fleet "$TMPD/fleet" --format json >"$TMPD/fleet.json" 2>/dev/null
mkdir -p "$OUT/fleet"
cp "$TMPD/fleet.html" "$OUT/fleet.html"
while read -r line; do
    case $line in ok*) ok "fleet: ${line#ok   }" ;; *) bad "fleet: ${line#FAIL }" ;; esac
done < <("$PY" tests/tools/htmlcheck.py "$TMPD/fleet.html" "$TMPD/fleet.json" "$OUT/fleet" 2>&1)
check "the fleet page marks node-c an outlier" grep -q 'class="outlier"><th><span>node-c' "$TMPD/fleet.html"

# The bundled H200 against the bundled H100: every shared configuration,
# each experiment's default drawn over the other's ghost, under 3 MB (1,900
# configurations of 19 experiments in both).
"$BIN" --batch --compare h200 h100 --format html >"$TMPD/compare.html" 2>/dev/null
"$BIN" --batch --compare h200 h100 --format json >"$TMPD/compare.json" 2>/dev/null
mkdir -p "$OUT/compare"
cp "$TMPD/compare.html" "$OUT/compare.html"
while read -r line; do
    case $line in ok*) ok "compare: ${line#ok   }" ;; *) bad "compare: ${line#FAIL }" ;; esac
done < <("$PY" tests/tools/htmlcheck.py "$TMPD/compare.html" "$TMPD/compare.json" "$OUT/compare" 2>&1)
n=$(wc -c <"$TMPD/compare.html")
check "the compare page: B's ghost drawn, $n bytes, under 3 MB" bash -c \
    "grep -q 'class=\"ghost\"' '$TMPD/compare.html' && [ $n -lt 3000000 ]"

# Every one-GPU experiment's default configuration, a page each.
total=0
for e in $("$BIN" --batch -e none 2>&1 | sed -n 's/.*(allowed: \(.*\))$/\1/p' | tr -d ,); do
    "$BIN" --batch --replay "$REC" -e "$e" --format html >"$TMPD/d-$e.html" 2>/dev/null || continue
    total=$((total + $(wc -c <"$TMPD/d-$e.html")))
done
check "every experiment's default page, $total bytes in all, under 2 MB" [ "$total" -gt 0 ] &&
    [ "$total" -lt 2000000 ]

for a in "-e peer --pairs all"; do
    # shellcheck disable=SC2086
    msg=$("$BIN" --batch $a --format html 2>&1 >/dev/null); rc=$?
    check "--format html with $a: refused, exit 64 (rc $rc)" \
        bash -c "[ $rc = 64 ] && grep -q 'writes the report of --batch runs, replays, lessons, inspections, compares and fleets' <<<\"\$0\"" "$msg"
done
e2e_part_done html
