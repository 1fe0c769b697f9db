#!/usr/bin/env python3
"""Checks a captured gputui screen (tmux capture-pane -p) of COLS columns:
the header keeps the experiment's name, its state and "?:help"; no line of
text is cut mid-word without the mark ("…" or ">"): a line that reaches
the last column, or the device pane's edge, ends in a letter or digit only
where it is a bar of blocks.

Usage: screencheck.py FILE COLS EXPERIMENT"""
import re
import sys

BARS = set("▁▂▃▄▅▆▇█░#_.-=+*@ │|")


def main():
    path, cols, exp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = open(path, encoding="utf-8").read().split("\n")
    bad = []
    head = lines[0] if lines else ""
    if not re.search(r"\| %s \| (RUNNING|SETUP|WARM-UP|PAUSED|ERROR|DONE|IDLE)" % re.escape(exp), head):
        bad.append(f"header without '| {exp} | STATE': {head.strip()}")
    if "?:help" not in head:
        bad.append(f"header without ?:help: {head.strip()}")
    for n, line in enumerate(lines[1:], 2):
        text = line.rstrip()
        # the device pane's edge: text touching the separator
        edge = line.find("│")
        cells = [(text, cols)]
        if edge > 0:
            cells.append((line[:edge].rstrip(), edge))
        for t, width in cells:
            if len(t) < width or not t:
                continue
            last = t[width - 1]
            if last.isalnum() and not set(t[-12:]) <= BARS | set("0123456789"):
                bad.append(f"line {n} cut without a mark at column {width}: ...{t[max(0, width - 40):width]}")
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
