#!/bin/bash
# End to end: --bench-cgroup and --load-cgroup on this machine's cgroup v2 (the unified
# hierarchy, /sys/fs/cgroup or /sys/fs/cgroup/unified on a hybrid host).  Under a parent cgroup
# of its own (ib-e2e-PID, removed at the end) the script makes w1, with cpu.weight 1 where the
# cpu controller can be enabled there, and runs Audio against Burn with the loads in w1 and
# the task in a cgroup interbench creates: during the run every thread of the load and of the
# bench process is in its cgroup (/proc/PID/task/*/cgroup), and after it the created cgroup is
# gone, w1 (the user's) is left, and the JSON and the logfile header say where each side ran;
# two --load-cgroup alternatives run a pair in each.  Refused paths exit 2 with their reason
# before anything runs (outside the mount, v1, a missing parent, the no-internal-process rule,
# as another user, in a subtree delegated to them, on a read-only mount), and a run
# interrupted by SIGINT, or by a second signal (which exits at once, killing what is in the
# cgroup through cgroup.kill), leaves no cgroup behind.  Cases this machine cannot run (no
# cgroup v2, not root, no controller to enable) are skips saying why.  Usage: e2e_cgroup.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin cgroup "${1:?usage: $0 path/to/interbench}"
e2e_run_dir

mnt=$(findmnt -t cgroup2 -n -o TARGET 2>/dev/null | head -n1)
parent=${mnt:+$mnt/ib-e2e-$$}
if [ -z "$mnt" ]; then
	skip "no cgroup v2 hierarchy is mounted here (findmnt -t cgroup2)"; e2e_end
elif [ "$(id -u)" != 0 ]; then
	skip "placing processes in cgroups needs root here (or a delegated subtree)"; e2e_end
elif ! mkdir "$parent" 2>"$out"; then
	skip "cannot create a cgroup under $mnt: $(cat "$out")"; e2e_end
fi
e2e_at_exit 'for d in "$parent"/*/ "$parent"/; do [ -d "$d" ] && rmdir "$d"; done 2>/dev/null'
mkdir "$parent/w1"
# every controller the parent has, enabled for its children (the parent is the script's own)
for c in $(cat "$parent/cgroup.controllers"); do echo "+$c" >"$parent/cgroup.subtree_control"; done 2>/dev/null
weight=no
if { echo 1 >"$parent/w1/cpu.weight"; } 2>/dev/null; then
	weight=yes
fi
e2e_calibrate

