#!/usr/bin/env bash
# The floor: how far interbench's latency on an idle machine is from the kernel's own wake-up
# latency.  A realtime (-r) run of Audio (50 ms period) and a 1 ms Custom task against no load,
# beside cyclictest at the timing thread's SCHED_FIFO priority (98, one below main's 99; -r
# tasks run at 97) with the same intervals and duration -- once with deep idle states allowed
# (cyclictest --laptop; interbench's default) and once with a 0 us CPU wakeup latency limit held
# (cyclictest's default, interbench --dma-latency 0).  cyclictest measures timer latency (the
# timer's expiry to its thread running): interbench's timer latency is the same measure;
# scheduling latency is the further hop from the timing thread to the task.
# Prints a Markdown section.  Run as root.
# Audio runs 3 x as long as Custom, so that its p99 rests on about 600 samples, not 200.  Each
# side runs in BENCH_FLOOR_ROUNDS (5) alternating rounds, its samples pooled (see below).
# The target is judged on the like-for-like figure, timer latency; the others are shown beside.
# Usage: bench/vs-cyclictest.sh [./interbench] [seconds for Custom (10)] [Custom % CPU (10)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup vs-cyclictest.sh "${1:-./interbench}"
secs=${2:-10}
custom_pct=${3:-10}
prio=98
rounds=${BENCH_FLOOR_ROUNDS:-5}

# floor_ct LINES: one cyclictest round with ctargs into LINES, added to ctlines.
floor_ct() {
	bench_show cyclictest "${ctargs[@]}"
	bench_exec "$1" "$tmp/cyclictest" "${ctargs[@]}"
	ctlines+=("$1")
}

echo "## Floor: interbench against cyclictest"
echo
if ! command -v cyclictest >/dev/null; then
	echo "Skipped: cyclictest is not installed (\`make deps\` installs it; Debian: \`apt-get install rt-tests\`)."
	bench_target "floor within 1.2x of cyclictest (mean, p99)" "not measured" "skipped: no cyclictest"
	exit 0
fi
# A copy, so that the section survives the package being removed meanwhile (a test of
# `make deps` on a shared machine does that).
cp "$(command -v cyclictest)" "$tmp/cyclictest"
echo "Both idle-state settings; Custom ${secs} s, Audio $((3 * secs)) s (about 600 samples) a side, in $rounds rounds of"
echo "interbench then cyclictest (every other round cyclictest first), each side's samples pooled over"
echo "the rounds, so that a burst of other work on this shared machine falls on both sides alike."
echo "cyclictest at SCHED_FIFO $prio, \`-m\` (mlockall, as"
echo "interbench main), one thread, \`-v -N\` (every sample in ns: its mean, p99 (nearest rank) and"
echo "max are computed from them).  interbench's p99 is the upper bound of its histogram bucket, at"
echo "most 1/128 above the exact value.  Ratio = interbench / cyclictest.  interbench's figures"
echo "(doc/json.md): **timer_latency** (deadline to timing thread awake) is cyclictest's measure,"
echo "like for like; **lateness** (the period's nominal start to the task running) is the end to"
echo "end one a task sees, one wake-up more; **latency** is scheduling latency, the timing thread"
echo "to task hop alone; **interbench_latency** is interbench 0.31's (plus a period per missed one)."
echo "A build without one of them has no row for it; a p99 shows only where the JSON holds the"
echo "histogram to pool (latency, timer_latency).  The cyclictest A/A rows set cyclictest's even"
echo "rounds against its odd ones: how far apart this criterion puts two measurements of the same"
echo "thing on this machine."
echo

