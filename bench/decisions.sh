#!/usr/bin/env bash
# Decisions: what the sub-run decisions (decide/decision.h; compare and a run's own
# alternatives) answer on this machine.  Three parts, in one run:
#  - A/A: AA runs of Audio against Burn with --repeat 2R, each split into its odd and even
#    sub-runs (two sides of R interleaved sub-runs, the same setting) and compared: the share of
#    comparisons with any DIFFERENT (goal: point <= 5 %, upper end of its 95 % interval
#    <= 10 %), the rate per judged figure, the share answered SAME.  R is 8: the permutation
#    test that every answer needs cannot answer below 5 a side (its least p, 2 / C(2R, R), is
#    0.029 at 4), so an A/A at 4 a side would show nothing;
#  - known answers, each one interleaved run with --budget BUDGET whose alternatives must
#    answer DIFFERENT in the known direction, with its wall time and sub-runs: X/Burn with the
#    loads at nice 0 then 19 (-N 0,19: better), Video/Burn SCHED_OTHER then SCHED_FIFO
#    (better), Audio/Burn with an EEVDF slice of 3000 us then 100 us for the task
#    (--bench-slice; better), Audio/Burn with -L 1 then -L 4 (worse), Audio/Burn with one Burn
#    thread on CPU 0 and the task on CPU 0 then 1 (--bench-cpus 0/1: better), and -L 1 against
#    -L 4 once more as two runs of 2R sub-runs and compare (worse); BENCH_ANSWERS="x fifo slice
#    threads cpus compare" (the default: all) runs only the rows named;
#  - coverage: COV runs of Audio/Burn and Video/Burn with --repeat 2R: per figure, the share of
#    runs whose t interval over their sub-runs (the figure's interval with the sub-run as the
#    unit) holds the pooled mean of all of them, its mean width beside the runs' spread.
#  - default: DEF runs each of Audio/Burn, Video/Burn and X/Burn as a user runs them, without
#    -t or --budget (the budget's default: 30 s a pair, X's 46 s): how many ended known, the
#    sub-runs and wall time they took, and per judged figure the share of runs whose t
#    interval over their usable sub-runs holds the pooled estimate of all of them;
#  - matrix: the full default run, every task against every load, as a user runs it: wall time,
#    pairs known, what the others waited for.
# Prints a Markdown section.  Run as root, on a quiet machine, alone (about an hour with the
# defaults; BENCH_QUICK=1 checks the script in a few minutes, figures meaningless).
# BENCH_SECTIONS="aa answers coverage default matrix" (the default: all) runs only the sections
# named.
# Usage: bench/decisions.sh [./interbench] [AA (50)] [COV (8)] [BUDGET (180)] [DEF (20)]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
bench_setup decisions.sh "${1:-./interbench}"
aa_n=${2:-50}
cov_n=${3:-8}
budget=${4:-180}
def_n=${5:-20}
r=8          # sub-runs a side
t=2          # seconds a sub-run
x_t=11       # X's: one sweep
matrix_sel=()  # the full run; BENCH_QUICK: two pairs
if [ -n "${BENCH_QUICK:-}" ]; then aa_n=2; cov_n=2; t=1; x_t=2; r=3; budget=20; def_n=2; matrix_sel=(-W Audio -w None -w Burn); fi
sections=" ${BENCH_SECTIONS:-aa answers coverage default matrix} "
want() { [[ $sections == *" $1 "* ]]; }
answers=" ${BENCH_ANSWERS:-x fifo slice threads cpus compare} "
want_answer() { [[ $answers == *" $1 "* ]]; }
dec() { python3 "$bench_dir/decisions.py" "$@"; }
# BENCH_LOCK=FILE: each run of the binary holds an flock(1) lock on FILE, so that other timing
# measurements on the machine take turns with this script's runs instead of waiting for all.
if [ -n "${BENCH_LOCK:-}" ]; then exec {lock_fd}>"$BENCH_LOCK"; fi
locked() {
	[ -z "${BENCH_LOCK:-}" ] || flock "$lock_fd"
	"$@"
	[ -z "${BENCH_LOCK:-}" ] || flock -u "$lock_fd"
}
common=(-c -q)

