#!/bin/bash
# End to end: sweeps.  A 2x2 nice sweep (tables headed as interbench 0.31 words
# them, the summary, settings in the schema-valid JSON, compare matching on settings), each
# bench policy this kernel allows, load policies, CPU placement, CPU and thread alternatives,
# and the refusals before anything starts (unprivileged fifo, rr, deadline, negative nice).
# Usage: e2e_sweep.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin sweep "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
e2e_calibrate   # LPMS: every run below takes it with -l (tests/lib/e2e.sh)
valid() { python3 -c 'import json,sys,jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' "$SCHEMA" "$1"; }

# A 2x2 nice sweep.
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None -B 0,5 -N 0,19 --json sweep.json >"$out" 2>&1; rc=$?
titles=$(grep -c '^--- Benchmarking simulated cpu of Audio' "$out")
if [ "$rc" = 0 ] && [ "$titles" = 4 ] &&
   grep -qx -- '--- Benchmarking simulated cpu of Audio in the presence of simulated ---' "$out" &&
   grep -qx -- '--- Benchmarking simulated cpu of Audio nice 5 in the presence of simulated nice 19 ---' "$out"
then ok "2x2 nice sweep: four tables headed with their settings"; else bad "2x2 nice sweep tables (exit $rc)" "$out"; fi
if grep -q '^--- Sweep of Audio against None: % deadlines met / p99 latency (ms) ---$' "$out" &&
   grep -A3 '^--- Sweep of Audio' "$out" | grep -q '^nice 5 .* / .* / '
then ok "sweep summary: rows by task setting, columns by load setting"; else bad "sweep summary" "$out"; fi
if valid sweep.json && python3 - sweep.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["options"]["bench_nice"] == [0, 5] and d["options"]["load_nice"] == [0, 19]
rs = d["results"]
assert len(rs) == 4
assert sorted((r["bench_setting"]["nice"], r["load_setting"]["nice"]) for r in rs) == [(0, 0), (0, 19), (5, 0), (5, 19)]
assert {r["load_mode"] for r in rs} == {"", "nice 19"}
assert len(d["sweeps"]) == 1 and len(d["sweeps"][0]["cells"]) == 2 and len(d["sweeps"][0]["cells"][0]) == 2
PY
then ok "JSON: schema-valid, each result's settings, the sweep"; else bad "sweep JSON" "$out"; fi
"$BIN" compare sweep.json sweep.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q '^4 pairs compared: 0 regressions; .* 8 UNKNOWN (exit 3: undecided)$' "$out" &&
   [ "$(grep -Ec 'UNKNOWN: (one sub-run a side|its sub-runs left out)$' "$out")" = 8 ]
then ok "compare matches the four settings: one sub-run a side each (or none, disturbed), undecided (exit 3)"
else bad "compare of a sweep with itself (exit $rc)" "$out"; fi
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None -B 5 --json one.json >/dev/null 2>&1
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None -N 19 --json other.json >/dev/null 2>&1
"$BIN" compare one.json other.json >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q 'no (simulation, load) pair at the same settings.*--match simulation,load' "$out"
then ok "compare refuses pairs that differ only in their settings"; else bad "compare across settings (exit $rc)" "$out"; fi
"$BIN" compare --match simulation,load one.json other.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q '^1 pair compared' "$out"; then ok "--match simulation,load compares them (one sub-run a side: exit 3)"
else bad "--match simulation,load (exit $rc)" "$out"; fi

# Every bench policy: measured, or failed with the kernel's reason; X is kept out of deadline.
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -W X -w None --bench-policy other,batch,fifo,rr,deadline --json pol.json >"$out" 2>&1; rc=$?
# exit 0, or 3 when the kernel refused SCHED_DEADLINE (its pair failed)
if { [ "$rc" = 0 ] || { [ "$rc" = 4 ] && grep -q 'failed: .*sched_setattr(SCHED_DEADLINE' "$out"; }; } &&
   [ "$(grep -c '^--- Benchmarking simulated cpu of Audio' "$out")" = 5 ] &&
   [ "$(grep -c '^--- Benchmarking simulated cpu of X' "$out")" = 4 ] &&
   grep -q 'Note: X is not benchmarked under SCHED_DEADLINE' "$out" &&
   grep -qx -- '--- Benchmarking simulated cpu of Audio SCHED_DEADLINE in the presence of simulated ---' "$out" &&
   grep -A2 'Audio SCHED_DEADLINE' "$out" | grep -Eq '^None +([0-9.]+ \+/-|failed: .*sched_setattr\(SCHED_DEADLINE)'
then ok "each bench policy runs (or fails with the kernel's reason); X not under deadline"; else bad "bench policies (exit $rc)" "$out"; fi
if valid pol.json && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = {r["bench_setting"]["policy"] for r in d["results"] if r["simulation"] == "Audio"}
assert got == {"other", "batch", "fifo", "rr", "deadline"}, got
assert all(r["bench_setting"]["rt_priority"] for r in d["results"] if r["bench_setting"]["policy"] in ("fifo", "rr"))
' pol.json; then ok "policies in the JSON"; else bad "policies in the JSON" "$out"; fi

