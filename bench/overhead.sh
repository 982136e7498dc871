#!/usr/bin/env bash
# Overhead per pair: the wall time a pair costs beyond its measured window (starting the load,
# waiting for it to load, stopping both, printing).  A pair's wall time runs from the previous
# table row (the first: from the "Benchmarking kernel" line, after calibration) to its own row,
# timestamped as the run prints them; its window is the JSON window_ns (interbench 0.31: its
# -t 10, the shortest it runs, its fixed 1 s ramp-up counting as overhead).
# CPU loads and the disk/memory loads are run separately.  Prints a Markdown section.
# Run as root.  Usage: bench/overhead.sh [./interbench] [seconds (2)]
# With $IB031 (interbench 0.31's binary, see bench/interbench031.sh), it runs beside.
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup overhead.sh "${1:-./interbench}"
secs=${2:-2}
cpu_loads=(None Burn Ring Hack Video)
disk_loads=(Write Read Compile Memload)
sizes=(--file-size 256M --mem-size 1G)

echo "## Overhead per pair"
echo
echo "Audio against each load, ${secs} s windows; disk/memory loads with \`${sizes[*]}\`."
echo "Per pair: wall time from the previous table row (the first: from the \"Benchmarking kernel\""
echo "line) to its row, minus its window.  Per run: from the \"Benchmarking kernel\" line to the"
echo "process's exit (preparing files, every pair, exit) minus the sum of windows, per pair;"
echo "start-up: from exec to that line (calibration, from the cache when it holds one)."
echo

# overhead_rows WHO LINES WINDOW...: the per-pair table rows (WINDOW: seconds, or --json FILE,
# as benchlib pairs takes it); sets run_total (s per pair).
overhead_rows() {
	local who=$1 lines=$2 sim load wall win ovh sum=0 n=0
	shift 2
	while IFS=$'\t' read -r sim load wall win ovh; do
		echo "| $who | $sim/$load | $wall | $win | **$ovh** |"
		sum=$(awk -v a="$sum" -v b="$win" 'BEGIN { print a + b }')
		n=$((n + 1))
	done < <(bench_lib pairs "$lines" "$@")
	local start end
	start=$(awk -F'\t' '$2 ~ /^Benchmarking kernel/ { print $1; exit }' "$lines")
	end=$(awk -F'\t' '$1 == "#exit" { print $2 }' "$lines")
	run_total=$(awk -v b="$start" -v e="$end" -v s="$sum" -v n="$n" 'BEGIN { printf "%.3f s per pair, start-up %.3f s", (e - b - s) / n, b }')
}

declare -A per_run
run_ours() {
	local kind=$1
	shift
	local loads=() l
	for l in "$@"; do loads+=(-w "$l"); done
	local extra=()
	[ "$kind" = disk ] && extra=("${sizes[@]}")
	bench_run "ovh-$kind.lines" "$bin" -t "$secs" -c -W Audio "${loads[@]}" "${extra[@]}" --json "ovh-$kind.json"
}
run_ours cpu "${cpu_loads[@]}"
run_ours disk "${disk_loads[@]}"
have031=no
if bench_ib031; then
	have031=yes
	bench_run031 ovh-031.lines -t 10 -c -W Audio -w None -w Burn -w Ring -w Video
fi

echo "| program | pair | wall, s | window, s | overhead, s |"
echo "| --- | --- | ---: | ---: | ---: |"
overhead_rows interbench ovh-cpu.lines --json ovh-cpu.json
per_run[cpu]=$run_total
cpu_max=$(bench_lib pairs ovh-cpu.lines --json ovh-cpu.json | sort -t$'\t' -k5 -g | tail -1 | cut -f5)
overhead_rows interbench ovh-disk.lines --json ovh-disk.json
per_run[disk]=$run_total
if [ $have031 = yes ]; then
	overhead_rows "interbench 0.31" ovh-031.lines 10
	per_run[031]=$run_total
fi
echo
echo "Whole runs: CPU loads ${per_run[cpu]}; disk/memory loads ${per_run[disk]}${per_run[031]:+; interbench 0.31 (None, Burn, Ring, Video) ${per_run[031]}}."
[ $have031 = yes ] || echo "interbench 0.31: not run (${IB031_WHY:-IB031 not set: bench/run.sh builds it}); Hack is disabled in its last version, so it has no Hack row."
verdict=$(awk -v m="$cpu_max" 'BEGIN { print (m < 0.3) ? "met" : "not met" }')
bench_target "overhead under 0.3 s per pair for CPU loads (largest of ${cpu_loads[*]})" "${cpu_max} s" "$verdict"
bench_commands
