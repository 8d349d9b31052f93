#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# tests/report/check-dom.py - report.html as a browser built it (the DOM
# `chromium --headless --dump-dom` prints), checked against the results
# file it was drawn from, read here on its own (Python's csv, not the
# grader's reader):
#
#   every exercise once, with its verdict and points; the total;
#   each speedup bar's speedup and tier marks;
#   each roofline: the copy roof at the rows' GB/s over their %copy; every
#   point's value (GB/s, or TFLOP/s at FLOPs per byte) from the row, and
#   its position where the axis' own ticks put that value; the circle
#   drawn there;
#   no element a submission could have smuggled in (script, img, iframe,
#   object, embed, link), no attribute that runs script (on...).
#
#   check-dom.py DOM RESULTS [SOURCE [SOLUTIONS]]
#                                         exit 0 when all agree; each
#                                         disagreement on stderr. With
#                                         SOLUTIONS (a source in the same
#                                         file), the solution points too
#   check-dom.py --hostile DOM            only the last check
#
# Stdlib only: CI has python3 and nothing more is installed for this.
import csv
import math
import statistics
import sys
from html.parser import HTMLParser

COLUMNS = ("source lab exercise verdict points max_points speedup time_us "
           "naive_us peer_us gbps pct_copy tier tflops pct_peer settings "
           "technique share share_lo share_hi ideal_us sol tiers_from "
           "tier_speedups audit").split()
FORBIDDEN = {"script", "img", "iframe", "object", "embed", "link", "image"}

errors = []


def err(msg):
    errors.append(msg)


class Dom(HTMLParser):
    """The elements, each (tag, attrs, parent index, text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.els, self.stack = [], []

    def handle_starttag(self, tag, attrs):
        self.els.append({"tag": tag, "a": dict(attrs), "parent":
                         self.stack[-1] if self.stack else -1, "text": ""})
        if tag not in ("meta", "line", "circle", "path", "rect", "br"):
            self.stack.append(len(self.els) - 1)

    def handle_startendtag(self, tag, attrs):
        self.els.append({"tag": tag, "a": dict(attrs), "parent":
                         self.stack[-1] if self.stack else -1, "text": ""})

    def handle_endtag(self, tag):
        if all(self.els[i]["tag"] != tag for i in self.stack):
            return  # </line> and the like close nothing we opened
        while self.els[self.stack.pop()]["tag"] != tag:
            pass

    def handle_data(self, data):
        for i in self.stack:
            self.els[i]["text"] += data

    def within(self, i, j):
        """Is element i inside element j?"""
        while i >= 0:
            i = self.els[i]["parent"]
            if i == j:
                return True
        return False

    def find(self, tag=None, cls=None, inside=None):
        for i, e in enumerate(self.els):
            if tag and e["tag"] != tag:
                continue
            if cls and cls not in e["a"].get("class", "").split():
                continue
            if inside is not None and not self.within(i, inside):
                continue
            yield i, e


def hostile_check(dom):
    for _, e in dom.find():
        if e["tag"] in FORBIDDEN:
            err(f"an element a submission smuggled in: <{e['tag']}>")
        for name in e["a"]:
            if name.lower().startswith("on"):
                err(f"an attribute that runs script: {name} on <{e['tag']}>")


def read_rows(path, source):
    """The results file's rows of one source, as dicts by column name."""
    with open(path, newline="") as f:
        lines = [l for l in f if not l.startswith("#")]
    if lines and lines[0].startswith("lab\t"):
        rows = list(csv.DictReader(lines, delimiter="\t"))
    else:
        rows = [dict(zip(COLUMNS, r)) for r in
                csv.reader(lines, delimiter="\t")]
    if rows and "source" in rows[0]:
        source = source or rows[0]["source"]
        rows = [r for r in rows if r["source"] == source]
    return rows


def near(a, b, rel, what, absolute=0.0):
    if not abs(a - b) <= rel * abs(b) + absolute:
        err(f"{what}: the page has {a:.6g}, the results {b:.6g}")