# Load policies and placement.
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w Burn --load-policy batch,idle --bench-cpus 0 --load-cpus 1 >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q 'in the presence of simulated SCHED_IDLE ---' "$out" && grep -q '^Burn .*+/-' "$out"
then ok "load policies and CPU placement"; else bad "load policies (exit $rc)" "$out"; fi

# CPU placement and load threads as alternatives: each a setting of the sweep, labelled, in the
# JSON, decided against the first.
if [ "$(nproc)" -lt 2 ]; then skip "--bench-cpus 0/1 -L 1,2: needs two CPUs ($(nproc) here)"
else
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w Burn --bench-cpus 0/1 -L 1,2 --json place.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c '^--- Benchmarking simulated cpu of Audio' "$out")" = 4 ] &&
   grep -qx -- '--- Benchmarking simulated cpu of Audio CPUs 1 in the presence of simulated 2 threads ---' "$out" &&
   grep -q '^Settings: task nice 0 CPUs 0, nice 0 CPUs 1; loads nice 0 1 thread, nice 0 2 threads$' "$out" &&
   valid place.json && python3 - place.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["options"]["bench_cpus"] == "0/1" and d["options"]["load_threads"] == [1, 2], d["options"]
got = sorted((r["bench_setting"]["cpus"], r["load_setting"]["load_threads"], r["mode"], r["load_mode"]) for r in d["results"])
assert got == [("0", 1, "CPUs 0", "1 thread"), ("0", 2, "CPUs 0", "2 threads"),
               ("1", 1, "CPUs 1", "1 thread"), ("1", 2, "CPUs 1", "2 threads")], got
assert d["run"]["load_threads"] == 1, d["run"]
assert all(r["bench_setting"]["load_threads"] is None for r in d["results"])
PY
then ok "--bench-cpus 0/1 -L 1,2: four settings, labelled, in the JSON"; else bad "CPU and thread alternatives (exit $rc)" "$out"; fi
fi

# --scheduler on a kernel without sched_ext (this one): refused before anything starts.
if [ -e /sys/kernel/sched_ext/state ]; then skip "--scheduler refused without sched_ext: this kernel has it"
else
"$BIN" -l "$LPMS" -t 1 -c -W Audio -w None --scheduler 'scx_simple -f' >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <"$out")" = 1 ] &&
   grep -q '^interbench: --scheduler: /sys/kernel/sched_ext/state: No such file or directory (this kernel has no sched_ext' "$out"
then ok "--scheduler without sched_ext: one line, exit 2"; else bad "--scheduler without sched_ext (exit $rc)" "$out"; fi
fi

# Refusals before anything starts.
for args in "--cpus 4096" "--cpus 1-0" "--bench-cpus 0/0" "--load-cpus 0/1 -u" "-L 0,1" "-B 0:30" "--bench-policy idle" "--load-policy deadline" "--bench-policy bogus" \
	"--bench-slice 100x" "--load-slice 2000000" "--bench-slice 0:1000:100 -B 0:4"; do
	# shellcheck disable=SC2086
	"$BIN" $args -t 1 -c >"$out" 2>&1; rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <"$out")" = 1 ] && grep -q "accepted" "$out" && ! grep -q Benchmarking "$out"
	then ok "'$args' refused (exit 2)"; else bad "'$args' refused (exit $rc)" "$out"; fi
done
# --wake thread,timer: a sweep; timer-woken, the task sleeps on its own timer, no timing thread:
# every period measured, its latency its whole wake-up (lateness), no timer latency apart; each
# result labelled with how it was woken, the sweep's summary a row each, compare --match sets
# them side by side.
"$BIN" -l "$LPMS" --wake thread,timer -t 2 -c -W Audio -w None --json wake.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '^--- Benchmarking simulated cpu of Audio timer-woken in the presence of simulated ---' "$out" &&
   grep -q '^nice 0 timer-woken ' "$out" && python3 - "$SCHEMA" wake.json <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
