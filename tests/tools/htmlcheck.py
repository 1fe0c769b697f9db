#!/usr/bin/env python3
"""htmlcheck.py PAGE JSON OUTDIR - checks a gputui --format html page
against the --format json report of the same runs (or lesson):
  - the page parses as HTML5 (html5lib, strict) and as XML, and so does
    every SVG in it;
  - it loads nothing from elsewhere (no src=, href= or url() but its own);
  - every statistic's data-value is the JSON's figure for that run, series
    and percentile, and the cell shows it in its row's unit; for a lesson, every step's verdict and its text; for
    an inspection card, every row's figure and verdict; for a fleet, every
    card's figures, and the outliers marked; for a compare, every ratio A/B;
  - every histogram parses as XML, and each one drawn by a real renderer
    (rsvg-convert, into OUTDIR/svg-N.png: every one, or 12 spread over a
    long page) shows its bars.
Prints one "ok ..." or "FAIL ..." line per check."""
import json
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

H = "{http://www.w3.org/1999/xhtml}"
BAR = (0x2f, 0x6d, 0xb5)


def png_pixels(path):
    """RGB(A) rows of an 8-bit PNG (rsvg-convert's), unfiltered."""
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(d):
        n, typ = struct.unpack(">I4s", d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        pos += 12 + n
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "an 8-bit RGB(A) PNG"
        elif typ == b"IDAT":
            idat += body
    raw, bpp = zlib.decompress(idat), 4 if ctype == 6 else 3
    stride, rows, prev, i = w * bpp, [], bytearray(w * bpp), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, bpp, rows


def main():
    page_path, json_path, outdir = sys.argv[1:4]
    text = open(page_path, encoding="utf-8").read()
    try:
        import html5lib
        html5lib.HTMLParser(strict=True).parse(text)
        print("ok   the page parses as HTML5 (html5lib, strict)")
    except ImportError:
        print("FAIL html5lib is missing: scripts/deps.sh test installs it")
    except Exception as e:      # html5lib's ParseError
        print(f"FAIL the page is not valid HTML5: {e}")
    try:
        root = ET.fromstring(text.split("\n", 1)[1])    # after <!DOCTYPE html>
        print("ok   the page parses as XML")
    except ET.ParseError as e:
        print(f"FAIL the page is not well-formed XML: {e}")
        return
    outside = re.findall(r'(?:src|href)\s*=\s*"(?!#)[^"]*"|url\((?!#)[^)]*\)|<script', text)
    print(("FAIL the page loads " + ", ".join(outside[:3])) if outside else
          "ok   nothing from elsewhere: no script, font, image or style link")
    doc = json.load(open(json_path))
    if "shared" in doc:         # a compare: every shared configuration's ratios, A/B
        checked, wrong = 0, []
        for sec in root.iter(H + "section"):
            cfg = doc["shared"][int(sec.get("data-run")) - 1]
            for tr in sec.iter(H + "tr"):
                if tr.get("data-series") is None:
                    continue
                series = cfg["series"][int(tr.get("data-series"))]
                for td in tr.iter(H + "td"):
                    if td.get("data-key") is None:
                        continue
                    checked += 1
                    want, got = series[td.get("data-key")], float(td.get("data-value"))
                    if want is None or abs(got - want) > 1e-8 * abs(want):
                        wrong.append(f"{cfg['config'][:40]} {td.get('data-key')}")
        print(f"FAIL compare ratios unlike the JSON's: {wrong[:3]}" if wrong or not checked else
              f"ok   the page's {checked} ratios A/B are the JSON's, configuration by configuration")
        runs = []
    elif "cards" in doc:        # a fleet: each card's figures, and the outliers marked
        marked, figs, wrong = set(), 0, []
        for tr in root.iter(H + "tr"):
            if tr.get("data-card") is None:
                continue
            card = doc["cards"][int(tr.get("data-card"))]
            if tr.get("class") == "outlier":
                marked.add(int(tr.get("data-card")))
            for td in tr.iter(H + "td"):
                if td.get("data-value") is not None:
                    figs += 1
                    want = card["figures"][td.get("data-fig")]
                    if want is None or abs(float(td.get("data-value")) - want) > 1e-9 * abs(want):
                        wrong.append(f"{card['host']} {td.get('data-fig')}")
        want_marked = {i for i, c in enumerate(doc["cards"]) if c["outlier"] and
                       c["status"] is not None and c["status"] != 4}
        print(f"FAIL fleet figures or outliers unlike the JSON's: {wrong[:3]} "
              f"{sorted(marked)} against {sorted(want_marked)}"
              if wrong or marked != want_marked or not figs else
              f"ok   the page's {figs} fleet figures are the JSON's, and its {len(marked)} "
              "outliers are marked")
        return
    elif "inspection" in doc:   # a card: each row's figure and verdict, as the JSON gives them
        got = {}
        for tr in root.iter(H + "tr"):
            if tr.get("data-id") is None:
                continue
            spans = {sp.get("class"): sp.text for sp in tr.iter(H + "span")}
            td = [t for t in tr.iter(H + "td") if (t.get("class") or "").startswith("v-")]
            got.setdefault(tr.get("data-id"), []).append(
                (spans.get("figure"), td[0].get("class")[2:] if td else None))
        want = {}
        for r in doc["rows"]:
            want.setdefault(r["id"], []).append((r["figure"], r["verdict"]))
        bad = [k for k in want if got.get(k) != want[k]]
        print(f"FAIL card rows unlike the JSON's: {bad[:5]}" if bad or not got else
              f"ok   the page's {sum(map(len, got.values()))} card rows are the JSON's, figure "
              "and verdict")
        runs = []
    elif "steps" in doc:          # a lesson: each step's verdict, as the JSON gives it
        got = {}
        for sec in root.iter(H + "section"):
            if sec.get("data-step") is None:
                continue
            for p in sec.iter(H + "p"):
                if (p.get("class") or "").startswith("verdict"):
                    got[int(sec.get("data-step"))] = (p.get("class").split()[1], p.text)
        cls = {"as expected": "yes", "not on this machine": "no", "cannot tell here": "cannot",
               "too close to call here": "close", "measuring": "close"}
        # The page and the JSON come from two replays: the verdicts and their
        # wording must agree, the figures in them only as far as a replay's
        # samples do (how many a step takes depends on the pace).
        shape = lambda t: re.sub(r"[0-9]+(\.[0-9]+)?", "N", t or "")
        bad = [s["step"] for s in doc["steps"] if (lambda g: g is None or g[0] !=
               cls.get(s["verdict"], "?") or shape(g[1]) != shape(s["text"]))(got.get(s["step"]))]
        print(f"FAIL steps whose verdict differs from the JSON's: {bad}" if bad or not got else
              f"ok   the page's {len(got)} verdicts are the JSON's, step by step")
        runs = []
    else:
        runs = doc["runs"]
    keys = {"latency": "latency_s", "bandwidth": "bandwidth_GBps"}
    checked, wrong = 0, []
    for sec in root.iter(H + "section"):
        if sec.get("data-run") is None or not runs:
            continue
        run = runs[int(sec.get("data-run")) - 1]
        for div in sec.iter(H + "div"):
            if div.get("data-series") is None:
                continue
            series = run["series"][int(div.get("data-series"))]
            for tr in div.iter(H + "tr"):
                th = tr.find(H + "th")
                if th is None or not th.text:
                    continue
                metric = keys[th.text.split()[0]]
                # what the cell shows: the value in the row's unit, rounded
                shown = {"GB/s": (1e-9, 0.005), "ms": (1e3, 5e-4), "us": (1e6, 5e-4),
                         "ns": (1e9, 5e-4)}[th.text.split()[1]]
                for td in tr.iter(H + "td"):
                    want = series[metric][td.get("data-key")]
                    got = float(td.get("data-value"))
                    if abs(float(td.text) - got * shown[0]) > shown[1] * 1.0001:
                        wrong.append(f"{series['name']} {th.text} {td.get('data-key')}: shows "
                                     f"{td.text} for {got}")
                    if metric == "bandwidth_GBps":
                        got /= 1e9
                    checked += 1
                    if want is None or abs(got - want) > 1e-9 * max(1.0, abs(want)):
                        wrong.append(f"{series['name']} {metric} {td.get('data-key')}: "
                                     f"page {got}, json {want}")
    if runs:
        print((f"FAIL numbers unlike the JSON's: {wrong[:3]}") if wrong or not checked else
              f"ok   the page's {checked} statistics are the JSON's, run by run")
    if "inspection" in doc:     # a card draws no histograms
        return
    svgs = re.findall(r"<svg .*?</svg>", text, re.S)
    # Each one parses; at most 12 of them, spread over the page, are drawn
    # (the renderer and this PNG reader take a quarter second each).
    for svg in svgs:
        ET.fromstring(svg)
    step = max(1, len(svgs) // 12)
    svgs = svgs[::step]
    drawn = 0
    for i, svg in enumerate(svgs):
        ET.fromstring(svg)
        path = f"{outdir}/svg-{i}"
        open(path + ".svg", "w").write(svg)
        r = subprocess.run(["rsvg-convert", "-o", path + ".png", path + ".svg"],
                           capture_output=True, text=True)
        if r.returncode:
            print(f"FAIL rsvg-convert on histogram {i}: {r.stderr.strip()[:200]}")
            return
        w, bpp, rows = png_pixels(path + ".png")
        bar = sum(1 for row in rows for x in range(w) if tuple(row[x * bpp:x * bpp + 3]) == BAR)
        drawn += bar > 50
    print((f"ok   {len(svgs)} histograms drawn by rsvg-convert, each with its bars") if svgs
          and drawn == len(svgs) else f"FAIL {len(svgs) - drawn} of {len(svgs)} histograms "
          "drawn without bars")


if __name__ == "__main__":
    main()
