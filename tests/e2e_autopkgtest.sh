#!/bin/bash
# The autopkgtest's skip decision: debian/tests/smoke's block after its benchmark run (taken
# from the script as it is, with debian/tests/skippable) fed recorded interbench outputs.  It
# skips (exit 77) only where interbench said no pair could be measured and every pair failed
# on a limit of the machine; a refused output path, a crash, a measured pair or a timeout fail
# (exit 1) whatever the warnings say ("Operation not permitted" in a user namespace).
# Runs no benchmark.
# Usage: e2e_autopkgtest.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin autopkgtest "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
sed -n '/^if \[ "\$rc" != 0 \]; then$/,/^fi$/p' "$E2E_TREE/debian/tests/smoke" >decide.sh
[ -s decide.sh ] || { bad "no 'if [ \"\$rc\" != 0 ]' block in debian/tests/smoke"; e2e_end; }

warn1='interbench: warning: no SCHED_FIFO (no CAP_SYS_NICE, RLIMIT_RTPRIO 0): the timing thread runs at normal priority and results are less reliable'
warn2='interbench: warning: sched_setscheduler(SCHED_FIFO): Operation not permitted'
head='--- Benchmarking simulated cpu of Audio in the presence of simulated ---
Load      Latency +/- SD (ms)    Max Latency   % Desired CPU  % Deadlines Met'
none_pair='interbench: no pair could be measured (every one failed; see the reasons above)'

# decides NAME STATUS WANT: with run.txt written, the block run by sh as the smoke test runs
# it, after interbench exited STATUS, exits WANT (77: skipped; 1: failed).
decides() {
	sh -c 'here=$1 rc=$2; . ./decide.sh; echo "no decision"; exit 0' sh "$E2E_TREE/debian/tests" "$2" >decision.txt 2>&1
	local got=$?
	if [ "$got" = "$3" ]; then ok "$1: exit $3"
	else { echo "exit $got, not $3; run.txt:"; cat run.txt; echo "decision:"; cat decision.txt; } >why.txt; bad "$1" why.txt; fi
}

printf '%s\n' "$warn1" "$warn2" "$head" 'None      failed: bench: pthread_create: Resource temporarily unavailable' \
	'Burn      failed: fork (bench): Resource temporarily unavailable' "$none_pair" >run.txt
decides "a process limit: every pair failed on EAGAIN" 1 77
printf '%s\n' "$warn1" "$head" 'None      failed: bench: open scratch: No space left on device' \
	'Burn      failed: mmap: Cannot allocate memory' "$none_pair" >run.txt
decides "a full disk, no memory: every pair failed on ENOSPC or ENOMEM" 1 77
printf '%s\n' "$warn1" "$warn2" "interbench: --json: r.json is a symbolic link; not followed (use - for stdout) (accepted: a new file or a regular file of your own, a FIFO or device with a reader, or - for stdout)" >run.txt
decides "a planted symlink at r.json in a user namespace (exit 2)" 2 1
printf '%s\n' "$warn2" "$head" 'None        0.0196 +/- 0.0105          0.0831             100              100' \
	'Burn      failed: fork (bench): Resource temporarily unavailable' 'interbench: json: write: Input/output error' >run.txt
decides "a pair measured, the JSON not written" 1 1
printf '%s\n' "$warn2" "$head" 'None      failed: bench: pthread_create: Resource temporarily unavailable' \
	'Burn      failed: killed by signal 11 (Segmentation fault)' "$none_pair" >run.txt
decides "every pair failed, one of them a crash" 1 1
printf '%s\n' "$warn2" "$head" 'None        0.0196 +/- 0.0105          0.0831             100              100' \
	'Burn      failed: fork (bench): Resource temporarily unavailable' >run.txt
decides "one pair failed on EAGAIN, one measured (exit 4)" 4 77
printf '%s\n' "$warn2" "$head" 'None        0.0196 +/- 0.0105          0.0831             100              100' \
	'Burn      failed: killed by signal 11 (Segmentation fault)' >run.txt
decides "one pair crashed, one measured (exit 4)" 4 1
printf '%s\n' "$warn2" "$none_pair" >run.txt
decides "no pair measured and no pair's reason" 1 1
printf '%s\n' "$warn2" "$head" 'None      failed: bench: pthread_create: Resource temporarily unavailable' "$none_pair" >run.txt
decides "a process limit, but the run timed out (timeout's 124)" 124 1
e2e_end
