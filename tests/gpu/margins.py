#!/usr/bin/env python3
"""The table of margins at the end of make test-gpu: one row per timing
check (tests/gpu/judge.py writes them: name, figure, bound, headroom),
thinnest first. Headroom is what is left of the allowance: 1 all of it, 0
at the bound, below 0 over it; under 0.25 is marked thin.

Usage: margins.py LOG/margins.tsv"""
import sys


def main():
    rows = []
    for line in open(sys.argv[1]):
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 4:
            rows.append((float(parts[3]), parts[0], parts[1], parts[2]))
    rows.sort()
    print(f"== margins: {len(rows)} timing checks, thinnest first")
    print(f"{'headroom':>9}  {'figure':>10}  {'bound':<12}  check")
    for head, name, fig, bound in rows:
        mark = "  <- thin" if head < 0.25 else ""
        print(f"{100 * head:8.0f}%  {fig:>10}  {bound:<12}  {name}{mark}")


main()
