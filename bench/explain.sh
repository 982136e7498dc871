#!/usr/bin/env bash
# --explain, known answers and cost.  Known answers: one run each, where the cause is set up on
# purpose: X against Burn (the Burn load's threads), the same with the load on the other CPU
# (Burn no longer a cause), Audio against Hack (Hack's threads), Audio at nice 19 on CPU 0 beside
# a UDP flood to the loopback address from CPU 0 (NET_RX softirqs in the flood's time), a realtime Custom task at 99 %
# of its CPU beside Burn on the same CPU (throttled: the fair server lets Burn run).  Cost: the same pairs without and with --explain, alternated RUNS times each in
# one script run: Audio and Custom at 1 ms against None (the timer-latency floor) and X
# against Burn (its figures), with the tracer's own CPU time from the JSON
# (explain.tracer_cpu_ppm, the kernel's BPF run-time statistics).  A figure passes when the
# with-runs' median lies within the without-runs' range widened by half of it on each side
# (their own A/A spread).  Prints a Markdown section.  Run as root.
# Usage: bench/explain.sh [./interbench] [runs (3)] [seconds (10)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup explain.sh "${1:-./interbench}"
runs=${2:-3}
secs=${3:-10}

echo "## --explain"
echo
echo "### Known answers"
echo
echo "One run each, ${secs} s (X: 11 s); shares of the explained delay."
echo
echo "| case | explained periods (source) | load's threads | top culprit | NET_RX | throttled | unexplained | expected | met |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
# answer NAME EXPECT COLUMN OP LEVEL JSON: one row; COLUMN of benchlib why (3 load, 5 NET_RX, 6 throttled)
answer() {
	local name=$1 expect=$2 col=$3 op=$4 level=$5 json=$6 row met
	row=$(bench_lib why "$json")
	met=$(awk -F'\t' -v c="$col" -v op="$op" -v l="$level" '{ v = $c; print (op == ">=" ? v >= l : v < l) ? "yes" : "**no**" }' <<<"$row")
	awk -F'\t' -v n="$name" -v e="$expect" -v m="$met" '{ printf "| %s | %s (%s) | %s %% | %s %% | %s %% | %s %% | %s %% | %s | %s |\n", n, $1, $2, $3, $4, $5, $6, $7, e, m }' <<<"$row"
}
xt=$(( secs < 11 ? 11 : secs ))
bench_run ka-xburn.lines "$bin" -t "$xt" -c --explain -W X -w Burn --json ka-xburn.json
answer "X/Burn" "load >= 80 %" 3 ">=" 80 ka-xburn.json
if [ "$(nproc)" -ge 2 ]; then
	bench_run ka-apart.lines "$bin" -t "$xt" -c --explain -W X -w Burn --bench-cpus 0 --load-cpus 1 --json ka-apart.json
	answer "X/Burn, load on CPU 1" "load < 5 %" 3 "<" 5 ka-apart.json
fi
bench_run ka-hack.lines "$bin" -t "$secs" -c --explain --explain-threshold 100us -W Audio -w Hack --json ka-hack.json
answer "Audio/Hack" "load >= 50 %" 3 ">=" 50 ka-hack.json
# the flood: UDP datagrams to 127.0.0.1 from CPU 0 for the run's length (and calibration's)
taskset -c 0 python3 "$bench_dir/../tests/lib/udpflood.py" $((secs + 3)) &
fpid=$!
bench_run ka-netrx.lines "$bin" -t "$secs" -c --explain --explain-threshold 200us -W Audio -w None -B 19 --bench-cpus 0 --load-cpus 0 --json ka-netrx.json
wait "$fpid" || true
bench_show "(beside: taskset -c 0 tests/lib/udpflood.py $((secs + 3)), a UDP flood to 127.0.0.1 from CPU 0)"
answer "Audio at nice 19 on CPU 0 beside a loopback UDP flood (threshold 200us)" "NET_RX > 0" 5 ">=" 0.1 ka-netrx.json
bench_run ka-throttle.lines "$bin" -t "$secs" -c -r --explain -W Custom -I 10000 -C 99 -w Burn --bench-cpus 0 --load-cpus 0 --json ka-throttle.json
answer "Custom 99 % SCHED_FIFO beside Burn on CPU 0" "throttled > 0" 6 ">=" 0.1 ka-throttle.json
echo
echo "### Cost"
cases=("Audio/None:-W Audio -w None" "Custom 1 ms/None:-W Custom -I 1000 -C 10 -w None" "X/Burn:-W X -w Burn")

echo
echo "Each pair ${runs} times without and ${runs} times with \`--explain\`, alternated, ${secs} s each"
echo "(X/Burn: 11 s, one whole sweep).  Median (range) of each figure; \"within\" says whether the"
echo "with-runs' median lies inside the without-runs' range widened by half of it on each side."
echo
echo "| pair | figure | without | with | ratio | within |"
echo "| --- | --- | --- | --- | --- | --- |"
k=0
for c in "${cases[@]}"; do
	name=${c%%:*}
	read -r -a args <<<"${c#*:}"
	t=$secs
	[ "$name" = X/Burn ] && [ "$t" -lt 11 ] && t=11
	off=() on=()
	for ((r = 1; r <= runs; r++)); do
		k=$((k + 1))
		bench_run "off$k.lines" "$bin" -t "$t" -c "${args[@]}" --json "off$k.json"
		off+=("off$k.json")
		bench_run "on$k.lines" "$bin" -t "$t" -c --explain "${args[@]}" --json "on$k.json"
		on+=("on$k.json")
	done
	bench_lib explain "$name" "${off[@]}" -- "${on[@]}"
done
bench_commands