# cmp OUT OLD NEW: compare's JSON into OUT; its exit status 0, 1 or 3 is an answer, not a failure.
cmp() {
	local rc=0
	"$bin" compare --json "$1" "$2" "$3" >/dev/null 2>&1 || rc=$?
	[ "$rc" != 2 ] || { echo "decisions.sh: compare $2 $3 failed (exit 2)" >&2; exit 1; }
}

echo "## Decisions"
echo
echo "Sub-runs as the unit of evidence, DIFFERENT/SAME/UNKNOWN with Holm's family control"
echo "(decide/decision.h), measured by bench/decisions.sh on $(uname -r), $(nproc) CPUs."
echo

if want aa; then
	bench_note "A/A: $aa_n runs of Audio against Burn, --repeat $((2 * r)) -t $t, split in halves"
	cmps=()
	for i in $(seq 1 "$aa_n"); do
		locked bench_run aa$i.lines "$bin" "${common[@]}" -W Audio -w Burn -t "$t" --repeat $((2 * r)) --json aa$i.json
		dec split aa$i.json aa$i-a.json aa$i-b.json
		cmp aa$i-cmp.json aa$i-a.json aa$i-b.json
		cmps+=(aa$i-cmp.json)
	done
	echo "### A/A: the same setting on both sides"
	echo
	echo "Each comparison: one run of \`-W Audio -w Burn -t $t --repeat $((2 * r))\`, its odd and even"
	echo "sub-runs as OLD and NEW ($r a side, interleaved), \`interbench compare\` on the halves."
	echo
	dec aa "${cmps[@]}"
	echo
fi

if want answers; then
	echo "### Known answers, each in one interleaved run"
	echo
	echo "Each with \`--budget $budget\` (at most 20 sub-runs a setting, fewer once its figures are precise enough"
	echo "to answer); the last also by two runs of $((2 * r)) sub-runs and \`interbench compare\`."
	echo
	echo "| alternative against the first | expected | DIFFERENT in the expected direction | DIFFERENT the other way | UNKNOWN | wall time | sub-runs a side |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	if want_answer x; then
		locked timed x.lines "$bin" "${common[@]}" -W X -w Burn -t "$x_t" -N 0,19 --budget "$budget" --json x.json
		dec known "X/Burn, loads nice 19 against 0" better x.json "$wall"
	fi
	if want_answer fifo; then
		locked timed v.lines "$bin" "${common[@]}" -W Video -w Burn -t "$t" --bench-policy other,fifo --budget "$budget" --json v.json
		dec known "Video/Burn, SCHED_FIFO against SCHED_OTHER" better v.json "$wall"
	fi
	if want_answer slice; then
		locked timed s.lines "$bin" "${common[@]}" -W Audio -w Burn -t "$t" --bench-slice 3000,100 --budget "$budget" --json s.json
		dec known "Audio/Burn, --bench-slice 100 against 3000" better s.json "$wall"
	fi
	if want_answer threads; then
		locked timed l.lines "$bin" "${common[@]}" -W Audio -w Burn -t "$t" -L 1,4 --budget "$budget" --json l.json
		dec known "Audio/Burn, -L 4 against -L 1" worse l.json "$wall"
	fi
	if want_answer cpus; then
		locked timed c.lines "$bin" "${common[@]}" -W Audio -w Burn -t "$t" -L 1 --load-cpus 0 --bench-cpus 0/1 \
			--budget "$budget" --json c.json
		dec known "Audio/Burn (-L 1 on CPU 0), the task on CPU 1 against CPU 0" better c.json "$wall"
	fi
	if want_answer compare; then
		t0=$(date +%s)
		locked bench_run l1.lines "$bin" "${common[@]}" -W Audio -w Burn -t "$t" -L 1 --repeat $((2 * r)) --json l1.json
		locked bench_run l4.lines "$bin" "${common[@]}" -W Audio -w Burn -t "$t" -L 4 --repeat $((2 * r)) --json l4.json
		cmp l-cmp.json l1.json l4.json
		dec knowncmp "Audio/Burn, -L 4 against -L 1 (two runs, compare)" worse l-cmp.json "$(($(date +%s) - t0))"
	fi
	echo
