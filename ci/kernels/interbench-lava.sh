#!/bin/sh
# interbench as a LAVA test: runs the benchmark, prints its JSON result on the console between
# markers, and reports every figure as a test case (interbench export --format lava) through
# lava-test-case, or, where that is not on the PATH (outside lava-test-shell, e.g. the
# initramfs of ci/kernels/build-initramfs.sh), as the same <LAVA_SIGNAL_TESTCASE ...> console
# lines, which a LAVA monitor action matches.  POSIX sh: runs under busybox.
#
# Usage: interbench-lava.sh [INTERBENCH ARGUMENTS...]
# Without arguments, from the test definition's parameters (environment variables):
#   DURATION (-t, s, default 2), SIMS (-W, default "Audio Video"), LOADS (-w, default
#   "None Burn"), REPEAT (--repeat, default 1).
# Also: BASELINE (a result JSON: a figure fails where compare finds a regression against it),
#   THRESHOLD (compare's --threshold, with BASELINE), INTERBENCH (the binary, default
#   interbench), OUTPUT (directory of result.json and result.txt, default ./output; also the
#   benchmark's working directory).
# Console, in order:
#   interbench-lava: start
#   interbench-result-begin STATUS        (interbench's exit status)
#   base64 of the gzip of result.json, 76 columns a line (none when no result was written)
#   interbench-result-end
#   one test case a line: ID pass|fail [MEASUREMENT UNITS] (lava-test-case or a signal line)
#   the case interbench-run: pass when interbench exited 0, or 4 (completed, some pairs failed)
#   interbench-lava: done
# result.txt holds the cases as "ID pass|fail [MEASUREMENT UNITS]" lines (Linaro's format).
# WATCHDOG (seconds, default 0: none): when interbench has not exited that long after its
# start, a block between "interbench-lava: no exit after N s ..." and "interbench-lava:
# watchdog end", every line of it but the kernel's own starting with "| ", says what it was
# doing (every thread of interbench and its children, and every other task that was runnable,
# blocked or kept waiting for a CPU: tid, comm, state, CPU, policy and priority, the ms it ran
# and waited for a CPU over one second, wchan; the kernel stacks of interbench's threads; the
# kernel's blocked tasks and CPUs' backtraces, sysrq w and l; the run queues of
# /sys/kernel/debug/sched/debug; the kernel's messages since interbench started, which the
# lowered console level kept off the console); then interbench gets SIGTERM (it keeps the
# results measured so far and exits; SIGINT is ignored by a command run in the background),
# its processes SIGKILL 10 s later, and the result block and cases follow as usual
# (interbench-run fails).  While it waits, this shell wakes once a second.
# Exit status: 0 when the cases were reported (the verdicts are in them), 1 when not, 2 when
# WATCHDOG is not a number of seconds.  STATUS is 255 when interbench could not be stopped.
INTERBENCH=${INTERBENCH:-interbench}
OUTPUT=${OUTPUT:-$(pwd)/output}
WATCHDOG=${WATCHDOG:-0}
case $WATCHDOG in
(""|*[!0-9]*|0?*|???????*)
	echo "interbench-lava: WATCHDOG=$WATCHDOG: not accepted (accepted: whole seconds, 0 to 999999; 0: no watchdog)" >&2
	exit 2 ;;
esac
mkdir -p "$OUTPUT" || exit 1

# Sets now to the guest's uptime in whole seconds (no process started: the shell may be short
# of CPU when the watchdog fires).
uptime_s() {
	read -r now _ </proc/uptime
	now=${now%.*}
}

# Sleeps a second at a time while process $1 runs, for at most $2 seconds.
wait_running() {
	uptime_s
	until_s=$((now + $2))
	while running "$1" && [ "$now" -lt "$until_s" ]; do
		sleep 1
		uptime_s
	done
}

