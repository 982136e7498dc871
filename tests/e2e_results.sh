#!/bin/bash
# End to end: a short real run with --repeat and --json, the document validated against
# doc/interbench-result.schema.json, then compare's exit statuses.  Usage: e2e_results.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin results "${1:?usage: $0 path/to/interbench}"
mkdir "$TMP/run" && cd "$TMP/run" || exit 1
check() { # check NAME EXPECTED_STATUS COMMAND...
	local name=$1 want=$2; shift 2
	"$@" >"$TMP/out.txt" 2>&1
	local got=$?
	if [ "$got" = "$want" ]; then ok "$name"; else bad "$name: exit $got, expected $want" "$TMP/out.txt"; fi
}

check "short run with --repeat 2 --json" 0 "$BIN" -t 1 -c -W Audio -w None -w Burn --repeat 2 --json out.json
e2e_saved_lpms   # the later runs take its calibration (-l: tests/lib/e2e.sh e2e_calibrate)
check "schema validation" 0 python3 -c '
import json, sys, jsonschema
doc = json.load(open("out.json"))
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc)
assert len(doc["results"]) == 4, "expected 2 pairs x 2 repeats"
' "$SCHEMA"
check "no files besides out.json with -c" 0 test "$(ls)" = "out.json"
# KCIDB: the export of the run against KCIDB v5.3's constraints on tests (tests/kcidb), one
# test per figure with its number; a path KCIDB refuses is refused by the schema too.
"$BIN" export -f kcidb --origin ci --build-id ci:1 out.json >kcidb.json 2>"$TMP/out.txt"
check "KCIDB export: valid against v5.3's test schema, a number per figure" 0 python3 -c '
import copy, json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open("kcidb.json"))
jsonschema.Draft7Validator(schema).validate(doc)
assert doc["version"] == {"major": 5, "minor": 3}, doc["version"]
numbers = [t for t in doc["tests"] if "number" in t]
assert len(numbers) > 10 and all(t["status"] == "DONE" for t in numbers), len(numbers)
assert {t["number"]["unit"] for t in numbers} >= {"s", "%"}
bad = copy.deepcopy(doc)
bad["tests"][0]["path"] = "interbench.audio none"
assert not jsonschema.Draft7Validator(schema).is_valid(bad)
' "$E2E_TREE/tests/kcidb/tests-v5.3.schema.json"
rm -f kcidb.json
# Itself, two sub-runs a side of 1 s: nothing worse, but % deadlines met is never shown SAME
# within 1 point from 20 periods a sub-run (its variance floor, tools/compare.c share_floor,
# alone is 4.4 points of standard error), so undecided: exit 3; 0 with --regressions-only.
check "compare with itself: undecided" 3 "$BIN" compare out.json out.json
cp "$TMP/out.txt" "$TMP/self.txt"
check "the answers say why" 0 grep -q '^2 pairs compared: 0 regressions; 0 DIFFERENT (0 worse, 0 better), .* (exit 3: undecided)$' "$TMP/self.txt"
check "compare with itself, --regressions-only" 0 "$BIN" compare --regressions-only out.json out.json
# The doctored copies test compare's answers, not the host: their base is the run with its
# disturbance and stopped loads cleared, so a busy CI host (whose sub-runs compare rightly
# leaves out) cannot hide them.
python3 "$E2E_TREE/tests/lib/undisturbed.py" out.json quiet.json
# Every answer needs the permutation test, so the copies have six sub-runs a side (the run's
# two, three times: tests/lib/subruns.py), their tails set 0.1 % apart so that a tripled p90 and
# p99 is shown whatever the run measured (a 1 s Audio sub-run has 20 samples: p90 is judged in
# p99's place, decide/decision.h DECISION_P99_MIN_SAMPLES).
python3 "$E2E_TREE/tests/lib/subruns.py" quiet.json quiet6.json 3
python3 - <<'PY'
import json
doc = json.load(open("quiet6.json"))
seen = {}
for r in doc["results"]:
    if r.get("latency_p99_ns") is not None:
        k = seen[r["load"]] = seen.get(r["load"], 0) + 1
        r["latency_p90_ns"] = 100000 + 100 * k
        r["latency_p99_ns"] = 200000 + 200 * k
json.dump(doc, open("tight.json", "w"))
for r in doc["results"]:
    if r.get("latency_p99_ns") is not None:
        r["latency_p90_ns"] *= 3
        r["latency_p99_ns"] *= 3
json.dump(doc, open("worse.json", "w"))
PY
check "compare with a doctored copy: a regression" 1 "$BIN" compare tight.json worse.json
cp "$TMP/out.txt" "$TMP/worse.txt"
check "its p90 DIFFERENT, worse" 0 grep -q '^Audio  *None  *p90 latency  *6:6 .* +200.0% .* DIFFERENT, worse$' "$TMP/worse.txt"
check "a regression with --regressions-only too" 1 "$BIN" compare --regressions-only tight.json worse.json
check "the other way: better, no regression" 3 "$BIN" compare worse.json tight.json
cp "$TMP/out.txt" "$TMP/better.txt"
check "its p90 DIFFERENT, better" 0 grep -q '^Audio  *None  *p90 latency  *6:6 .* -66.7% .* DIFFERENT, better$' "$TMP/better.txt"
# a repeat that took no latency sample (the task never ran): its own row, a regression
python3 - <<'PY'
import json
doc = json.load(open("quiet.json"))
for r in doc["results"]:
    if r.get("load") == "Burn" and r.get("repeat") == 2:
        r["samples"] = 0
        for k in r:
            if k.startswith(("latency_", "interbench_latency_")) and k.endswith("_ns"):
                r[k] = None
