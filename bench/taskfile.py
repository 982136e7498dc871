#!/usr/bin/env python3
"""The figures of bench/taskfile.sh (standard library only):

  taskfile.py rtapp LOG...   one rt-app thread's log (rt-app's doc/tutorial.txt, "Log and
                             gnuplot"), every line after the first (the first has no timer
                             before it): "N mean_us p99_us max_us misses" of wu_lat (the
                             wake-up latency after the line's timer event) and of slack < 0
                             (the loop overshot its period: a missed deadline)
  taskfile.py side ROUNDS    part (a)'s table from a-rtapp-R.stats and a-ib-R.json, R = 1..ROUNDS
  taskfile.py pairs ROUNDS TASK...  part (b)'s table from b-builtin-R.json and b-TASK-R.json
"""
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import nearest_rank  # noqa: E402  (bench/benchlib.py, beside this file)

# rt-app's log columns (doc/tutorial.txt): idx perf run period start end rel_st slack
# c_duration c_period wu_lat
COL_SLACK, COL_WU_LAT, N_COLS = 7, 10, 11

# Two-sided 95 % t quantiles by degrees of freedom (a t table, e.g. NIST/SEMATECH e-Handbook
# 1.3.6.7.2), for the interval of a mean over a few rounds.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}


def rtapp_rows(paths):
    """(wu_lat_us, slack_us) of every log line but each file's first."""
    rows = []
    for path in paths:
        lines = [ln.split() for ln in open(path) if ln.strip() and not ln.startswith("#")]
        for f in lines[1:]:
            if len(f) < N_COLS:
                sys.exit(f"taskfile.py: {path}: a line of {len(f)} columns ({N_COLS} expected)")
            rows.append((int(f[COL_WU_LAT]), int(f[COL_SLACK])))
    return rows


def cmd_rtapp(paths):
    rows = rtapp_rows(paths)
    if not rows:
        sys.exit(f"taskfile.py: rt-app logged no periods in {' '.join(paths)}")
    lat = sorted(r[0] for r in rows)
    misses = sum(1 for r in rows if r[1] < 0)
    print(f"{len(lat)} {statistics.mean(lat):.1f} {nearest_rank(lat, 0.99)} {lat[-1]} {misses}")


def med(v):
    """Median (range) of v."""
    return f"{statistics.median(v):.3g} ({min(v):.3g}-{max(v):.3g})"


def ratio(a, b):
    return f"{statistics.median(a) / statistics.median(b):.2f}" if statistics.median(b) else "-"


def only_result(path):
    res = json.load(open(path))["results"]
    if len(res) != 1:
        sys.exit(f"taskfile.py: {path}: {len(res)} results, 1 expected")
    return res[0]


def cmd_side(rounds):
    rt = {"mean": [], "p99": [], "max": [], "miss": []}
    ib = {"mean": [], "p99": [], "max": [], "miss": []}
    for r in range(1, rounds + 1):
        n, mean, p99, mx, miss = open(f"a-rtapp-{r}.stats").read().split()
        rt["mean"].append(float(mean) / 1e3)
        rt["p99"].append(float(p99) / 1e3)
        rt["max"].append(float(mx) / 1e3)
        rt["miss"].append(100.0 * int(miss) / int(n))
        x = only_result(f"a-ib-{r}.json")
        ib["mean"].append(x["lateness_mean_ns"] / 1e6)
        ib["p99"].append(x["lateness_p99_ns"] / 1e6)
        ib["max"].append(x["lateness_max_ns"] / 1e6)
        ib["miss"].append(100.0 * x["deadlines_missed"] / x["periods"] if x["periods"] else float("nan"))
    print("| figure | rt-app | interbench --task-file | interbench / rt-app |")
    print("| --- | --- | --- | --- |")
    for key, what in (("mean", "wake-up latency mean, ms"), ("p99", "wake-up latency p99, ms"),
                      ("max", "wake-up latency max, ms"), ("miss", "periods missed, %")):
        print(f"| {what} | {med(rt[key])} | {med(ib[key])} | {ratio(ib[key], rt[key])} |")


def t_interval(v, share):
    """The 95 % t interval over the rounds of v, or None below 2 values: a share's (ppm) of the
    mean, within 0..100 %; a latency's of the geometric mean (the t interval of the logs, as
    compare takes a latency's change: doc/json.md), so it stays above 0."""
    if len(v) < 2 or len(v) - 1 not in T95:
        return None
    if not share:
        if min(v) <= 0:
            return None
        lo, hi = t_interval([math.log(x) for x in v], True)
        return (math.exp(lo), math.exp(hi))
    h = T95[len(v) - 1] * statistics.stdev(v) / math.sqrt(len(v))
    return (statistics.mean(v) - h, statistics.mean(v) + h) if share is True else \
        (max(0.0, statistics.mean(v) - h), min(1e6, statistics.mean(v) + h))


def overlap(a, b):
    """Whether intervals a and b meet; an upper end None is open (no bound above)."""
    inf = float("inf")
    return (a[0] <= (b[1] if b[1] is not None else inf)) and (b[0] <= (a[1] if a[1] is not None else inf))


def iv_text(iv, scale):
    return "-" if iv is None else f"{iv[0] / scale:.3g}..{iv[1] / scale:.3g}"


# key, what, scale to the unit shown, a share (ppm) or a latency
FIGS = (("latency_mean_ns", "latency mean, ms", 1e6, False), ("latency_p99_ns", "latency p99, ms", 1e6, False),
        ("deadlines_met_ppm", "deadlines met, %", 1e4, "ppm"))


def within_run(b, f, key):
    """'K of N': the rounds whose two runs' own intervals (key_ci) met, of those where both had
    one (null: too few periods)."""
    pairs = [(x.get(key + "_ci"), y.get(key + "_ci")) for x, y in zip(b, f)]
    pairs = [(x, y) for x, y in pairs if x and y]
    return f"{sum(1 for x, y in pairs if overlap(x, y))} of {len(pairs)}"


def cmd_pairs(rounds, tasks):
    print("| task | figure | built-in | file | between rounds: built-in | file | overlap | "
          "within-run overlap |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for task in tasks:
        b, f = [], []
        for r in range(1, rounds + 1):
            b += [x for x in json.load(open(f"b-builtin-{r}.json"))["results"] if x["simulation"] == task]
            f.append(only_result(f"b-{task}-{r}.json"))
        if len(b) != rounds:
            sys.exit(f"taskfile.py: {len(b)} built-in results of {task}, {rounds} expected")
        for key, what, scale, share in FIGS:
            bv = [x[key] for x in b if x.get(key) is not None]
            fv = [x[key] for x in f if x.get(key) is not None]
            if not bv or not fv:
                print(f"| {task} | {what} | - | - | - | - | - | - |")
                continue
            bi, fi = t_interval(bv, share), t_interval(fv, share)
            meet = "-" if bi is None or fi is None else ("yes" if overlap(bi, fi) else "no")
            print(f"| {task} | {what} | {med([v / scale for v in bv])} | {med([v / scale for v in fv])} | "
                  f"{iv_text(bi, scale)} | {iv_text(fi, scale)} | {meet} | {within_run(b, f, key)} |")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "rtapp":
        cmd_rtapp(args)
    elif cmd == "side":
        cmd_side(int(args[0]))
    elif cmd == "pairs":
        cmd_pairs(int(args[0]), args[1:])
    else:
        sys.exit(__doc__)
