#!/usr/bin/env python3
"""Reads back the tables and histograms interbench writes (report/tabular.h, report/histview.h)
with their consumers' rules, and checks them against the JSON result they came from.

  tables.py csv RESULT.json TABLE.csv        every pair a row, every figure a column, each
                                             value the median of the JSON's (exact), the
                                             intervals around the mean; RFC 4180 line ends
  tables.py markdown TABLE.md TABLE.csv      a GFM table (parsed here): a header, a delimiter
                                             row, every row as many cells; the cells the CSV's
  tables.py histogram RESULT.json TEXT       each block's rows and overflow add up to its
                                             count, the pair's samples; its max the JSON's
  tables.py histcsv RESULT.json HIST.csv     each pair's bucket counts add up to its samples
Prints one line per problem and exits 1, or exits 0 saying what it checked."""
import csv
import json
import re
import statistics
import sys

NOT_FIGURES = {"repeat", "window_ns", "timeline_pair"}
# A JSON key's unit suffix: the table's, and what the JSON's integer is divided by.
UNITS = [("_ns", "_ms", 1e6), ("_us", "_ms", 1e3), ("_ppm", "_pct", 1e4), ("_mfps", "_fps", 1e3)]
KEY = ("simulation", "mode", "load", "load_mode")
problems = []


def column_of(key):
    for suffix, shown, divisor in UNITS:
        if key.endswith(suffix):
            return key[: -len(suffix)] + shown, divisor
    return key, 1.0


def pairs_of(doc):
    """The pairs of the result, in the order of their first result: key -> counted results."""
    pairs = {}
    for r in doc["results"]:
        pairs.setdefault(tuple(r.get(k, "") for k in KEY), []).append(r)
    counted = {}
    for key, rs in pairs.items():
        counted[key] = [r for r in rs if not isinstance(r.get("failed"), str) and
                        (not r.get("interrupted") or len(rs) == 1)]
    return pairs, counted


def figure_keys(doc):
    keys = []
    for r in doc["results"]:
        for k, v in r.items():
            if k in NOT_FIGURES or k in keys or isinstance(v, bool) or not isinstance(v, int):
                continue
            keys.append(k)
    return keys


def read_csv(path):
    raw = open(path, "rb").read()
    lines = raw.split(b"\r\n")
    if lines[-1] != b"" or any(b"\n" in line for line in lines):
        problems.append(f"{path}: a line not ended by CRLF (RFC 4180 rule 1)")
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def check_csv(result, table):
    doc = json.load(open(result))
    rows = read_csv(table)
    head, body = rows[0], rows[1:]
    pairs, counted = pairs_of(doc)
    if [tuple(r[:4]) for r in body] != list(pairs):
        problems.append(f"rows {[tuple(r[:4]) for r in body]} are not the pairs {list(pairs)}")
    figures = 0
    for key in figure_keys(doc):
        name, divisor = column_of(key)
        if name not in head:
            problems.append(f"no column {name} for the figure {key}")
            continue
        col = head.index(name)
        for row in body:
            values = [r[key] for r in counted[tuple(row[:4])] if isinstance(r.get(key), (int, float))
                      and not isinstance(r.get(key), bool)]
            want = statistics.median(values) / divisor if values else None
            got = float(row[col]) if row[col] != "" else None
            if got != want:
                problems.append(f"{row[:4]} {name}: {row[col]!r}, the JSON's median {want!r}")
            figures += 1
            check_interval(head, row, name, values, divisor)
    if not problems:
        print(f"csv: {len(body)} rows, {figures} figures equal to the JSON's medians")


def check_interval(head, row, name, values, divisor):
    """The interval's ends around the mean (whole units of the JSON), empty with one value."""
    if name + "_mean_ci95_low" not in head:
        return
    lo, hi = (row[head.index(name + suffix)] for suffix in ("_mean_ci95_low", "_mean_ci95_high"))
    if len(values) < 2:
        if lo or hi:
            problems.append(f"{row[:4]} {name}: an interval from {len(values)} sub-run(s)")
        return
    mean = statistics.fmean(values) / divisor
    if not float(lo) <= mean + 1e-9 or not mean <= float(hi) + 1e-9:
        problems.append(f"{row[:4]} {name}: the interval [{lo}, {hi}] leaves out the mean {mean}")


def gfm_cells(line):
    """The cells of a GFM table row: split on '|' not escaped, the outer pipes dropped, a
    backslash escape of ASCII punctuation undone (CommonMark 2.4)."""
    if not line.startswith("|") or not line.endswith("|"):
        problems.append(f"a row without its outer pipes: {line!r}")
    cells, cur, i = [], "", 1
    while i < len(line) - 1:
        c = line[i]
        if c == "\\" and i + 1 < len(line) - 1 and not line[i + 1].isalnum():
            cur += line[i + 1]
            i += 2
            continue
        if c == "|":
            cells.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return cells


def md_header(name):
    """The Markdown header of CSV column name: "latency_p99_ms" is "latency p99 (ms)"."""
    m = re.fullmatch(r"(.*?)(_ms|_pct|_fps)?(_mean_ci95_(low|high))?", name)
    stem, unit, ci = m.group(1), m.group(2), m.group(4)
    text = stem.replace("_", " ") + (f" mean 95% CI {ci}" if ci else "")
    return text + (" (" + {"_ms": "ms", "_pct": "%", "_fps": "fps"}[unit] + ")" if unit else "")


