#!/bin/bash
# End to end: the system audit.  --audit prints every setting with its source and
# exits 1 exactly when a hint is printed; a run writes the audit to the logfile header and the
# JSON; compare lists machine differences and refuses different CPUs unless allowed.  What
# confined a run (taskset, a cgroup CPU quota, another run at the same time) is recorded,
# flagged and warned of by compare.
# Usage: e2e_audit.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin audit "${1:?usage: $0 path/to/interbench}"
e2e_at_exit '[ -n "${CG:-}" ] && [ -d "$CG" ] && rmdir "$CG"'
e2e_run_dir

"$BIN" --audit >"$out" 2>&1; rc=$?
hints=$(grep -c '^ *hint: ' "$out")
if { [ "$rc" = 0 ] && [ "$hints" = 0 ]; } || { [ "$rc" = 1 ] && [ "$hints" -gt 0 ]; } &&
   grep -q '^preemption ' "$out" && grep -q '^smt .*(/sys/devices/system/cpu/smt/active)$' "$out" &&
   grep -q '^deepest_idle_state ' "$out" && [ "$(grep -c '' "$out")" -ge 20 ]
then ok "--audit: every setting with its source, exit $rc with $hints hints"; else bad "--audit (exit $rc)" "$out"; fi
if [ ! -e "$(uname -r).log" ] && [ -z "$(ls)" ]; then ok "--audit writes nothing"; else bad "--audit wrote files"; fi

"$BIN" -t 1 -q -W Audio -w None --json run.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '^Audit (interbench --audit):$' "$(uname -r).log" &&
   grep -q '^  clocksource ' "$(uname -r).log" &&
   python3 -c 'import json,sys; a = json.load(open(sys.argv[1]))["machine"]["audit"]; assert "smt" in a and "source" in a["smt"]' run.json
then ok "a run keeps the audit in the logfile header and the JSON"; else bad "audit in the results (exit $rc)" "$out"; fi
python3 - <<'PY'
import json
d = json.load(open("run.json"))
d["machine"]["cpu_model"] = "Another CPU"
json.dump(d, open("other.json", "w"))
d = json.load(open("run.json"))
d["machine"]["audit"]["smt"]["value"] = "changed"
json.dump(d, open("smt.json", "w"))
PY
"$BIN" compare run.json other.json >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "different machines (cpu_model: OLD '.*', NEW 'Another CPU')" "$out"
then ok "compare refuses different CPUs"; else bad "compare of different CPUs (exit $rc)" "$out"; fi
"$BIN" compare --allow-different-machine run.json other.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q "^Warning: cpu_model differs" "$out"; then ok "--allow-different-machine compares with a warning"
else bad "--allow-different-machine (exit $rc)" "$out"; fi
"$BIN" compare run.json smt.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q "^Warning: smt differs: OLD '.*', NEW 'changed'" "$out"; then ok "compare warns of a different setting"
else bad "setting difference (exit $rc)" "$out"; fi
"$BIN" compare --json cmp.json run.json smt.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["warnings"] == [{"setting": "smt", "old": d["warnings"][0]["old"], "new": "changed"}], d["warnings"]
assert d["pairs_compared"] == 1 and d["exit_status"] == '"$rc"' and d["latency_compared"] == "interbench"
assert any(f["figure"] == "p99 latency" and f["unit"] == "ms" for f in d["figures"])
assert d["family"]["method"] == "holm" and d["answers"]["unknown"] >= 1 and d["answers"]["different"] == 0, d
assert all(f["why"] in ("one sub-run a side", "its sub-runs left out") for f in d["figures"] if f["answer"] == "UNKNOWN"), d["figures"]
' cmp.json; then ok "compare --json: the warnings, the figures and the answers (one sub-run a side: exit 3)"; else bad "compare --json (exit $rc)" "$out"; fi
# What confined the run: the CPUs it may use, a CPU quota, another run at the same time.
if [ "$(nproc --all)" -ge 2 ] && taskset -c 1 true 2>/dev/null; then
	taskset -c 1 "$BIN" -t 1 -W Audio -w None --json one.json >"$out" 2>&1; rc=$?
	if [ "$rc" = 0 ] && grep -q "^CPUs this run may use: 1 of $(getconf _NPROCESSORS_ONLN) CPUs: 1 (sched_getaffinity)$" "$out" &&
	   grep -q ', 1 load threads$' "$out" && grep -q 'known to hurt interactivity here: .*allowed_cpus' "$out" &&
	   python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["machine"]["allowed_cpus"] == 1 and d["machine"]["allowed_cpu_list"] == "1", d["machine"]
