#!/usr/bin/env bash
# Verdicts: what the adaptive window (--max-time 60, its default last look: each pair once
# until its figures are known, run/stoprule.h; the default run before the budget's) and
# compare's answers (DIFFERENT, SAME, UNKNOWN from the sub-runs, the family
# under Holm's control: tools/compare.h) give on this machine.  Four parts, in one run:
#  - time: the full default matrix without -t (wall time, stop reasons, judged figures known),
#    then a selection (Audio, Video and X against None and Burn) without -t and at
#    -t 30 side by side, the -t 30 run's figures judged known by its own 95 % intervals against
#    the same precision;
#  - false alarms: the selection without -t twice back to back, compared (A/A), AA times: a
#    comparison with any DIFFERENT is a false alarm (compare's exit 3, undecided, is none);
#  - coverage: Audio, Video and X against Burn, COV runs each without -t: per judged figure,
#    the share of runs whose interval holds the pooled estimate of all of them, the intervals'
#    mean width beside the runs' spread;
#  - known answers from ANSWER_REPEATS (3) sub-runs a side (one a side answers nothing): X/Burn
#    at load nice 19 then 0, with -L 1 then -L 4 (each NEW worse: compare must call a
#    regression), and X/Burn against itself (must not).
# Prints a Markdown section.  Run as root, on a quiet machine, alone (over an hour with the
# defaults, the known answers' runs being of 3 sub-runs each; 45 minutes and more with COV 10; BENCH_QUICK=1 checks the script in minutes: --max-time 2, -t 2, figures meaningless).
# BENCH_SECTIONS="time aa coverage answers" (the default: all) runs only the sections named.
# Usage: bench/verdicts.sh [./interbench] [AA (5)] [COV (20)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup verdicts.sh "${1:-./interbench}"
aa_n=${2:-5}
cov_n=${3:-20}
sel=(-W Audio -W Video -W X -w None -w Burn)
common=(-c -q --max-time 60)  # the adaptive window (without it, the budget's sub-runs)
fixed_s=30
answer_repeats=${ANSWER_REPEATS:-3}
if [ -n "${BENCH_QUICK:-}" ]; then common=(-c -q --min-time 1 --max-time 2); fixed_s=2; fi
sections=" ${BENCH_SECTIONS:-time aa coverage answers} "
# want SECTION: whether BENCH_SECTIONS names it.
want() { [[ $sections == *" $1 "* ]]; }

# known_row LABEL JSON WALL [WINDOW_JSON]: a row of the time table.
known_row() {
	local pairs figs known reasons window
	IFS=$'\t' read -r pairs figs known reasons window < <(bench_lib known "$2" ${4:+"$4"})
	printf '| %s | %d:%02d | %s | %s | %s of %s (%s %%) | %s |\n' "$1" $(($3 / 60)) $(($3 % 60)) "$pairs" "$window" \
		"$known" "$figs" "$((100 * known / figs))" "$reasons"
}

echo "## Verdicts"
echo
if want time; then
echo "### Time to a verdict"
echo
timed full.lines "$bin" "${common[@]}" --json full.json
full_wall=$wall
timed sel.lines "$bin" "${common[@]}" "${sel[@]}" --json sel.json
sel_wall=$wall
timed sel30.lines "$bin" -c -q -t "$fixed_s" "${sel[@]}" --json sel30.json
sel30_wall=$wall
echo "| run | wall (m:ss) | pairs | windows summed (s) | judged figures known to the default precision | stops |"
echo "| --- | --- | --- | --- | --- | --- |"
known_row "default matrix, no \`-t\`" full.json "$full_wall"
known_row "selection, no \`-t\`" sel.json "$sel_wall"
known_row "selection, \`-t $fixed_s\` (known: its 95 % intervals within the precision)" sel30.json "$sel30_wall" sel.json
echo
echo "The selection is \`${sel[*]}\`.  Judged figures: scheduling latency mean and p99, % desired CPU,"
echo "% deadlines met (not for Gaming).  Stops (JSON \`stop.reason\`): \`known\`, every figure known at a"
echo "look; \`futile\`, the figures still unknown would not have been known by \`--max-time\` at the rate"
echo "seen; \`max-time\`, the last look; \`time\`, \`-t\`'s fixed window."
echo