def check_markdown(md, table):
    lines = open(md, encoding="utf-8").read().rstrip("\n").split("\n")
    rows = [gfm_cells(line) for line in lines]
    head, delim, body = rows[0], rows[1], rows[2:]
    if not all(re.fullmatch(r":?-{3,}:?", c) for c in delim):
        problems.append(f"the delimiter row {lines[1]!r} is not GFM's")
    for n, r in enumerate(rows):
        if len(r) != len(head):
            problems.append(f"line {n + 1}: {len(r)} cells, the header {len(head)}")
    want = read_csv(table)
    if body != want[1:]:
        problems.append("the Markdown's cells are not the CSV's")
    if head != [md_header(name) for name in want[0]]:
        problems.append(f"the Markdown's header {head} is not the CSV's {want[0]} with its units")
    if not problems:
        print(f"markdown: a header of {len(head)} columns, the delimiter row, {len(body)} rows of as many "
              "cells, equal to the CSV's")


KINDS = {"scheduling": ("samples", "latency_max_ns", "latency_mean_ns", "latency_histogram"),
         "timer": ("timer_samples", "timer_latency_max_ns", "timer_latency_mean_ns", "timer_latency_histogram")}


def weighted_mean(rs, kind):
    """The results' means weighted by their histograms' counts, us (as --histogram's avg)."""
    _, _, mean_key, hist_key = KINDS[kind]
    pairs = [(r[mean_key], sum(c for _, c in r.get(hist_key) or [])) for r in rs if r.get(mean_key) is not None]
    weight = sum(w for _, w in pairs)
    return f"{sum(m * w for m, w in pairs) / weight / 1e3:.3f}" if weight else "-"


def block_key(title):
    """The pair key's (simulation, mode, load_mode) of a block's title, "Audio (nice -10, loads
    at nice 19)"."""
    m = re.fullmatch(r"(.*?)(?: \((.*)\))?", title)
    sim, settings = m.group(1), m.group(2) or ""
    mode, _, load_mode = settings.partition("loads at ")
    return sim, mode.rstrip(", "), load_mode


def block_rows(lines, n):
    """The block starting at lines[n]: its columns, the rows' sums, over, count, avg and max."""
    while lines[n].startswith("#"):
        n += 1
    loads = lines[n].split()[1:]
    sums, rows = [0] * len(loads), {}
    for row in lines[n + 1:]:
        f = row.split()
        if f[0].endswith(":"):
            rows[f[0][:-1]] = f[1:]
            if f[0] == "max:":
                break
        else:
            sums = [s + int(x) for s, x in zip(sums, f[1:])]
    return loads, sums, rows


def check_histogram(result, text):
    doc = json.load(open(result))
    _, counted = pairs_of(doc)
    lines = open(text, encoding="utf-8").read().split("\n")
    blocks = 0
    for n, line in enumerate(lines):
        m = re.fullmatch(r"# Latency histogram: (.*), (\w+) latency", line)
        if not m:
            continue
        (sim, mode, load_mode), kind = block_key(m.group(1)), m.group(2)
        loads, sums, rows = block_rows(lines, n + 1)
        over = [int(x) for x in rows.get("over", ["0"] * len(loads))]
        count = [int(x) for x in rows["count"]]
        for i, load in enumerate(loads):
            rs = counted[(sim, mode, load, load_mode)]
            samples = sum(r[KINDS[kind][0]] for r in rs)
            maxes = [r[KINDS[kind][1]] for r in rs if r.get(KINDS[kind][1]) is not None]
            if not sums[i] + over[i] == count[i] == samples:
                problems.append(f"{sim}/{load} {kind}: rows {sums[i]} + over {over[i]}, count {count[i]}, "
                                f"the JSON's samples {samples}")
            if maxes and rows["max"][i] != f"{max(maxes) / 1e3:.3f}":
                problems.append(f"{sim}/{load} {kind}: max {rows['max'][i]}, the JSON's {max(maxes)} ns")
            if rows["avg"][i] != weighted_mean(rs, kind):
                problems.append(f"{sim}/{load} {kind}: avg {rows['avg'][i]}, the JSON's {weighted_mean(rs, kind)}")
            blocks += 1
        print(f"histogram {sim}/{','.join(loads)} {kind}: rows {sums} + over {over} = count {count}")
    if not blocks:
        problems.append(f"{text}: no histogram")


def check_histcsv(result, table):
    doc = json.load(open(result))
    _, counted = pairs_of(doc)
    rows = read_csv(table)
    head, body = rows[0], rows[1:]
    sums = {}
    for r in body:
        key = (tuple(r[:4]), r[head.index("latency")])
        sums[key] = sums.get(key, 0) + int(r[head.index("count")])
        if r[head.index("to_us")] and float(r[head.index("to_us")]) <= float(r[head.index("from_us")]):
            problems.append(f"{r}: an empty bucket range")
    for pair, rs in counted.items():
        for kind, (samples_key, *_) in KINDS.items():
            samples = sum(r[samples_key] for r in rs)
            if sums.get((pair, kind), 0) != samples:
                problems.append(f"{pair} {kind}: counts {sums.get((pair, kind), 0)}, the JSON's samples {samples}")
    if not problems:
        print(f"histogram csv: {len(body)} buckets, each pair's counts its samples")


if __name__ == "__main__":
    {"csv": check_csv, "markdown": check_markdown, "histogram": check_histogram,
     "histcsv": check_histcsv}[sys.argv[1]](*sys.argv[2:])
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)