json.dump(doc, open("starved.json", "w"))
PY
check "compare with a repeat starved" 1 "$BIN" compare quiet.json starved.json
cp "$TMP/out.txt" "$TMP/starved.txt"
check "the starved repeat is named" 0 grep -q '^Audio  *Burn  *starved repeats  *2:2  *0 of 2  *1 of 2 .*REGRESSION$' "$TMP/starved.txt"
# a --build-id jansson cannot take: the option, the value escaped, what is accepted
check "export --build-id not UTF-8" 2 "$BIN" export -f kcidb --origin ci --build-id $'ci:caf\xe9' out.json
cp "$TMP/out.txt" "$TMP/build-id.txt"
check "export says why" 0 grep -qxF "interbench export: --build-id: 'ci:caf\\xe9' is not valid UTF-8 (accepted: 'ci:' followed by the build's id, valid UTF-8 text of at most 300 bytes)" "$TMP/build-id.txt"
head -c 300 out.json > truncated.json
printf 'not an interbench result\n' > garbage.txt
check "compare with garbage" 2 "$BIN" compare out.json garbage.txt
check "compare with a truncated file" 2 "$BIN" compare truncated.json out.json
check "compare with a missing file" 2 "$BIN" compare out.json missing.json
check "compare with a directory" 2 "$BIN" compare . out.json
# a comparison nobody could read is no pass: standard output on a full device
if [ -w /dev/full ]; then
	"$BIN" compare out.json out.json >/dev/full 2>"$TMP/err.txt"; got=$?
	if [ "$got" = 2 ] && grep -q "compare: write standard output: No space left on device" "$TMP/err.txt"
	then ok "compare to a full stdout: exit 2, said"
	else bad "compare to a full stdout: exit $got" "$TMP/err.txt"; fi
else
	skip "compare to a full stdout: no writable /dev/full here"
fi
# Two real runs with logfiles (the load's throughput line under the Burn row), compared.
mkdir "$TMP/logs" && cd "$TMP/logs" || exit 1
log="$(uname -r).log"
check "first logged run" 0 "$BIN" -l "$LPMS" -t 1 -W Audio -w None -w Burn
mv "$log" old.log
check "second logged run" 0 "$BIN" -l "$LPMS" -t 1 -W Audio -w None -w Burn
mv "$log" new.log
check "the logfile carries the load's throughput" 0 grep -q '^ *load: Burn ' new.log
check "each run kept its own JSON beside the logfile" 0 test "$(ls -- *.json | wc -l)" = 2
# Two real runs of one repeat each: one sub-run a side answers nothing, whatever the change:
# a log against itself, and against a copy with Audio/Burn's % deadlines met 50 points worse
# (far beyond the 1-point threshold), are both undecided (exit 3), never a pass or a
# regression.  Disturbance marks are dropped from both: a disturbed sub-run is left out.
sed -e '/\* disturbed:/d' -e 's/ \*$//' old.log >same.log
burn_met() { awk '/Benchmarking .* of Audio in/ {a = 1; next} /Benchmarking/ {a = 0} a && $1 == "Burn" {print $7}' "$1"; }
met=$(burn_met same.log)
if [ "${met%.*}" -ge 50 ] 2>/dev/null; then delta=-50 old_log=same.log new_log=edited.log
else delta=50 old_log=edited.log new_log=same.log; fi
awk -v d="$delta" '/Benchmarking .* of Audio in/ {a = 1; print; next} /Benchmarking/ {a = 0}
	a && $1 == "Burn" {$7 += d} {print}' same.log >edited.log
"$BIN" compare same.log same.log >"$TMP/cmp.txt" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q '^Audio  *Burn  *% deadlines met  *1:1 .* +0.00 pt .* UNKNOWN: one sub-run a side$' "$TMP/cmp.txt" &&
	! grep -q REGRESSION "$TMP/cmp.txt"
then ok "compare of a logfile with itself: exit 3, Audio/Burn unchanged and undecided"
else bad "compare of a logfile with itself: exit $rc" "$TMP/cmp.txt"; fi
"$BIN" compare "$old_log" "$new_log" >"$TMP/cmp.txt" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q '^Audio  *Burn  *% deadlines met  *1:1 .*-50.00 pt .* UNKNOWN: one sub-run a side$' "$TMP/cmp.txt" &&
	! grep -q REGRESSION "$TMP/cmp.txt"
then ok "compare with Audio/Burn's deadlines 50 points worse, one sub-run a side: exit 3, undecided"
else bad "compare with Audio/Burn's deadlines 50 points worse (Audio/Burn $(burn_met edited.log) against $met): exit $rc" "$TMP/cmp.txt"; fi
cd "$TMP/run" || exit 1

check "--repeat 0 refused" 2 "$BIN" --repeat 0
check "--repeat abc refused" 2 "$BIN" --repeat abc

e2e_end
