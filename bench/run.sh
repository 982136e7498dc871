#!/usr/bin/env bash
# The benchmark suite behind `make bench` (about 13 minutes on 2 CPUs; not part of `make
# check`): measures interbench beside cyclictest and interbench 0.31 in one run and writes
# OUT (default bench/RESULTS.md) with the date, the machine and the command behind every
# figure.  Sections, each its own script (run alone they print their section): the floor
# against cyclictest (vs-cyclictest.sh), CPU emulation accuracy (cpu-emulation.sh),
# calibration, overhead per pair, reproducibility, known answers, footprint; with
# BENCH_VERDICTS=1 the verdicts too (verdicts.sh: time to a verdict without -t, A/A false
# alarms, coverage of the intervals, known answers from one run a side; about 45 minutes).
# interbench 0.31 is built from source into the scratch directory (interbench031.sh:
# $IB031_SRC, $IB031_REF); without it its columns say why they are empty.  A section that
# fails is reported in OUT and the suite goes on (exit status 1 at the end); when the suite is
# interrupted, what it has goes to OUT with ".partial" added, OUT left as it was.
# BENCH_QUICK=1 shortens every run to check the suite itself in about 3 minutes (figures then
# mean little; RESULTS.md says so).
# Run as root, on a quiet machine.  Usage: bench/run.sh [./interbench] [OUT]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
out=$(realpath -m "${2:-$bench_dir/RESULTS.md}")
bench_setup run.sh "${1:-./interbench}"
export BENCH_CACHE=$tmp/cache BENCH_TARGETS=$tmp/targets
: >"$BENCH_TARGETS"
suite_start=$(date +%s)
# Run lengths (s) and counts: floor, calibrations and their Gaming, overhead, reproducibility
# runs and length, known answers' X and Audio lengths and repeats, footprint.
if [ -n "${BENCH_QUICK:-}" ]; then
	floor_s=2 calib_n=2 calib_s=1 ovh_s=1 rep_n=2 rep_s=10 known_x_s=2 known_audio_s=1 known_n=4 fp_s=1
	cpu_args=(2) # cpu-emulation.sh's window, s
else
	floor_s=10 calib_n=5 calib_s=3 ovh_s=2 rep_n=5 rep_s=10 known_x_s=6 known_audio_s=3 known_n=5 fp_s=2
	cpu_args=() # its default
fi
sections=()   # the section files, in order
failed=0
finished=no

# The sections so far, as OUT or (unfinished) OUT.partial; called at exit.
# shellcheck disable=SC2317 # run by the EXIT trap
assemble() {
	local dest=$out
	[ "$finished" = yes ] || dest=$out.partial
	[ -f header.md ] || return 0
	{
		cat header.md
		echo "- Load at the end: $(cut -d' ' -f1-3 /proc/loadavg); CPUs $(bench_lib busy)% busy over the second after"
		echo
		echo "Caveat: other work may have been running on this machine at the same time (see the load"
		echo "above); figures are for comparing side by side within this run, not absolute."
		[ "$finished" = yes ] || printf '\n**Incomplete: the suite was interrupted or stopped; the sections below are all it finished.**\n'
		echo
		echo "## Targets"
		echo
		echo "| target | this run | verdict |"
		echo "| --- | --- | --- |"
		cat "$BENCH_TARGETS"
		echo
		echo "| section | seconds |"
		echo "| --- | ---: |"
		cat timings
		echo "| whole suite | $(($(date +%s) - suite_start)) |"
		local s
		for s in "${sections[@]}"; do
			echo
			cat "$s"
		done
	} >"$dest.tmp" && mv "$dest.tmp" "$dest"
	echo "bench: wrote $dest" >&2
}
trap 'assemble; cd /; rm -rf "$tmp"' EXIT
: >timings

# section NAME SCRIPT ARGS...: runs bench/SCRIPT (bin first), keeps its Markdown and time.
section() {
	local name=$1 script=$2 t0 rc=0
	shift 2
	t0=$(date +%s)
	bash "$bench_dir/$script" "$bin" "$@" >"sec-$script.md" || rc=$?
	case $rc in
	(129 | 130 | 143) # interrupted (HUP, INT, TERM): the suite stops too, keeping what it has
		printf '\n**Interrupted during this section.**\n' >>"sec-$script.md"
		sections+=("$tmp/sec-$script.md")
		exit "$rc" ;;
	esac
	if [ $rc -ne 0 ]; then
		printf '\n**This section failed (exit status %s): %s -- its error is on the suite'"'"'s stderr.**\n' \
			"$rc" "\`bench/$script $*\`" >>"sec-$script.md"
		failed=1
	fi
	echo "| $name | $(($(date +%s) - t0)) |" >>timings
	sections+=("$tmp/sec-$script.md")
}

# The machine, and one calibration into the shared cache that every section then uses.
bench_run machine.lines "$bin" -b -t 1 -c -q -W Audio -w None --json machine.json
IFS=$'\t' read -r cpu_model cpus kernel kversion preempt clocksource ram lpms < <(bench_lib machine machine.json)
idle=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo "none")
ctver="not installed"
if command -v cyclictest >/dev/null; then ctver=$({ cyclictest --help 2>&1 || true; } | awk 'NR == 1 { print $NF }'); fi
ctpkg=$(dpkg-query -W -f='${Version}' rt-tests 2>/dev/null || echo "?")
busy=$(ps -eo pcpu=,comm= --sort=-pcpu | awk '$1 + 0 >= 5 && $2 != "ps" { printf "%s%s (%s%%)", s, $2, $1; s = ", " }')

