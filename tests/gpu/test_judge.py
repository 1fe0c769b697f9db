#!/usr/bin/env python3
"""make test: how the GPU suite judges a timing against its reference
(tests/gpu/judge.py), a streams timeline against its engines' work
(tests/gpu/check_batch.py) and which lessons it runs again
(tests/gpu/margins.py), on the figures of real runs
(tests/data/judge-h100.json, streams-h100.json) and on made-up ones,
without a GPU.
Prints "ok ..." or "FAIL ..." a check, then "judge: N passed, M failed"."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import judge  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = json.load(open(os.path.join(HERE, "..", "data", "judge-h100.json")))["runs"]
BAND = 0.10
passed = failed = 0


def check(good, what):
    global passed, failed
    passed += bool(good)
    failed += not good
    print(("ok   " if good else "FAIL ") + what)


def verdicts(name, scale=1.0):
    return [judge.by_state([x * scale for x in g], r, BAND)[0] for g, r in DATA[name]]


# The same program on both sides never fails; the states are told apart
# well enough that most first sets are judged (how many were, on these
# runs, when the rule changed: a change that judges fewer says so here).
for name, least in (("pageable h2d", 15), ("pageable d2h", 12), ("pool own", 15)):
    v = verdicts(name)
    check("FAIL" not in v and v.count("ok") >= least,
          f"{name}: the runs as recorded: {v.count('ok')} ok, {v.count('noisy')} noisy, "
          f"{v.count('FAIL')} failed of {len(v)} (wanted no failure and {least} ok or more)")

# Where the host has two states, copies 30% slower or 40% faster and a
# pool 30% faster are never judged ok (a pool slower by about the states'
# own ratio is what by_state cannot see).
for name, scale in (("pageable d2h", 0.7), ("pageable d2h", 1.4), ("pool own", 0.7)):
    v = verdicts(name, scale)
    check("ok" not in v, f"{name}, gputui's figures x{scale}: never ok "
          f"({v.count('FAIL')} failed, {v.count('noisy')} noisy)")

# Made-up states: both sides in both, judged state by state; gputui in one
# and the reference in the other is no host state: one ratio, failed.
fast, slow = [1.00, 1.01, 0.99, 1.02], [1.40, 1.41, 1.39, 1.42]
verdict, text, _ = judge.by_state(fast[:2] + slow[:2], fast[2:] + slow[2:] + [1.0], BAND)
check(verdict == "ok" and "two host states, 40% apart" in text,
      f"two states, both sides in each: {verdict}: {text}")
verdict, text, _ = judge.by_state(fast, slow, BAND)
check(verdict == "FAIL" and "host states" not in text,
      f"gputui all fast, the reference all slow: {verdict}: {text}")
check(judge.two_states([1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3], BAND) is None,
      "an even spread is no two states")
check(judge.two_states([1.0, 1.02, 1.19, 1.36, 1.4], BAND) is not None,
      "one process between two states: still two")

# The plain ratio: within the band ok, far outside it FAIL, in between noisy.
check(judge.ratio([1.0, 1.01, 0.99], [1.0, 1.0, 1.01, 0.99], 0.03)[0] == "ok", "ratio 1.00: ok")
check(judge.ratio([1.2, 1.21, 1.19], [1.0, 1.0, 1.01, 0.99], 0.03)[0] == "FAIL", "ratio 1.20: FAIL")
check(judge.ratio([1.0, 1.3, 0.8], [1.0, 1.2, 0.9, 1.1], 0.03)[0] == "noisy", "wide spread: noisy")
check(judge.odd_one([1.0, 1.01, 0.99, 1.5], 0.03, True) == 3, "one process slowed: left out")
check(judge.odd_one([1.0, 1.2, 0.99, 1.5], 0.03, True) is None, "two apart: none left out")
# A lesson step's margin: the near end of its interval from the bound.
step = {"step": 1, "title": "t", "verdict": "as expected", "ratio": 6.0, "interval": [5.8, 6.1],
        "expect": {"relation": "above", "bounds": [1.5]}}
m = judge.lesson_margin("pinned", step)
check(m is not None and m.endswith("\t2.867"), f"lesson step above 1.5, 5.8 to 6.1: {m!r}")
step.update(verdict="not on this machine", ratio=1.0, interval=[0.83, 1.07],
            expect={"relation": "above", "bounds": [1.25]})
m = judge.lesson_margin("pin-cost", step)
check(m is not None and "not > 1.25" in m and m.endswith("\t0.144"),
      f"a claim not holding, 0.83 to 1.07 against above 1.25: {m!r}")
step.update(verdict="not on this machine", ratio=1.0, interval=[0.9997, 1.0001],
            expect={"relation": "below", "bounds": [1.0]})
m = judge.lesson_margin("atomics", step)
check(m is not None and "level, 1 +/- 0.01" in m and m.endswith("\t0.970"),
      f"two sides level, 0.9997 to 1.0001 against below 1: {m!r}")
step.update(verdict="as expected", ratio=0.97, interval=[0.93, 1.10],
            expect={"relation": "between", "bounds": [0.67, 1.5]})
m = judge.lesson_margin("vmm", step)
check(m is not None and m.endswith("\t0.267"), f"between 0.67 and 1.5, 0.93 to 1.10: {m!r}")
step.update(expect={"relation": "note_has", "note": "x"})
check(judge.lesson_margin("runtime", step) is None, "a note compares no figures: no margin")
# The lessons run a second time: those whose steps came nearest their
# bounds, each once, and no check that is not a lesson's.
import tempfile  # noqa: E402
import margins  # noqa: E402
with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
    f.write("lesson async step 1: a\t0.49\t< 0.5\t0.011\n"
            "H2D 64 MiB, % of PCIe\t87%\t>= 80%\t0.001\n"
            "lesson pin-cost step 2: b\t0.8\t< 1\t0.127\n"
            "lesson async step 3: c\t0.78\t< 0.8\t0.021\n"
            "lesson atomics step 5: d\t1\tnot < 1\t-0.001\n"
            "a line cut short\n")
near = margins.nearest_lessons(f.name, 2)
os.unlink(f.name)
check(near == ["atomics", "async"], f"the two lessons nearest their bounds: {near}")
# The streams timeline's bound (check_batch.check_streams) on a real run
# whose serial run a transient slowed and whose kernels overlap: no fault;
# the same run reported to end in half its time: caught.
import check_batch  # noqa: E402
st = json.load(open(os.path.join(HERE, "..", "data", "streams-h100.json")))
run, dev = st["run"], st["device"]
probs = check_batch.check_streams(run, run["config"], dev)
check(not probs, f"streams, 8 streams, serial slowed to 11 ms: no fault ({probs})")
run["timeline"]["streams_s"] /= 2
probs = check_batch.check_streams(run, run["config"], dev)
check(any("beats the bound" in p for p in probs),
      f"streams, the streams run reported at half its time: caught ({probs[:1]})")
print(f"judge: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