assert d["run"]["load_threads"] == 1 and d["run"]["concurrent_run_pid"] is None, d["run"]
assert d["machine"]["audit"]["allowed_cpus"]["hint"]' one.json
	then ok "taskset -c 1: 1 allowed CPU in the header and the JSON, one load thread, flagged"
	else bad "taskset -c 1 (exit $rc)" "$out"; fi
	"$BIN" compare run.json one.json >"$out" 2>&1; rc=$?
	if [ "$rc" = 3 ] && grep -q "^Warning: allowed_cpus differs: OLD '$(getconf _NPROCESSORS_ONLN)', NEW '1'" "$out" &&
	   [ "$(grep -n '^Warning: allowed_cpus' "$out" | cut -d: -f1)" -lt "$(grep -n '^Simulation ' "$out" | cut -d: -f1)" ]
	then ok "compare warns, before any figure, that the CPUs allowed differ"; else bad "compare allowed CPUs (exit $rc)" "$out"; fi
	taskset -c 1 "$BIN" --audit >"$out" 2>&1; rc=$?
	if [ "$rc" = 1 ] && grep -A1 '^allowed_cpus .*1 of ' "$out" | grep -q 'hint: '
	then ok "--audit flags a restricted CPU set"; else bad "--audit under taskset (exit $rc)" "$out"; fi
else skip "a restricted CPU set: one CPU, no smaller set to restrict the run to"; fi

# A CPU quota of the run's cgroup (a scratch cgroup, removed at the end).
# Only a machine without a writable cpu controller skips it: a cgroup that cannot be made, or a
# quota that cannot be written, where the controller is there, is a failure.
CG="" QF="" QV=""
if [ -d /sys/fs/cgroup/cpu ] && [ -w /sys/fs/cgroup/cpu ]; then
	CG="/sys/fs/cgroup/cpu/ib-e2e-$$" QF=cpu.cfs_quota_us QV=50000
elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null && [ -w /sys/fs/cgroup ]; then
	CG="/sys/fs/cgroup/ib-e2e-$$" QF=cpu.max QV="50000 100000"
fi
if [ -z "$CG" ]; then
	skip "a cgroup CPU quota: no writable cpu controller here (needs root and a v1 cpu hierarchy, or v2 with cpu in /sys/fs/cgroup/cgroup.subtree_control)"
elif ! mkdir "$CG" 2>"$TMP/cg.err" || ! echo "$QV" >"$CG/$QF" 2>>"$TMP/cg.err"; then
	bad "a cgroup CPU quota: making $CG with '$QV' in $QF failed" "$TMP/cg.err"
else
	QF="$CG/$QF"
	CG="$CG" BIN="$BIN" sh -c 'echo $$ >"$CG/cgroup.procs" && exec "$BIN" -t 1 -c -W Audio -w None --json quota.json' >"$out" 2>&1; rc=$?
	if [ "$rc" = 0 ] && grep -q "^CPU quota of its cgroup: 50000 us per 100000 us (50 % of one CPU) ($QF)$" "$out" &&
	   python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["machine"]
assert m["cpu_quota_us"] == 50000 and m["cpu_quota_period_us"] == 100000 and m["cpu_quota_source"] == sys.argv[2], m
assert m["audit"]["cpu_quota"]["hint"]' quota.json "$QF"
	then ok "a cgroup CPU quota: in the header, the JSON and the audit"; else bad "cgroup CPU quota (exit $rc)" "$out"; fi
	"$BIN" compare run.json quota.json >"$out" 2>&1
	if grep -q "^Warning: cpu_quota_us differs: OLD 'none', NEW '50000'" "$out"; then ok "compare warns of a CPU quota"
	else bad "compare of a CPU quota" "$out"; fi
fi
[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG"

# Two runs at the same time: each says the other was running, by its pid.
"$BIN" -t 2 -W Audio -w None -w Burn -m first --json first.json >"$TMP/first.txt" 2>&1 &
first=$!
for _ in $(seq 3000); do grep -q '^None ' "$TMP/first.txt" && break; sleep 0.01; done
"$BIN" -t 1 -W Audio -w None --json second.json >"$out" 2>&1 & second=$!
wait $second; rc=$?
wait $first; rc1=$?
if [ "$rc" = 0 ] && grep -q "^Another interbench run (pid $first) was running at the same time: figures measured under its load$" "$out" &&
   python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["run"]["concurrent_run_pid"] == int(sys.argv[2])' second.json "$first"
then ok "a run started during another names it (header, JSON)"; else bad "the second of two runs (exit $rc)" "$out"; fi
if [ "$rc1" = 0 ] && grep -q "^Another interbench run (pid $second) was running at the same time" "$TMP/first.txt" &&
   grep -q "^Another interbench run (pid $second)" "$(uname -r).log" &&
   python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["run"]["concurrent_run_pid"] == int(sys.argv[2])' first.json "$second"
then ok "the run that was there first names the one that came (console, logfile, JSON)"
else bad "the first of two runs (exit $rc1)" "$TMP/first.txt"; fi
"$BIN" compare run.json second.json >"$out" 2>&1
if grep -q "^Warning: concurrent_run_pid differs: OLD 'none', NEW '$first'" "$out"; then ok "compare warns of a concurrent run"
else bad "compare of a concurrent run" "$out"; fi

e2e_end
