#!/usr/bin/env python3
"""How soon the viewer shows its first figures, from outside, through tmux:
the time from starting gputui in a pane to the first row of figures on
screen ("now  <number>", or in compare mode "H200  <number>"), over several starts; the median of each way
of starting is judged against a bound.

Usage: start.py BIN STARTS BOUND_MS NAME='ARGS' ...
Prints "ok"/"FAIL" lines; exit 1 if a median is over the bound."""
import os
import re
import statistics
import subprocess
import sys
import time

FIGURE = re.compile(r"(^|\u2502) (now|H[0-9]{3}) +[0-9]", re.M)


def tmux(sock, *args):
    return subprocess.run(["tmux", "-L", sock, "-f", "/dev/null", *args], capture_output=True,
                          text=True).stdout


def one_start(binp, args, k):
    sock = f"gputui-start-{os.getpid()}-{k}"
    tmux(sock, "new-session", "-d", "-x", "120", "-y", "40", "sleep 60")
    t0 = time.monotonic()
    tmux(sock, "respawn-pane", "-k", f"exec {binp} {args}")
    took = None
    while time.monotonic() - t0 < 10:
        if FIGURE.search(tmux(sock, "capture-pane", "-p")):
            took = time.monotonic() - t0
            break
        time.sleep(0.002)
    tmux(sock, "kill-server")
    return took


def main():
    binp, starts, bound = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    bad = 0
    for spec in sys.argv[4:]:
        name, _, args = spec.partition("=")
        times = [one_start(binp, args, k) for k in range(starts)]
        shown = " ".join("-" if t is None else f"{t * 1e3:.0f}" for t in times)
        if any(t is None for t in times):
            print(f"FAIL first figures, {name}: not on screen within 10 s ({shown} ms)")
            bad += 1
            continue
        med = statistics.median(times) * 1e3
        good = med <= bound
        bad += not good
        print(f"{'ok  ' if good else 'FAIL'} first figures, {name}: median {med:.0f} ms of "
              f"{starts} starts ({shown} ms; bound {bound:.0f})")
    sys.exit(1 if bad else 0)


main()