# The cgroup v2 path of each thread of pid (its "0::" line), one a line.
threads_cgroups() { cat /proc/"$1"/task/*/cgroup 2>/dev/null | sed -n 's/^0:://p'; }
# Whether every thread of pid is in cgroup $2 (its path below the hierarchy's root).
all_in() {
	local got
	got=$(threads_cgroups "$1") && [ -n "$got" ] && [ -z "$(grep -vxF "$2" <<<"$got")" ]
}
rel=${parent#"$mnt"}

"$BIN" -t 2 -l "$LPMS" -W Audio -w Burn -L 2 --bench-cgroup "$parent/task" --load-cgroup "ib-e2e-$$/w1" \
	--json run.json >run.txt 2>&1 &
run=$!
if wait_for pgrep -P "$run" -x ib-bench >/dev/null; then
	load=$(pgrep -P "$run" -x ib-load) bench=$(pgrep -P "$run" -x ib-bench)
	wait_for test "$(ls "/proc/$bench/task" 2>/dev/null | wc -l)" -ge 2  # its timing thread started
	all_in "$load" "$rel/w1"; in_load=$? nl=$(threads_cgroups "$load" | wc -l)
	all_in "$bench" "$rel/task"; in_bench=$? nb=$(threads_cgroups "$bench" | wc -l)
	threads_cgroups "$load" >load-threads.txt; threads_cgroups "$bench" >>load-threads.txt
fi
wait "$run"; rc=$?
if [ "$rc" = 0 ] && [ "${in_load:-1}" = 0 ] && [ "${nl:-0}" -ge 3 ]
then ok "the load's $nl threads (2 workers and its control thread) ran in $rel/w1"
else bad "the load's threads in $rel/w1 (exit $rc)" load-threads.txt; fi
if [ "${in_bench:-1}" = 0 ] && [ "${nb:-0}" -ge 2 ]
then ok "the bench's $nb threads (the task and its timing thread) ran in $rel/task, created by the run"
else bad "the bench's threads in $rel/task" load-threads.txt; fi
if [ ! -e "$parent/task" ] && [ -d "$parent/w1" ]
then ok "after the run: the cgroup it created is removed, the user's is left"
else bad "after the run: $(ls "$parent")" run.txt; fi
if python3 - "$SCHEMA" run.json "$parent" "$weight" <<'PY'
import json, sys, jsonschema
schema, doc = (json.load(open(f)) for f in sys.argv[1:3])
parent, weight = sys.argv[3], sys.argv[4]
jsonschema.Draft202012Validator(schema).validate(doc)
(b,), (l,) = doc["run"]["bench_cgroups"], doc["run"]["load_cgroups"]
assert b["dir"] == parent + "/task" and b["created"] is True, b
assert l["dir"] == parent + "/w1" and l["created"] is False, l
assert doc["options"]["load_cgroups"] == [parent.split("/")[-1] + "/w1"], doc["options"]
# one cgroup a side is the whole run's: no setting names it
assert all(r["load_setting"]["cgroup"] is None and r["bench_setting"]["cgroup"] is None for r in doc["results"])
if weight == "yes":
    assert l["cpu_weight"] == "1" and "cpu" in l["controllers"].split(), l
else:
    assert l["cpu_weight"] is None and "cpu" not in l["controllers"].split(), l
PY
then ok "the JSON's run.bench_cgroups and run.load_cgroups (schema-valid)"; else bad "the JSON's cgroups" run.txt; fi
if [ "$weight" = yes ]; then
	if grep -q "^Cgroup of the loads: $parent/w1: cpu.weight 1, cpu.max " "$(uname -r).log" &&
	   grep -q "^Cgroup of the task: $parent/task (created for the run)" "$(uname -r).log"
	then ok "the logfile header: Cgroup of the loads: ... cpu.weight 1"; else bad "the logfile header" "$(uname -r).log"; fi
else
	skip "cpu.weight: the cpu controller is not enabled in $mnt/cgroup.subtree_control (the system's to enable)"
	if grep -q "^Cgroup of the loads: $parent/w1: controllers not enabled in it: cpu" "$(uname -r).log" &&
	   grep -q "warning: --load-cgroup $parent/w1: controllers not enabled in it: cpu" run.txt
	then ok "the logfile header and a warning say which controllers are missing"
	else bad "the missing controllers said" run.txt; fi
fi

# Alternatives: the loads in w1, then in w100 (created), each pair labelled with its cgroup and
# its loads there while it runs.
"$BIN" -t 1 -l "$LPMS" -W Audio -w Burn -L 1 --load-cgroup "$parent/w1" --load-cgroup "$parent/w100" \
	--json alt.json >alt.txt 2>&1 &
run=$!
seen=""
while kill -0 "$run" 2>/dev/null; do
	for p in $(pgrep -P "$run" -x ib-load); do seen="$seen $(threads_cgroups "$p" | sort -u | tr '\n' ' ')"; done
	sleep 0.05
done
wait "$run"; rc=$?
if [ "$rc" = 0 ] && [ ! -e "$parent/w100" ] && grep -q "$rel/w1 " <<<"$seen" && grep -q "$rel/w100 " <<<"$seen" &&
   python3 - "$SCHEMA" alt.json "$parent" <<'PY' &&
import json, sys, jsonschema
schema, doc = (json.load(open(f)) for f in sys.argv[1:3])
jsonschema.Draft202012Validator(schema).validate(doc)
parent = sys.argv[3]
assert [c["dir"] for c in doc["run"]["load_cgroups"]] == [parent + "/w1", parent + "/w100"], doc["run"]
assert sorted(r["load_setting"]["cgroup"] for r in doc["results"]) == [parent + "/w1", parent + "/w100"], doc["results"]
PY
grep -q "cgroup $parent/w100" alt.txt
then ok "two --load-cgroup alternatives: a pair in each, labelled, the created one removed"
else bad "--load-cgroup alternatives (exit $rc; seen:$seen)" alt.txt; fi

# Refusals: before anything runs (no logfile), exit 2, one line with the option and the value.
refused() {
	local want=$1; shift
	rm -f ./*.log
	"$@" >ref.txt 2>&1; rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <ref.txt)" = 1 ] && grep -qF -- "$want" ref.txt && ! ls ./*.log >/dev/null 2>&1
	then ok "refused (exit 2): $want"; else bad "refused: $want (exit $rc)" ref.txt; fi
}
refused "--load-cgroup '$mnt/../x': leads out of the cgroup v2 mount" "$BIN" -t 1 -l "$LPMS" -W Audio -w None --load-cgroup "$mnt/../x"
refused "--bench-cgroup '/tmp': is not in a cgroup v2 hierarchy" "$BIN" -t 1 -l "$LPMS" -W Audio -w None --bench-cgroup /tmp
refused "--load-cgroup '$parent/nope/x': its parent $parent/nope does not exist" \
	"$BIN" -t 1 -l "$LPMS" -W Audio -w None --load-cgroup "$parent/nope/x"
v1=$(findmnt -t cgroup -n -o TARGET 2>/dev/null | head -n1)
if [ -n "$v1" ]; then
	refused "--load-cgroup '$v1/x': is in a cgroup v1 hierarchy" "$BIN" -t 1 -l "$LPMS" -W Audio -w None --load-cgroup "$v1/x"
else
	skip "no cgroup v1 hierarchy here to be refused"
fi
# The no-internal-process rule: w1 with a child and a controller enabled for it takes no process.
ctl=$(awk '{ print $1 }' "$parent/w1/cgroup.controllers")
mkdir "$parent/w1/leaf"
if [ -n "$ctl" ] && echo "+$ctl" >"$parent/w1/cgroup.subtree_control"; then
	refused "--load-cgroup '$parent/w1': the kernel refused to move a process there (Device or resource busy)" \
		"$BIN" -t 1 -l "$LPMS" -W Audio -w None --load-cgroup "$parent/w1"
	echo "-$ctl" >"$parent/w1/cgroup.subtree_control"
else
	skip "the no-internal-process rule: no controller is enabled in $parent/w1 to enable below it"
fi
rmdir "$parent/w1/leaf"
if command -v setpriv >/dev/null; then
	mkdir -p "$TMP/user" && chmod 777 "$TMP/user"
	(cd "$TMP/user" && XDG_CACHE_HOME="$TMP/user" setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$BIN" -t 1 -l "$LPMS" -W Audio -w None --load-cgroup "$parent/mine") >ref.txt 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "--load-cgroup '$parent/mine': not writable: mkdir: Permission denied" ref.txt &&
	   [ ! -e "$parent/mine" ] && ! ls "$TMP"/user/*.log >/dev/null 2>&1
	then ok "refused (exit 2) as another user: not writable: mkdir: Permission denied"; else bad "refused as nobody (exit $rc)" ref.txt; fi
	# A subtree delegated to that user (its directory and files theirs, cgroup-v2.rst
	# "Delegation"): it may make a cgroup there, but not move its process in from a cgroup
	# outside the subtree (the common ancestor's cgroup.procs is root's): the kernel refuses
	# the test move, and the cgroup just made is removed.
	mkdir "$parent/deleg"
	chown 65534:65534 "$parent/deleg" "$parent/deleg/cgroup.procs" "$parent/deleg/cgroup.threads" \
		"$parent/deleg/cgroup.subtree_control"
	(cd "$TMP/user" && XDG_CACHE_HOME="$TMP/user" setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$BIN" -t 1 -l "$LPMS" -W Audio -w None --load-cgroup "$parent/deleg/mine") >ref.txt 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "--load-cgroup '$parent/deleg/mine': not writable: moving a process there: Permission denied" ref.txt &&
	   grep -qF "common ancestor" ref.txt && [ ! -e "$parent/deleg/mine" ]
	then ok "refused (exit 2) in a delegated subtree entered from outside it; the cgroup it made removed"
	else bad "delegated subtree (exit $rc): $(ls "$parent/deleg" | grep -v '^cgroup\.\|\.pressure$\|\.stat')" ref.txt; fi
else
	skip "not writable: setpriv is needed to run as another user"
fi

# A read-only cgroup2 mount, as a container often has: mounted again read-only in a mount
# namespace of its own (unshare -m: nothing leaks out), the run names w1 through it.
if command -v unshare >/dev/null; then
	mkdir -p "$TMP/ro"
	unshare -m sh -c 'mount --make-rprivate / && mount -t cgroup2 -o ro cgroup2 "$1" && shift && exec "$@"' sh "$TMP/ro" \
		"$BIN" -t 1 -l "$LPMS" -W Audio -w None --load-cgroup "$TMP/ro$rel/w1" >ref.txt 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "--load-cgroup '$TMP/ro$rel/w1': not writable: cgroup.procs: Read-only file system" ref.txt
	then ok "refused (exit 2) on a read-only cgroup2 mount: Read-only file system"; else bad "read-only mount (exit $rc)" ref.txt; fi
else
	skip "a read-only cgroup2 mount: unshare is needed"
fi

# Interrupted: one SIGINT ends the run in order, a second signal exits at once; either way
# the cgroup the run created is gone once it has exited (after a second one through
# cgroup.kill, Linux 5.14+).  A script's background job starts with SIGINT ignored, hence env
# --default-signal; two pending SIGINTs would merge into one, so the second case stops the
# run, gives it SIGINT and SIGTERM (one handler, tests/e2e_faults.sh) and continues it.
for n in 1 2; do
	env --default-signal=INT,QUIT "$BIN" -t 10 -l "$LPMS" -W Audio -w Burn --load-cgroup "$parent/sig$n" >sig.txt 2>&1 &
	run=$!
	if wait_for pgrep -P "$run" -x ib-bench >/dev/null && [ -d "$parent/sig$n" ]; then
		if [ "$n" = 1 ]; then kill -INT "$run"
		else kill -STOP "$run"; kill -INT "$run"; kill -TERM "$run"; kill -CONT "$run"; fi
	fi
	wait_within 30 "$run"; rc=$?
	# 130 after the orderly stop; after a second signal 128 + whichever came first
	if { [ "$rc" = 130 ] || { [ "$n" = 2 ] && [ "$rc" = 143 ]; }; } && wait_for test ! -e "$parent/sig$n" &&
	   [ -z "$(pgrep -f "^$BIN ")" ]
	then ok "$([ "$n" = 1 ] && echo "SIGINT" || echo "a second signal"): exit $rc, the created cgroup removed, no process left"
	else bad "$n signals (exit $rc): $(ls -d "$parent"/sig* 2>&1), left: $(pgrep -af "^$BIN ")" sig.txt; fi
done
e2e_end