fi

if want coverage; then
	echo "### Coverage of the sub-run interval"
	echo
	echo "$cov_n runs each of \`-W Audio -W Video -w Burn -t $t --repeat $r\`; per run the t interval"
	echo "of a figure's mean over its $r sub-runs; the share of runs whose interval holds the mean"
	echo "of all runs' sub-runs (goal: >= 90 %)."
	echo
	echo "| figure | runs | holding the pooled mean | pooled mean | mean width | runs' SD |"
	echo "| --- | --- | --- | --- | --- | --- |"
	files=()
	for i in $(seq 1 "$cov_n"); do
		locked bench_run cov$i.lines "$bin" "${common[@]}" -W Audio -W Video -w Burn -t "$t" --repeat "$r" --json cov$i.json
		files+=(cov$i.json)
	done
	for sim in Audio Video; do
		for i in "${!files[@]}"; do
			python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['results']=[x for x in d['results'] if x.get('simulation')==sys.argv[2]]; json.dump(d, open(sys.argv[3],'w'))" \
				"${files[$i]}" "$sim" "$sim$i.json"
		done
		for key in latency_p90_ns latency_p99_ns latency_mean_ns deadlines_met_ppm; do
			echo -n "| $sim"
			dec coverage "$key" "$sim"[0-9]*.json | sed 's/^| / /'
		done
	done
	echo
fi

if want default; then
	echo "### The default run, one pair at a time"
	echo
	echo "$def_n runs each of \`interbench -W TASK -w Burn\` with nothing else (the budget's default:"
	echo "30 s a pair, X's 46 s; 5 s sub-runs, X's one sweep; known when the 95 % t intervals over"
	echo "its usable sub-runs of its tail latency and its % deadlines met are within 20 % and 2 points)."
	echo
	echo "| pair | runs | ended known | sub-runs, median (range) | wall s, median (range) |"
	echo "| --- | --- | --- | --- | --- |"
	for sim in Audio Video X; do
		: >"def-$sim.walls"
		files=()
		for i in $(seq 1 "$def_n"); do
			locked timed "def-$sim$i.lines" "$bin" "${common[@]}" -W "$sim" -w Burn --json "def-$sim$i.json"
			echo "$wall" >>"def-$sim.walls"
			files+=("def-$sim$i.json")
		done
		dec budgettime "$sim/Burn" "def-$sim.walls" "${files[@]}"
	done
	echo
	echo "Coverage: per run the 95 % t interval over its usable sub-runs (undisturbed, whole, the"
	echo "load never seen stopped) of the geometric mean of its tail latency (p99 where every"
	echo "sub-run has the 368 samples that bound it, else p90) and of the mean of its % deadlines"
	echo "met; the share of runs whose interval holds the pooled estimate of all runs' sub-runs"
	echo "(goal: >= 90 %)."
	echo
	echo "| pair | figure | runs with 2 usable sub-runs | holding the pooled estimate | pooled | mean width |"
	echo "| --- | --- | --- | --- | --- | --- |"
	for sim in Audio Video X; do
		dec budgetcov "$sim/Burn" def-"$sim"[0-9]*.json
	done
	echo
fi

if want matrix; then
	echo "### The full default run"
	echo
	echo "\`interbench\` with nothing else: every task against every load, the budget's default."
	echo
	echo "| wall (m:ss) | budget s | pairs | rounds | sub-runs | pairs known | the others waited for |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	locked timed full.lines "$bin" "${common[@]}" "${matrix_sel[@]}" --json full.json
	dec matrix full.json "$wall"
	echo
fi

echo "Commands:"
echo
printf '    %s\n' "${bench_cmds[@]}"
