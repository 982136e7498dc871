#!/usr/bin/env bash
# Reproducibility: Audio and X against Burn, RUNS separate runs, each figure's coefficient of
# variation (sample SD / mean) over the runs; with $IB031 (interbench 0.31's binary, see
# bench/interbench031.sh) its runs alternate with ours, and its figures (read from its table:
# it prints no p99) stand beside.  Also the first run's classic tables of both, and the Burn
# pairs' overhead at this length.  Prints a Markdown section.  Run as root.
# Usage: bench/reproducibility.sh [./interbench] [runs (5)] [seconds (10: one whole X sweep,
# and the shortest interbench 0.31 runs)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup reproducibility.sh "${1:-./interbench}"
runs=${2:-5}
secs=${3:-10}
args=(-t "$secs" -c -W Audio -W X -w Burn)
have031=no
bench_ib031 && have031=yes

for i in $(seq 1 "$runs"); do
	bench_run "rep-$i.lines" "$bin" "${args[@]}" --json "rep-$i.json"
	bench_lib figs "rep-$i.json" | awk -F'\t' -v OFS='\t' '{ print $1 "/" $2, $5, $6, $7, $8, $9, $10, $11 }' >>ours.tsv
	bench_lib pairs "rep-$i.lines" --json "rep-$i.json" | cut -f5 >>ours-ovh
	if [ $have031 = yes ]; then
		bench_run031 "rep031-$i.lines" "${args[@]}"
		bench_lib table "rep031-$i.lines" | awk -F'\t' -v OFS='\t' '{ print $1 "/" $2, $3, $4, "-", "-", "-", $5, $6 }' >>031.tsv
		bench_lib pairs "rep031-$i.lines" "$secs" | cut -f5 >>031-ovh
	fi
done

echo "## Reproducibility"
echo
echo "$runs runs of \`${args[*]}\`$([ $have031 = yes ] && echo ", alternating with interbench 0.31's") (-t $secs: one whole X sweep;"
echo "interbench 0.31 runs no shorter).  Each cell: the mean over the runs, then the coefficient of"
echo "variation (sample SD / mean).  Latency in interbench 0.31's definition (a period added per"
echo "missed one) is our JSON's \`interbench_latency_*\` (\"-\" from builds before it) and 0.31's"
echo "table; scheduling latency (timing thread to task) is our \`latency_*\`; 0.31 prints neither"
echo "it nor any p99."
[ $have031 = yes ] || echo "interbench 0.31: not run (${IB031_WHY:-IB031 not set: bench/run.sh builds it})."
echo
names=("mean latency (0.31's definition), ms" "max latency (0.31's definition), ms"
	"mean scheduling latency, ms" "p99 scheduling latency, ms" "max scheduling latency, ms"
	"% desired CPU" "% deadlines met")
# cell FILE PAIR COLUMN: "mean (CV x%)" over the runs, or n/a.
cell() {
	[ -s "$1" ] || { echo "n/a"; return; }
	local mean _sd cv
	read -r mean _sd cv < <(awk -F'\t' -v p="$2" -v c="$3" '$1 == p { print $c }' "$1" | bench_lib cv)
	if [ "$mean" = n/a ]; then echo "n/a"; else echo "$mean (CV $cv%)"; fi
}
# values FILE PAIR COLUMN: every run's value, "a / b / ...".
values() {
	[ -s "$1" ] || { echo "n/a"; return; }
	awk -F'\t' -v p="$2" -v c="$3" '$1 == p { s = s (s == "" ? "" : " / ") $c } END { print s }' "$1"
}
# figure_table CELL ALIGN: one row per pair and figure, CELL (cell or values) of both programs.
figure_table() {
	echo "| pair | figure | interbench | interbench 0.31 |"
	echo "| --- | --- | $2 | $2 |"
	local pair k
	for pair in Audio/Burn X/Burn; do
		for k in "${!names[@]}"; do
			echo "| $pair | ${names[$k]} | $($1 ours.tsv "$pair" $((k + 2))) | $($1 031.tsv "$pair" $((k + 2))) |"
		done
	done
}
figure_table cell ---:
echo
echo "Every run's values:"
echo
figure_table values ---
echo
ovh() { [ -s "$1" ] && bench_lib cv <"$1" | awk '{ printf "mean %.3f s, SD %s s", $1, $2 }' || echo "n/a"; }
echo "Overhead per pair in these runs (as in the overhead section): interbench $(ovh ours-ovh); interbench 0.31 $(ovh 031-ovh)."
echo
echo "### The first run's tables"
echo
echo "interbench:"
echo
echo '```'
bench_lib text rep-1.lines
echo '```'
if [ $have031 = yes ]; then
	echo
	echo "interbench 0.31, the run just after:"
	echo
	echo '```'
	bench_lib text rep031-1.lines
	echo '```'
fi
bench_commands