# Succeeds while process $1 exists and has not exited (a zombie has).
running() {
	read -r s 2>/dev/null </proc/"$1"/stat || return 1
	case ${s##*) } in (Z*|X*) return 1 ;; esac
}

# Process $1 and its descendants, space-separated.
family() {
	fam=" $1 " grew=1
	while [ "$grew" = 1 ]; do
		grew=0
		for f in /proc/[0-9]*/stat; do
			read -r s 2>/dev/null <"$f" || continue
			# shellcheck disable=SC2086 # the fields after comm, split on purpose
			set -- ${s##*) }
			case $fam in (*" $2 "*) case $fam in (*" ${s%% *} "*) ;; (*) fam="$fam${s%% *} " grew=1 ;; esac ;; esac
		done
	done
	fam=${fam# }
	echo "${fam% }"
}

# Every task's "TID RUN_NS WAIT_NS" (/proc/.../schedstat: time on a CPU, time runnable on a run
# queue), one a line.
schedstats() {
	for t in /proc/[0-9]*/task/[0-9]*; do
		read -r run wait _ 2>/dev/null <"$t/schedstat" && echo "${t##*/} $run $wait"
	done
}

# Succeeds when process $1, child of $2, is this shell, its child or grandchild (the
# watchdog's own commands: a function in a pipeline runs in a child).
ours() {
	[ "$1" = $$ ] || [ "$2" = $$ ] && return 0
	case $2 in (0|1|2) return 1 ;; esac
	read -r up_stat 2>/dev/null </proc/"$2"/stat || return 1
	# shellcheck disable=SC2086 # the fields after comm, split on purpose: $2 is the parent
	set -- ${up_stat##*) }
	[ "$2" = $$ ]
}

# One line for each task of /proc/[0-9]*/task/*: WHO|TID|STATE|CPU|POLICY PRIORITY|WCHAN|COMM,
# WHO "ib" for a thread of the processes $1 (space-separated), else "other"; this shell and
# its children (the watchdog's own commands) left out.
tasks() {
	ib=" $1 "
	for t in /proc/[0-9]*/task/[0-9]*; do
		read -r s 2>/dev/null <"$t/stat" || continue
		p=${t#/proc/} who=other
		case $ib in (*" ${p%%/*} "*) who=ib ;; esac
		comm=${s#*\(} wchan=""
		# shellcheck disable=SC2086 # the fields after comm, split on purpose: $1 is field 3
		set -- ${s##*) }
		[ "$who" = other ] && ours "${p%%/*}" "$2" && continue
		case ${39} in
		(0) pol="OTHER nice ${17}" ;; (1) pol="FIFO ${38}" ;; (2) pol="RR ${38}" ;;
		(3) pol="BATCH nice ${17}" ;; (5) pol=IDLE ;; (6) pol=DEADLINE ;; (*) pol="policy ${39}" ;;
		esac
		read -r wchan 2>/dev/null <"$t/wchan"
		echo "$who|${s%% *}|$1|${37}|$pol|${wchan:--}|${comm%)*}"
	done
}

# The block's table: interbench's threads, then the other tasks runnable (R), blocked (D) or
# kept waiting for a CPU at least 1 ms over the second between schedstat files $1 and $2;
# tasks() on standard input.
table() {
	awk -F'|' -v a="$1" -v b="$2" '
	BEGIN {
		while ((getline l < a) > 0) { split(l, f, " "); run[f[1]] = f[2]; wait[f[1]] = f[3] }
		while ((getline l < b) > 0) {
			split(l, f, " ")
			if (f[1] in run) { dr[f[1]] = sprintf("%.0f", (f[2] - run[f[1]]) / 1e6); dw[f[1]] = sprintf("%.0f", (f[3] - wait[f[1]]) / 1e6) }
		}
		fmt = "| %-7s %-16s %-5s %-3s %-14s %7s %9s  %s\n"
		printf fmt, "tid", "comm", "state", "cpu", "policy", "ran ms", "waited ms", "wchan"
	}
	{
		comm = $7; for (i = 8; i <= NF; i++) comm = comm "|" $i
		line = sprintf(fmt, $2, comm, $3, $4, $5, $2 in dr ? dr[$2] : "-", $2 in dw ? dw[$2] : "-", $6)
		if ($1 == "ib") ib = ib line
		else if ($3 ~ /^[RD]/ || ($2 in dw) && dw[$2] + 0 >= 1) other = other line
	}
	END {
		printf "| interbench and its children, their threads:\n%s", ib
		printf "| every other task runnable (R), blocked (D) or kept waiting for a CPU:\n%s", other
	}'
}

# What process $1 (started at uptime $2) and the kernel are doing, as the block of the header.
diagnose() {
	fam=$(family "$1")
	uptime_s
	echo "interbench-lava: no exit after $((now - ${2%.*})) s (pid $1; processes $fam); what runs, then SIGTERM"
	schedstats >/tmp/watchdog.0
	sleep 1
	schedstats >/tmp/watchdog.1
	echo "| ran, waited: ms on a CPU and ms runnable on a run queue over that second (schedstat)"
	tasks "$fam" | table /tmp/watchdog.0 /tmp/watchdog.1
	rm -f /tmp/watchdog.0 /tmp/watchdog.1
	for p in $fam; do
		for t in /proc/"$p"/task/[0-9]*; do
			read -r comm 2>/dev/null <"$t/comm" || continue
			echo "| kernel stack of ${t##*/} ($comm); syscall: $(cat "$t/syscall" 2>/dev/null)"
			sed 's/^/|   /' "$t/stack" 2>/dev/null
		done
		sed -n "/ r-xp .*interbench/{s/^/| text of $p: /p;q}" /proc/"$p"/maps 2>/dev/null
	done
	echo w 2>/dev/null >/proc/sysrq-trigger  # blocked (D) tasks' stacks
	echo l 2>/dev/null >/proc/sysrq-trigger  # each CPU's backtrace (a user-mode RIP: 0033)
	sleep 1
	if [ -r /sys/kernel/debug/sched/debug ]; then
		echo "| run queues (/sys/kernel/debug/sched/debug): each CPU's running count and current task,"
		echo "| its realtime class's time and throttling, and its runnable (R) tasks:"
		awk '/^cpu#/ { head = 1 } /^$/ { head = 0 }
		     /^cpu#/ || head && /^ *\.(nr_running|curr->pid) / || /^rt_rq/ ||
		     /^ *\.rt_(nr_running|throttled|time|runtime) / || /^ *S +task +PID/ || /^ *>?R +[^ ]/' \
			/sys/kernel/debug/sched/debug | sed 's/^/| /'
	fi
	echo "| the kernel's messages since interbench started (the last 400):"
	dmesg | awk -v t0="$2" '{ t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) } t + 0 >= t0 + 0' | tail -n 400 |
		sed 's/^/| /'
	echo "interbench-lava: watchdog end"
}

# Runs interbench in the background as the header's WATCHDOG says; sets rc to its exit status.
run_watched() {
	read -r t0 _ </proc/uptime
	(cd "$OUTPUT" && exec "$INTERBENCH" "$@" -q -c --json "$OUTPUT/result.json") &
	pid=$!
	wait_running "$pid" "$WATCHDOG"
	if running "$pid"; then
		diagnose "$pid" "$t0"
		fam=$(family "$pid")
		kill -TERM "$pid"
		wait_running "$pid" 10
		if running "$pid"; then
			echo "interbench-lava: interbench still there 10 s after SIGTERM: SIGKILL to $fam"
			# shellcheck disable=SC2086 # one pid a word
			kill -KILL $fam 2>/dev/null
			wait_running "$pid" 10
		fi
	fi
	if running "$pid"; then
		echo "interbench-lava: interbench (pid $pid) still there 10 s after SIGKILL; not waited for"
		rc=255
	else
		wait "$pid"
		rc=$?
	fi
}
if [ $# -eq 0 ]; then
	set -- -t "${DURATION:-2}" --repeat "${REPEAT:-1}"
	for s in ${SIMS:-Audio Video}; do set -- "$@" -W "$s"; done
	for l in ${LOADS:-None Burn}; do set -- "$@" -w "$l"; done
fi
echo "interbench-lava: start"
echo "interbench-lava: $(uname -r): $INTERBENCH $*"
rm -f "$OUTPUT/result.json"
if [ "$WATCHDOG" = 0 ]; then
	(cd "$OUTPUT" && exec "$INTERBENCH" "$@" -q -c --json "$OUTPUT/result.json")
	rc=$?
else
	run_watched "$@"
fi
echo "interbench-result-begin $rc"
[ -s "$OUTPUT/result.json" ] && gzip -c "$OUTPUT/result.json" | base64
echo "interbench-result-end"

set --
if [ -n "${BASELINE:-}" ]; then
	set -- --against "$BASELINE"
	[ -n "${THRESHOLD:-}" ] && set -- "$@" --threshold "$THRESHOLD"
fi
: >"$OUTPUT/result.txt" || exit 1
if [ -s "$OUTPUT/result.json" ]; then
	"$INTERBENCH" export --format lava "$@" "$OUTPUT/result.json" >"$OUTPUT/result.txt"
	[ $? -le 1 ] || echo "interbench-export fail" >>"$OUTPUT/result.txt"  # 1: a case failed
fi
# 4: the run completed with some pairs failed (man interbench, EXIT STATUS): each failed pair
# is a failed case of its own above, the run itself passed
case $rc in 0|4) run=pass ;; *) run=fail ;; esac
echo "interbench-run $run" >>"$OUTPUT/result.txt" || exit 1
while read -r id result value unit; do
	if command -v lava-test-case >/dev/null 2>&1; then
		lava-test-case "$id" --result "$result" ${value:+--measurement "$value" --units "$unit"}
	else
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id RESULT=$result${value:+ MEASUREMENT=$value UNITS=$unit}>"
	fi
done <"$OUTPUT/result.txt"
echo "interbench-lava: done"
