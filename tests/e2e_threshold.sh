#!/bin/bash
# End to end: thresholds that act.  --fail-if fails a run with exit status 3 naming the pair,
# figure, value and limit, and passes one whose figures are within (its verdict in a
# schema-valid JSON); --on-threshold runs the user's own command with the late period's facts
# in its environment (after --explain's explanation of it), stops the run after the first pair
# with its results kept, signals a process of this script's own, and bounds a command that does
# not exist or hangs (said, killed, reaped, the run's status unchanged).  Bad conditions and
# actions are refused with one line, exit 2.  Usage: e2e_threshold.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin threshold "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
e2e_calibrate
valid() { python3 -c 'import json,sys,jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' "$SCHEMA" "$1"; }

# % deadlines met can never be below 101: the run fails, exit 3, one line naming the pair
"$BIN" -c -q -l "$LPMS" -t 1 -W Audio -w None --fail-if 'met<101' --json f.json >f.out 2>f.err; rc=$?
if [ "$rc" = 3 ] && grep -qE '^interbench: --fail-if: Audio vs None: % deadlines met [0-9.]+ % < 101 % \(met<101; its one run, a point estimate\)$' f.err &&
   grep -qF 'interbench: --fail-if: FAIL: 1 of 1 check failed, on 1 pair (exit status 3)' f.err && valid f.json &&
   python3 - f.json <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["fail_if"]
assert f["verdict"] == "fail" and f["check_on"] == "point" and f["conditions"] == ["met<101"], f
c = f["pairs"][0]["checks"][0]
assert c["figure"] == "deadlines_met_ppm" and c["limit"] == 1010000 and c["result"] == "fail", c
PY
then ok "--fail-if met<101: exit 3, the pair, figure, value and limit named, the verdict in the JSON"
else bad "--fail-if met<101 (exit $rc)" f.err; fi

# no p99 of a 1 s run reaches an hour: the run passes, exit 0
"$BIN" -c -q -l "$LPMS" -t 1 -W Audio -w None --fail-if 'p99>1h,Audio/None:sched-max>=1h' --json p.json >p.out 2>p.err; rc=$?
if [ "$rc" = 0 ] && grep -qF 'interbench: --fail-if: pass: 2 checks, none beyond its limit (a point estimate)' p.err &&
   valid p.json && python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["fail_if"]; assert f["verdict"]=="pass" and f["checked"]==2, f' p.json
then ok "--fail-if p99>1h: exit 0, its pass said"
else bad "--fail-if p99>1h (exit $rc)" p.err; fi

# the user's command, its facts in its environment, after the period's explanation; then stop
# after the first pair: one result of two, kept in the logfile and the JSON
"$BIN" -q -l "$LPMS" -t 1 -W Audio -w None -w Burn --explain \
	--on-threshold "1us:exec=/bin/sh -c 'echo \$IB_LATENCY_US \$IB_TASK \$IB_LOAD > $TMP/facts'" \
	--on-threshold 1us:stop --json e.json >e.out 2>e.err; rc=$?
read -r lat task load <"$TMP/facts" 2>/dev/null
if [ "$rc" = 0 ] && [ "${lat:-0}" -ge 1 ] 2>/dev/null && [ "$task $load" = "Audio None" ]; then
	ok "exec: the user's command ran with IB_LATENCY_US=$lat, IB_TASK and IB_LOAD"
else bad "exec (exit $rc, facts '${lat:-} ${task:-} ${load:-}')" e.err; fi
why=$(grep -n -- '--on-threshold: why:' e.err | head -1 | cut -d: -f1)
started=$(grep -n -- 'started /bin/sh' e.err | head -1 | cut -d: -f1)
if [ -n "$why" ] && [ -n "$started" ] && [ "$why" -lt "$started" ]; then ok "--explain: the late period's why before the action"
else bad "the explanation before the action" e.err; fi
if grep -qF 'interbench: --on-threshold: a stop action ended the run after 1 of its 2 pairs; what was measured is kept' e.err &&
   grep -q '^None ' ./*.log && ! grep -q '^Burn ' ./*.log && valid e.json && python3 - e.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert [(r["simulation"], r["load"]) for r in doc["results"]] == [("Audio", "None")], doc["results"]
acts = doc["results"][0]["on_threshold"]["actions"]
assert [a["outcome"] for a in acts] == ["exit status 0", "stopping the run after this pair"], acts
assert all(a["ok"] and a["latency_ns"] > 1000 for a in acts), acts
PY
then ok "stop: the run ended after the first pair, its result kept in the logfile and the JSON"
else bad "stop after the first pair" e.err; fi

# a signal to this script's own sleeping process; a command that does not exist; one deaf to
# SIGTERM, killed after --on-threshold-timeout; the run goes on and exits 0
sleep 300 & sleeper=$!
"$BIN" -c -q -l "$LPMS" -t 1 -W Audio -w None --on-threshold-timeout 1 --json h.json \
	--on-threshold "1us:signal=TERM,pid=$sleeper" --on-threshold 1us:exec=/nonexistent/ib-action \
	--on-threshold "1us:exec=/bin/sh -c 'trap \"\" TERM; exec sleep 61.4321'" >h.out 2>h.err &
wait_within 60 $!; rc=$?
wait_within 5 "$sleeper"; slept=$?
if [ "$slept" = 143 ]; then ok "signal: this script's own process got SIGTERM"; else bad "signal (sleeper's status $slept)" h.err; fi
if [ "$rc" = 0 ] && grep -qF 'execvp(/nonexistent/ib-action): No such file or directory' h.err &&
   grep -qF 'killed after 1 s (--on-threshold-timeout)' h.err && ! pgrep -f 'sleep 61.4321' >/dev/null &&
   valid h.json && python3 - h.json <<'PY'
import json, sys
acts = json.load(open(sys.argv[1]))["results"][0]["on_threshold"]["actions"]
assert [a["ok"] for a in acts] == [True, False, False], acts
PY
then ok "hostile commands: a missing one said, a hanging one killed at its timeout and reaped, exit 0"
else bad "hostile commands (exit $rc)" h.err; pkill -f 'sleep 61.4321'; fi

refused() { # refused NAME EXPECTED_TEXT ARGS...
	local name=$1 want=$2
	shift 2
	"$BIN" -c "$@" >r.out 2>r.err; local rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <r.err)" = 1 ] && grep -qF -- "$want" r.err; then ok "$name: exit 2, one line"
	else bad "$name (exit $rc)" r.err; fi
}
refused "--fail-if with an unknown figure" "interbench: --fail-if: condition 'jitter>1ms': no figure 'jitter' (accepted: " \
	-W Audio -w None --fail-if 'jitter>1ms'
refused "--fail-if on a pair not run" "--fail-if: condition 'Video:p99>1ms' would check nothing: it names no pair" \
	-W Audio -w None --fail-if 'Video:p99>1ms'
refused "--on-threshold with an unknown action" "interbench: --on-threshold: '1ms:reboot': unknown action (accepted: " \
	--on-threshold 1ms:reboot
refused "--on-threshold signalling every process" "PID must be a process above 1 or parent" \
	--on-threshold 1ms:signal=KILL,pid=-1
e2e_end
