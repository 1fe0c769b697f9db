"""How the GPU suite judges one timing against another (imported by
tests/gpu/alternate.py and the checks in tests/gpu/run.sh), and the margin
each check leaves, for the table at the end of make test-gpu.

A ratio is judged from the two sides' per-process figures, taken in
alternation (R G R G ... R), never from a reference taken once:
  ok:     the ratio of the means within the band, its 95% bootstrap
          interval within twice the band;
  FAIL:   its whole 99% interval outside the band;
  noisy:  neither: measure again, or say "not judged" (never ok).
Where each process lands in a fast or a slow host state (the pool's
calls), each state is judged by itself (judge.by_state).
One process that a transient slowed (another program's burst, the
host's) is left out of its side, and said so: at most one a side, only
the slow way, only 3 bands or more past its side's median while the
others lie within a band of it (judge.odd_one). A side whose processes
disagree among themselves keeps them all and is judged noisy.
A margin line ("margin NAME<TAB>FIGURE<TAB>BOUND<TAB>HEADROOM") is what is
left of the allowance: 1 - |ratio - 1| / band for a band, the distance to
a bound over the bound for a one-sided one; tests/gpu/lib.sh's tally
collects them into LOG/margins.tsv."""
import random
import statistics


def interval(g, r, q, seed=12345, b=2000):
    """mean(g) / mean(r), and its central 1 - 2q bootstrap interval, each
    side resampled as its own processes (seeded: the same figures give the
    same interval)."""
    rng = random.Random(seed)
    x = sorted(statistics.fmean(rng.choices(g, k=len(g))) /
               statistics.fmean(rng.choices(r, k=len(r))) for _ in range(b))
    return statistics.fmean(g) / statistics.fmean(r), x[int(q * b)], x[int((1 - q) * b) - 1]


def odd_one(v, band, larger_is_slower):
    """The index of v's one process slowed by a transient, or None: at
    least three processes, it 3 bands or more the slow way from their
    median, every other one within a band of that median."""
    if len(v) < 3:
        return None
    med = statistics.median(v)
    worst = max(range(len(v)), key=lambda i: (v[i] - med) * (1 if larger_is_slower else -1))
    off = (v[worst] - med) / med * (1 if larger_is_slower else -1)
    rest = all(abs(x - med) <= band * med for i, x in enumerate(v) if i != worst)
    return worst if off >= 3 * band and rest else None


def ratio(g, r, band, target=1.0):
    """('ok' | 'FAIL' | 'noisy', text, headroom): g over r against
    target +/- band (a fraction of the target)."""
    rt, lo, hi = interval(g, r, 0.025)
    _, lo99, hi99 = interval(g, r, 0.005)
    lo_b, hi_b = target * (1 - band), target * (1 + band)
    text = f"ratio of the means {rt:.3f}, 95% {lo:.3f} to {hi:.3f}"
    head = 1 - abs(rt / target - 1) / band
    if lo >= target * (1 - 2 * band) and hi <= target * (1 + 2 * band) and lo_b <= rt <= hi_b:
        return "ok", text, head
    if hi99 < lo_b or lo99 > hi_b:
        return "FAIL", f"{text}; 99% {lo99:.3f} to {hi99:.3f}", head
    return "noisy", text, head


def by_state(g, r, band):
    """ratio(g, r, band) within each host state, where the processes of
    both sides fall into two: a gap between neighbouring figures of more
    than twice the band splits them (the pool's calls: 2.5 or 3.6 us, in
    gputui's processes and the plain program's alike). Each state with
    two processes a side or more is judged; FAIL where one fails, ok
    where every one judged is ok, else noisy. Without such a gap, or
    where no state holds two of each side (gputui apart from the
    reference is no host state), the plain ratio."""
    v = sorted(g + r)
    gap, i = max((v[k + 1] / v[k] - 1, k) for k in range(len(v) - 1))
    if gap <= 2 * band:
        return ratio(g, r, band)
    cut = (v[i] + v[i + 1]) / 2
    verdicts, texts, worst = [], [], (2.0, 1.0, "")    # (headroom, ratio, state)
    for name, keep in (("fast", lambda x: x < cut), ("slow", lambda x: x >= cut)):
        gs, rs = [x for x in g if keep(x)], [x for x in r if keep(x)]
        if len(gs) < 2 or len(rs) < 2:
            texts.append(f"{name} state: {len(gs)} and {len(rs)} processes, not compared")
            continue
        verdict, text, head = ratio(gs, rs, band)
        verdicts.append(verdict)
        worst = min(worst, (head, statistics.fmean(gs) / statistics.fmean(rs), name))
        texts.append(f"{name} state ({len(gs)} and {len(rs)} processes): {text}")
    if not verdicts:
        # No state holds both sides: gputui apart from the reference, not
        # a state of the host.
        return ratio(g, r, band)
    # Read like ratio()'s: the figure first (the state with the least
    # headroom), then each state's.
    text = (f"ratio of the means {worst[1]:.3f}, the {worst[2]} state's; two host states, "
            f"{100 * gap:.0f}% apart; " + "; ".join(texts))
    if "FAIL" in verdicts:
        return "FAIL", text, worst[0]
    if all(x == "ok" for x in verdicts):
        return "ok", text, worst[0]
    return "noisy", text, worst[0]


def margin(name, figure, bound, headroom):
    """The margin line of one check."""
    return f"margin {name}\t{figure}\t{bound}\t{headroom:.3f}"


def above(name, value, bound, fmt="{:.3g}"):
    """A figure that must stay above bound: (good, margin line)."""
    return value > bound, margin(name, fmt.format(value), "> " + fmt.format(bound),
                                 (value - bound) / abs(bound))


def below(name, value, bound, fmt="{:.3g}"):
    """A figure that must stay below bound: (good, margin line)."""
    return value < bound, margin(name, fmt.format(value), "< " + fmt.format(bound),
                                 (bound - value) / abs(bound))
