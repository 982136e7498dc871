#!/usr/bin/env bash
# Known answers: changes whose effect is not in doubt, each of which `interbench compare` must
# answer DIFFERENT (Welch's test over the --repeat runs, its sub-runs; tools/compare.h): X/Burn with the loads at nice 0 and
# at nice 19 (-N 19); Audio/Burn without and with -r, against 8 Burn threads; X/Burn with -L 1
# and -L 4 (on 2 CPUs: one burner leaves a CPU free, four crowd both).  Audio/-r needs the 8:
# against 2 Burn threads on 2 CPUs the kernel (EEVDF, 6.18 here) gives the waking Audio its
# CPU at once, so -r changed no figure significantly (2026-11-22, make bench, by the Mann-Whitney test compare used then); with 4 burners
# a CPU it waits behind them (mean 3 ms, p99 11 ms) and -r takes that away (0.07 ms, 0.16 ms).  compare pairs results at the same settings
# (nice, policy), so nice 19 and -r are compared with --match simulation,load.  Prints a
# Markdown section with compare's lines.  Run as root.
# Pipeline (5 s, 4 Burn threads) at nice 0 and 19, and with -L 1 and -L 4: jank and p99
# input-to-present (tests/e2e_pipeline.sh checks only their form: a single run on a shared
# host cannot tell a load's effect from another process's).
# X runs longer than Audio: in 3 s its sweep reaches only 29% CPU, where nice hardly shows.
# Usage: bench/known-answers.sh [./interbench] [X seconds (6)] [Audio seconds (3)] [repeats (5)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup known-answers.sh "${1:-./interbench}"
x_secs=${2:-6}
audio_secs=${3:-3}
repeat=${4:-5}
common=(--repeat "$repeat" -c -q)

echo "## Known answers"
echo
echo "Each pair run with \`${common[*]}\` (X: \`-t $x_secs\`, Audio: \`-t $audio_secs\`), OLD then NEW, then \`interbench compare OLD NEW\` with its"
echo "default thresholds: each repeat a sub-run, the Answer column says \`DIFFERENT, worse\` (or better)"
echo "where Welch's test on the sub-runs shows a change (the family of judged figures under Holm's"
echo "control at 5 %), \`SAME\` where the change is shown within its threshold, else \`UNKNOWN\`."
echo

# known NAME "OLD ARGS" "NEW ARGS" [COMPARE OPTIONS]: runs both, compares, prints compare's output.
known() {
	local name=$1 sig
	bench_ab "$@"
	sig=$(bench_lib flagged "$name.cmp.json")
	echo "### $name: \`${ab_old[*]}\` vs \`${ab_new[*]}\`"
	echo
	echo '```'
	cat "$name.cmp"
	echo '```'
	echo
	if [ -n "$sig" ]; then
		echo "Answered DIFFERENT: $sig."
	else
		echo "**No figure answered DIFFERENT.**"
	fi
	echo
	bench_target "known answer: $name DIFFERENT" "${sig:-none}" "$([ -n "$sig" ] && echo met || echo "not met")"
}
known "X-Burn-nice" "-t $x_secs -W X -w Burn" "-t $x_secs -W X -w Burn -N 19" "--match simulation,load"
known "Audio-Burn-realtime" "-t $audio_secs -W Audio -w Burn -L 8" "-t $audio_secs -W Audio -w Burn -L 8 -r" "--match simulation,load"
known "X-Burn-load-threads" "-t $x_secs -W X -w Burn -L 1" "-t $x_secs -W X -w Burn -L 4"
known "Pipeline-Burn-nice" "-t 5 -W Pipeline -w Burn -L 4" "-t 5 -W Pipeline -w Burn -L 4 -N 19" "--match simulation,load"
known "Pipeline-Burn-load-threads" "-t 5 -W Pipeline -w Burn -L 1" "-t 5 -W Pipeline -w Burn -L 4"
bench_commands
