#!/usr/bin/env python3
"""Helpers of the bench/ scripts: running a command with each output line timestamped (and its
process tree sampled), and the arithmetic on what it printed.  Standard library only.

Subcommands (each prints tab-separated values or Markdown on stdout):
  run [--sample FILE] LINES -- CMD...   run CMD; every line of its stdout+stderr goes to LINES
                                        as "seconds_since_start<TAB>line", the last line
                                        "#exit<TAB>seconds<TAB>status<TAB>maxrss_kB" (the
                                        largest RSS of CMD and its reaped descendants);
                                        exits with CMD's status
  ctstats LINES...                      cyclictest -v -N outputs (from run), pooled: samples,
                                        mean, p99, max in ns
  pairs LINES [WINDOW_S | --json FILE]  per pair: sim, load, wall s, window s, overhead s
  text LINES                            the command's output as it printed it
  table LINES                           the classic table rows: sim, load, mean ms, max ms,
                                        % desired CPU, % deadlines met
  cv                                    stdin: one value a line; mean, sample SD, CV %
  figs JSON                             per result: sim, load, mode (- for none), repeat,
                                        interbench 0.31's mean and max latency, scheduling
                                        latency's mean, p99, max (ms), % desired CPU,
                                        % deadlines met
  families SIM JSON...                  per latency family of SIM's first result in each JSON
                                        (latency, timer_latency, any other *_mean_ns), pooled
                                        over the JSONs: samples, mean, p99, max in ns; p99 from
                                        the merged histogram (None for a family without one)
  machine JSON                          the run's machine: CPU model, CPUs, kernel release and
                                        version, preemption model, clocksource, RAM GiB,
                                        loops_per_ms
  flagged CMPJSON                       the figures `interbench compare --json` answered
                                        DIFFERENT, each with its direction (worse, better),
                                        comma-separated
  busy                                  % of all CPUs' time busy over the next second
  footprint SAMPLE JSON                 the sampled peak RSS per role and timing thread CPU
  known JSON [WINDOW_JSON]              pairs, judged figures, figures known to the adaptive
                                        window's precision, stop reasons, summed windows (s)
  verdicts CMPJSON                      figures compared, regressions (figures DIFFERENT
                                        and worse, starved rows), disturbed pairs, the
                                        regressed figures, then the answers' counts:
                                        DIFFERENT, SAME, UNKNOWN
  coverage SIM LOAD JSON...             per judged figure: Markdown row of the share of runs
                                        whose interval holds the pooled estimate
"""
import json
import math
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time

SAMPLE_PERIOD_S = 0.05  # how often the process tree is sampled
TIMER_PRIO = 98         # interbench's timing thread: SCHED_FIFO one below main's 99 (as root)


