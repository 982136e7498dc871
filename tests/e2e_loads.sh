#!/bin/bash
# End-to-end runs of the disk, memory, messaging and /proc loads: each load does its work (a non-zero throughput
# line), leaves no scratch file, and an interrupted run cleans up and exits 130.
# Usage: tests/e2e_loads.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin loads "${1:?usage: $0 path/to/interbench}"
WORK=$TMP                             # the loads' --workdir
e2e_calibrate                         # into $TMP/cache; LPMS for -l (tests/lib/e2e.sh)
COMMON=(--workdir "$WORK" --file-size 64M --mem-size 256M -c -v -W Audio -l "$LPMS")

# no_scratch WHAT: no interbench- file may remain in the work directory.
no_scratch() {
	local left
	left=$(find "$WORK" -maxdepth 1 -name 'interbench-*' -printf '%f ')
	if [ -z "$left" ]; then ok "$1: no scratch file left"; else bad "$1: left $left"; fi
}

for load in Write Read Compile Memload Hack Copy Proc; do
	out=$(cd "$WORK" && timeout 30 "$BIN" "${COMMON[@]}" -t 1 -w "$load" 2>&1)
	rc=$?
	[ "$load" = Memload ] && memload_out=$out
	line=$(grep -E "^ +load: $load " <<<"$out")
	if [ $rc -eq 0 ] && grep -qE '[1-9]' <<<"$line" && ! grep -q "failed" <<<"$out"; then
		ok "$load: $(sed 's/^ *load: //' <<<"$line")"
	else
		bad "$load: exit $rc, throughput line '${line}'"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
	no_scratch "$load"
done

# The policy line is in the header whenever Memload runs (the run above).
if grep -q '^Memload: 256.0 MiB (--mem-size)$' <<<"$memload_out"; then ok "Memload policy line"; else bad "Memload policy line missing"; fi

# A stale file (nobody holds its lock: its run is gone, in whatever PID namespace) is removed;
# a live run's file (locked, here by flock(1)) and a symlink with a scratch name are left alone.
touch "$WORK/interbench-write-999999999.tmp" "$WORK/interbench-write-live.tmp" "$WORK/victim"
ln -s "$WORK/victim" "$WORK/interbench-write-link.tmp"
flock "$WORK/interbench-write-live.tmp" sleep 120 &
holder=$!
wait_for_lock() { for _ in $(seq 300); do flock -n "$1" true || return 0; sleep 0.1; done; return 1; }
wait_for_lock "$WORK/interbench-write-live.tmp"
(cd "$WORK" && timeout 30 "$BIN" "${COMMON[@]}" -t 1 -w Write >/dev/null 2>&1)
if [ ! -e "$WORK/interbench-write-999999999.tmp" ] && [ -e "$WORK/interbench-write-live.tmp" ] &&
   [ -L "$WORK/interbench-write-link.tmp" ] && [ -e "$WORK/victim" ] && [ ! -s "$WORK/victim" ]; then
	ok "stale scratch file removed; a live run's file and a planted symlink left alone"
else
	bad "stale scratch handling: $(ls -l "$WORK")"
fi
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
rm -f "$WORK/interbench-write-live.tmp" "$WORK/interbench-write-link.tmp" "$WORK/victim"

# A file that cannot fit is refused before the window with a failed row.
out=$(cd "$WORK" && timeout 30 "$BIN" "${COMMON[@]}" --file-size 1000T -t 1 -w Read 2>&1)
if grep -qE '^Read .*failed.*not enough space' <<<"$out"; then ok "oversized file refused"; else bad "oversized file: $out"; fi
no_scratch "refused Read"