assert doc["options"]["wake"] == ["thread", "timer"], doc["options"]
thread, timer = doc["results"]
assert thread["bench_setting"]["wake"] == "thread" and timer["bench_setting"]["wake"] == "timer", (thread, timer)
assert timer["mode"] == "timer-woken" and thread["mode"] == "", (thread["mode"], timer["mode"])
assert timer["samples"] >= 30 and timer["deadlines_met_ppm"] > 0, timer
assert timer["timer_latency_p99_ns"] is None and timer["latency_p99_ns"] == timer["lateness_p99_ns"], timer
assert thread["timer_latency_p99_ns"] is not None, thread
PY
then ok "--wake thread,timer: a sweep, Audio measured both ways, the timer-woken on its own timer"; else bad "--wake thread,timer (exit $rc)" "$out"; fi
# The thread-woken result as six sub-runs against themselves relabelled timer-woken (the same
# figures: nothing changed, whatever the noise of the run), then against that copy with %
# deadlines met 50 points worse: --match pairs them across the setting, and the answer is the
# figures', not the noise's: the latencies SAME, with no spread at all; % met undecided against
# itself (its variance floor from 40 periods a sub-run is wider than its 1 point) and
# DIFFERENT, worse 50 points off.  The disturbance and a stopped load are dropped: such a
# sub-run is left out.
python3 - <<'PY'
import json
doc = json.load(open("wake.json"))
thread, timer = doc["results"]
thread.pop("disturbance", None)
thread.pop("load_activity", None)
json.dump(dict(doc, results=[thread]), open("wake-thread1.json", "w"))
relabelled = dict(thread, mode=timer["mode"], bench_setting=timer["bench_setting"])
json.dump(dict(doc, results=[relabelled]), open("wake-timer1.json", "w"))
met = relabelled["deadlines_met_ppm"]
d = -500000 if met >= 500000 else 500000
edited = dict(relabelled, deadlines_met_ppm=met + d)
json.dump(dict(doc, results=[edited]), open("wake-timer-worse1.json" if d < 0 else "wake-thread-better1.json", "w"))
PY
for f in wake-*1.json; do python3 "$E2E_TREE/tests/lib/subruns.py" "$f" "${f%1.json}.json"; done
"$BIN" compare --match simulation,load wake-thread.json wake-timer.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q '^Audio  *None  *% deadlines met  *6:6 .* +0.00 pt .* UNKNOWN: ' "$out" &&
   grep -q '^Audio  *None  *p90 latency  *6:6 .* +0.0% .* SAME (within 10%)$' "$out" &&
   grep -q '^1 pair compared: 0 regressions;' "$out"
then ok "compare --match: thread- and timer-woken Audio side by side, unchanged: p90 SAME, % met undecided"
else bad "compare --match of the same figures (exit $rc)" "$out"; fi
if [ -e wake-timer-worse.json ]; then old_json=wake-thread.json new_json=wake-timer-worse.json
else old_json=wake-thread-better.json new_json=wake-timer.json; fi
"$BIN" compare --match simulation,load "$old_json" "$new_json" >"$out" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q '^Audio  *None  *% deadlines met  *6:6 .*-50.00 pt .* DIFFERENT, worse$' "$out" &&
   grep -q '^1 pair compared: 1 regression; 1 DIFFERENT (1 worse, 0 better)' "$out"
then ok "compare --match: deadlines 50 points worse, exit 1, that row DIFFERENT, worse"; else bad "compare --match of deadlines 50 points worse (exit $rc)" "$out"; fi
"$BIN" --wake sometimes -t 1 -c >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <"$out")" = 1 ] && grep -q -- "--wake: .*sometimes.*thread.*timer" "$out"
then ok "--wake sometimes refused (exit 2)"; else bad "--wake sometimes (exit $rc)" "$out"; fi

# EEVDF slices: a sweep of the task's, each with what the kernel kept (it clamps to 0.1-100 ms);
# a kernel before 6.12 keeps none and the run is refused before anything starts.
"$BIN" -l "$LPMS" --bench-slice 50,3000 -t 1 -c -W Audio -w None --json slice.json >"$out" 2>&1; rc=$?
if grep -q "kept no slice" "$out"; then
	if [ "$rc" = 2 ] && [ "$(wc -l <"$out")" = 1 ] && grep -q "^interbench: --bench-slice: 50: this kernel kept no slice" "$out"
	then ok "--bench-slice refused on a kernel without per-task slices"; else bad "--bench-slice refusal (exit $rc)" "$out"; fi
elif [ "$rc" = 0 ] && grep -q "Benchmarking simulated cpu of Audio slice 3000us in" "$out" &&
	grep -q "^nice 0 slice 50us " "$out" && python3 - "$SCHEMA" slice.json <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
got = [(r["mode"], r["bench_setting"]["slice_us"], r["bench_setting"]["slice_kept_us"]) for r in doc["results"]]
assert got == [("slice 50us", 50, 100), ("slice 3000us", 3000, 3000)], got
assert doc["options"]["bench_slice_us"] == [50, 3000], doc["options"]
PY
then ok "--bench-slice 50,3000: two settings, the kernel kept 100 and 3000 us"; else bad "--bench-slice sweep (exit $rc)" "$out"; fi

if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -p "$TMP/user" && chmod 777 "$TMP/user"
	asuser() { (cd "$TMP/user" && XDG_CACHE_HOME="$TMP/user" setpriv --reuid 65534 --regid 65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$BIN" "$@"); }
	for args in "--bench-policy fifo" "--bench-policy rr" "--bench-policy deadline" "--load-policy fifo" "-B 0,-5"; do
		# shellcheck disable=SC2086
		asuser $args -t 1 -c >"$out" 2>&1; rc=$?
		if [ "$rc" = 2 ] && grep -q "not permitted\|needs CAP_SYS_NICE" "$out" && grep -q "setcap" "$out" &&
		   ! grep -q Benchmarking "$out"
		then ok "unprivileged '$args' refused with the fix"; else bad "unprivileged '$args' (exit $rc)" "$out"; fi
	done
else
	skip "unprivileged refusals need root and setpriv"
fi
e2e_end
