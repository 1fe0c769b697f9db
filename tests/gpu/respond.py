#!/usr/bin/env python3
"""How fast gputui answers, measured from outside through tmux (make bench,
make test-gpu).

  start: from the command to the first frame on the screen, and to the
         first live sample on it (the status line counts 1 sample or more);
  keys:  from a key press to the new configuration's first sample on the
         screen (its parameter row shows the new value and the status line
         counts 1 to 99 samples of it), PRESSES presses each way, on pinned
         H2D at 64 MiB: copies per sample 1 <-> 2 and size 64 <-> 32 MiB
         (no bigger buffer needed), size 64 <-> 128 MiB (the first press up
         allocates 128 MiB; the buffers are kept after it).
  --viewer: no GPU (or a build without CUDA): the first frame, and the
         first replayed sample of the bundled recording, after the command.

The screen is read with tmux capture-pane in a loop (about 2 ms a read), so
each figure is up to one read late.

Usage: respond.py BIN [PRESSES] [--check] [--viewer]
Prints one JSON object; with --check, also "ok ..."/"FAIL ..." lines against
the targets with a margin (key p90 under 30 ms, first frame under 150 ms,
first sample under 600 ms) for the GPU suite's tally."""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.path.realpath(sys.argv[1])
PRESSES = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 20
CHECK = "--check" in sys.argv
VIEWER = "--viewer" in sys.argv
SOCK = f"gputui-respond-{os.getpid()}"
TERM = "tmux-256color" if shutil.which("infocmp") and subprocess.run(
    ["infocmp", "tmux-256color"], capture_output=True).returncode == 0 else "xterm-256color"


def tm(*args, check=False):
    return subprocess.run(["tmux", "-L", SOCK, *args], capture_output=True, text=True,
                          check=check)


def screen():
    return tm("capture-pane", "-p", "-t", "t").stdout


def wait(pred, limit):
    """Polls the screen until pred(text) holds: the time it held, or None."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        text = screen()
        if pred(text):
            return time.monotonic()
    return None


def samples(text):
    """The current configuration's samples on the status line (the count
    restarts at 0 when a key changes the configuration)."""
    m = re.search(r"(?:RUNNING  [0-9]+ iterations|recorded samples, pass [0-9]+(?: \(the same\))?)"
                  r"  ([0-9]+) samples", text)
    return int(m.group(1)) if m else None


def start(cmd):
    """Starts cmd in a new session: the time just before it runs."""
    tmp = tempfile.mkdtemp()
    stamp = os.path.join(tmp, "t0")
    script = os.path.join(tmp, "run.sh")
    with open(script, "w") as f:
        f.write(f"export TERM={TERM}\ndate +%s.%N > {stamp}\nexec {cmd}\n")
    tm("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "160", "-y", "48",
       f"bash {script}", check=True)
    for _ in range(500):
        if os.path.exists(stamp) and open(stamp).read().strip():
            break
        time.sleep(0.001)
    wall0 = float(open(stamp).read())
    # the stamp is wall-clock time: turned into the monotonic clock's
    return time.monotonic() - (time.time() - wall0)


def stop():
    tm("send-keys", "-t", "t", "q")
    time.sleep(0.3)
    tm("kill-server")


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def press(key, row_re):
    """One key: the seconds until its configuration's first sample is shown."""
    t0 = time.monotonic()
    tm("send-keys", "-t", "t", key)
    t1 = wait(lambda s: re.search(row_re, s) and 1 <= (samples(s) or 0) <= 99, 5)
    return None if t1 is None else t1 - t0


def viewer():
    t0 = start(f"'{BIN}'")
    t_frame = wait(lambda s: s.strip() != "", 10)
    t_sample = wait(lambda s: (samples(s) or 0) >= 1, 30)
    out = {"viewer_first_frame_ms": None if t_frame is None else (t_frame - t0) * 1e3,
           "viewer_first_sample_ms": None if t_sample is None else (t_sample - t0) * 1e3,
           "cpus": os.cpu_count()}
    stop()
    print(json.dumps(out))
    return 0 if t_sample is not None else 1


def main():
    if VIEWER:
        return viewer()
    out = {"device": subprocess.run([BIN, "--list-devices"], capture_output=True,
                                    text=True).stdout.split("\n")[0]}
    t0 = start(f"'{BIN}' --host pinned --dir h2d --size 64M")
    t_frame = wait(lambda s: s.strip() != "", 10)
    t_sample = wait(lambda s: (samples(s) or 0) >= 1, 30)
    out["start_first_frame_ms"] = None if t_frame is None else (t_frame - t0) * 1e3
    out["start_first_sample_ms"] = None if t_sample is None else (t_sample - t0) * 1e3
    if t_sample is None:
        out["error"] = "no live sample: " + screen()[-400:]
        stop()
        print(json.dumps(out))
        return 1
    keys = {}

    def both_ways(name, first, then, row):
        """PRESSES presses of key 'first' and as many of 'then', in turn;
        row % value: the parameter row that shows the configuration."""
        got = []
        for i in range(2 * PRESSES):
            key, value = (first if i % 2 == 0 else then)
            got.append(press(key, row % value))
            time.sleep(0.05)    # the screen settles; a press lands mid-sample as a user's would
        keys[name] = got

    # copies per sample: row 8 (seven j from the direction); then size
    for _ in range(7):
        tm("send-keys", "-t", "t", "j")
    time.sleep(0.5)
    both_ways("copies per sample 1 <-> 2", ("+", 2), ("-", 1), r"copies per sample +%d\b")
    tm("send-keys", "-t", "t", "k")
    time.sleep(0.5)
    both_ways("size 64 <-> 32 MiB (kept buffers)", ("-", 32), ("+", 64), r"size +%d MiB")
    both_ways("size 64 <-> 128 MiB (allocates once)", ("+", 128), ("-", 64), r"size +%d MiB")
    stop()
    out["keys"] = {}
    rc = 0
    for name, v in keys.items():
        ms = [x * 1e3 for x in v if x is not None]
        row = {"presses": len(v), "missed": len(v) - len(ms)}
        if ms:
            row.update(median_ms=statistics.median(ms), p90_ms=pct(ms, 0.9), max_ms=max(ms))
        out["keys"][name] = row
    print(json.dumps(out))
    if CHECK:
        for name, row in out["keys"].items():
            if "allocates" in name:     # its target is the allocation's own time + 20 ms
                continue
            good = row["missed"] == 0 and row.get("p90_ms", 1e9) < 30
            rc |= not good
            print(("ok " if good else "FAIL ") + f"key to first sample on screen, {name}: "
                  f"median {row.get('median_ms', 0):.1f} ms, p90 {row.get('p90_ms', 0):.1f} ms "
                  f"of {row['presses']} presses, {row['missed']} missed (target p90 20 ms; "
                  "fails at 30)")
        f, s = out["start_first_frame_ms"], out["start_first_sample_ms"]
        good = f is not None and f < 150 and s is not None and s < 600
        rc |= not good
        print(("ok " if good else "FAIL ") + f"start: first frame {f or 0:.0f} ms, first live "
              f"sample {s or 0:.0f} ms after the command (targets 100 and 400 ms; fails at "
              "150 and 600)")
    return rc


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        tm("kill-server")
