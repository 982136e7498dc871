#!/usr/bin/env python3
"""Checks what interbench plot drew, from the gnuplot scripts it saved beside the pictures
(their data inline as datablocks) and the pictures themselves, against what the result says,
computed here again from doc/json.md alone.  Each check prints one line and exits 1 on a
mismatch.  Usage:
  plotcheck.py ccdf GP RESULT.json SIM [HIST_KEY]  a tail figure: log axes, one step curve per
      load (per label, its sub-runs pooled) in a colour of its own, each curve's points the
      exact fraction of the pooled periods later than each non-empty bucket's upper edge, the
      y axis down past one period, the last step falling below it
  plotcheck.py marks GP RESULT.json SIM            each load's p99 mark: open above (an arrow)
      when a sub-run has under 368 samples, none or its own interval open above; else with 2
      sub-runs or more the geometric mean of their p99 and its 95 % t interval between them;
      else a point alone; the max the largest sub-run's
  plotcheck.py png PICTURE GP                     a PNG of the size the script's terminal states
  plotcheck.py decisions GP COMPARE.json FIGURE   a row per pair compare judged on FIGURE, its
      answer compare's verdict, OLD's and NEW's values compare's
  plotcheck.py causes GP RESULT.json SIM          each load's row the shares of the explained
      delay of all its sub-runs by cause, in the order of the script's header
  plotcheck.py fills GP N                         N stacked parts, N distinct colours, the last
      (unexplained) hatched
"""
import json
import math
import re
import struct
import sys


def fail(msg):
    print("plotcheck: " + msg)
    sys.exit(1)