# SIGINT in the middle of a Write run: exit status 130 and the scratch file removed.  The run
# starts with SIGINT at its default (env --default-signal, as in tests/e2e_faults.sh): a
# background job of a shell started in the background itself (nohup sh -c '... &') inherits
# SIGINT ignored, which the program keeps ignored, as under nohup, and so ran to its end.
(cd "$WORK" && exec env --default-signal=INT,QUIT "$BIN" "${COMMON[@]}" -t 5 -w Write >"$WORK/int.out" 2>&1) &
pid=$!
# In the timed window: the Write file exists and main has both children, the load and the
# bench (bounded at 60 s, for the slow sanitizer builds).
inside=0
for _ in $(seq 600); do
	if compgen -G "$WORK/interbench-write-*.tmp" >/dev/null && [ "$(pgrep -c -P "$pid")" -ge 2 ]; then
		inside=1
		break
	fi
	sleep 0.1
done
if [ $inside -eq 1 ]; then ok "SIGINT: Write file and both children there"; else bad "SIGINT: the Write pair never started"; fi
kill -INT "$pid"
wait "$pid"
rc=$?
if [ $rc -eq 130 ]; then ok "SIGINT: exit status 130"; else bad "SIGINT: exit status $rc"; sed 's/^/    /' "$WORK/int.out"; fi
rm -f "$WORK/int.out"
no_scratch "SIGINT"

# A --workdir on a file system in memory (tmpfs) is named as such: the header, each disk
# load's throughput line and its JSON result say that no device is reached.  /dev/shm is a
# tmpfs on the machines this runs on (POSIX shared memory); elsewhere the check fails, saying so.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && shm=$(mktemp -d /dev/shm/ib-e2e-loads.XXXXXX); then
	e2e_at_exit "rm -rf '$shm'"
	out=$(cd "$WORK" && timeout 30 "$BIN" -l "$LPMS" -c -v -W Audio -w Read,Write --workdir "$shm" --file-size 16M -t 1 \
		--json "$WORK/shm.json" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c "^--workdir $shm is on tmpfs: the disk loads' files live in memory, no device is reached$" <<<"$out")" = 1 ] &&
	   grep -qE '^ +load: Read [0-9]+ MB/s read \(in memory on tmpfs: no device reached\)$' <<<"$out" &&
	   grep -qE '^ +load: Write [0-9]+ MB/s written \(in memory on tmpfs: no device reached\)$' <<<"$out" &&
	   python3 -c '
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
assert sorted(r["load"] for r in rs) == ["Read", "Write"], rs
assert all(r["load_storage"] == {"filesystem": "tmpfs", "in_memory": True} for r in rs), rs
' "$WORK/shm.json"; then
		ok "Read and Write on tmpfs: no device reached, in the header, the load lines and the JSON"
	else
		bad "Read and Write on tmpfs (exit $rc): $(grep -E 'workdir|load:' <<<"$out")"
	fi
	rm -f "$WORK/shm.json"
else
	bad "no tmpfs at /dev/shm to run Read on"
fi
# On a disk-backed --workdir (this tree's, unless it is itself in memory) nothing is said.
if [[ "$(stat -f -c %T "$E2E_TREE")" != @(tmpfs|ramfs|overlayfs) ]]; then
	if disk=$(mktemp -d "$E2E_TREE/tests/.ib-e2e-loads.XXXXXX"); then
		e2e_at_exit "rm -rf '$disk'"
		out=$(cd "$WORK" && timeout 30 "$BIN" -l "$LPMS" -c -v -W Audio -w Read --workdir "$disk" --file-size 16M -t 1 2>&1)
		if grep -qE '^ +load: Read [0-9]+ MB/s read$' <<<"$out" && ! grep -q 'no device' <<<"$out"; then
			ok "Read on $(stat -f -c %T "$disk"): no in-memory note"
		else
			bad "Read on a disk: $(grep -E 'workdir|load:' <<<"$out")"
		fi
	else
		bad "Read on a disk: cannot make a directory in $E2E_TREE/tests"
	fi
else
	skip "Read on a disk: this tree is itself on $(stat -f -c %T "$E2E_TREE"), no disk-backed directory to try"
fi

e2e_end
