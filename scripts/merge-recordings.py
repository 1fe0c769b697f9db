#!/usr/bin/env python3
"""Concatenates gputui recordings of the same device into one: the first
file's header, then every file's lines with configuration numbers and
times shifted to follow the previous file's. Usage: merge.py A.gtr B.gtr..."""
import json
import sys

gen_base, t_base = 0, 0.0
for k, path in enumerate(sys.argv[1:]):
    max_gen, max_t = 0, 0.0
    with open(path) as f:
        for n, line in enumerate(f):
            o = json.loads(line)
            if n == 0:
                if o.get("type") != "header":
                    sys.exit(f"{path}: not a gputui recording")
                if k == 0:
                    print(line, end="")
                continue
            if "gen" in o:
                o["gen"] += gen_base
                max_gen = max(max_gen, o["gen"])
            if "t" in o:
                o["t"] += t_base
                max_t = max(max_t, o["t"])
            print(json.dumps(o, separators=(",", ":")))
    gen_base, t_base = max_gen, max_t