def blocks(gp):
    """The datablocks of a script: {name: [lines]}."""
    out, name = {}, None
    for line in open(gp, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"^\$(d\d+) << EOD$", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif line == "EOD":
            name = None
        elif name:
            out[name].append(line)
    return out


def label(r):
    """plot's label of a result (tools/plot_fig.c plot_load_label)."""
    s = r["load"]
    if r.get("mode"):
        s += " / task " + r["mode"]
    if r.get("load_mode"):
        s += " / loads " + r["load_mode"]
    return "".join("'" if c in "\"\\" else "?" if ord(c) < 0x20 or ord(c) == 0x7F else c for c in s)


def bucket_high(low):
    """The last ns of the bucket starting at low: below 128 one ns wide, above 1/128 of its
    power of two (doc/json.md, lib/histogram.h)."""
    if low < 128:
        return low
    return low + (1 << (low.bit_length() - 1 - 7)) - 1


def expected_ccdf(results, sim, lab, key):
    counts = {}
    for r in results:
        if r.get("failed") or r["simulation"] != sim or label(r) != lab:
            continue
        for low, n in r.get(key) or []:
            counts[low] = counts.get(low, 0) + n
    total = sum(counts.values())
    pts, seen = [], 0
    for low in sorted(counts):
        if not counts[low]:
            continue
        if not pts:
            pts.append((max(low, 1) / 1e3, 1.0))
        seen += counts[low]
        pts.append(((bucket_high(low) + 1) / 1e3, (total - seen) / total if seen < total else None))
    return pts


def close(a, b):
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-12


def ccdf(gp, result, sim, key="latency_histogram"):
    text = open(gp, encoding="utf-8").read()
    if "\nset logscale xy\n" not in text:
        fail(gp + ": no log x and y axes")
    results = json.load(open(result))["results"]
    labels = []
    for r in results:
        if not r.get("failed") and r["simulation"] == sim and r.get(key) and label(r) not in labels:
            labels.append(label(r))
    curves = re.findall(r"\$(d\d+) using 1:2 with steps lw 2 lc rgb '(#[0-9A-F]{6})' dt (\d) title '([^']*)'", text)
    if len(curves) != len(labels):
        fail("%s: %d step curves, %d loads in the result" % (gp, len(curves), len(labels)))
    if len({c[1] for c in curves}) != min(len(curves), 8) or len({(c[1], c[2]) for c in curves}) != len(curves):
        fail(gp + ": series share a colour and dash: " + str(curves))
    data = blocks(gp)
    for (name, _, _, title), lab in zip(curves, labels):
        if not title.startswith(lab + " ("):
            fail("%s: curve %s titled %r, not the load %r" % (gp, name, title, lab))
        got = [tuple(float(x) for x in l.split()) for l in data[name] if not l.startswith("#")]
        want = expected_ccdf(results, sim, lab, key)
        if len(got) != len(want):
            fail("%s: %s: %d points, %d expected" % (gp, lab, len(got), len(want)))
        bottom = float(re.search(r"^set yrange \[([^:]+):", text, re.M).group(1))
        if bottom > min(p[1] for p in want[:-1]) / 1.5:
            fail("%s: the y axis ends at %g, above one period of %s" % (gp, bottom, lab))
        for (gx, gy), (wx, wy) in zip(got, want):
            if not close(gx, wx) or (wy is None and gy >= bottom) or (wy is not None and not close(gy, wy)):
                fail("%s: %s: point (%g, %g), expected (%g, %s)" % (gp, lab, gx, gy, wx, wy))
    print("ccdf %s: %d curves, log axes, every point the exact fraction later" % (gp, len(curves)))


# Student's t 0.975 quantiles by degrees of freedom (any table of t)
T975 = [None, 12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
        2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024]


def expected_mark(subs):
    """(kind, x, low, high) in us of a load's sub-runs, as the man page's plot section says."""
    p99 = [r.get("latency_p99_ns") for r in subs]
    ci = [r.get("latency_p99_ns_ci") for r in subs]
    opened = any(v is None or r.get("samples", 0) < 368 or (c and c[1] is None) for v, r, c in zip(p99, subs, ci))
    logs = [math.log(v) for v in p99 if v]
    mean = sum(logs) / len(logs)
    x = math.exp(mean) / 1e3
    if opened:
        return 2, x, x, x
    if len(logs) < 2:
        return 1, x, x, x
    sd = math.sqrt(sum((v - mean) ** 2 for v in logs) / (len(logs) - 1))
    half = T975[len(logs) - 1] * sd / math.sqrt(len(logs))
    return 0, x, math.exp(mean - half) / 1e3, math.exp(mean + half) / 1e3


def marks(gp, result, sim):
    results = [r for r in json.load(open(result))["results"] if not r.get("failed") and r["simulation"] == sim]
    data, kinds = blocks(gp), set()
    for name, lines in data.items():
        if not lines or ": kind (" not in lines[0]:
            continue
        lab = lines[0][2:lines[0].index(": kind (")]
        subs = [r for r in results if label(r) == lab]
        rows = {int(l.split()[0]): [float(v) for v in l.split()[1:]] for l in lines[1:]}
        kind, x, lo, hi = expected_mark(subs)
        got = rows.get(kind)
        if not got or not all(close(a, b) for a, b in zip(got[:3], (x, lo, hi))) or got[3] != 0.01:
            fail("%s: %s: p99 mark %s, expected kind %d at %g [%g, %g]" % (gp, lab, rows, kind, x, lo, hi))
        biggest = max(r["latency_max_ns"] for r in subs) / 1e3
        if 3 not in rows or not close(rows[3][0], biggest):
            fail("%s: %s: max mark %s, expected %g" % (gp, lab, rows.get(3), biggest))
        kinds.add(kind)
    print("marks %s: kinds %s, each as the sub-runs give it" % (gp, sorted(kinds)))


def png(pic, gp):
    head = open(pic, "rb").read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        fail(pic + ": not a PNG")
    w, h = struct.unpack(">II", head[16:24])
    m = re.search(r"^set terminal pngcairo noenhanced size (\d+),(\d+)$", open(gp, encoding="utf-8").read(), re.M)
    if not m or (w, h) != (int(m.group(1)), int(m.group(2))):
        fail("%s: %dx%d, the script says %s" % (pic, w, h, m.groups() if m else "no size"))
    print("png %s: %dx%d as stated" % (pic, w, h))


def decisions(gp, compare_json, figure):
    figs = [f for f in json.load(open(compare_json))["figures"]
            if f["figure"] == figure and f["answer"] not in ("-", None)]
    rows = [l for l in blocks(gp)["d0"] if not l.startswith("#")]
    if len(rows) != len(figs):
        fail("%s: %d rows, compare judged %d" % (gp, len(rows), len(figs)))
    for line in rows:
        quoted = re.findall(r'"([^"]*)"', line)
        nums = re.sub(r'"[^"]*"', " ", line).split()
        f = figs[len(figs) - 1 - int(nums[0])]  # the first row at the top
        if quoted[0] != "%s / %s" % (f["simulation"], f["load"]) or not quoted[1].startswith(f["verdict"] + ":"):
            fail("%s: row %r, compare says %s / %s %r" % (gp, line, f["simulation"], f["load"], f["verdict"]))
        for v, want in ((float(nums[1]), f["old"]), (float(nums[4]), f["new"])):
            if want is not None and not close(v, want):
                fail("%s: row %r: %g, compare's %g" % (gp, line, v, want))
    print("decisions %s: %d rows, each compare's answer and values" % (gp, len(rows)))


def causes(gp, result, sim):
    lines = blocks(gp)["d0"]
    names = lines[0].split(": ", 1)[1].split()
    results = [r for r in json.load(open(result))["results"] if not r.get("failed") and r["simulation"] == sim]
    for line in lines[1:]:
        lab = re.match(r'^"([^"]*)"', line).group(1)
        got = [float(v) for v in line[len(lab) + 2:].split()]
        subs = [r["explain"] for r in results if label(r) == lab and r.get("explain", {}).get("delay_ns")]
        delay = sum(e["delay_ns"] for e in subs)
        want = [100 * sum(e["parts_ns"].get(n, 0) for e in subs) / delay for n in names]
        if len(got) != len(want) or not all(close(a, b) or abs(a - b) < 1e-3 for a, b in zip(got, want)):
            fail("%s: %s: %s, expected %s" % (gp, lab, got, want))
    print("causes %s: %d rows, each its sub-runs' pooled shares" % (gp, len(lines) - 1))


def fills(gp, n):
    styles = re.findall(r"\$d0 using \d+(?::xtic\(1\))? fs (solid 0.9|pattern \d) border rgb '#000000' "
                        r"lc rgb '(#[0-9A-F]{6})' title", open(gp, encoding="utf-8").read())
    if len(styles) != n or len({s[1] for s in styles}) != n or not styles[-1][0].startswith("pattern"):
        fail("%s: %d parts, %d colours, the last %s" % (gp, len(styles), len({s[1] for s in styles}),
                                                       styles[-1] if styles else None))
    print("fills %s: %d parts, %d colours, the last hatched" % (gp, n, n))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    checks = {"ccdf": ccdf, "marks": marks, "causes": causes, "png": png, "decisions": decisions,
              "fills": lambda g, n: fills(g, int(n))}
    checks[cmd](*args)
