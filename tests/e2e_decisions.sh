#!/bin/bash
# End to end: a run's own decisions and --budget.  A nice sweep with --repeat ends with the
# decision table (each setting against the first, the family's size, the counts) and writes
# the same decisions as the JSON's schema-valid "decisions", each figure's answer one of the
# four and its sub-runs those that ran; a sweep of one repeat answers UNKNOWN for want of a
# second sub-run; --budget runs rounds, says how far it got, keeps every pair's sub-runs within
# --repeat's cap and its figures' JSON complete, and refuses a bad value before anything runs.
# The answers themselves depend on the machine: bench/decisions.sh measures them.
# Usage: e2e_decisions.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin decisions "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
valid() { python3 -c 'import json,sys,jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' "$SCHEMA" "$1"; }

"$BIN" -t 1 -c -W Audio -w None -B 0,5 --repeat 3 --json sweep.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '^Decisions: each setting against the first of its task and load, from up to 3 sub-runs each (--repeat), interleaved:$' "$out" &&
   grep -q '^Audio nice 5 *None *% deadlines met *[0-3]:[0-3] ' "$out" &&
   grep -q '(Holm 1979, over the [0-9]* judged figures)' "$out" &&
   grep -Eq '^[0-9]+ DIFFERENT \([0-9]+ worse, [0-9]+ better\), [0-9]+ SAME, [0-9]+ UNKNOWN$' "$out"
then ok "a sweep with --repeat 3 ends with its decision table"; else bad "decision table (exit $rc)" "$out"; fi
if valid sweep.json && python3 - sweep.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
dec = d["decisions"]
assert dec["subruns"] == 3 and dec["family"]["method"] == "holm" and dec["family"]["alpha"] == 0.05
figs = dec["figures"]
assert figs and all(f["simulation"] == "Audio nice 5" and f["base"]["simulation"] == "Audio nice 0" for f in figs)
assert {f["figure"] for f in figs} >= {"% deadlines met"}
assert all(f["answer"] in ("DIFFERENT", "SAME", "UNKNOWN") for f in figs)
assert all(0 <= f["subruns_old"] <= 3 and 0 <= f["subruns_new"] <= 3 for f in figs)
counts = dec["answers"]
assert counts["different"] + counts["same"] + counts["unknown"] == len(figs)
assert counts["worse"] + counts["better"] == counts["different"]
PY
then ok "JSON: schema-valid decisions, the same figures and counts"; else bad "decisions JSON" "$out"; fi

"$BIN" -t 1 -c -W Audio -w None -B 0,5 --json one.json >"$out" 2>&1; rc=$?
# (a sub-run disturbed by other processes is left out: then none a side)
if [ "$rc" = 0 ] && grep -Eq 'UNKNOWN: (one sub-run a side|its sub-runs left out)' "$out" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert all(f["answer"] == "UNKNOWN" and f["why"] in ("one sub-run a side", "its sub-runs left out") for f in d["decisions"]["figures"])' one.json
then ok "one repeat: every answer UNKNOWN, one sub-run a side"; else bad "one-repeat decisions (exit $rc)" "$out"; fi
"$BIN" -t 1 -c -W Audio -w None --repeat 2 --json plain.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && ! grep -q '^Decisions' "$out" &&
   python3 -c 'import json,sys; assert "decisions" not in json.load(open(sys.argv[1]))' plain.json
then ok "no alternatives: no decision table"; else bad "run without alternatives (exit $rc)" "$out"; fi

# --budget: rounds until settled or spent; a 6 s budget of 1 s windows cannot reach the cap of 4.
"$BIN" -t 1 -c -W Audio -w None -B 0,5 --budget 6 --repeat 4 --json budget.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -Eq '^Round 1 done: 0 of 2 pairs decided or known; undecided 2: under 3 sub-runs 2$' "$out" &&
   valid budget.json &&
   python3 - budget.json <<'PY'
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
assert d["options"]["budget_s"] == 6 and d["options"]["repeat"] == 4
per = Counter(r["bench_setting"]["nice"] for r in d["results"])
assert set(per) == {0, 5} and all(1 <= n <= 4 for n in per.values()), per
assert d["decisions"]["subruns"] == max(per.values()) == d["run"]["budget"]["rounds"]
und = d["run"]["budget"]["undecided"]
assert all(u["simulation"] == "Audio" and u["why"] and 1 <= u["subruns"] <= 4 for u in und), und
PY
then ok "--budget: rounds within the cap, the round line, the JSON"; else bad "--budget run (exit $rc)" "$out"; fi
# The default run is the budget's, 30 s a pair: stopped by SIGINT in its second round, it keeps
# its first round's sub-run and says its budget in the header and the JSON.
# (a script's background job starts with SIGINT ignored: env gives it back its default)
env --default-signal=INT "$BIN" -c -W Audio -w None --json default.json >"$out" 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q '^Round 1 done' "$out" && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"; rc=$?
if [ "$rc" = 130 ] && grep -q '^Using .*, running every load in sub-runs of 5 seconds within a budget of 30 seconds, 3 to 20 a pair' "$out" &&
   valid default.json && python3 - default.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["options"]["budget_s"] == 0 and d["options"]["repeat"] == 20 and d["run"]["duration_s"] == 0, d["options"]
b = d["run"]["budget"]
assert {k: b[k] for k in ("budget_s", "subrun_s", "min_subruns", "max_subruns", "precision")} == {
    "budget_s": 30, "subrun_s": 5, "min_subruns": 3, "max_subruns": 20,
    "precision": {"latency_p99_pct": 20.0, "deadlines_met_pt": 2.0}}, b
assert b["rounds"] == 2 and b["undecided"] == [{"simulation": "Audio", "load": "None", "mode": "", "load_mode": "",
    "subruns": len(d["results"]), "why": "under 3 sub-runs"}], b
assert "window" not in d["run"] and 1 <= len(d["results"]) <= 2, d["results"]
PY
then ok "the default run takes the budget, 30 s a pair, and says so (stopped by SIGINT: exit 130)"
else bad "default budget run (exit $rc)" "$out"; fi
"$BIN" -c -W Audio -w None --budget 0 >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q -- '--budget' "$out" && [ "$(wc -l <"$out")" = 1 ]
then ok "--budget 0 refused in one line, exit 2"; else bad "--budget 0 (exit $rc)" "$out"; fi
e2e_end
