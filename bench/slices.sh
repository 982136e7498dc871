#!/usr/bin/env bash
# EEVDF slices, a known answer: Audio and Video against Burn with the task's slice at 100 us
# and at 3000 us (--bench-slice 100,3000; Linux 6.12 and later keep a task's slice).  A shorter
# slice gives the waking task an earlier virtual deadline, so it should preempt Burn sooner:
# its scheduling latency p99 lower.  One run, the two settings in turn; each figure
# with its 95 % interval from the run itself.  Prints a Markdown section.  Run as root.
# Usage: bench/slices.sh [./interbench] [seconds (10)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup slices.sh "${1:-./interbench}"
secs=${2:-10}

bench_run sl.lines "$bin" -t "$secs" -c -W Audio -W Video -w Burn --bench-slice 100,3000 --json sl.json
echo "## EEVDF slices"
echo
echo "Audio and Video against Burn, the task's slice 100 us and 3000 us, ${secs} s each; the"
echo "answer expected: the shorter slice gives the lower scheduling latency p99."
echo
python3 - sl.json <<'PY'
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
def ms(v):
    return f"{v / 1e6:.3g}"
print("| task | slice asked (kept), us | sched latency p99, ms [95 % CI] | mean, ms | % deadlines met | expected | met |")
print("| --- | --- | --- | --- | --- | --- | --- |")
by = {}
for r in rs:
    s = r["bench_setting"]
    by.setdefault(r["simulation"], []).append((s["slice_us"], s["slice_kept_us"], r))
for sim, rows in by.items():
    rows.sort(key=lambda x: x[0])
    p99 = [x[2]["latency_p99_ns"] for x in rows]
    for i, (asked, kept, r) in enumerate(rows):
        ci = r.get("latency_p99_ns_ci") or [None, None]
        ci_s = (f" [{ms(ci[0])}-{ms(ci[1])}]" if ci[1] is not None else f" [>= {ms(ci[0])}, open above]") \
            if ci[0] is not None else ""
        met = "-" if i else ("yes" if p99[0] < p99[-1] else "**no**")
        exp = "lower p99 than the longest" if i == 0 else "-"
        print(f"| {sim} | {asked} ({kept}) | {ms(r['latency_p99_ns'])}{ci_s} | {ms(r['latency_mean_ns'])} "
              f"| {r['deadlines_met_ppm'] / 1e4:.1f} | {exp} | {met} |")
PY
bench_commands