def proc_text(path):
    """The text of a /proc file, None when it is gone (its process or thread has exited)."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def children_of(pid):
    """Direct children of pid from /proc/PID/task/*/children (empty when gone)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    return [int(c) for t in tids for c in (proc_text(f"/proc/{pid}/task/{t}/children") or "").split()]


def read_status_kb(pid, key):
    """A kB figure of /proc/PID/status (VmHWM, VmRSS), None when gone."""
    for line in (proc_text(f"/proc/{pid}/status") or "").splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return None


def is_timing_thread(pid, tid):
    """Whether the thread is interbench's timing thread: named ib-timer by builds that name
    their threads, else (older builds) SCHED_FIFO at TIMER_PRIO (rt_priority, field 40 of
    /proc/PID/task/TID/stat)."""
    comm = (proc_text(f"/proc/{pid}/task/{tid}/comm") or "").strip()
    if comm.startswith("ib-"):
        return comm == "ib-timer"
    stat = proc_text(f"/proc/{pid}/task/{tid}/stat")
    if stat is None:  # the thread ended between listing and reading
        return False
    try:
        return int(stat[stat.rindex(")") + 2:].split()[37]) == TIMER_PRIO
    except (TypeError, ValueError, IndexError):
        return False


def schedstat(pid, tid):
    """(time on CPU in ns, times it ran on a CPU): the first and third fields of
    /proc/PID/task/TID/schedstat; None when gone."""
    v = (proc_text(f"/proc/{pid}/task/{tid}/schedstat") or "").split()
    return (int(v[0]), int(v[2])) if len(v) >= 3 else None


def sample_tree(root, out, stop):
    """Until stop is set: every SAMPLE_PERIOD_S, one line per process below root (and root):
    "proc pid ppid depth VmHWM_kB", and per timing thread (is_timing_thread) of a child of
    root: "timer pid tid cpu_ns timeslices".  The sampling thread runs SCHED_FIFO 1 (when
    permitted), so loads at normal priority cannot starve it and every sample is timely."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))  # this thread only
    except OSError:
        pass
    while not stop.is_set():
        todo = [(root, 0, 0)]
        while todo:
            pid, ppid, depth = todo.pop()
            hwm = read_status_kb(pid, "VmHWM")
            if hwm is None:
                continue
            out.write(f"proc\t{pid}\t{ppid}\t{depth}\t{hwm}\n")
            if depth == 1:
                try:
                    tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
                except OSError:
                    tids = []
                for tid in tids:
                    if tid != pid and is_timing_thread(pid, tid):
                        st = schedstat(pid, tid)
                        if st is not None:
                            out.write(f"timer\t{pid}\t{tid}\t{st[0]}\t{st[1]}\n")
            todo += [(k, pid, depth + 1) for k in children_of(pid)]
        out.flush()
        stop.wait(SAMPLE_PERIOD_S)


def cmd_run(args):
    sample = None
    if args[0] == "--sample":
        sample, args = args[1], args[2:]
    lines_path, sep, cmd = args[0], args[1], args[2:]
    if sep != "--" or not cmd:
        sys.exit("benchlib run: usage: run [--sample FILE] LINES -- CMD...")
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    caught = []

    def forward(sig, _frame):
        """A stop signal: passed on to CMD (which stops in order), then CMD's output is read
        to its end and this exits as the signal's 128 + N."""
        caught.append(sig)
        if proc.poll() is None:
            proc.send_signal(sig)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, forward)
    stop = threading.Event()
    sampler = None
    if sample:
        sf = open(sample, "w")
        sampler = threading.Thread(target=sample_tree, args=(proc.pid, sf, stop))
        sampler.start()
    with open(lines_path, "w") as out:
        for raw in proc.stdout:
            out.write(f"{time.monotonic() - t0:.6f}\t{raw.decode(errors='replace').rstrip()}\n")
            out.flush()
        status = proc.wait()
        maxrss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        out.write(f"#exit\t{time.monotonic() - t0:.6f}\t{status}\t{maxrss_kb}\n")
    if sampler:
        stop.set()
        sampler.join()
        sf.close()
    if caught:
        sys.exit(128 + caught[0])
    sys.exit(status if status >= 0 else 128 - status)


def nearest_rank(sorted_vals, q):
    """The q-quantile by nearest rank (as interbench's JSON p99)."""
    return sorted_vals[max(0, math.ceil(q * len(sorted_vals)) - 1)]


def cmd_ctstats(args):
    vals = []
    for path in args:
        for _, text in read_lines(path)[0]:
            m = re.match(r"\s*\d+:\s*\d+:\s*(\d+)\s*$", text)
            if m:
                vals.append(int(m.group(1)))
    if not vals:
        sys.exit(f"benchlib ctstats: no samples in {' '.join(args)}")
    vals.sort()
    print(f"{len(vals)}\t{sum(vals) / len(vals):.0f}\t{nearest_rank(vals, 0.99)}\t{vals[-1]}")


def read_lines(path):
    """The timestamped lines of `run`: [(seconds, text)], and the exit record."""
    lines, end = [], None
    with open(path) as f:
        for raw in f:
            t, _, text = raw.rstrip("\n").partition("\t")
            if t == "#exit":
                end = text
            else:
                lines.append((float(t), text))
    return lines, end


ROW = re.compile(r"^(\S+)\s+(-|[\d.]+(?:e[+-]?\d+)?)\s+\+/-\s+(-|[\d.]+(?:e[+-]?\d+)?)\s+(-|\S+)\s+(\S+)(?:\s+(\S+))?")
HEAD = re.compile(r"^--- Benchmarking simulated cpu of (.+?) in the presence")


def table_rows(lines):
    """The classic table's rows in order: (seconds, sim, load, mean, max, cpu, deadlines)."""
    rows, sim = [], None
    for t, text in lines:
        h = HEAD.match(text)
        if h:
            sim = h.group(1)
            continue
        m = ROW.match(text)
        if m and sim:
            rows.append((t, sim, m.group(1), m.group(2), m.group(4), m.group(5), m.group(6) or "-"))
    return rows


def cmd_table(args):
    lines, _ = read_lines(args[0])
    for _, sim, load, mean, mx, cpu, met in table_rows(lines):
        print(f"{sim}\t{load}\t{mean}\t{mx}\t{cpu}\t{met}")


def cmd_text(args):
    for _, text in read_lines(args[0])[0]:
        print(text)


def cmd_pairs(args):
    """A pair's wall time: from the previous row (the first: from the "Benchmarking kernel"
    line, printed once calibration and file preparation are done) to its own row."""
    lines, _ = read_lines(args[0])
    rows = table_rows(lines)
    start = next((t for t, text in lines if text.startswith("Benchmarking kernel")), None)
    if start is None or not rows:
        sys.exit(f"benchlib pairs: no table in {args[0]}")
    if args[1] == "--json":
        with open(args[2]) as f:
            windows = [r.get("window_ns", 0) / 1e9 for r in json.load(f)["results"]]
    else:
        windows = [float(args[1])] * len(rows)
    if len(windows) != len(rows):
        sys.exit(f"benchlib pairs: {len(rows)} table rows but {len(windows)} results")
    prev = start
    for (t, sim, load, *_), win in zip(rows, windows):
        print(f"{sim}\t{load}\t{t - prev:.3f}\t{win:.3f}\t{t - prev - win:.3f}")
        prev = t


def cmd_cv(_args):
    vals = [float(v) for v in sys.stdin.read().split() if v not in ("-", "null", "n/a")]
    if len(vals) < 2:
        print("n/a\tn/a\tn/a")
        return
    mean = sum(vals) / len(vals)
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1))
    cv = f"{100 * sd / mean:.1f}" if mean else "n/a"
    print(f"{mean:.4g}\t{sd:.3g}\t{cv}")


def cmd_footprint(args):
    """Markdown rows: peak VmHWM of main, of the bench processes (direct children of main with
    a timing thread), of the load processes (the other children and
    every deeper descendant); then per pair the timing thread's CPU time over its window."""
    hwm, depth_of, timers, bench_pids = {}, {}, {}, []
    with open(args[0]) as f:
        for line in f:
            kind, *v = line.split("\t")
            if kind == "proc":
                pid, _ppid, depth, kb = (int(x) for x in v)
                hwm[pid] = max(hwm.get(pid, 0), kb)
                depth_of[pid] = depth
            elif kind == "timer":
                pid, tid, ns, slices = (int(x) for x in v)
                timers[(pid, tid)] = (ns, slices)  # the last sample: the thread's so far
                if pid not in bench_pids:
                    bench_pids.append(pid)
    with open(args[1]) as f:
        results = json.load(f)["results"]
    roles = {"main": [p for p, d in depth_of.items() if d == 0],
             "bench processes": bench_pids,
             "load processes": [p for p, d in depth_of.items() if d >= 1 and p not in bench_pids]}
    print("| process | count | peak RSS (VmHWM), MiB |")
    print("| --- | ---: | ---: |")
    for role, pids in roles.items():
        peak = max((hwm[p] for p in pids), default=0)
        print(f"| {role} | {len(pids)} | {peak / 1024:.1f} |")
    print()
    print("| pair | timing thread CPU, ms | window, s | % of one CPU | times run | CPU per run, us |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for pid, r in zip(bench_pids, results):
        ns = sum(v[0] for (p, _), v in timers.items() if p == pid)
        slices = sum(v[1] for (p, _), v in timers.items() if p == pid)
        win = r.get("window_ns", 0) / 1e9
        pct = f"{100 * ns / 1e9 / win:.3f}" if win else "n/a"
        per = f"{ns / 1e3 / slices:.1f}" if slices else "n/a"
        print(f"| {r['simulation']}/{r['load']} | {ns / 1e6:.2f} | {win:.2f} | {pct} | {slices} | {per} |")
    if len(bench_pids) != len(results):
        print(f"\n(note: {len(bench_pids)} bench processes seen, {len(results)} results: "
              "the pairing by order above may be off)")


def load_results(path):
    with open(path) as f:
        return json.load(f)["results"]


def ms(v):
    return "-" if v is None else f"{v / 1e6:.4g}"


def pct(v):
    return "-" if v is None else f"{v / 1e4:.4g}"


FIGS = (("interbench_latency_mean_ns", ms), ("interbench_latency_max_ns", ms),
        ("latency_mean_ns", ms), ("latency_p99_ns", ms), ("latency_max_ns", ms),
        ("desired_cpu_ppm", pct), ("deadlines_met_ppm", pct))


def cmd_figs(args):
    """Per result: sim, load, mode, repeat, then FIGS in ms and % ("-" where absent: a failed
    pair, or a result from before interbench_latency_*)."""
    for r in load_results(args[0]):
        head = [r["simulation"], r["load"], r.get("mode") or "-", str(r["repeat"])]
        print("\t".join(head + [conv(r.get(k)) if "failed" not in r else "-" for k, conv in FIGS]))


def hist_high_ns(low_ns):
    """The largest value in interbench's histogram bucket starting at low_ns (lib/histogram.h:
    one bucket a ns below 128, above that 128 equal buckets per power of two)."""
    if low_ns < 128:
        return low_ns
    return low_ns + (1 << (low_ns.bit_length() - 1 - 7)) - 1


def hist_p99_ns(buckets, max_ns):
    """Nearest-rank p99 of merged [low_ns, count] buckets, as interbench computes it: the upper
    bound of the bucket holding the rank, clamped to the exact max."""
    total = sum(c for _, c in buckets)
    rank, seen = math.ceil(0.99 * total), 0
    for low, c in sorted(buckets):
        seen += c
        if seen >= rank:
            return min(hist_high_ns(low), max_ns)
    return max_ns


def family_samples(r, fam):
    # timer latency has timer_samples; every other definition one sample per period
    return r.get(fam + "_samples", r.get(re.sub("latency$", "", fam) + "samples", r.get("samples")))


def cmd_families(args):
    sim, pooled = args[0], {}
    for path in args[1:]:
        r = next((r for r in load_results(path) if r["simulation"] == sim), None)
        if r is None:
            sys.exit(f"benchlib families: no {sim} result in {path}")
        for key in r:
            if not key.endswith("_mean_ns"):
                continue
            fam = key[:-len("_mean_ns")]
            n = family_samples(r, fam) or 0
            p = pooled.setdefault(fam, {"n": 0, "sum": 0.0, "max": 0, "hist": [], "has_hist": True})
            p["n"] += n
            p["sum"] += r[key] * n
            p["max"] = max(p["max"], r.get(fam + "_max_ns") or 0)
            if fam + "_histogram" in r:
                p["hist"] += r[fam + "_histogram"]
            else:
                p["has_hist"] = False
    for fam, p in pooled.items():
        if p["n"] == 0:
            continue
        p99 = hist_p99_ns(p["hist"], p["max"]) if p["has_hist"] and p["hist"] else None
        print("\t".join(str(x) for x in (fam, p["n"], round(p["sum"] / p["n"]), p99, p["max"])))


def cmd_machine(args):
    with open(args[0]) as f:
        doc = json.load(f)
    m, r = doc["machine"], doc["run"]
    preempt = m["preempt_model"] + (f" ({m['preempt_mode']})" if m.get("preempt_mode") else "")
    print("\t".join(str(x) for x in (m["cpu_model"], m["online_cpus"], m["kernel_release"],
                                     m["kernel_version"], f"{preempt}, from {m['preempt_source']}",
                                     m["clocksource"], m["ram_bytes"] // 2**30, r["loops_per_ms"])))


def cmd_flagged(args):
    with open(args[0]) as f:
        figures = json.load(f)["figures"]
    print(", ".join(f"{x['figure']} ({'worse' if x['worse'] else 'better'})" for x in figures
                    if x.get("answer") == "DIFFERENT"))


# The judged figures of the adaptive window (run/stoprule.h): (stop name, value key, interval
# key, kind) with kind "lat" (ns, relative) or "pt" (ppm, in points).
JUDGED = (("mean", "latency_mean_ns", "latency_mean_ns_ci", "lat"),
          ("p99", "latency_p99_ns", "latency_p99_ns_ci", "lat"),
          ("cpu", "desired_cpu_ppm", "desired_cpu_ppm_ci", "pt"),
          ("met", "deadlines_met_ppm", "deadlines_met_ppm_ci", "pt"))


def judged(r):
    """The judged figures of measured result r: % met only for a task with deadlines."""
    return [j for j in JUDGED if j[0] != "met" or r.get("has_deadlines")]


def within(r, j, win):
    """Whether figure j of r is known to the precision of run.window win (as run/stoprule.c
    decides it from the intervals alone: no interval, or one open above, is not known)."""
    name, key, ci, kind = j
    v, iv = r.get(key), r.get(ci)
    if v is None or iv is None:
        return False
    p = win["precision"]
    if name == "p99" and (iv[1] is None or iv[1] >= r["latency_max_ns"]):
        return False  # open above ([low, null]; before, an upper end at the max: lib/interval.h)
    if kind == "lat":
        tol = max(v * p["latency_%s_pct" % name] / 100, win["latency_floor_ns"])
    else:
        tol = p["desired_cpu_pt" if name == "cpu" else "deadlines_met_pt"] * 1e4
    return v - iv[0] <= tol and iv[1] - v <= tol


def cmd_known(args):
    """FILE [WINDOW_FILE]: one line, tab-separated: pairs measured, judged figures, figures
    known, the stop reasons with their counts, and the seconds the pairs' windows summed to.
    An adaptive run's figures are known as its own stops say; a fixed (-t) run's by its 95 %
    intervals against the precision of WINDOW_FILE's run.window."""
    with open(args[0]) as f:
        doc = json.load(f)
    win = doc["run"].get("window")
    if win is None and len(args) > 1:
        with open(args[1]) as f:
            win = json.load(f)["run"]["window"]
    pairs = figs = known = 0
    reasons, window_s = {}, 0.0
    for r in doc["results"]:
        if "failed" in r:
            continue
        pairs += 1
        window_s += r["window_ns"] / 1e9
        js = judged(r)
        figs += len(js)
        st = r.get("stop", {})
        reasons[st.get("reason", "?")] = reasons.get(st.get("reason", "?"), 0) + 1
        if st.get("looks"):
            known += len(js) - len(st["unknown"])
        else:
            known += sum(within(r, j, win) for j in js)
    print("\t".join(str(x) for x in (pairs, figs, known, ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())),
                                     round(window_s))))


def cmd_verdicts(args):
    """COMPARE_JSON: figures compared, regressions (a figure DIFFERENT and worse, or a row
    compare calls a REGRESSION without a test: more starved repeats), pairs disturbed (an
    entry per side), the regressed figures, and the counts of DIFFERENT, SAME and UNKNOWN."""
    with open(args[0]) as f:
        c = json.load(f)
    figs = c.get("figures", [])
    flagged = [x for x in figs if (x.get("answer") == "DIFFERENT" and x.get("worse")) or x.get("verdict") == "REGRESSION"]
    names = ", ".join(f"{x['simulation']}/{x['load']} {x['figure']}" for x in flagged)
    a = c.get("answers", {})
    print("\t".join(str(x) for x in (len(figs), len(flagged), len(c.get("disturbed", [])), names or "-",
                                     a.get("different", 0), a.get("same", 0), a.get("unknown", 0))))


def pooled(rs, j):
    """The estimate of figure j over every run in rs together: means weighted by samples,
    shares by periods, the p99 from the merged histograms."""
    name, key, _, _ = j
    if name == "p99":
        merged = {}
        for r in rs:
            for low, c in r["latency_histogram"]:
                merged[low] = merged.get(low, 0) + c
        return hist_p99_ns(list(merged.items()), max(r["latency_max_ns"] for r in rs))
    w = [r["samples"] if name == "mean" else r["periods"] for r in rs]
    return sum(r[key] * x for r, x in zip(rs, w)) / max(1, sum(w))


def cmd_coverage(args):
    """SIM LOAD FILE...: per judged figure of SIM/LOAD over the runs in FILEs, a Markdown row:
    runs with an interval, the share of them holding the pooled estimate, the intervals' mean
    width and the runs' spread (sample standard deviation of the figure), and the mean window."""
    sim, load, rs = args[0], args[1], []
    for path in args[2:]:
        rs += [r for r in load_results(path) if r["simulation"] == sim and r["load"] == load and "failed" not in r]
    if not rs:
        print(f"| {sim}/{load} | no run | | | | |")
        return
    win = sum(r["window_ns"] for r in rs) / len(rs) / 1e9
    for j in judged(rs[0]):
        name, key, ci, kind = j
        truth = pooled(rs, j)
        with_ci = [r for r in rs if r.get(ci) is not None and r.get(key) is not None]
        # an interval open above ([low, null]) holds the truth when its low end does
        held = sum(r[ci][0] <= truth and (r[ci][1] is None or truth <= r[ci][1]) for r in with_ci)
        unit = 1e6 if kind == "lat" else 1e4
        widths = [(r[ci][1] - r[ci][0]) / unit for r in with_ci if r[ci][1] is not None]
        vals = [r[key] / unit for r in rs if r.get(key) is not None]
        sd = statistics.stdev(vals) if len(vals) > 1 else float("nan")
        share = f"{100 * held / len(with_ci):.0f} %" if with_ci else "-"
        u = "ms" if kind == "lat" else "points"
        mw = f"{statistics.mean(widths):.3g}" if widths else "-"
        print(f"| {sim}/{load} | {name} | {truth / unit:.4g} | {len(with_ci)} of {len(rs)} | {share} | "
              f"{mw} {u} | {sd:.3g} {u} | {win:.1f} s |")


def cpu_times():
    """(busy, total) jiffies of all CPUs from /proc/stat (idle and iowait are not busy)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]  # guest time is already in user
    return sum(v) - v[3] - v[4], sum(v)


def cmd_busy(_args):
    b0, t0 = cpu_times()
    time.sleep(1)
    b1, t1 = cpu_times()
    print(f"{100 * (b1 - b0) / max(1, t1 - t0):.0f}")


EXPLAIN_FIGS = (("timer_latency_p99_ns", "timer latency p99, ms", ms), ("timer_latency_mean_ns", "timer latency mean, ms", ms),
                ("latency_mean_ns", "sched latency mean, ms", ms), ("latency_p99_ns", "sched latency p99, ms", ms),
                ("deadlines_met_ppm", "% deadlines met", pct), ("desired_cpu_ppm", "% desired CPU", pct))


def cmd_explain(args):
    """Args: NAME OFF.json... -- ON.json...: one Markdown row per figure of EXPLAIN_FIGS, the
    runs without --explain (median, range) and with (median, range), and whether the with-runs'
    median lies within the without-runs' range widened by half of it on each side (the A/A
    spread); then a row of the tracer's CPU (explain.tracer_cpu_ppm, median and max)."""
    name, rest = args[0], args[1:]
    cut = rest.index("--")
    off = [load_results(f)[0] for f in rest[:cut]]
    on = [load_results(f)[0] for f in rest[cut + 1:]]
    for key, label, conv in EXPLAIN_FIGS:
        a = sorted(r[key] for r in off if r.get(key) is not None)
        b = sorted(r[key] for r in on if r.get(key) is not None)
        if not a or not b:
            continue
        ma, mb = a[len(a) // 2], b[len(b) // 2]
        half = (a[-1] - a[0]) / 2
        inside = a[0] - half <= mb <= a[-1] + half
        ratio = f"{mb / ma:.2f}" if ma else "-"
        print(f"| {name} | {label} | {conv(ma)} ({conv(a[0])}-{conv(a[-1])}) | {conv(mb)} ({conv(b[0])}-{conv(b[-1])}) "
              f"| {ratio} | {'yes' if inside else '**no**'} |")
    cpu = sorted(r["explain"]["tracer_cpu_ppm"] for r in on if r.get("explain", {}).get("tracer_cpu_ppm") is not None)
    n = [r["explain"]["explained_periods"] for r in on if "explain" in r]
    if cpu:
        print(f"| {name} | tracer CPU, % of one CPU | - | {cpu[len(cpu) // 2] / 1e4:.4f} (max {cpu[-1] / 1e4:.4f}) "
              f"| - | {'yes' if cpu[-1] < 10000 else '**no**'} (target < 1 %; {sum(n)} periods explained) |")


def cmd_why(args):
    """Args: JSON: the first result's explained periods and the shares of its explained delay, %,
    tab-separated: periods, source, the load's tasks (owners_ns.load, of the delay less carried), the top culprit
    (comm:share), NET_RX softirq, throttled, unexplained."""
    e = load_results(args[0])[0].get("explain") or {}
    d = max(e.get("delay_ns", 0), 1)
    own = max(d - e.get("parts_ns", {}).get("carried", 0), 1)
    cul = e.get("culprits") or []
    load = e.get("owners_ns", {}).get("load", 0)
    top = f"{cul[0]['comm']}:{100 * cul[0]['ns'] / d:.1f}" if cul else "-"
    parts = e.get("parts_ns", {})
    print("\t".join([str(e.get("explained_periods", 0)), e.get("source", "-"), f"{100 * load / own:.1f}", top,
                     f"{100 * e.get('softirq_ns', {}).get('NET_RX', 0) / d:.1f}",
                     f"{100 * parts.get('throttled', 0) / d:.1f}", f"{100 * parts.get('unexplained', 0) / d:.1f}"]))


COMMANDS = {"run": cmd_run, "explain": cmd_explain, "why": cmd_why, "ctstats": cmd_ctstats, "pairs": cmd_pairs, "table": cmd_table, "text": cmd_text,
            "cv": cmd_cv, "footprint": cmd_footprint, "figs": cmd_figs, "families": cmd_families,
            "busy": cmd_busy, "flagged": cmd_flagged, "machine": cmd_machine, "known": cmd_known,
            "verdicts": cmd_verdicts, "coverage": cmd_coverage}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    COMMANDS[sys.argv[1]](sys.argv[2:])
