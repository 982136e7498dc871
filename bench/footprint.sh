#!/usr/bin/env bash
# Footprint: peak RSS (VmHWM) of interbench's main process, its bench processes and its load
# processes, and the CPU time its timing thread itself uses per pair (the first field of
# /proc/PID/task/TID/schedstat), sampled every 50 ms through a run of Audio and X against
# None, Burn and Hack.  The bench process of a pair is the child of main with a timing thread
# (named ib-timer, or in builds before thread names the one at SCHED_FIFO 98, as root); loads
# that run a simulated task (Video, X) would look like one, so none is used here.  Prints a
# Markdown section.  Run as root.  Usage: bench/footprint.sh [./interbench] [seconds (2)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup footprint.sh "${1:-./interbench}"
secs=${2:-2}

bench_run --sample fp.sample fp.lines "$bin" -t "$secs" -c -q -W Audio -W X -w None -w Burn -w Hack --json fp.json
maxrss=$(awk -F'\t' '$1 == "#exit" { print $4 }' fp.lines)

echo "## Footprint"
echo
echo "One run, ${secs} s pairs; /proc sampled every 50 ms (a timing thread's CPU time is its last"
echo "sample, so up to 50 ms of its end may be missing: it sleeps most of that)."
echo
bench_lib footprint fp.sample fp.json
echo
echo "Cross-check: the largest ru_maxrss of the run and every process it reaped (getrusage"
echo "RUSAGE_CHILDREN after it exited): $(awk -v k="$maxrss" 'BEGIN { printf "%.1f", k / 1024 }') MiB."
bench_commands
