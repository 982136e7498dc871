#!/usr/bin/env python3
"""Helpers of bench/decisions.sh (standard library only).

  split RUN.json A.json B.json      the repeats of RUN alternately into two results (an A/A
                                    pair from one interleaved run: sub-runs 1, 3, 5... and 2, 4, 6...)
  aa CMP.json...                    the A/A table: per comparison its answers; the share of
                                    comparisons with any DIFFERENT, its exact (Clopper-Pearson)
                                    95 % interval, the per-figure rate, the share answered SAME
  known LABEL EXPECT RUN.json WALL  one known-answer row from a run's own "decisions" (EXPECT:
                                    worse or better, the direction the alternative must take)
  knowncmp LABEL EXPECT CMP.json WALL  the same from a compare --json
  coverage FIGURE RUN.json...       per run the t interval of FIGURE's mean over its sub-runs,
                                    and the share of runs whose interval holds the pooled
                                    estimate (the mean of every run's sub-runs)
  budgettime LABEL WALLS RUN.json...  default (budget) runs of one pair: runs, runs that ended
                                    known, sub-runs used, wall seconds (WALLS: one a line)
  budgetcov LABEL RUN.json...       the same runs, a row per judged figure: the t interval
                                    over a run's usable sub-runs (of the logs for a latency:
                                    the geometric mean's), the share holding the pooled
                                    estimate of every run's usable sub-runs
  matrix RUN.json WALL              one default run of many pairs: pairs, rounds, sub-runs,
                                    pairs known, what the others waited for
"""
import json
import math
import statistics
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cmd_split(args):
    doc = load(args[0])
    sides = ([], [])
    seen = {}
    for r in doc["results"]:
        key = (r.get("simulation"), r.get("mode"), r.get("load"), r.get("load_mode"))
        k = seen.get(key, 0)
        seen[key] = k + 1
        sides[k % 2].append(r)
    for side, path in zip(sides, args[1:3]):
        out = dict(doc)
        out["results"] = side
        out.pop("decisions", None)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(out, f)


def binom_cdf(k, n, p):
    """P(X <= k), X ~ Binomial(n, p), summed exactly."""
    if p <= 0 or p >= 1:
        return 1.0 if (p <= 0 or k >= n) else 0.0
    lp, lq = math.log(p), math.log1p(-p)
    return sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq)
               for i in range(0, k + 1))


def clopper_pearson(k, n, alpha=0.05):
    """The exact interval of k events in n (Clopper & Pearson 1934) by bisection on the
    binomial sums: P(X >= k | lo) = alpha / 2 = P(X <= k | hi)."""
    def solve(f):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    low = 0.0 if k == 0 else solve(lambda p: 1 - binom_cdf(k - 1, n, p) < alpha / 2)
    high = 1.0 if k == n else solve(lambda p: binom_cdf(k, n, p) > alpha / 2)
    return low, high


def judged(figs):
    return [f for f in figs if f.get("answer") in ("DIFFERENT", "SAME", "UNKNOWN")]


def cmd_aa(args):
    n = len(args)
    any_diff = 0
    verdicts = diffs = sames = 0
    rows = []
    for path in args:
        d = load(path)
        figs = judged(d.get("figures", []))
        dd = sum(f["answer"] == "DIFFERENT" for f in figs)
        ss = sum(f["answer"] == "SAME" for f in figs)
        any_diff += dd > 0
        verdicts += len(figs)
        diffs += dd
        sames += ss
        rows.append((path, len(figs), dd, ss, d.get("exit_status")))
    lo, hi = clopper_pearson(any_diff, n) if n else (float("nan"), float("nan"))
    print(f"| A/A comparisons | with any DIFFERENT | share (95 % interval, Clopper-Pearson) "
          f"| judged figures | DIFFERENT | SAME |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(f"| {n} | {any_diff} | {100 * any_diff / max(n, 1):.1f} % ({100 * lo:.1f}-{100 * hi:.1f} %) "
          f"| {verdicts} | {diffs} ({100 * diffs / max(verdicts, 1):.2f} % per verdict) "
          f"| {sames} ({100 * sames / max(verdicts, 1):.1f} %) |")


def known_row(label, expect, figs, wall):
    runs = sorted({f"{f.get('subruns_old')}:{f.get('subruns_new')}" for f in judged(figs)})
    hits = [f for f in judged(figs) if f["answer"] == "DIFFERENT"]
    right = [f for f in hits if f.get("worse") == (expect == "worse")]
    wrong = [f for f in hits if f not in right]
    names = ", ".join(f"{f['figure']} {f['change']:+.1f}{'%' if f['change_unit'] == '%' else ' pt'}" for f in right)
    unknown = sum(f["answer"] == "UNKNOWN" for f in judged(figs))
    ok = bool(right) and not wrong
    print(f"| {label} | {expect}: {'met' if ok else 'not met'} | {names or 'none'} | {len(wrong)} | {unknown} "
          f"| {wall} s | {', '.join(runs)} |")


def cmd_known(args):
    label, expect, path, wall = args
    known_row(label, expect, load(path).get("decisions", {}).get("figures", []), wall)


