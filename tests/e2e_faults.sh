#!/usr/bin/env bash
# Fault injection: signals at any moment, a load killed mid-run, main SIGKILLed, a realtime
# limit's kill, and runs without privileges.  Usage: tests/e2e_faults.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin faults "${1:-}"   # BIN: a private copy, so pgrep finds only our processes
e2e_at_exit 'pkill -KILL -f "$BIN" 2>/dev/null'
cd "$TMP" || exit 1
"$BIN" -t 1 -c -W Audio -w None >/dev/null 2>&1   # calibrate once

# Background jobs start with env --default-signal=INT,QUIT: a script's background job starts
# with SIGINT and SIGQUIT ignored, and a signal ignored at start stays ignored (as under nohup).
now_ms() { date +%s%3N; }
# A run given a signal ends within HANG_S, or it hangs: a bound far above the time it takes (a
# fraction of a second; the time is printed, never compared: on a shared host it is the other
# processes' figure).  The exit status and the "interrupted" in the outputs show that the
# signal, not the run's end, stopped it.
HANG_S=60
# procs_left: whether a process of ours is still there once its exit (children die with main
# through PR_SET_PDEATHSIG, asynchronously) had up to 60 s to happen.
procs_left() {
	for _ in $(seq 600); do
		pgrep -f "$BIN" >/dev/null || return 1
		sleep 0.1
	done
	return 0
}
# wait_children PID N: until PID has N children (load, then bench once the ramp-up is over);
# bounded at 60 s so a slow (sanitized) build waits for the state instead of guessing a time.
wait_children() {
	for _ in $(seq 600); do
		[ "$(pgrep -c -P "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# interrupt SIG EXPECTED_STATUS: a logged run with Burn and Write loads, killed in the
# middle of the Write pair (Burn runs first: 1 s ramp-up + 2 s, then Write).
interrupt() {
	local sig=$1 want=$2 out="$TMP/int-$1.out" log
	log="$TMP/$(uname -r).log"
	rm -f "$log" "$TMP"/*.json
	mkdir -p "$TMP/wd"
	env --default-signal=INT,QUIT "$BIN" -t 2 -W Audio -w Write -w Burn --workdir "$TMP/wd" --file-size 64M -m "interrupt $sig" >"$out" 2>&1 &
	local pid=$!
	# Burn's pair first; the Write pair has begun once its scratch file exists.
	for _ in $(seq 600); do [ -n "$(ls -A "$TMP/wd")" ] && break; sleep 0.1; done
	wait_children "$pid" 2
	sleep 0.5
	local t0; t0=$(now_ms)
	kill -"$sig" "$pid"
	wait_within "$HANG_S" "$pid"
	local rc=$? dt=$(( $(now_ms) - t0 ))
	if [ "$rc" = "$want" ]; then ok "SIG$sig: exit status $want, in $dt ms"; else bad "SIG$sig: exit status $rc in $dt ms, wanted $want (137: killed after ${HANG_S} s)" "$out"; fi
	if ! procs_left; then ok "SIG$sig: no process left"; else bad "SIG$sig: processes left"; pgrep -af "$BIN"; fi
	if [ -z "$(ls -A "$TMP/wd")" ]; then ok "SIG$sig: no scratch file left"; else bad "SIG$sig: scratch files left: $(ls "$TMP/wd")"; fi
	if grep -q '^Burn .*+/-' "$log" && grep -q '^Write .*+/-' "$log" && grep -q 'interrupted' "$log"; then ok "SIG$sig: logfile keeps the partial result"
	else bad "SIG$sig: logfile keeps the partial result" "$log"; fi
	if python3 - "$sig" "$TMP"/"$(uname -r)"-*.json <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
assert d["run"]["interrupted_by"] == "SIG" + sys.argv[1], d["run"]
write = [r for r in d["results"] if r["load"] == "Write"]
assert write and write[0]["interrupted"] and "failed" not in write[0], write
PY
	then ok "SIG$sig: JSON marks the run interrupted and keeps the partial pair"; else bad "SIG$sig: JSON marks the interruption"; fi
}
interrupt INT 130
# SIGTERM takes SIGINT's path (host/child.c stop_signals_catch: one handler); under a
# sanitizer it is left out (tests/e2e_hardening_files.sh sends a dozen more signals natively).
if e2e_sanitized; then e2e_left_out "SIGTERM mid-run: the handler's path of SIGINT again"; else interrupt TERM 143; fi

# A second signal exits at once, leaving no child and no scratch file (the handler unlinks
# the run's registered files before _exit; the Write load is mid-file here).  Two SIGINTs
# sent back to back can merge into one pending signal, which would only test the orderly
# path; so main is stopped, given SIGINT and SIGTERM (distinct signals never merge) and
# continued: the second handler then runs before main can clean up in order.
mkdir -p "$TMP/wd2"
env --default-signal=INT,QUIT "$BIN" -t 5 -c -W Audio -w Write --workdir "$TMP/wd2" --file-size 64M >/dev/null 2>&1 &
pid=$!
wait_children "$pid" 2   # inside the window: load and bench running
kill -STOP "$pid"; kill -INT "$pid"; kill -TERM "$pid"; kill -CONT "$pid"
wait_within "$HANG_S" "$pid"; rc=$?
if [ "$rc" -ge 128 ] && ! procs_left && [ -z "$(ls -A "$TMP/wd2")" ]; then ok "second signal: exit $rc at once, no child, no scratch file left"
else bad "second signal (exit $rc), left: $(ls "$TMP/wd2")"; fi

# SIGINT during calibration: exits at once and keeps the saved value (never saves a 0).
cp "$XDG_CACHE_HOME/interbench/loops_per_ms" "$TMP/cal.saved"
env --default-signal=INT,QUIT "$BIN" -b -t 1 -c -W Audio -w None >"$TMP/cal.out" 2>&1 &
pid=$!
# The measurement (over a second: warm-up, then at least three estimates) has begun, after
# the handlers were installed, once its line is out.
wait_for grep -q '^Measuring loops_per_ms' "$TMP/cal.out"
t0=$(now_ms); kill -INT "$pid"; wait_within "$HANG_S" "$pid"; rc=$?; dt=$(( $(now_ms) - t0 ))
if [ "$rc" = 130 ] && cmp -s "$TMP/cal.saved" "$XDG_CACHE_HOME/interbench/loops_per_ms" &&
   grep -q 'interrupted (.*) while measuring loops_per_ms' "$TMP/cal.out"
then ok "SIGINT while calibrating: 130 in $dt ms, saved value kept"
else bad "SIGINT while calibrating: exit $rc in $dt ms" "$TMP/cal.out"; fi

# SIGINT while the Read load's file is being created (before any timed window).
mkdir -p "$TMP/rd"
env --default-signal=INT,QUIT "$BIN" -t 1 -c -W Audio -w Read --workdir "$TMP/rd" --file-size 1G >"$TMP/rd.out" 2>&1 &
pid=$!
# Creating 1 GiB (written, synced, dropped from the cache) has begun once the file exists; the
# failed row below shows the signal landed before the file was done.
wait_for compgen -G "$TMP/rd/interbench-read-*.tmp" >/dev/null
t0=$(now_ms); kill -INT "$pid"; wait_within "$HANG_S" "$pid"; rc=$?; dt=$(( $(now_ms) - t0 ))
if [ "$rc" = 130 ] && [ -z "$(ls -A "$TMP/rd")" ] &&
   grep -q '^Read .*failed: creating the read file: interrupted' "$TMP/rd.out"
then ok "SIGINT while creating the read file: 130 in $dt ms, no file left"
else bad "SIGINT while creating the read file: exit $rc in $dt ms, left: $(ls "$TMP/rd")" "$TMP/rd.out"; fi

# main SIGKILLed: its children die with it (PR_SET_PDEATHSIG).
env --default-signal=INT,QUIT "$BIN" -t 5 -c -W Audio -w Burn >/dev/null 2>&1 &
pid=$!
wait_children "$pid" 2   # there are children to take along
kids=$(pgrep -c -P "$pid")
kill -KILL "$pid"; wait "$pid" 2>/dev/null
if [ "$kids" -ge 2 ] && ! procs_left; then ok "SIGKILL of main takes the children along"; else bad "SIGKILL of main: $kids children before it, left after it: $(pgrep -af "$BIN")"; fi

# A load killed mid-run: that pair is reported failed, the next pair runs (loads run in
# table order: Ring after Burn).
out="$TMP/killload.out"
env --default-signal=INT,QUIT "$BIN" -t 2 -c -W Audio -w Burn -w Ring >"$out" 2>&1 &
pid=$!
wait_children "$pid" 2   # inside the window: the oldest child is the load, the other the bench
load=$(pgrep -o -P "$pid")
[ -n "$load" ] && kill -KILL "$load"
wait_within "$HANG_S" "$pid"; rc=$?
if [ "$rc" = 4 ] && grep -q '^Burn .*failed: .*load process .*killed by signal 9' "$out" && grep -q '^Ring .*+/-' "$out"
then ok "killed load: pair failed, next pair ran, exit 4"; else bad "killed load: pair failed, next pair ran (exit $rc)" "$out"; fi

# A realtime task that never blocks, under a finite RLIMIT_RTTIME (ProAudio stuck in its first
# period, SCHED_FIFO as root): the kernel kills the bench process, and the reason names the limit.
out="$TMP/rttime.out"
if [ "$(id -u)" = 0 ] && command -v prlimit >/dev/null; then
	prlimit --rttime=100000:200000 "$BIN" -t 1 -c -W ProAudio -w None -l 4294967295 >"$out" 2>&1; rc=$?
	if [ "$rc" = 1 ] &&
	   grep -q '^None .*failed: bench process ended without a result (killed by signal 9 (Killed): RLIMIT_RTTIME of 200000 us exceeded?)$' "$out"
	then ok "RLIMIT_RTTIME: the bench killed, the reason names the limit"
	else bad "RLIMIT_RTTIME named in the reason (exit $rc, want 1: no pair measured)" "$out"; fi
else
	skip "RLIMIT_RTTIME needs root (SCHED_FIFO) and prlimit"
fi

# Without privileges: warnings for a normal run, refusals (exit 2) before anything starts.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -p "$TMP/user" && chmod 777 "$TMP/user" "$TMP/cache" 2>/dev/null
	asuser() { (cd "$TMP/user" && XDG_CACHE_HOME="$TMP/user" setpriv --reuid 65534 --regid 65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$BIN" "$@"); }
	out="$TMP/user.out"
	if asuser -t 1 -c -W Audio -w None >"$out" 2>&1 && grep -q 'warning: no SCHED_FIFO' "$out" &&
	   grep -q 'CAP_IPC_LOCK' "$out" && grep -q '^None .*+/-' "$out"
	then ok "unprivileged normal run: warns and runs"; else bad "unprivileged normal run" "$out"; fi
	for args in "-r" "-B -1" "-N -5"; do
		# shellcheck disable=SC2086
		asuser $args -t 1 -c >"$out" 2>&1; rc=$?
		if [ "$rc" = 2 ] && grep -q "interbench: ${args%% *}: .*not permitted.*setcap" "$out" && ! grep -q Benchmarking "$out"
		then ok "unprivileged $args refused (exit 2)"; else bad "unprivileged $args refused (exit $rc)" "$out"; fi
	done
	if [ -e /dev/cpu_dma_latency ]; then
		asuser --dma-latency 0 -t 1 -c -W Audio -w None >"$out" 2>&1; rc=$?
		if [ "$rc" = 2 ] && [ "$(wc -l <"$out")" = 1 ] && grep -q "interbench: --dma-latency: open /dev/cpu_dma_latency: Permission denied" "$out"
		then ok "unprivileged --dma-latency refused (exit 2)"; else bad "unprivileged --dma-latency refused (exit $rc)" "$out"; fi
	else
		skip "unprivileged --dma-latency: no /dev/cpu_dma_latency here"
	fi
else
	skip "unprivileged runs need root and setpriv"
fi

e2e_end