def axis(dom, svg, cls, log):
    """value -> pixel, from the first and last of the chart's ticks."""
    ticks = [(float(e["a"]["data-value"]), float(e["a"]["data-pos"]))
             for _, e in dom.find("text", cls, svg)]
    if len(ticks) < 2:
        err(f"a chart with {len(ticks)} {cls}s")
        return lambda v: float("nan")
    (v0, p0), (v1, p1) = ticks[0], ticks[-1]
    f = math.log10 if log else (lambda v: v)
    for v, p in ticks:  # the ticks agree among themselves
        near(p, p0 + (f(v) - f(v0)) / (f(v1) - f(v0)) * (p1 - p0), 0,
             f"{cls} {v}'s position", 0.02)
    return lambda v: p0 + (f(v) - f(v0)) / (f(v1) - f(v0)) * (p1 - p0)


def drawn_at(dom, gi, px, py, what):
    """The circle (or diamond) of point group gi is where it says."""
    for _, e in dom.find(inside=gi):
        if e["tag"] == "circle":
            near(float(e["a"]["cx"]), px, 0, f"{what} circle's x", 0.01)
            near(float(e["a"]["cy"]), py, 0, f"{what} circle's y", 0.01)
            return
        if e["tag"] == "path":
            return
    err(f"{what}: no mark drawn")


