#!/usr/bin/env python3
"""The table of margins at the end of make test-gpu: one row per timing
check (tests/gpu/judge.py writes them: name, figure, bound, headroom),
thinnest first. Headroom is what is left of the allowance: 1 all of it, 0
at the bound, below 0 over it; under 0.25 is marked thin.

Usage: margins.py LOG/margins.tsv
       margins.py LOG/margins.tsv --nearest-lessons N: the N lessons whose
       steps came nearest their bounds, nearest first, on one line"""
import sys


def rows(path):
    """(headroom, name, figure, bound) of each row, thinnest first."""
    out = []
    for line in open(path):
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 4:
            out.append((float(parts[3]), parts[0], parts[1], parts[2]))
    return sorted(out)


def nearest_lessons(path, n):
    """Lesson rows are named "lesson NAME step K: TITLE"."""
    names = []
    for _, name, _, _ in rows(path):
        lesson = name.split()[1] if name.startswith("lesson ") else None
        if lesson and lesson not in names:
            names.append(lesson)
    return names[:n]


def main():
    if len(sys.argv) == 4 and sys.argv[2] == "--nearest-lessons":
        print(" ".join(nearest_lessons(sys.argv[1], int(sys.argv[3]))))
        return
    table = rows(sys.argv[1])
    print(f"== margins: {len(table)} timing checks, thinnest first")
    print(f"{'headroom':>9}  {'figure':>10}  {'bound':<12}  check")
    for head, name, fig, bound in table:
        mark = "  <- thin" if head < 0.25 else ""
        print(f"{100 * head:8.0f}%  {fig:>10}  {bound:<12}  {name}{mark}")


if __name__ == "__main__":
    main()
