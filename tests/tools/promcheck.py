#!/usr/bin/env python3
"""A strict check of the Prometheus text exposition format (version 0.0.4)
for gputui --inspect --format prometheus, where promtool is not at hand.

Checks: every line ends with a line feed; "# HELP name text" and
"# TYPE name type" at most once per metric, TYPE before the metric's first
sample; a metric's samples form one group; metric and label names are
valid and no label starts with "__"; label values are quoted with only
\\\\, \\" and \\n escapes; no label repeats within a sample; no two samples
of a metric share a label set; values parse as floats (NaN, +Inf, -Inf
included); an optional timestamp is an integer.

Usage: promcheck.py FILE   (exit 0: valid; 1: the first fault, named)"""
import re
import sys

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


def fail(n, why):
    print(f"line {n}: {why}")
    sys.exit(1)


def labels(text, n):
    """Parses '{a="x",b="y"}' from the start of text; returns (dict, rest)."""
    assert text[0] == "{"
    i, out = 1, {}
    while True:
        if text[i] == "}":
            return out, text[i + 1:]
        m = LABEL.match(text, i)
        if not m:
            fail(n, f"bad label name at {text[i:i + 20]!r}")
        name = m.group(0)
        if name.startswith("__"):
            fail(n, f"label {name} starts with __ (reserved)")
        if name in out:
            fail(n, f"label {name} repeated")
        i = m.end()
        if text[i:i + 2] != '="':
            fail(n, f"label {name}: expected =\"")
        i += 2
        val = []
        while True:
            if i >= len(text):
                fail(n, f"label {name}: value not closed")
            c = text[i]
            if c == "\\":
                e = text[i + 1:i + 2]
                if e not in ("\\", '"', "n"):
                    fail(n, f"label {name}: bad escape \\{e}")
                val.append({"n": "\n"}.get(e, e))
                i += 2
            elif c == '"':
                i += 1
                break
            elif c == "\n":
                fail(n, f"label {name}: raw line feed in value")
            else:
                val.append(c)
                i += 1
        out[name] = "".join(val)
        if text[i] == ",":
            i += 1
        elif text[i] != "}":
            fail(n, f"after label {name}: expected , or }}")


def main(path):
    data = open(path, "rb").read().decode("utf-8")
    if not data.endswith("\n"):
        fail(data.count("\n") + 1, "the last line does not end with a line feed")
    helped, typed, seen, done, current = set(), set(), {}, set(), None
    for n, line in enumerate(data[:-1].split("\n"), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) >= 2 and parts[1] in ("HELP", "TYPE"):
                if len(parts) < 4 and parts[1] == "TYPE" or len(parts) < 3:
                    fail(n, f"{parts[1]} needs a metric name and a text")
                name = parts[2]
                if not NAME.fullmatch(name):
                    fail(n, f"bad metric name {name!r}")
                if parts[1] == "HELP":
                    if name in helped:
                        fail(n, f"second HELP for {name}")
                    helped.add(name)
                    text = parts[3] if len(parts) > 3 else ""
                    if re.search(r"\\[^\\n]", text):
                        fail(n, f"HELP for {name}: bad escape")
                else:
                    if name in typed:
                        fail(n, f"second TYPE for {name}")
                    if name in seen:
                        fail(n, f"TYPE for {name} after its samples")
                    if parts[3] not in TYPES:
                        fail(n, f"TYPE {parts[3]!r} is not one of {sorted(TYPES)}")
                    typed.add(name)
            continue
        m = NAME.match(line)
        if not m:
            fail(n, f"bad metric name at {line[:30]!r}")
        name, rest = m.group(0), line[m.end():]
        lab = {}
        if rest.startswith("{"):
            lab, rest = labels(rest, n)
        fields = rest.split()
        if not rest.startswith(" ") or len(fields) not in (1, 2):
            fail(n, "expected ' value [timestamp]' after the name and labels")
        try:
            float(fields[0])
        except ValueError:
            fail(n, f"value {fields[0]!r} is not a number")
        if fields[0].lower() in ("nan", "inf", "+inf", "-inf") and fields[0] not in ("NaN", "+Inf", "-Inf"):
            fail(n, f"value {fields[0]!r}: write NaN, +Inf or -Inf")
        if len(fields) == 2 and not re.fullmatch(r"-?[0-9]+", fields[1]):
            fail(n, f"timestamp {fields[1]!r} is not an integer")
        if name != current:
            if name in done:
                fail(n, f"samples of {name} are not in one group")
            if current:
                done.add(current)
            current = name
        key = tuple(sorted(lab.items()))
        if key in seen.setdefault(name, set()):
            fail(n, f"{name}: a second sample with the same labels")
        seen[name].add(key)
    if not seen:
        fail(0, "no samples")
    print(f"ok: {sum(len(v) for v in seen.values())} samples of {len(seen)} metrics")


if __name__ == "__main__":
    main(sys.argv[1])