# Each (idle setting, task) is measured in $rounds rounds of interbench then cyclictest (every
# other round cyclictest first), and each side's samples pooled, so that a burst of other work on
# this shared machine (a stalled vCPU, a neighbour's job) falls on both sides alike rather than
# on whichever ran during it.  cyclictest's figures: samples, mean, p99, max (ns).
declare -A ct cta ibjson
for hold in no yes; do
	for sim in Audio Custom; do
		if [ $sim = Audio ]; then
			iv=50000 d=$((3 * secs / rounds)) ib=(-W Audio)
		else
			iv=1000 d=$((secs / rounds)) ib=(-W Custom -C "$custom_pct" -I 1000)
		fi
		((d >= 1)) || d=1
		ctargs=(-m -p "$prio" -D "$d" -q -v -N -i "$iv")
		[ $hold = yes ] || ctargs+=(--laptop)
		ctlines=() ibjson[$hold-$sim]=''
		for ((k = 0; k < rounds; k++)); do
			json=floor-$hold-$sim-$k.json
			ibargs=(-t "$d" -r -c -q "${ib[@]}" -w None --json "$json")
			[ $hold = no ] || ibargs+=(--dma-latency 0)
			if ((k % 2)); then floor_ct "ct-$hold-$iv-$k.lines"; fi
			bench_run "floor-$hold-$sim-$k.lines" "$bin" "${ibargs[@]}"
			if ((k % 2 == 0)); then floor_ct "ct-$hold-$iv-$k.lines"; fi
			ibjson[$hold-$sim]+=" $json"
		done
		ct[$hold-$iv]=$(bench_lib ctstats "${ctlines[@]}")
		# A/A: cyclictest's odd rounds against its even ones, the criterion's own noise here
		even=() odd=()
		for ((k = 0; k < rounds; k++)); do
			if ((k % 2)); then odd+=("${ctlines[k]}"); else even+=("${ctlines[k]}"); fi
		done
		((${#odd[@]})) && cta[$hold-$iv]="$(bench_lib ctstats "${odd[@]}")	$(bench_lib ctstats "${even[@]}")"
	done
done

us() { awk -v v="$1" 'BEGIN { if (v == "" || v == "None") print "-"; else printf "%.1f", v / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || a == "None" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }

echo "| idle states | task (interval) | measured by | figure | samples | mean, us | p99, us | max, us | ratio mean | ratio p99 | ratio max |"
echo "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
declare -A worst_mean worst_p99 # per figure: the largest ratio over the four
max_of() { awk -v a="$1" -v b="$2" 'BEGIN { print (b != "-" && b + 0 > a + 0) ? b : a }'; }
# spread A B: the larger of A/B and B/A (how far apart two measurements of one thing are)
spread() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 == 0 || b + 0 == 0) print "-"; else printf "%.2f", (a + 0 > b + 0 ? a / b : b / a) }'; }
aa_mean=0 aa_p99=0
for hold in no yes; do
	label="deep idle allowed"
	[ $hold = yes ] && label="dma-latency 0 held"
	for sim in Audio Custom; do
		iv=50000
		[ $sim = Custom ] && iv=1000
		read -r cn cmean cp99 cmax <<<"${ct[$hold-$iv]}"
		echo "| $label | $sim ($((iv / 1000)) ms) | cyclictest | timer latency (its only) | $cn | $(us "$cmean") | $(us "$cp99") | $(us "$cmax") | 1 | 1 | 1 |"
		if [ -n "${cta[$hold-$iv]:-}" ]; then
			read -r on omean op99 _ en emean ep99 _ <<<"${cta[$hold-$iv]}"
			sm=$(spread "$omean" "$emean") sp=$(spread "$op99" "$ep99")
			echo "| $label | $sim ($((iv / 1000)) ms) | cyclictest A/A | its even rounds / odd rounds, the larger way | $en / $on | $(us "$emean") / $(us "$omean") | $(us "$ep99") / $(us "$op99") | - | $sm | $sp | - |"
			aa_mean=$(max_of "$aa_mean" "$sm") aa_p99=$(max_of "$aa_p99" "$sp")
		fi
		while IFS=$'\t' read -r fam n mean p99 max; do
			rm_=$(ratio "$mean" "$cmean") rp=$(ratio "$p99" "$cp99")
			echo "| $label | $sim ($((iv / 1000)) ms) | interbench | $fam | $n | $(us "$mean") | $(us "$p99") | $(us "$max") | $rm_ | $rp | $(ratio "$max" "$cmax") |"
			worst_mean[$fam]=$(max_of "${worst_mean[$fam]:-0}" "$rm_")
			worst_p99[$fam]=$(max_of "${worst_p99[$fam]:-0}" "$rp")
		# shellcheck disable=SC2086 # the list of JSON files, names without spaces
		done < <(bench_lib families "$sim" ${ibjson[$hold-$sim]})
	done
done
echo
echo "Worst ratio over the four runs (target: within 1.2x of cyclictest's mean and p99, judged on"
echo "timer_latency, cyclictest's own measure; the others measure more than cyclictest does and are"
echo "shown for what they add: latency the hop from the timing thread to the task, lateness both)."
echo
for fam in "${!worst_mean[@]}"; do
	m=${worst_mean[$fam]} p=${worst_p99[$fam]}x
	[ "$p" = 0x ] && p="n/a (no p99 in this definition)"
	if [ "$fam" = timer_latency ]; then
		verdict=$(awk -v m="$m" -v p="$p" 'BEGIN { print (m <= 1.2 && (p + 0 <= 1.2)) ? "met" : "not met" }')
		bench_target "floor within 1.2x of cyclictest's mean and p99: interbench timer_latency, like for like (worst of 4)" "mean ${m}x, p99 $p" "$verdict"
	else
		verdict="shown, not judged"
		bench_target "floor beside cyclictest: interbench $fam (worst of 4)" "mean ${m}x, p99 $p" "$verdict"
	fi
	echo "- $fam: mean ${m}x, p99 $p: $verdict"
done
if [ "$aa_mean" != 0 ]; then
	echo "- cyclictest against itself (A/A: its even rounds against its odd ones, each about half the"
	echo "  samples, so somewhat noisier than the full comparison): mean ${aa_mean}x, p99 ${aa_p99}x, the"
	echo "  spread this criterion shows on this machine when nothing differs"
	bench_target "floor: cyclictest against itself, even rounds against odd (A/A, worst of 4, the criterion's noise)" "mean ${aa_mean}x, p99 ${aa_p99}x" "shown, not judged"
fi
bench_commands
