#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An SVG bar chart for docs/BENCHMARKS.md from `fastsm2 speed --json` runs
(and peer runs in the same format: bench/peers/gmsm-speed --json; a GmSSL tool
writing "impl": "gmssl" gets its bars the same way). Standard library only.

usage: bench/bench-chart.py [-o OUT.svg] [--ops a,b,c] RUN.json...

Each (implementation, operation) keeps its best figure over the runs, as
bench/bench-table.py does. One panel per unit (ops/s; MB/s), one group of
horizontal bars per operation, one bar per library that ran it, labelled
with its value. The output depends on the input alone.
"""
import argparse
import json
import math
import sys
from xml.sax.saxutils import escape

# Libraries in drawing order: (impl in the JSON, label, colour)
LIBS = [
    ("fastsm2", "fastsm2", "#1b6ca8"),
    ("gmsm", "gmsm (Go)", "#e39b2d"),
    ("gmssl", "GmSSL", "#7d5ba6"),
    ("openssl", "OpenSSL SM2", "#b8493f"),
    ("openssl-p256", "OpenSSL ECDSA P-256", "#6d8f47"),
]
DEFAULT_OPS = ("keygen,sign,verify,sign-digest,verify-digest,encrypt-32,decrypt-32,encrypt-4096,decrypt-4096,kx,"
               "encrypt-1048576,decrypt-1048576,sm3-8192")

BAR, GAP, GROUP_GAP = 13, 2, 12
LEFT, RIGHT, PLOT_W = 120, 70, 560
FONT = "font-family=\"DejaVu Sans, Arial, sans-serif\""


def load_best(paths):
    best, runs = {}, []
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        runs.append(run)
        for r in run["results"]:
            impl = r.get("impl", run.get("impl"))
            k = (impl, r["op"])
            if k not in best or r["value"] > best[k]["value"]:
                best[k] = dict(r, impl=impl)
    return best, runs


def axis(v):
    """A tick step of 1, 2, 2.5 or 5 times a power of ten giving about five
    ticks, and the axis end: the first multiple of it at or above v."""
    if v <= 0:
        return 1.0, 1.0
    raw = v / 5
    e = 10 ** math.floor(math.log10(raw))
    step = next(m * e for m in (1, 2, 2.5, 5, 10) if m * e >= raw)
    return step, step * math.ceil(v / step - 1e-9)


def num(v):
    if v >= 1e6:
        return "%.3gM" % (v / 1e6)
    if v >= 1e3:
        return "%.3gk" % (v / 1e3)
    return "%.3g" % v


def label(v):
    return "{:,.0f}".format(v) if v >= 100 else "{:.1f}".format(v)


def panel(out, y, unit, ops, best):
    """Draw one panel at height y; returns the height used."""
    libs = [lib for lib in LIBS if any((lib[0], op) in best for op in ops)]
    top = max(best[(lib[0], op)]["value"] for lib in libs for op in ops if (lib[0], op) in best)
    step, scale = axis(top)
    y0 = y + 24
    out.append('<text x="%d" y="%d" %s font-size="13" font-weight="bold">%s</text>'
               % (LEFT, y + 14, FONT, escape(unit + " (higher is better)")))
    rows = []
    yy = y0
    for op in ops:
        bars = [(lib, best[(lib[0], op)]["value"]) for lib in libs if (lib[0], op) in best]
        h = len(bars) * (BAR + GAP) - GAP
        rows.append((op, yy, bars, h))
        yy += h + GROUP_GAP
    height = yy - y0
    for i in range(int(round(scale / step)) + 1):  # grid
        v = step * i
        x = LEFT + PLOT_W * v / scale
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x, y0 - 4, x, y0 + height))
        out.append('<text x="%.1f" y="%d" %s font-size="10" fill="#555" text-anchor="middle">%s</text>'
                   % (x, y0 + height + 12, FONT, num(v)))
    for op, ry, bars, h in rows:
        out.append('<text x="%d" y="%.1f" %s font-size="11" text-anchor="end">%s</text>'
                   % (LEFT - 8, ry + h / 2 + 4, FONT, escape(op)))
        for k, (lib, v) in enumerate(bars):
            by = ry + k * (BAR + GAP)
            w = max(1.0, PLOT_W * v / scale)
            out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s: %s %s</title></rect>'
                       % (LEFT, by, w, BAR, lib[2], escape(lib[1]), escape(op), label(v), escape(unit)))
            out.append('<text x="%.1f" y="%d" %s font-size="10" fill="#333">%s</text>'
                       % (LEFT + w + 4, by + BAR - 3, FONT, label(v)))
    return height + 24 + 20


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="JSON from `fastsm2 speed --json` and peer tools")
    ap.add_argument("-o", "--output", help="SVG file to write (default: stdout)")
    ap.add_argument("--ops", default=DEFAULT_OPS, help="operations, in order (default: %(default)s)")
    a = ap.parse_args()
    best, runs = load_best(a.runs)
    speed = [r for r in runs if "cpu" in r]
    ops = [op for op in a.ops.split(",") if op and ("fastsm2", op) in best]
    if not ops:
        sys.exit("bench-chart: none of the operations is in the runs")
    units = []
    for op in ops:
        u = best[("fastsm2", op)]["unit"]
        if u not in units:
            units.append(u)
    present = [lib for lib in LIBS if any((lib[0], op) in best for op in ops)]

    body, y = [], 58
    for u in units:
        y += panel(body, y, u, [op for op in ops if best[("fastsm2", op)]["unit"] == u], best)
    width = LEFT + PLOT_W + RIGHT
    head = []
    if speed:
        r = speed[0]
        title = "fastsm2 %s, backend %s, on %s; one thread; best of %d run(s)" % (
            r["fastsm2_version"], r["backend"], r["cpu"], len(speed))
    else:
        title = "best of %d run(s)" % len(runs)
    head.append('<text x="%d" y="18" %s font-size="13">%s</text>' % (10, FONT, escape(title)))
    x = 10
    for lib in present:  # legend
        head.append('<rect x="%d" y="30" width="12" height="12" fill="%s"/>' % (x, lib[2]))
        head.append('<text x="%d" y="40" %s font-size="11">%s</text>' % (x + 16, FONT, escape(lib[1])))
        x += 24 + 7 * len(lib[1])
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (width, y, width, y),
           '<!-- generated by bench/bench-chart.py from the JSON of fastsm2 speed and its peers: regenerate, do not edit -->',
           '<rect width="100%" height="100%" fill="white"/>'] + head + body + ["</svg>"]
    text = "\n".join(svg) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
