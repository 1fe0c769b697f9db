"""How the GPU suite judges one timing against another (imported by
tests/gpu/alternate.py and the checks in tests/gpu/run.sh), and the margin
each check leaves, for the table at the end of make test-gpu.

A ratio is judged from the two sides' per-process figures, taken in
alternation (R G R G ... R), never from a reference taken once:
  ok:     the ratio of the means within the band, its 95% bootstrap
          interval within twice the band;
  FAIL:   its whole 99% interval outside the band;
  noisy:  neither: measure again, or say "not judged" (never ok).
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
