#!/usr/bin/env bash
# The text table as a reader sees it: the legend names only the columns shown, every line of
# a -v table within 100 columns with its figures under their definitions' names; the rounds'
# progress only on stderr (none with -q, none on stdout or in the logfile); compare's answer
# in its first lines, before the rows.  Usage: tests/e2e_tables.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin tables "${1:-}"
HERE=$(cd "$(dirname "$0")" && pwd)
e2e_run_dir
e2e_calibrate
run() { "$BIN" -l "$LPMS" -t 1 -W Audio -w None "$@"; }
# width FILE: the widest line of its legend (the header's other lines, the machine's, the
# options' and the logfile's audit, left aside) and of its tables (from the first on).
width() {
	awk '/^--- Benchmarking / { on = 2 }
	     on == 1 && !/^(  |Each row: |Under each row |[A-Za-z]+.s columns: )/ { on = 0 }
	     /^Latency \+\/- SD and Max Latency: / { on = 1 }
	     on && length($0) > w { w = length($0) } END { print w + 0 }' "$1"
}

# 1. Without -v: the legend's lines describe the classic columns only, within 100 columns.
run -c >plain.txt 2>plain.err; rc=$?
legend=$(sed -n '/^Latency +\/- SD and Max Latency: /,/^$/p' plain.txt)
if [ "$rc" = 0 ] && grep -q "^Latency +/- SD and Max Latency: interbench 0.31's definition" plain.txt &&
   printf '%s\n' "$legend" | grep -q '% Deadlines Met:' &&
   ! printf '%s\n' "$legend" | grep -Eq -- '-v|timer|latency alone|Mean range' &&
   [ "$(width plain.txt)" -le 100 ]
then ok "no -v: the legend says the classic columns only, within 100 columns"
else bad "legend without -v (exit $rc, widest $(width plain.txt))" plain.txt; fi

# 2. -v and --repeat 2, the logfile written: every line within 100 columns; the -v figures on
# lines under the row, each under its definition; the legend says them and the range column;
# the logfile the same, read back by compare with the p99 of the sched line.
run -v --repeat 2 -m tables >verbose.txt 2>verbose.err; rc=$?
log=$(ls ./*.log 2>/dev/null | head -1)
# (its marks of disturbance dropped: a busy host marks sub-runs, and compare leaves those out)
sed '/^ *\* \(disturbed\|load stopped\):/d' "${log:-none.log}" >unmarked.log
"$BIN" compare unmarked.log unmarked.log >cmp.txt 2>&1; crc=$?
if [ "$rc" = 0 ] && [ -n "$log" ] && [ "$(width verbose.txt)" -le 100 ] && [ "$(width "$log")" -le 100 ] &&
   grep -q '^Under each row (-v): sched: the scheduling latency alone' verbose.txt && grep -q '^Each row: every figure the median' verbose.txt &&
   grep -Eq '^None +[0-9.]+ \+/- [0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+-[0-9.]+$' verbose.txt &&
   grep -Eq '^ +sched \(ms\): mean [0-9.]+, p50 [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, p99.9 [0-9.]+, max [0-9.]+$' verbose.txt &&
   grep -Eq '^ +timer latency \(ms\): p99 [0-9.-]+, max [0-9.-]+; lateness \(ms\): p99 [0-9.]+, max [0-9.]+$' verbose.txt &&
   grep -Eq '^ +task cpu: [0-9.]+ %; misses: longest run [0-9.]+ ms, streaks [0-9]+; frame time \(ms\): p99 [0-9.]+$' verbose.txt &&
   [ "$crc" = 3 ] && grep -Eq '^Audio +None +p99 latency +1:1 ' cmp.txt
then ok "-v: within 100 columns, its figures under their definitions, the logfile read back with its p99"
else bad "-v table (exit $rc, widest $(width verbose.txt), log $log)" verbose.txt; fi

# A single -v run: its within-run intervals under the row too, wrapped within 100 columns.
# (Video: 60 periods in its 1 s, past the 32 an interval needs)
"$BIN" -l "$LPMS" -t 1 -W Video -w None -c -v >single.txt 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(width single.txt)" -le 100 ] &&
   grep -Eq '^ +within-run 95% CI: sched mean [0-9.]+-[0-9.]+ ms' single.txt &&
   grep -q 'within-run CI: where the run.s own figure lies, not what' single.txt
then ok "-v, one run: the within-run intervals named as the sched line's, within 100 columns"
else bad "-v one run (exit $rc, widest $(width single.txt))" single.txt; fi

# 3. --repeat's round lines: on stderr without -q, never on stdout; nothing with -q, and stdout
# then only the run's header and table.
if ! grep -q '^Round' verbose.txt && ! grep -q 'Round' "$log" && grep -q '^Round 1/2 done (1 pairs)$' verbose.err
then ok "--repeat 2: the round lines on stderr only"; else bad "round lines without -q" verbose.err; fi
run -c -q --repeat 2 >quiet.txt 2>quiet.err; rc=$?
if [ "$rc" = 0 ] && [ ! -s quiet.err ] && ! grep -q 'Round' quiet.txt &&
   grep -q '^--- Benchmarking simulated cpu of Audio in the presence of simulated ---$' quiet.txt &&
   [ "$(grep -c '^None ' quiet.txt)" = 1 ]
then ok "--repeat 2 -q: no progress anywhere, the table on stdout"; else bad "-q rounds (exit $rc)" quiet.err; fi

# A budget spent before the pair is decided: its row says so in words, on the console too.
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --budget 3 --repeat 4 >budget.txt 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -Eq '^ +window: [0-9.]+ s, stopped: the budget ran out after [12] sub-runs?; undecided: [a-z0-9 %-]+$' budget.txt &&
   ! grep -Eq 'look [0-9]+ of' budget.txt
then ok "--budget: the row says the budget ran out, in words"; else bad "budget row (exit $rc)" budget.txt; fi

# 4. compare: the decision first, each judged figure's answer, then the files and the rows.
fix="$HERE/golden/fixtures"
"$BIN" compare "$fix/a.json" "$fix/b.json" >dec.txt 2>&1; rc=$?
if [ "$rc" = 3 ] && head -1 dec.txt | grep -Eq '^Decision: [0-9]+ worse, [0-9]+ better, [0-9]+ same, [0-9]+ unknown of the judged figures \(exit 3: undecided\)$' &&
   sed -n 2p dec.txt | grep -q '^  error rates: a false worse or better at most 5 %, a false same at most 5 %' &&
   awk '/^OLD /{ old = NR } /^  % deadlines met: /{ met = NR } /^Simulation /{ rows = NR } END { exit !(met && met < old && old < rows) }' dec.txt
then ok "compare: the decision in its first lines, the rows after"; else bad "compare's decision first (exit $rc)" dec.txt; fi
e2e_end