def cmd_knowncmp(args):
    label, expect, path, wall = args
    known_row(label, expect, load(path).get("figures", []), wall)


def t975(dof):
    table = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
    return table[dof - 1] if dof <= 10 else 1.96 + 2.4 / dof


def cmd_coverage(args):
    key = args[0]
    runs = []
    for path in args[1:]:
        vals = [r[key] for r in load(path)["results"] if r.get(key) is not None and not r.get("failed")]
        if len(vals) >= 2:
            runs.append(vals)
    pooled = statistics.mean(v for run in runs for v in run)
    held = 0
    widths = []
    for vals in runs:
        m = statistics.mean(vals)
        half = t975(len(vals) - 1) * statistics.stdev(vals) / math.sqrt(len(vals))
        held += m - half <= pooled <= m + half
        widths.append(2 * half)
    means = [statistics.mean(v) for v in runs]
    print(f"| {key} | {len(runs)} | {held} ({100 * held / max(len(runs), 1):.0f} %) | {pooled:.4g} "
          f"| {statistics.mean(widths):.4g} | {statistics.stdev(means) if len(means) > 1 else float('nan'):.4g} |")


def usable(r):
    """Whether sub-run r counts in a decision (report/run_decisions.c subruns_of): measured,
    whole, undisturbed (host/disturb.h: above 5 % outside CPU or 2 % steal) and its load
    never seen stopped."""
    d = r.get("disturbance") or {}
    return (not r.get("failed") and not r.get("interrupted") and d.get("outside_cpu_ppm", 0) <= 50000
            and d.get("steal_ppm", 0) <= 20000 and not (r.get("load_activity") or {}).get("stopped"))


def tail_key(docs):
    """p99 where every usable sub-run has the 368 samples that bound it, else p90."""
    return "latency_p99_ns" if all(r.get("samples", 0) >= 368 for d in docs for r in d["results"]
                                   if usable(r) and r.get("samples")) else "latency_p90_ns"


def interval(vals, log):
    """The 95 % t interval of vals' mean (of their logs when log), as (low, centre, high)."""
    xs = [math.log(v) for v in vals] if log else vals
    m, half = statistics.mean(xs), t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    f = math.exp if log else (lambda x: x)
    return f(m - half), f(m), f(m + half)


def cmd_budgettime(args):
    label, walls = args[0], [float(w) for w in open(args[1]).read().split()]
    docs = [load(p) for p in args[2:]]
    known = sum(1 for d in docs if not d["run"]["budget"].get("undecided"))
    subruns = [len([r for r in d["results"] if not r.get("failed")]) for d in docs]
    print(f"| {label} | {len(docs)} | {known} ({100 * known / len(docs):.0f} %) | {statistics.median(subruns):g} "
          f"({min(subruns)}-{max(subruns)}) | {statistics.median(walls):.0f} ({min(walls):.0f}-{max(walls):.0f}) |")


def cmd_budgetcov(args):
    label, docs = args[0], [load(p) for p in args[1:]]
    for key, log in ((tail_key(docs), True), ("deadlines_met_ppm", False)):
        runs = [[r[key] for r in d["results"] if usable(r) and r.get(key) is not None] for d in docs]
        runs = [v for v in runs if len(v) >= 2 and (not log or min(v) > 0)]
        if not runs:
            continue
        every = [v for run in runs for v in run]
        pooled = math.exp(statistics.mean(math.log(v) for v in every)) if log else statistics.mean(every)
        ivs = [interval(v, log) for v in runs]
        held = sum(lo <= pooled <= hi for lo, _, hi in ivs)
        width = statistics.mean((hi - lo) / c * 100 if log else (hi - lo) / 1e4 for lo, c, hi in ivs)
        print(f"| {label} | {key} | {len(runs)} | {held} ({100 * held / len(runs):.0f} %) | "
              f"{pooled / 1e3 if log else pooled / 1e4:.4g} {'us' if log else '%'} | {width:.3g} {'%' if log else 'pt'} |")


def cmd_matrix(args):
    d, wall = load(args[0]), float(args[1])
    b = d["run"]["budget"]
    pairs = {(r["simulation"], r["load"], r.get("mode", ""), r.get("load_mode", "")) for r in d["results"]}
    why = {}
    for u in b.get("undecided", []):
        why[u["why"]] = why.get(u["why"], 0) + 1
    known = len(pairs) - len(b.get("undecided", []))
    print(f"| {wall / 60:.0f}:{wall % 60:02.0f} | {b['budget_s']} | {len(pairs)} | {b['rounds']} | "
          f"{len([r for r in d['results'] if not r.get('failed')])} | {known} of {len(pairs)} "
          f"({100 * known / max(len(pairs), 1):.0f} %) | "
          + (", ".join(f"{k} {v}" for k, v in sorted(why.items(), key=lambda kv: -kv[1])) or "none") + " |")


if __name__ == "__main__":
    cmds = {"split": cmd_split, "aa": cmd_aa, "known": cmd_known, "knowncmp": cmd_knowncmp,
            "coverage": cmd_coverage, "budgettime": cmd_budgettime, "budgetcov": cmd_budgetcov, "matrix": cmd_matrix}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]](sys.argv[2:])