def copy_gbps(rows):
    v = sorted(float(r["gbps"]) * 100 / float(r["pct_copy"]) for r in rows
               if float(r["gbps"]) > 0 and float(r["pct_copy"]) > 0)
    return v[len(v) // 2] if v else 0


def expected(r, kind, flops, sol):
    """A point's value: TFLOP/s (flops) or GB/s."""
    t = float(r["time_us"])
    s = sol.get((r["lab"], r["exercise"]))
    us = {"student": t, "naive": float(r["naive_us"]),
          "solution": float(s["time_us"]) if s else float("nan"),
          "peer": float(r["peer_us"]) or (float(r["ideal_us"])
                                           if r["sol"] == "peer" else 0)}[kind]
    rate = float(r["tflops"]) if flops else float(r["gbps"])
    return rate * t / us


def check_chart(dom, si, svg, rows, copy, sol):
    flops = "flops" in svg["a"]["class"].split()
    y = axis(dom, si, "ytick", flops)
    x = axis(dom, si, "xtick", True) if flops else None
    by_name = {r["exercise"]: r for r in rows}
    npts = 0
    for gi, g in dom.find("g", "pt", si):
        r = by_name.get(g["a"]["data-ex"])
        kind = g["a"]["data-kind"]
        what = f"{g['a']['data-ex']} {kind}"
        if not r:
            err(f"{what}: a point for an exercise not in the results")
            continue
        if kind == "solution" and (r["lab"], r["exercise"]) not in sol:
            err(f"{what}: a solution point the results have no solution for")
            continue
        want = expected(r, kind, flops, sol)
        near(float(g["a"]["data-y"]), want, 0.002, what + "'s value", 0.06)
        near(float(g["a"]["data-py"]), y(want), 0, what + "'s height", 0.3)
        if flops:
            ai = float(r["tflops"]) * 1e12 / (float(r["gbps"]) * 1e9)
            near(float(g["a"]["data-x"]), ai, 0.002, what + "'s intensity")
            near(float(g["a"]["data-px"]), x(ai), 0, what + "'s x", 0.5)
        drawn_at(dom, gi, float(g["a"]["data-px"]), float(g["a"]["data-py"]),
                 what)
        npts += 1
    for _, line in dom.find("line", None, si):
        if line["a"].get("data-roof") == "copy":
            near(float(line["a"]["data-gbps"]), copy, 1e-5, "copy roof")
            if not flops:
                near(float(line["a"]["y1"]), y(copy), 0, "copy roof's height",
                     0.02)
    return npts


def check(dom, rows, sol):
    seen = {}
    for _, tr in dom.find("tr", "ex"):
        seen[(tr["a"]["data-lab"], tr["a"]["data-ex"])] = tr
    total = 0
    for r in rows:
        key = (r["lab"], r["exercise"])
        total += float(r["points"])
        if key not in seen:
            err(f"{key[0]}/{key[1]} is not in the overview")
            continue
        ti = next(i for i, e in dom.find("tr", "ex") if e is seen[key])
        badge = [e for _, e in dom.find("span", "v", ti)]
        pts = [e for _, e in dom.find("td", "points", ti)]
        if not badge or badge[0]["a"]["data-verdict"] != r["verdict"]:
            err(f"{key}: verdict {badge and badge[0]['a']['data-verdict']}, "
                f"the results say {r['verdict']}")
        if not pts or (float(pts[0]["a"]["data-points"]),
                       float(pts[0]["a"]["data-max"])) != (
                float(r["points"]), float(r["max_points"])):
            err(f"{key}: points differ from the results")
        elif pts[0]["text"].strip() != f"{pts[0]['a']['data-points']} / " \
                                       f"{pts[0]['a']['data-max']}":
            err(f"{key}: the points shown differ from the points' data")
        for _, bar in dom.find("svg", "speedup", ti):
            near(float(bar["a"]["data-speedup"]), float(r["speedup"]), 1e-4,
                 f"{key} speedup bar")
            marks = [float(e["a"]["data-value"]) for _, e in
                     dom.find("line", "tier", ti)]
            want = [float(v) for v in r["tier_speedups"].split()
                    if r["tier_speedups"] != "-"]
            if [round(v, 3) for v in marks] != want:
                err(f"{key}: tier marks {marks}, the results {want}")
    if len(seen) != len(rows):
        err(f"the overview has {len(seen)} exercises, the results {len(rows)}")
    tot = [e for _, e in dom.find("span", "total")]
    if not tot:
        err("no total")
    else:
        near(float(tot[0]["a"]["data-points"]), total, 1e-9, "the total")
    copy = copy_gbps(rows)
    npts = ncharts = 0
    for si, svg in dom.find("svg", "roofline"):
        lab_rows = [r for r in rows if r["lab"] == svg["a"].get("data-lab")]
        npts += check_chart(dom, si, svg, lab_rows, copy, sol)
        ncharts += 1
    if not ncharts or not npts:
        err(f"{ncharts} rooflines, {npts} points: nothing was drawn")
    return ncharts, npts


def main(argv):
    if len(argv) == 3 and argv[1] == "--hostile":
        dom = Dom()
        dom.feed(open(argv[2], encoding="utf-8").read())
        hostile_check(dom)
        summary = f"{len(dom.els)} elements, none smuggled in"
    elif len(argv) in (3, 4, 5):
        dom = Dom()
        dom.feed(open(argv[1], encoding="utf-8").read())
        rows = read_rows(argv[2], argv[3] if len(argv) >= 4 else None)
        sol = {}
        if len(argv) == 5:
            sol = {(r["lab"], r["exercise"]): r
                   for r in read_rows(argv[2], argv[4])
                   if r["verdict"] == "PASS" and float(r["time_us"]) > 0}
            nsol = sum(1 for _, e in dom.find("g", "pt")
                       if e["a"]["data-kind"] == "solution")
            if nsol != sum(1 for r in rows if (r["lab"], r["exercise"]) in sol
                           and float(r["gbps"]) > 0):
                err(f"{nsol} solution points for {len(rows)} exercises")
        if not rows:
            err("no rows in the results")
        hostile_check(dom)
        charts, points = check(dom, rows, sol)
        summary = (f"{len(rows)} exercises, {charts} rooflines, {points} "
                   f"points agree with the results")
    else:
        print(__doc__ or "usage: check-dom.py DOM RESULTS [SOURCE]",
              file=sys.stderr)
        return 2
    for e in errors:
        print(e, file=sys.stderr)
    if not errors:
        print(summary)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