fi

if want aa; then
echo "### False alarms (A/A)"
echo
echo "| comparison | compare's exit status | figures compared | DIFFERENT | SAME | UNKNOWN | regressions | disturbed pairs | regressed |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
alarms=0
for i in $(seq "$aa_n"); do
	bench_run "aa$i-a.lines" "$bin" "${common[@]}" "${sel[@]}" --json "aa$i-a.json"
	bench_run "aa$i-b.lines" "$bin" "${common[@]}" "${sel[@]}" --json "aa$i-b.json"
	[ "$i" = 1 ] && bench_cmds+=("interbench compare --json aaI.cmp.json aaI-a.json aaI-b.json")
	rc=0
	"$bin" compare --json "aa$i.cmp.json" "aa$i-a.json" "aa$i-b.json" >"aa$i.cmp" 2>&1 || rc=$?
	if [ "$rc" = 2 ]; then echo "bench: compare failed: $(cat "aa$i.cmp")" >&2; exit 1; fi
	IFS=$'\t' read -r figs flagged disturbed names different same unknown < <(bench_lib verdicts "aa$i.cmp.json")
	[ "$different" = 0 ] || alarms=$((alarms + 1))
	echo "| $i | $rc | $figs | $different | $same | $unknown | $flagged | $disturbed | $names |"
done
echo
echo "**$alarms of $aa_n A/A comparisons answered DIFFERENT on any figure** (compare's family error: 5 %; goal: at most 1 of 5)."
bench_target "A/A comparisons with any DIFFERENT (selection, no -t)" "$alarms of $aa_n" "$([ "$alarms" -le $(( (aa_n + 4) / 5 )) ] && echo met || echo "not met")"
echo

fi

if want coverage; then
echo "### Coverage of the intervals"
echo
for p in Audio Video X; do
	for i in $(seq "$cov_n"); do
		bench_run "cov-$p-$i.lines" "$bin" "${common[@]}" -W "$p" -w Burn --json "cov-$p-$i.json"
	done
done
echo "$cov_n runs of each pair without \`-t\`.  Pooled: the figure over all $cov_n runs together (means"
echo "weighted by samples, shares by periods, p99 from the merged histograms).  Nominal: 95 %."
echo
echo "| pair | figure | pooled | runs with an interval | intervals holding the pooled | mean width | runs' SD | mean window |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for p in Audio Video X; do
	bench_lib coverage "$p" Burn cov-"$p"-*.json
done
echo

fi

if want answers; then
echo "### Known answers from $answer_repeats sub-runs a side"
echo
# answer NAME EXPECT "OLD ARGS" "NEW ARGS" [COMPARE OPTIONS]: one run each of answer_repeats
# repeats (sub-runs), compared; EXPECT is "flag" (NEW is worse: compare must call a
# regression) or "none".
answer() {
	local name=$1 expect=$2 figs flagged disturbed names different same unknown verdict
	shift 2
	bench_ab "$name" "--repeat $answer_repeats $1" "--repeat $answer_repeats $2" "${3:-}"
	IFS=$'\t' read -r figs flagged disturbed names different same unknown < <(bench_lib verdicts "$name.cmp.json")
	if [ "$expect" = flag ]; then verdict=$([ "$flagged" -gt 0 ] && echo met || echo "not met")
	else verdict=$([ "$flagged" = 0 ] && echo met || echo "not met"); fi
	echo "#### $name: \`${ab_old[*]}\` then \`${ab_new[*]}\`"
	echo
	echo "Expected: $([ "$expect" = flag ] && echo "a regression" || echo "no regression"); compare exited $ab_rc ($different DIFFERENT, $same SAME, $unknown UNKNOWN), regressions on: $names ($verdict)."
	echo
	echo '```'
	cat "$name.cmp"
	echo '```'
	echo
	bench_target "known answer from $answer_repeats sub-runs a side: $name" "$flagged regressions" "$verdict"
}
answer X-Burn-nice flag "-W X -w Burn -N 19" "-W X -w Burn" "--match simulation,load"
answer X-Burn-load-threads flag "-W X -w Burn -L 1" "-W X -w Burn -L 4"
answer X-Burn-unchanged none "-W X -w Burn" "-W X -w Burn"
fi
bench_commands
