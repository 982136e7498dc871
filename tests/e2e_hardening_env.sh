#!/usr/bin/env bash
# Limits of the environment: Memload inside a 512 MiB memory cgroup (and below one), the OOM
# killer in a 12 MiB one, -r where
# the kernel refuses SCHED_FIFO (a cpu cgroup without a realtime budget, a user namespace), and
# sizes beyond any disk.  Cgroups are created where this
# machine allows it (as root, a writable v2 or v1 hierarchy) and removed at the end; otherwise
# the case is counted as a skip (tests/lib/e2e.sh).  Usage: tests/e2e_hardening_env.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin env "${1:-}"   # BIN: a private copy, so pgrep finds only our processes
CGROUPS=()                        # cgroups created here, innermost last

cgroup_empty() { [ -z "$(cat "$1/cgroup.procs" 2>/dev/null)" ]; }
# remove_cgroup DIR: moves what is still in it (our own processes, dying) to its parent, then
# removes it once it is empty.
remove_cgroup() {
	local cg=$1 p
	[ -d "$cg" ] || return 0
	while read -r p; do echo "$p" >"$(dirname "$cg")/cgroup.procs" 2>/dev/null; done <"$cg/cgroup.procs"
	wait_for cgroup_empty "$cg"
	rmdir "$cg" 2>/dev/null || echo "warning: cannot remove cgroup $cg" >&2
}
cleanup() {
	pkill -KILL -f "$BIN" 2>/dev/null
	for ((i = ${#CGROUPS[@]} - 1; i >= 0; i--)); do remove_cgroup "${CGROUPS[i]}"; done
}
e2e_at_exit cleanup
# in_cgroup DIR CMD...: runs CMD as a process of the cgroup DIR.
in_cgroup() { sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$@"; }
# v1_mount CONTROLLER: where the v1 hierarchy holding CONTROLLER is mounted, if it is.
v1_mount() { awk -v c="$1" '{ for (i = 7; i <= NF && $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ ("," c ",")) { print $5; exit } }' /proc/self/mountinfo; }
# v2_root: the unified hierarchy's mount point when /sys/fs/cgroup is one.
v2_root() { [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] && echo /sys/fs/cgroup; }

cd "$TMP" || exit 1
e2e_calibrate   # LPMS: the memory cgroups' runs take it with -l (tests/lib/e2e.sh)

### Memload in a memory cgroup.
# make_mem_cgroup: creates a memory cgroup MEMCG (no limit yet) with a child MEMCG/inner for
# the runs (v2 allows processes only in leaves) and sets MEMV to 1 or 2.  Fails where cgroups
# cannot be created here.
make_mem_cgroup() {
	local root
	[ "$(id -u)" = 0 ] || return 1
	if root=$(v2_root) && grep -qw memory "$root/cgroup.subtree_control" 2>/dev/null; then
		MEMV=2
	elif root=$(v1_mount memory) && [ -n "$root" ]; then
		MEMV=1
	else
		return 1
	fi
	MEMCG="$root/interbench-e2e-$$"
	mkdir "$MEMCG" || return 1
	CGROUPS+=("$MEMCG")
	if [ "$MEMV" = 2 ]; then echo +memory >"$MEMCG/cgroup.subtree_control" || return 1; fi
	mkdir "$MEMCG/inner" || return 1
	CGROUPS+=("$MEMCG/inner")
}
# limit DIR FILE VALUE: sets a memory limit; FILE is "max" or "high", VALUE "max" for none.
limit() {
	if [ "$MEMV" = 2 ]; then echo "$3" >"$1/memory.$2"
	else echo "${3/#max/-1}" >"$1/memory.limit_in_bytes"; fi
}
limit_file() { if [ "$MEMV" = 2 ]; then echo "memory.$1"; else echo memory.limit_in_bytes; fi; }
# oom_kills: the OOM kills counted in MEMCG and MEMCG/inner (v1 counts a kill in the victim's
# cgroup only, v2's memory.events in every ancestor too: the sum grows with any kill).
oom_kills() {
	local f
	f=$(if [ "$MEMV" = 2 ]; then echo memory.events; else echo memory.oom_control; fi)
	awk '$1 == "oom_kill" { n += $2 } END { print n + 0 }' "$MEMCG/$f" "$MEMCG/inner/$f"
}
# peak_mib DIR: the most the cgroup ever held, where the kernel says.
peak_mib() {
	local b
	b=$(cat "$1/$(if [ "$MEMV" = 2 ]; then echo memory.peak; else echo memory.max_usage_in_bytes; fi)" 2>/dev/null)
	echo $(( ${b:-0} >> 20 ))
}

# memload_in CG FILE MIB WHAT: a logged Memload run in MEMCG/inner, whose policy must name
# the limit FILE of MIB MiB in the cgroup CG, with the run completing and no OOM kill.
memload_in() {
	local cg=$1 file=$2 mib=$3 what=$4 dir="$TMP/mem-$4" out log kills size rc
	mkdir -p "$dir"
	out="$dir/out" log="$dir/$(uname -r).log"
	kills=$(oom_kills)
	(cd "$dir" && in_cgroup "$MEMCG/inner" "$BIN" -l "$LPMS" -t 1 -W Audio -w Memload) >"$out" 2>&1
	rc=$?
	wait_for cgroup_empty "$MEMCG/inner"
	local want="^Memload: [0-9.]+ MiB = cgroup $cg $file $mib.0 MiB - used [0-9.]+ MiB - reserve 64.0 MiB\$"
	if [ "$rc" = 0 ] && grep -Eq "$want" "$out" && grep -Eq "$want" "$log"
	then ok "Memload $what: exit 0, the policy line names $file $mib MiB of $cg on the console and in the logfile"
	else bad "Memload $what: policy line naming $file $mib MiB of $cg (exit $rc)" "$out"; fi
	size=$(sed -nE 's/^Memload: ([0-9]+)\.[0-9] MiB = cgroup.*/\1/p' "$out")
	if grep -q '^Memload .*+/-' "$out" && [ -n "$size" ] && [ "$size" -le $((mib - 64)) ] && [ "$size" -ge $((mib / 2)) ]
	then ok "Memload $what: the pair was measured with $size MiB"
	else bad "Memload $what: pair measured, size between $((mib / 2)) and $((mib - 64)) MiB (size '$size')" "$out"; fi
	if [ "$(oom_kills)" = "$kills" ] && ! grep -q 'killed by signal' "$out"
	then ok "Memload $what: no OOM kill (oom_kill count still $kills; the cgroup's peak: $(peak_mib "$MEMCG") MiB)"
	else bad "Memload $what: OOM kills $kills -> $(oom_kills)" "$out"; fi
}
if grep -Eq '__(a|t)san_init' "$BIN"; then
	# Measured: under TSan the shadow of the load's blocks (charged to the cgroup, unseen by
	# the policy) brings the OOM killer; under ASan it leaves 5 MiB of 512.
	skip "Memload in a memory cgroup: a sanitizer's shadow memory for the load's blocks is charged to the cgroup beyond the policy's figures"
elif make_mem_cgroup; then
	limit "$MEMCG/inner" max 512M && memload_in "$MEMCG/inner" "$(limit_file max)" 512 own-limit
	limit "$MEMCG/inner" max max && limit "$MEMCG" max 512M &&
		memload_in "$MEMCG" "$(limit_file max)" 512 parent-limit
	if [ "$MEMV" = 2 ]; then
		limit "$MEMCG/inner" high 384M && memload_in "$MEMCG/inner" memory.high 384 memory.high
	else
		skip "Memload under memory.high: cgroup v1 has no memory.high"
	fi
else
	skip "Memload in a 512 MiB memory cgroup: cannot create one here (needs root and a v2 hierarchy at /sys/fs/cgroup with the memory controller, or a v1 memory hierarchy)"
fi

### Out of memory: Write in a 12 MiB memory cgroup, its --workdir a tmpfs of its own, brings the
# cgroup's OOM killer, which takes the load process (oom_score_adj 1000), never main (-999):
# the run ends (exit 4: a pair failed) with Write's row failed naming the OOM killer, None's row measured, no
# scratch file left.  The cgroup's limit confines the OOM killer to the cgroup.  On a tmpfs the
# file's pages are shared memory that reclaim cannot write back (nor swap: the cgroup's swap is
# turned off), so every run brings the kill; on a disk, writeback kept up in 5 runs of 5 here
# (cgroup v1, Linux 6.18) and in 1 of 5 elsewhere.  The tmpfs is 128 MiB: the load refuses a
# 64 MiB file with less than 70.4 MiB free.
oom_in_cgroup() {
	local load=$1 size=$2 dir="$TMP/oom-$1" out kills rc
	out="$dir/out"
	limit "$MEMCG" max max && limit "$MEMCG/inner" max 12M || return 1
	if [ "$MEMV" = 2 ]; then
		limit "$MEMCG/inner" high max && { [ ! -e "$MEMCG/inner/memory.swap.max" ] || echo 0 >"$MEMCG/inner/memory.swap.max"; } || return 1
	else
		echo 0 >"$MEMCG/inner/memory.swappiness" || return 1
	fi
	rm -rf "$dir" && mkdir -p "$dir/wd" && mount -t tmpfs -o size=128m,mode=700 ib-e2e-oom "$dir/wd" || return 1
	e2e_at_exit "umount '$dir/wd' 2>/dev/null"
	kills=$(oom_kills)
	(cd "$dir" && in_cgroup "$MEMCG/inner" "$BIN" -l "$LPMS" -t 2 -W Audio -w None -w "$load" --workdir wd --file-size "$size") >"$out" 2>&1
	rc=$?
	wait_for cgroup_empty "$MEMCG/inner"
	limit "$MEMCG/inner" max max
	if [ "$rc" = 4 ] && grep -q '^None .*+/-' "$dir/$(uname -r).log" &&
	   grep -Eq "^$load +failed: load process ended without a result \(killed by signal 9 \(Killed\): the OOM killer\? \([0-9]+ OOM kills? meanwhile\\)\\)\$" "$dir/$(uname -r).log" &&
	   [ "$(oom_kills)" != "$kills" ] && [ -z "$(ls -A "$dir/wd")" ]
	then ok "OOM in a 12 MiB cgroup: $load was killed, main lived (exit 4: a pair failed), its row failed naming the OOM killer, no scratch file"
	else bad "OOM in a 12 MiB cgroup, $load: main must survive (exit $rc), the row failed naming the OOM killer (OOM kills $kills -> $(oom_kills)), left: $(ls -A "$dir/wd")" "$out"; fi
	umount "$dir/wd"
}
if grep -Eq '__(a|t)san_init' "$BIN"; then
	skip "OOM in a 12 MiB cgroup: a sanitizer's shadow memory alone outgrows it"
elif [ -n "${MEMCG:-}" ] || make_mem_cgroup; then
	# Write: a load child's file pages.  (Read's file is written by a child of main too, but
	# once that child is killed main may be alone with the cgroup's page cache, and a 12 MiB
	# cgroup holds little more than main's own locked memory: main can still be the victim.)
	oom_in_cgroup Write 64M || bad "OOM in a 12 MiB cgroup: cannot set the limit, turn swap off or mount the tmpfs"
else
	skip "OOM in a 12 MiB memory cgroup: cannot create one here"
fi

### -r where the kernel refuses SCHED_FIFO although capabilities and limits allow it.
# rt_refused WHAT WANT PREFIX...: under PREFIX (a command running the rest of the line) the
# kernel refuses SCHED_FIFO: a logged -r run must be refused before anything starts (exit 2,
# one line naming the cause WANT, a regex; no logfile, no JSON), a normal run must warn the
# same way and complete.
rt_refused() {
	local what=$1 want=$2 dir="$TMP/rt-$1" out rc; shift 2
	mkdir -p "$dir"
	out="$TMP/rt-$what.out"
	local head="the kernel refused SCHED_FIFO priority [0-9]+ on a test thread \(sched_setscheduler: Operation not permitted\): "
	(cd "$dir" && "$@" "$BIN" -r -t 1 -W Audio -w None) >"$out" 2>&1; rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <"$out")" = 1 ] && grep -Eq "^interbench: -r: $head$want" "$out" && [ -z "$(ls -A "$dir")" ]
	then ok "$what: -r refused before anything starts (exit 2), naming the cause"
	else bad "$what: -r refused naming '$want' (exit $rc), files: $(ls -A "$dir")" "$out"; fi
	(cd "$dir" && "$@" "$BIN" -t 1 -c -W Audio -w None) >"$out" 2>&1; rc=$?
	if [ "$rc" = 0 ] && grep -Eq "^interbench: warning: no SCHED_FIFO: the timing thread runs at normal priority and results are less reliable; $head$want" "$out" &&
	   grep -q '^None .*+/-' "$out"
	then ok "$what: without -r a warning naming the cause, and the run completes"
	else bad "$what: without -r, warning and a completed run (exit $rc)" "$out"; fi
}
# make_rt_cgroup: creates the cpu cgroup RTCG with cpu.rt_runtime_us 0.  Returns 1 where no
# cpu cgroup can be created here, 2 when the kernel has no RT group scheduling.
make_rt_cgroup() {
	local root
	[ "$(id -u)" = 0 ] || return 1
	if root=$(v1_mount cpu) && [ -n "$root" ]; then :
	elif root=$(v2_root) && grep -qw cpu "$root/cgroup.subtree_control" 2>/dev/null; then :
	else return 1; fi
	RTCG="$root/interbench-e2e-rt-$$"
	mkdir "$RTCG" || return 1
	CGROUPS+=("$RTCG")
	[ -f "$RTCG/cpu.rt_runtime_us" ] || return 2
	[ "$(cat "$RTCG/cpu.rt_runtime_us")" = 0 ] || echo 0 >"$RTCG/cpu.rt_runtime_us"
}
make_rt_cgroup; rc=$?
if [ "$rc" = 0 ]; then
	rt_refused rt-budget-0 "the cpu cgroup $RTCG has cpu.rt_runtime_us = 0, no realtime budget; give it one, e\.g\. echo 500000 > $RTCG/cpu\.rt_runtime_us" \
		in_cgroup "$RTCG"
	# the fix the message gives
	if echo 500000 >"$RTCG/cpu.rt_runtime_us" 2>/dev/null; then
		out="$TMP/rt-fixed.out"
		in_cgroup "$RTCG" "$BIN" -r -t 1 -c -W Audio -w None >"$out" 2>&1; rc=$?
		if [ "$rc" = 0 ] && grep -q '^None .*+/-' "$out" && ! grep -v "^warning: a realtime budget below" "$out" | grep -q warning
		then ok "rt-budget-0: with the budget the message suggests, -r runs (warned only of the budget)"; else bad "rt-budget-0: -r with a budget of 500000 (exit $rc)" "$out"; fi
	else
		skip "rt-budget-0: no budget of 500000 us left in the parent cgroup to try the fix"
	fi
	# A tight budget the run is under (5 % of each CPU): the header states it with a warning,
	# the audit and the JSON record it.  The pair itself may read few deadlines met or fail (its
	# bench process throttled past the report's 2 s): exit 0 or 1, the recording is checked.
	e2e_saved_lpms   # as saved now (a run above may have measured it again)
	if echo 50000 >"$RTCG/cpu.rt_runtime_us" 2>/dev/null; then
		out="$TMP/rt-tight.out"
		in_cgroup "$RTCG" "$BIN" -l "$LPMS" -t 1 -c -W Audio -w None --json "$TMP/rt-tight.json" >"$out" 2>&1; rc=$?
		if { [ "$rc" = 0 ] || [ "$rc" = 1 ]; } && grep -qxF "Realtime budget: 50000 us per 1000000 us (5 % of each CPU) ($RTCG/cpu.rt_runtime_us)" "$out" &&
		   grep -q "^warning: a realtime budget below the kernel's default 95 %: " "$out" &&
		   grep -q '^Audit: known to hurt interactivity here: .*rt_budget' "$out" &&
		   python3 - "$TMP/rt-tight.json" "$RTCG/cpu.rt_runtime_us" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["machine"]
assert (m["rt_runtime_us"], m["rt_period_us"], m["rt_runtime_source"]) == (50000, 1000000, sys.argv[2]), m
assert m["audit"]["rt_budget"]["hint"], m["audit"]["rt_budget"]
PY
		then ok "rt-budget-50000: the header, the audit and the JSON record it, with a warning"
		else bad "rt-budget-50000: recorded with a warning (exit $rc)" "$out"; fi
	else
		skip "rt-budget-50000: no budget of 50000 us left in the parent cgroup"
	fi
	# A SIGTERM while loops_per_ms is measured at SCHED_FIFO under a budget of 25 ms a second:
	# a measurement (10 samples of 20 ms of CPU) takes about 8 s there, so a stop looked at only
	# between measurements acted 6.6-7.6 s after the signal (measured on f224d61 here, the
	# signal 1-1.5 s after "Measuring"); looked at every millisecond of CPU it acts within the
	# budget's next 1 s period at most (0.1-1.0 s measured at budgets of 21-50 ms).  4 s sits
	# clear of both.
	if echo 25000 >"$RTCG/cpu.rt_runtime_us" 2>/dev/null; then
		out="$TMP/rt-calib.out"
		# not in_cgroup: a function run in the background is a subshell, and $! would be its pid
		sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$RTCG" "$BIN" --recalibrate -t 1 -c -W Audio -w None >"$out" 2>&1 &
		pid=$!
		wait_for grep -q '^Measuring loops_per_ms' "$out"
		sleep 1
		t0=$(date +%s%N)
		kill -TERM "$pid"
		for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
		ms=$((($(date +%s%N) - t0) / 1000000))
		kill -KILL "$pid" 2>/dev/null
		wait "$pid"; rc=$?
		if [ "$rc" = 143 ] && [ "$ms" -lt 4000 ] && grep -q '^interbench: interrupted (Terminated) while measuring loops_per_ms$' "$out"
		then ok "rt-budget-25000: a SIGTERM during calibration at SCHED_FIFO acted after $ms ms (under 4 s), exit 143"
		else bad "rt-budget-25000: a SIGTERM during calibration acted after $ms ms (exit $rc)" "$out"; fi
	else
		skip "rt-budget-25000: no budget of 25000 us left in the parent cgroup"
	fi
	wait_for cgroup_empty "$RTCG"
elif [ "$rc" = 2 ]; then
	skip "-r in a cpu cgroup without realtime budget: this kernel has no RT group scheduling (no cpu.rt_runtime_us), so a cgroup cannot withhold SCHED_FIFO"
else
	skip "-r in a cpu cgroup without realtime budget: cannot create a cpu cgroup here (needs root and a v1 cpu hierarchy, or v2 with the cpu controller)"
fi
if [ "$(id -u)" = 0 ] && unshare --user --map-root-user true 2>/dev/null; then
	rt_refused user-namespace "this process is in a user namespace, whose capabilities do not count for realtime scheduling" \
		unshare --user --map-root-user
else
	skip "-r in a user namespace: needs root and unshare --user"
fi

### Sizes beyond any disk: refused by the parser, or failing the pair with the real figures.
out="$TMP/size.out"
for arg in "--file-size 16777215T" "--mem-size 1048577T" "--file-size 1048575"; do
	# shellcheck disable=SC2086
	"$BIN" $arg -t 1 -c -W Audio -w None >"$out" 2>&1; rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <"$out")" = 1 ] &&
	   grep -q "^interbench: ${arg%% *}: invalid size '${arg#* }' (accepted: 1M to 1048576T, with an optional K, M, G or T suffix)\$" "$out"
	then ok "$arg refused (exit 2), naming the range"; else bad "$arg refused (exit $rc)" "$out"; fi
done
mkdir -p "$TMP/wd"
"$BIN" --file-size 1048576T --workdir "$TMP/wd" -t 1 -c -W Audio -w Write -w Compile >"$out" 2>&1; rc=$?
if [ "$rc" = 1 ] &&
   grep -Eq '^Write .*failed: .*1 file of 1\.0 EiB needs 1\.1 EiB with a 10% margin; [0-9.]+ [MGT]iB free' "$out" &&
   grep -Eq '^Compile .*failed: .*2 files of 1\.0 EiB need 2\.2 EiB with a 10% margin' "$out" && [ -z "$(ls -A "$TMP/wd")" ]
then ok "--file-size 1048576T: the pairs fail stating 1.1 EiB (2.2 EiB for Compile) needed, nothing left"
else bad "--file-size 1048576T: real figures (exit $rc), left: $(ls -A "$TMP/wd")" "$out"; fi

e2e_end
