#!/usr/bin/env bash
# How close each simulated task's CPU use is to what it asks for, measured from outside
# interbench's own accounting: during a run against no load, the simulated
# thread (named "ib-task" by the engine) is found under /proc, and its CPU time is read from
# /proc/<pid>/task/<tid>/schedstat (first field: ns on a CPU) at the start and the end of a
# window inside the run; its share of the wall time is set against the request, in percentage
# points (target: within 1).  The task's own figure (JSON task_cpu_ppm, from its CPU clock over
# its whole run) is shown beside it.  X's request changes every frame, but any window of one
# whole sweep (101 frames of 100 ms, 0..100 % in 1 % steps) asks for 50 % exactly, wherever it
# starts, as long as no frame is dropped (none is against no load): its window is 10.1 s.
# Run as root on a quiet machine.  Usage: bench/cpu-emulation.sh [./interbench] [window-seconds]
set -euo pipefail
bin=$(realpath "${1:-./interbench}")
win=${2:-6}
tmp=$(mktemp -d /tmp/interbench-cpuemu.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cases=("Audio|5|-W Audio" "Video|40|-W Video"
       "Custom 10% of 10 ms|10|-W Custom -C 10 -I 10000" "Custom 25% of 10 ms|25|-W Custom -C 25 -I 10000"
       "Custom 50% of 10 ms|50|-W Custom -C 50 -I 10000" "Custom 75% of 10 ms|75|-W Custom -C 75 -I 10000"
       "Custom 25% of 50 ms|25|-W Custom -C 25 -I 50000" "Custom 75% of 50 ms|75|-W Custom -C 75 -I 50000"
       "X, one whole sweep|50|-W X|10.1")
echo "| task | requested % | measured from outside % | difference (pt) | the task's own (JSON) % |"
echo "| --- | ---: | ---: | ---: | ---: |"
for c in "${cases[@]}"; do
	IFS='|' read -r name want args cwin <<<"$c"
	cwin=${cwin:-$win}
	# shellcheck disable=SC2086
	"$bin" -t "$(awk -v w="$cwin" 'BEGIN { printf "%d", w + 3.99 }')" -c -q -w None $args --json run.json >run.out 2>&1 &
	run=$!
	python3 - "$want" "$cwin" "$run" "$name" <<'PY'
import glob, json, os, sys, time
want, win, run, name = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def task():
    for comm in glob.glob("/proc/[0-9]*/task/[0-9]*/comm"):
        try:
            if open(comm).read().strip() == "ib-task":
                return comm[:-4] + "schedstat"
        except OSError:
            pass
    return None
deadline = time.time() + 20
path = None
while not path and time.time() < deadline:   # wait for the state: the task exists
    path = task()
    time.sleep(0.05)
if not path:
    print(f"| {name} | {want:g} | (no ib-task thread found) | | |")
    sys.exit(0)
time.sleep(0.5)                              # past the first periods
c0, t0 = int(open(path).read().split()[0]), time.monotonic()
time.sleep(win)
c1, t1 = int(open(path).read().split()[0]), time.monotonic()
got = (c1 - c0) / ((t1 - t0) * 1e9) * 100
print(f"| {name} | {want:g} | {got:.2f} | {got - want:+.2f} |", end="", flush=True)
PY
	wait "$run" || true
	# the task's own share over its whole run, and what its periods asked for when that is not
	# the request (X's run is longer than its sweep)
	python3 - "$want" <<'PY' 2>/dev/null || echo " |"
import json, sys
r = json.load(open("run.json"))["results"][0]
own, asked = r["task_cpu_ppm"] / 1e4, r["task_cpu_wanted_ppm"] / 1e4
print(f" {own:.2f}" + (f" (its periods asked {asked:.2f})" if abs(asked - float(sys.argv[1])) > 0.05 else "") + " |")
PY
done
echo
echo "Command: \`bench/cpu-emulation.sh $bin $win\` ($(date -u +%Y-%m-%d), $(uname -r), $(nproc) CPUs)."
