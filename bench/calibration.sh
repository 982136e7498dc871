#!/usr/bin/env bash
# How long calibration takes and how reproducible and accurate loops_per_ms is: recalibrates
# N times (-b, into a scratch calibration cache), timing each from the start of the run to the
# "Using N loops per ms" line, and after each runs Gaming against no load, whose % desired
# CPU is the CPU work a 100 ms frame of calibrated loops really took (100 = the calibration
# matches sustained speed).  Prints a Markdown section.  Run as root on a quiet machine.
# Usage: bench/calibration.sh [./interbench] [N (5)] [seconds of Gaming (3)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup calibration.sh "${1:-./interbench}"
n=${2:-5}
secs=${3:-3}
export XDG_CACHE_HOME=$tmp/calibration-cache # never the shared cache: each run recalibrates
mkdir -p "$XDG_CACHE_HOME"

echo "## Calibration"
echo
echo "$n calibrations (\`-b\`), each followed by ${secs} s of Gaming against None in the same run."
echo "Time: from the run's start to its \"Using N loops per ms\" line (exec and start-up included)."
echo
echo "| run | loops_per_ms | calibration, s | Gaming % desired CPU |"
echo "| ---: | ---: | ---: | ---: |"
: >lpms
: >secs
for i in $(seq 1 "$n"); do
	bench_run "calib-$i.lines" "$bin" -b -t "$secs" -c -W Gaming -w None
	read -r t lpms < <(awk -F'\t' '$2 ~ /^Using [0-9]+ loops per ms/ { split($2, w, " "); print $1, w[2]; exit }' "calib-$i.lines")
	cpu=$(bench_lib table "calib-$i.lines" | awk -F'\t' '$2 == "None" { print $5 }')
	printf '| %s | %s | %.3f | %s |\n' "$i" "$lpms" "$t" "$cpu"
	echo "$lpms" >>lpms
	echo "$t" >>secs
done
echo
sort -n lpms | awk '{ v[NR] = $1 } END { printf "loops_per_ms: min %d, max %d, spread (max - min) / min = %.2f%%; ", v[1], v[NR], (v[NR] - v[1]) * 100 / v[1] }'
read -r mean sd cv < <(bench_lib cv <lpms)
echo "mean $mean, SD $sd, CV ${cv}%."
sort -n secs | awk '{ v[NR] = $1; s += $1 } END { printf "\nCalibration time: mean %.3f s, min %.3f s, max %.3f s.\n", s / NR, v[1], v[NR] }'
bench_commands