ib031_note=
if IFS=$'\t' read -r IB031 ib031_commit < <(bash "$bench_dir/interbench031.sh" "$tmp/ib031" 2>ib031.err); then
	export IB031
	ib031_note="built from ${IB031_SRC:-https://github.com/ckolivas/interbench.git} at commit $ib031_commit (its version string: 0.31) into the scratch directory"
else
	IB031_WHY=$(cat ib031.err)
	export IB031_WHY
	ib031_note="not available: $IB031_WHY (set IB031_SRC to a clone or URL of its source)"
fi
# interbench 0.31 calibrates once into interbench.loops_per_ms beside its binary and keeps that
# for every later run.  On a shared host one calibration can land far low (once 1033746 against
# 3.4-3.6 million), and 0.31 then does a third of its work and meets every deadline; so it is
# calibrated 3 times and the fastest kept, as our calibration keeps its fastest sample.
if bench_ib031; then
	ib031_cal=()
	for k in 1 2 3; do
		bench_run031 "ib031-cal-$k.lines" -b -t 1 -c -W Audio -w None
		ib031_cal+=("$(cat "$ib031_dir/interbench.loops_per_ms")")
	done
	ib031_lpms=$(printf '%s\n' "${ib031_cal[@]}" | sort -n | tail -1)
	printf '%s' "$ib031_lpms" >"$ib031_dir/interbench.loops_per_ms"
	ib031_note+="; loops_per_ms $ib031_lpms, the fastest of 3 calibrations (${ib031_cal[*]}: \`interbench-0.31 -b -t 1 -c -W Audio -w None\`), as one calibration on a shared host can land far low"
fi

{
	echo "# interbench benchmark results"
	echo
	echo "Written by \`make bench\` (bench/run.sh); every figure below is from this one run."
	[ -z "${BENCH_QUICK:-}" ] || echo "**BENCH_QUICK: every run shortened to check the suite; the figures mean little.**"
	echo
	echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- Machine: $cpu_model, $cpus CPUs online, $ram GiB RAM; clocksource $clocksource; cpuidle driver: $idle"
	echo "- Kernel: $kernel $kversion; preemption model: $preempt"
	echo "- interbench: $("$bin" --version 2>&1 | head -1), loops_per_ms $lpms (calibrated once at the start: \`interbench -b -t 1 -c -q -W Audio -w None --json machine.json\`, then shared)"
	echo "- cyclictest: $ctver (rt-tests $ctpkg)"
	echo "- interbench 0.31: $ib031_note"
	echo "- Load at the start: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min); CPUs $(bench_lib busy)% busy over the second before${busy:+; processes over 5% CPU (lifetime average): $busy}"
} >header.md

section "floor vs cyclictest (Custom $floor_s s, Audio $((3 * floor_s)) s, each side)" vs-cyclictest.sh "$floor_s" 10

# CPU emulation: its table goes in as it is, under a heading; the target row is the largest
# |difference (pt)| of the table (its 4th column).
section "CPU emulation accuracy" cpu-emulation.sh "${cpu_args[@]}"
if ! head -1 sec-cpu-emulation.sh.md | grep -q '^## '; then
	{ printf '## CPU emulation accuracy\n\n'; cat sec-cpu-emulation.sh.md; } >cpu.md
	mv cpu.md sec-cpu-emulation.sh.md
fi
worst=$(awk -F'|' '/^\|/ && $5 ~ /^ *[-+]?[0-9.]+ *$/ { d = $5 + 0; d = d < 0 ? -d : d; if (d > w) w = d; n++ }
	END { if (n) printf "%.2f %d", w, n }' sec-cpu-emulation.sh.md)
if [ -n "$worst" ]; then
	bench_target "CPU emulation within 1 pt of the request (largest difference, measured from outside)" \
		"${worst% *} pt over its ${worst#* } tasks" "$(awk -v w="${worst% *}" 'BEGIN { print (w <= 1) ? "met" : "not met" }')"
fi

section "calibration ($calib_n x -b, $calib_s s Gaming)" calibration.sh "$calib_n" "$calib_s"
section "overhead per pair ($ovh_s s; 0.31: 10 s)" overhead.sh "$ovh_s"
section "reproducibility ($rep_n runs, $rep_s s)" reproducibility.sh "$rep_n" "$rep_s"
section "known answers (--repeat $known_n; X $known_x_s s, Audio $known_audio_s s)" known-answers.sh "$known_x_s" "$known_audio_s" "$known_n"
section "footprint ($fp_s s)" footprint.sh "$fp_s"
# The verdicts (the adaptive window, A/A, coverage) take most of an hour: only when asked.
if [ -n "${BENCH_VERDICTS:-}" ]; then
	if [ -n "${BENCH_QUICK:-}" ]; then section "verdicts (quick)" verdicts.sh 1 1
	else section "verdicts (5 A/A, 10 runs a pair)" verdicts.sh 5 10; fi
fi
finished=yes
exit $failed
