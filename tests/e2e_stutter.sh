#!/bin/bash
# End to end: the stutter and audio figures.  ProAudio (its options, table columns, SCHED_FIFO when allowed,
# xruns in the JSON), the stutter figures of every task (miss runs, frame times, Gaming's 1% low)
# in -v, the schema-valid JSON and compare, and a task that cannot keep up showing its runs of
# missed deadlines, and one stuck in its first period.  Usage: e2e_stutter.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin stutter "${1:?usage: $0 path/to/interbench}"
e2e_run_dir

"$BIN" -t 1 -c -q -v -W ProAudio -W Gaming -w None --frames 256 --rate 48000 --dsp-load 50 --periods 3 \
	--json pa.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '^--- Benchmarking simulated cpu of ProAudio real time in the presence' "$out" &&
   grep -q 'xruns    overrun  start<1ms  start<2ms     stolen' "$out" &&
   grep -Eq '^ +task cpu: .*; misses: longest run [0-9.-]+( us)?, streaks [0-9-]+; frame time \(us\): p99 [0-9.-]+$' "$out"
then ok "ProAudio: SCHED_FIFO by default as root, its columns, the stutter figures under each row in -v"; else bad "ProAudio table (exit $rc)" "$out"; fi
if python3 - "$SCHEMA" pa.json <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
o = doc["options"]
assert (o["proaudio_frames"], o["proaudio_rate_hz"], o["proaudio_dsp_load_pct"], o["proaudio_periods"]) == (256, 48000, 50, 3)
pa = next(r for r in doc["results"] if r["simulation"] == "ProAudio")
assert pa["bench_setting"]["policy"] == "fifo", pa["bench_setting"]
assert pa["periods"] > 150, pa["periods"]           # 5.333 ms periods over 1 s
assert pa["xruns"] is not None and pa["start_within_2ms_ppm"] >= pa["start_within_1ms_ppm"]
assert 0.4 < pa["task_cpu_wanted_ppm"] / 1e6 < 0.6  # --dsp-load 50
g = next(r for r in doc["results"] if r["simulation"] == "Gaming")
assert g["xruns"] is None and g["one_percent_low_mfps"] > 0 and g["frame_time_p99_ns"] >= 100_000_000 * 0.5
PY
then ok "JSON: ProAudio's options, policy, xruns; Gaming's frame time and 1% low"; else bad "ProAudio JSON" "$out"; fi
"$BIN" compare pa.json pa.json >"$out" 2>&1; rc=$?
if [ "$rc" = 3 ] && grep -q 'ProAudio .* xruns per minute' "$out" && grep -q 'stolen p99' "$out" &&
   grep -q 'Gaming .* 1% low fps' "$out" && grep -q 'p99 frame time' "$out"
then ok "compare: xruns per minute, stolen p99, frame time, 1% low fps (one sub-run a side: exit 3)"; else bad "compare of ProAudio (exit $rc)" "$out"; fi

# A task that cannot keep up: 100% CPU every 10 ms against a nice -20 Burn misses runs of
# deadlines.  Not a figure of the moment: it needs a whole CPU and CFS gives a nice 0 thread
# beside a nice -20 one 1024 / (1024 + 88761) of it (kernel/sched/core.c, sched_prio_to_weight),
# so it misses whatever else the host runs.
e2e_saved_lpms   # the runs below take the first one's calibration (-l: tests/lib/e2e.sh e2e_calibrate)
"$BIN" -l "$LPMS" -t 1 -c -q -W Custom -C 100 -I 10000 -w Burn -N -20 --json miss.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["deadlines_met_ppm"] < 1000000 and r["longest_miss_streak"] >= 1, r
assert r["longest_miss_streak_ns"] == r["longest_miss_streak"] * 10_000_000
' miss.json; then ok "missed deadlines come in runs, measured in periods and time"; else bad "miss runs (exit $rc)" "$out"; fi

# A task stuck in its first period (-l so high that a period's work never ends): every deadline
# that passed is missed and an xrun, and with no period completed there is no latency: "-" in
# the table, null in the JSON, never a perfect 0.
"$BIN" -t 1 -c -q -W ProAudio -w None -l 4294967295 --json stuck.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -Eq '^None +- \+/- - +- +0 +0 +[1-9]' "$out" && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["periods"] > 100 and r["deadlines_met"] == 0, r
assert r["xruns"] == r["deadlines_missed"] == r["periods"], r
assert r["samples"] == 0 and r["interbench_latency_mean_ns"] is None and r["interbench_latency_max_ns"] is None, r
' stuck.json; then ok "a task stuck in its first period: every period missed and an xrun, latency -"
else bad "stuck first period (exit $rc)" "$out"; fi

# --timeline: every period of every pair, as doc/timeline.md reads it; never through a link.
"$BIN" -l "$LPMS" -t 1 -c -q -W ProAudio -W Audio -w None --repeat 2 --timeline tl.bin --json tl.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && python3 - <<'PY'
import collections, json, struct
doc = json.load(open("tl.json"))
assert doc["options"]["timeline"] == "tl.bin"
with open("tl.bin", "rb") as f:
    assert struct.unpack("<4sIII", f.read(16)) == (b"IBTL", 3, 80, 0)
    n, met, last = collections.Counter(), collections.Counter(), {}
    while (rec := f.read(80)):
        pair, period, start, timer, sched, late, loop, flags, skipped, shown = struct.unpack("<IIQIIIIIIQ8I", rec)[:10]
        assert shown == 0          # no task here presents frames
        assert late >= sched and start >= last.get(pair, 0)
        last[pair] = start
        n[pair] += 1
        met[pair] += flags & 1
assert sorted(r["timeline_pair"] for r in doc["results"]) == list(range(4))
for r in doc["results"]:
    assert n[r["timeline_pair"]] == r["periods"] - r["periods_skipped"], r
    assert met[r["timeline_pair"]] == r["deadlines_met"], r
PY
then ok "--timeline: one record per period run, matching each JSON result"; else bad "--timeline (exit $rc)" "$out"; fi
ln -s "$TMP/victim" link.bin && echo keep >"$TMP/victim"
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --timeline link.bin >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "^interbench: --timeline: link.bin is a symbolic link; not followed" "$out" && [ "$(cat "$TMP/victim")" = keep ]
then ok "--timeline refuses a symbolic link, its target untouched"; else bad "--timeline through a link (exit $rc)" "$out"; fi

for args in "--frames 8" "--rate 1000" "--dsp-load 0" "--periods 1" "--periods 17"; do
	# shellcheck disable=SC2086
	"$BIN" $args -t 1 -c >"$out" 2>&1; rc=$?
	if [ "$rc" = 2 ] && grep -q "^interbench: ${args%% *}: invalid value .*(accepted: " "$out"
	then ok "'$args' refused (exit 2)"; else bad "'$args' refused (exit $rc)" "$out"; fi
done
e2e_end
