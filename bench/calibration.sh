#!/usr/bin/env bash
# How reproducible and how accurate loops_per_ms is: recalibrates N times, and after each
# runs Gaming against no load, whose % desired CPU is the CPU work a 100 ms frame of
# calibrated loops really took (100 = the calibration matches sustained speed).
# Run as root on a quiet machine.  Usage: bench/calibration.sh [./interbench] [N]
set -euo pipefail
bin=$(realpath "${1:-./interbench}")
n=${2:-5}
tmp=$(mktemp -d /tmp/interbench-calib.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp"
printf '%-4s %14s %18s\n' run loops_per_ms "Gaming % CPU"
for i in $(seq 1 "$n"); do
	out=$("$bin" -b -t 3 -c -W Gaming -w None 2>&1)
	lpms=$(echo "$out" | awk '/^Using/ {print $2}')
	cpu=$(echo "$out" | awk '$1 == "None" {print $6}')
	printf '%-4s %14s %18s\n' "$i" "$lpms" "$cpu"
	echo "$lpms" >>"$tmp/lpms"
done
sort -n "$tmp/lpms" | awk '{v[NR] = $1} END {printf "spread: min %d max %d (%.2f%%)\n", v[1], v[NR], (v[NR] - v[1]) * 100 / v[1]}'
