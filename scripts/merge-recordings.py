#!/usr/bin/env python3
"""Concatenates gputui recordings of one device into OUT: the first file's
header (of the newest format among them, so that the
device properties newer writers add are kept, with any device property
only a later input holds), then every file's lines with configuration numbers and times
shifted to follow the previous file's. Inputs may be gzip-compressed; OUT
is compressed when its name ends in .gz.

With --drop EXPERIMENT (repeatable), the first input loses that
experiment's configurations and every line of theirs: the later inputs
re-record it. --drop EXPERIMENT:PARAM=VALUE drops only the configurations
with that value ("transfer:host=pageable").

With --drop-gens N,N,... the first input loses those configurations (by
their number), every line of theirs: "recplan dups FIRST LATER..." lists
the ones the later inputs hold again, so that theirs take their place.

The header's created is the oldest input's, and created_last the newest
input's (where they differ): when the parts were recorded.

With --first N,N,... those configurations of the first input (by their
number), every line of theirs, come first in OUT, in that order: "recplan
openings REC LESSONS" lists the ones a viewer opens on, which it then shows
before it has read the rest.

Usage: merge-recordings.py [--first LIST] [--drop-gens LIST] [--drop EXPERIMENT[:PARAM=VALUE]]... OUT IN.gtr[.gz]..."""
import gzip
import json
import sys


def opener(path, mode):
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    return gzip.open(path, mode + "t") if gz else open(path, mode)


def dropped_by(rules, config):
    """Whether a configuration line matches one of the --drop rules."""
    for exp, param, value in rules:
        if config.get("experiment") != exp:
            continue
        if param is None or config.get("values", {}).get(param) == value:
            return True
    return False


def parse_drop(arg):
    exp, _, cond = arg.partition(":")
    if not cond:
        return exp, None, None
    param, eq, value = cond.partition("=")
    if not eq or not param:
        sys.exit(f"--drop {arg}: expected EXPERIMENT or EXPERIMENT:PARAM=VALUE")
    return exp, param, value


def main():
    args, drop, gens, first = sys.argv[1:], [], set(), []
    while len(args) >= 2 and args[0] in ("--drop", "--drop-gens", "--first"):
        if args[0] == "--first":
            first = [int(g) for g in args[1].split(",") if g]
        elif args[0] == "--drop-gens":
            gens |= {int(g) for g in args[1].split(",") if g}
        else:
            drop.append(parse_drop(args[1]))
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    out_path, inputs = args[0], args[1:]
    if not inputs:
        sys.exit(__doc__)
    out = gzip.open(out_path, "wt", compresslevel=9) if out_path.endswith(".gz") \
        else open(out_path, "w")
    headers = []
    for path in inputs:
        with opener(path, "r") as f:
            headers.append(json.loads(f.readline()))
    newest = max(headers, key=lambda h: tuple(h.get("format", [0, 0])))
    # A device property only a later part's writer knew (one added since
    # the first was recorded) joins the header; the header's own stand.
    for h in headers:
        for k, v in h.get("device", {}).items():
            newest.setdefault("device", {}).setdefault(k, v)
    # When: the oldest part's created, and the newest part's as
    # created_last (ISO 8601 in UTC: their text sorts as their time).
    made = [h["created"] for h in headers if isinstance(h.get("created"), str)]
    made += [h["created_last"] for h in headers if isinstance(h.get("created_last"), str)]
    newest.pop("created_last", None)
    if made:
        newest["created"] = min(made)
        if max(made) != min(made):
            newest["created_last"] = max(made)
    gen_base, t_base, device = 0, 0.0, None
    lines = []
    first_set = set(first)
    head = {g: [] for g in first}
    for i, path in enumerate(inputs):
        max_gen, max_t = gen_base, t_base
        dropped = set()
        with opener(path, "r") as f:
            for n, line in enumerate(f):
                if not line.endswith("\n"):
                    break           # cut off: the reader drops it too
                o = json.loads(line)
                if n == 0:
                    if o.get("type") != "header":
                        sys.exit(f"{path}: not a gputui recording")
                    name = o.get("device", {}).get("name")
                    if device is None:
                        device = name
                        lines.append(json.dumps(newest, separators=(",", ":")) + "\n")
                    elif name != device:
                        sys.exit(f"{path}: recorded on {name}, not {device}")
                    continue
                if i == 0 and o.get("type") == "config" and (dropped_by(drop, o) or
                                                             o["gen"] in gens):
                    dropped.add(o["gen"])
                if o.get("gen") in dropped:
                    continue
                if "gen" in o:
                    o["gen"] += gen_base
                    max_gen = max(max_gen, o["gen"])
                if "t" in o:
                    o["t"] = round(o["t"] + t_base, 6)
                    max_t = max(max_t, o["t"])
                text = json.dumps(o, separators=(",", ":")) + "\n"
                if i == 0 and o.get("gen") in first_set:
                    head[o["gen"]].append(text)
                else:
                    lines.append(text)
        gen_base, t_base = max_gen, max_t
    out.write(lines[0])
    for g in first:
        out.writelines(head[g])
    out.writelines(lines[1:])
    out.close()


main()
