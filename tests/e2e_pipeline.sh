#!/bin/bash
# End to end: the Pipeline task, a frame made by a chain of threads and shown at vsyncs.  Its
# figures' form: its table columns, the stage lines of -v, the schema-valid JSON
# whose shares add up, its timeline's frames, its plot, --explain along its chain, its
# threads' names, as a load behind Audio, and a bad option.
# How much jank a load causes is a figure of the machine at that moment, not checked here: on a
# shared host another process's load moves it (a 5 s run once showed 1 % jank against None);
# bench/known-answers.sh runs Burn at nice 0 against nice 19, and -L 1 against -L 4, repeated,
# for compare to judge.
# Usage: e2e_pipeline.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin pipeline "${1:?usage: $0 path/to/interbench}"
e2e_run_dir

"$BIN" -t 5 -c -v -W Pipeline -w None -w Burn -L 4 --json hog.json --timeline hog.bin >hog.txt 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q 'i2p p50    i2p p99    i2p max  frame p99     1% low       jank     jank %   jank run    stutter' hog.txt &&
   [ "$(grep -c 'stages: wake-to-run p99 input .* ms, game .*, workers .*, join .*, render .*, commit .*, latch ' hog.txt)" = 2 ] &&
   [ "$(grep -c 'input-to-present: input .* %, logic .*, workers .*, join .*, render .*, latch .*, compose .*, scanout ' hog.txt)" = 2 ]
then ok "Pipeline: its columns, and the stage lines under each row with -v"; else bad "Pipeline table (exit $rc)" hog.txt; fi
# The runs below take the calibration the first one saved (-l: tests/lib/e2e.sh e2e_calibrate).
e2e_saved_lpms
if python3 - "$SCHEMA" hog.json <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
none, burn = (next(r for r in doc["results"] if r["load"] == l) for l in ("None", "Burn"))
for r in (none, burn):
    shares = sum(v for k, v in r.items() if k.startswith("i2p_share_"))
    assert abs(shares - 1e6) < 100, shares                       # the segments are the whole time
    assert r["vsyncs"] > 250 and r["input_to_present_samples"] > 3500, r   # 5 s at 60 Hz, 1 kHz input
    assert r["stage_game_wake_p99_ns"] is not None and r["input_to_present_p50_ns"] <= r["input_to_present_p99_ns"]
    # a frame is shown at a vsync: its time is never under one 60 Hz vsync (16.667 ms)
    assert r["frame_time_p50_ns"] >= 16_000_000 and 0 <= r["jank_ppm"] <= 1e6, r
PY
then ok "JSON: schema-valid, the segments' shares the whole, the samples of 5 s, no frame time under a vsync"; else bad "Pipeline JSON" hog.txt; fi

# The timeline: each frame shown at a vsync, so the frame times between frames shown are whole
# vsync periods, and the vsyncs that showed nothing (between them, before the first and after
# the last) are the JSON's jank.
if python3 - hog.json hog.bin <<'PY'
import collections, json, struct, sys
doc = json.load(open(sys.argv[1]))
shown = collections.defaultdict(list)
with open(sys.argv[2], "rb") as f:
    assert struct.unpack("<4sIII", f.read(16)) == (b"IBTL", 3, 80, 0)
    while (rec := f.read(80)):
        pair, period, start, *_, shown_ns = struct.unpack("<IIQIIIIIIQ8I", rec)[:10]
        if shown_ns:
            assert shown_ns > start, (period, start, shown_ns)
            shown[pair].append(shown_ns)
for r in doc["results"]:
    # the program's vsync period is its interval, whole microseconds (16667 at 60 Hz); frames
    # shown: at least a tenth of the 300 vsyncs of 5 s whatever the load (a busy shared host
    # showed 96-116 under Burn, a quiet one about 290)
    t, vsync_ns = shown[r["timeline_pair"]], r["interval_us"] * 1000
    assert len(t) > 30 and t == sorted(t), (r["load"], len(t))
    gaps = [round((b - a) / vsync_ns) for a, b in zip(t, t[1:])]
    assert all(k >= 1 and abs((b - a) - k * vsync_ns) < 2000 for k, a, b in zip(gaps, t, t[1:])), r["load"]
    between = sum(k - 1 for k in gaps)
    # vsync j (from 0) is at (j + 1) vsyncs and the repaint window (under one vsync) from the
    # start (workloads/pipeline.c pipe_compositor), and the JSON counts vsyncs 0 .. vsyncs - 1
    first, last = t[0] // vsync_ns - 1, t[-1] // vsync_ns - 1
    counted = between + first + (r["vsyncs"] - 1 - last)
    # exact, but for a frame shown as the stop came, its period cut (no record): one vsync more
    assert 0 <= counted - r["jank_vsyncs"] <= 1, (r["load"], between, first, last, r["vsyncs"], r["jank_vsyncs"])
PY
then ok "--timeline: the vsync of each frame shown, whole vsyncs apart, the jank between them the JSON's"
else bad "Pipeline timeline" hog.txt; fi

if command -v gnuplot >/dev/null; then
	"$BIN" plot hog.json --timeline hog.bin --out pics >plot.txt 2>&1; rc=$?
	if [ "$rc" = 0 ] && [ -s pics/chain-pipeline.png ] &&
	   [ "$(grep -cE '^"(None|Burn)"( [0-9.e+-]+){9}$' pics/chain-pipeline.gp)" = 2 ] &&
	   [ "$(grep -l "using 4:5 axes x1y2 with steps lc 'dark-green' title 'frame time'" pics/timeline-*.gp | wc -l)" = 2 ] &&
	   [ "$(grep -cE '^[0-9.]+ [0-9.]+ 0 [0-9.]+ (16|33|50|66)\.[0-9]+$' pics/timeline-1.gp)" -gt 30 ]
	then ok "plot: chain-Pipeline, input-to-present by segment per load; the frame times on each timeline"
	else bad "plot (exit $rc)" plot.txt; fi
else
	skip "plot: gnuplot not installed (make deps installs it)"
fi

# compare knows the chain's figures and judges them; a result against itself changed in none
# of them, and with one sub-run a side answers none: exit 3.  (Its disturbance set to none: a
# disturbed sub-run is left out, "its sub-runs left out", on a busy host.)
python3 "$E2E_TREE/tests/lib/undisturbed.py" hog.json hog-u.json
"$BIN" compare hog-u.json hog-u.json >cmp.txt 2>&1; rc=$?
if [ "$rc" = 3 ] && [ "$(grep -c '^Pipeline .* p99 input-to-present .* UNKNOWN: one sub-run a side$' cmp.txt)" = 2 ] &&
   [ "$(grep -c '^Pipeline .* % jank vsyncs .* pt .* UNKNOWN: one sub-run a side$' cmp.txt)" = 2 ] &&
   ! grep -q 'REGRESSION\|DIFFERENT, ' cmp.txt
then ok "compare: p99 input-to-present and % jank vsyncs of each load judged, nothing flagged against itself (exit 3)"; else bad "compare (exit $rc)" cmp.txt; fi

# --explain follows the chain (the game thread, the workers, the render thread): the stages'
# waits and work explain the delay that the game thread's own waits left unexplained.  Which
# stage waited longer after its wake-ups is a figure of one run on a shared host, not checked:
# "the stage with the clearly longer wake-to-run p99 also waited longer in the explained
# periods" held in 5 runs of 6 here and failed once (render's p99 14.1 ms against the workers'
# 5.44, woken waits 249 against 385 ms, 5.6 % of the CPUs taken by other programs).
"$BIN" -l "$LPMS" -t 6 -c -v --explain -W Pipeline -w Burn -L 4 --json ex.json >ex.txt 2>&1; rc=$?
if grep -q -- "--explain: no BPF tracer" ex.txt; then
	skip "Pipeline --explain: the BPF tracer cannot run here: $(grep -- '--explain: no BPF' ex.txt)"
elif [ "$rc" = 0 ] && why_joined ex.txt | grep -Eq '^ +why: stages: game waited [0-9.]+ % \(woken [0-9.]+ %\), workers waited [0-9.]+ % \(woken [0-9.]+ %\) and worked [0-9.]+ %, render waited' &&
     python3 - "$SCHEMA" ex.json <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
r = doc["results"][0]
e = r["explain"]
assert [s["stage"] for s in e["stages"]] == ["game", "workers", "render"], e["stages"]
assert e["explained_periods"] > 20 and e["parts_ns"]["stages"] > 0, e
assert e["parts_ns"]["unexplained"] < 0.1 * e["delay_ns"], e["parts_ns"]   # 55 % with the game thread alone
assert all(0 <= s["woken_wait_ns"] <= s["wait_ns"] for s in e["stages"]), e["stages"]
PY
then ok "Pipeline --explain: game, workers and render followed, the delay explained, each stage's woken wait part of its wait"
else bad "Pipeline --explain (exit $rc)" ex.txt; fi

# Its threads by name while it runs, and as a load behind Audio.
all_named() {
	local n
	for n in ib-game ib-render ib-compositor ib-input ib-worker-0 ib-worker-2; do
		echo "$1" | grep -qx "$n" || return 1
	done
}
"$BIN" -l "$LPMS" -t 3 -c -W Audio -w Pipeline --workers 3 --json load.json >load.txt 2>&1 & pid=$!
names=""
for _ in $(seq 100); do
	sleep 0.1
	names=$(ps -eL -o comm=)
	all_named "$names" && break
done
wait "$pid"; rc=$?
if [ "$rc" = 0 ] && all_named "$names" &&
   python3 -c 'import json, sys; r = json.load(open("load.json"))["results"][0]; assert r["load"] == "Pipeline" and r["vsyncs"] is None and r["samples"] > 0, r'
then ok "as a load behind Audio: its threads named ib-game .. ib-worker-2, Audio's figures its own"; else bad "Pipeline as a load (exit $rc): $(echo $names | tr '\n' ' ' | grep -o 'ib-[a-z0-9-]*' | sort -u | tr '\n' ' ')" load.txt; fi

# The logfile: its chain columns (labels of two words) and stage lines read back by compare.
mkdir -p logged && (cd logged && "$BIN" -l "$LPMS" -t 2 -v -W Pipeline -w None >run.txt 2>&1); rc=$?
log=$(ls logged/*.log 2>/dev/null | head -1)
# (its marks of disturbance and of a stopped load dropped: a marked sub-run is left out, and
# its figures with it)
sed -e '/^ *\* \(disturbed\|load stopped\):/d' -e 's/ \*$//' "${log:-logged/none.log}" >logged/unmarked.txt
"$BIN" compare logged/unmarked.txt logged/unmarked.txt >cmplog.txt 2>&1; crc=$?
if [ "$rc" = 0 ] && [ "$crc" = 3 ] && grep -q "stages: wake-to-run p99" "$log" &&
   python3 - "$log" logged/*.json cmplog.txt <<'PY'
import json, re, sys
p99_ms = json.load(open(sys.argv[2]))["results"][0]["latency_p99_ns"] / 1e6
row = next(l for l in open(sys.argv[3]) if re.match(r"Pipeline +None +p99 latency ", l))
assert abs(float(row.split()[5]) - p99_ms) <= 0.001 + p99_ms * 0.01, (row, p99_ms)   # the verbose p99, not i2p's
PY
then ok "the logfile read back: the verbose p99 found past the chain columns, the stage lines skipped"; else bad "logfile compare (exit $rc, $crc)" cmplog.txt; fi

"$BIN" -t 1 -c -W Pipeline -w None --compose-work 2000 --repaint-window 1500 >bad.txt 2>&1; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <bad.txt)" = 1 ] && grep -q -- "--repaint-window: 1500 (accepted: microseconds more than --compose-work 2000" bad.txt
then ok "--repaint-window not above --compose-work: exit 2 naming both"; else bad "bad --repaint-window (exit $rc)" bad.txt; fi

# The header states each task's resolved pattern, on the console, in the logfile and in the
# JSON: ProAudio's 64 frames at 48 kHz are 1.333 ms, Pipeline's 144 Hz vsync 6.944 ms.  And
# every --refresh the option takes runs with the defaults: at 500 Hz the compositor's work
# follows the 0.8 ms repaint window (refused up to f224d61).
mkdir -p pattern && (cd pattern && "$BIN" -l "$LPMS" -t 1 -W ProAudio --frames 64 -W Pipeline --refresh 144 -w None --json p.json >run.txt 2>&1); rc=$?
log=$(ls pattern/*.log 2>/dev/null | head -1)
pa='Pattern of ProAudio: period 1.333 ms, work 1.066 ms (80 %), buffer 2 periods (64 frames at 48000 Hz)'
pp='Pattern of Pipeline: period 6.944 ms, work 9 ms (130 %), no buffer (vsync at 144 Hz; a frame: logic 2 ms, workers 4 ms in 2 threads, render 3 ms; compositor 1 ms a vsync, latching 2.777 ms before it; input at 1000 Hz)'
if [ "$rc" = 0 ] && [ -n "$log" ] && grep -qxF "$pa" pattern/run.txt && grep -qxF "$pp" pattern/run.txt &&
   grep -qxF "$pa" "$log" && grep -qxF "$pp" "$log" && python3 - "$SCHEMA" pattern/p.json "${pa#*: }" "${pp#*: }" <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
ts = {r["simulation"]: r["task_settings"] for r in doc["results"]}
assert ts["ProAudio"]["interval_us"] == 1333 and ts["ProAudio"]["work_us"] == 1066, ts
assert ts["Pipeline"]["interval_us"] == 6944 and ts["Pipeline"]["work_us"] == 9000, ts
assert ts["ProAudio"]["pattern"] == sys.argv[3] and ts["Pipeline"]["pattern"] == sys.argv[4], ts
PY
then ok "the header states the resolved patterns: 1.333 ms, 6.944 ms (console, logfile, JSON)"
else bad "pattern lines (exit $rc)" pattern/run.txt; fi
"$BIN" -l "$LPMS" -t 1 -c -W Pipeline --refresh 500 -w None >fast.txt 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '^Pattern of Pipeline: period 2 ms, .* compositor 0.4 ms a vsync, latching 0.8 ms before it;' fast.txt &&
   awk '$1 == "None" { n++; if (NF != 16 || $3 != "+/-") bad = 1 } END { exit !(n == 1 && !bad) }' fast.txt
then ok "--refresh 500 with the default --compose-work runs: 0.4 ms of composing in a 0.8 ms window"
else bad "--refresh 500 (exit $rc)" fast.txt; fi

# Frames longer than a period (--logic-work far past the frame): each skips periods, a stop
# comes mid-frame, and the pair still reports, every deadline missed, its figures kept.  The
# task's CPU stays its threads' work: the game thread's (one CPU at most) and the others' few
# ms a frame (workers, render) and 1 ms a vsync (compositor) under 20 % of a CPU at 24 Hz;
# a thread spinning (the compositor waiting on a ring slot a skipped frame number reused, up
# to f224d61) adds up to a CPU.  305 ms of logic makes each frame span 7-8 periods of 41.7 ms,
# so frame numbers 8 apart fall on one slot of the ring of 8; 1 s is the reported case.
for work in 305000 1000000; do
	"$BIN" -l "$LPMS" -t 3 -c -W Pipeline --refresh 24 --logic-work "$work" -w None --json "long$work.json" >"long$work.txt" 2>&1; rc=$?
	if [ "$rc" = 0 ] && awk '$1 == "None" { n++; if (NF != 16 || $7 != 0) bad = 1 } END { exit !(n == 1 && !bad) }' "long$work.txt" &&
	   python3 - "long$work.json" "$work" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("task_cpu_ppm", r["task_cpu_ppm"])
assert not r.get("failed") and r["deadlines_met_ppm"] == 0 and r["vsyncs"] > 50, r
# a frame closed, unless the task's threads did not get one frame's logic of CPU in the run (a
# busy host gave a 1 s frame 17 % of a CPU in 3 s)
cpu_ns = r["task_cpu_ppm"] * r["task_run_ns"] / 1e6
assert r["samples"] > 0 or cpu_ns < int(sys.argv[2]) * 1000, (r["samples"], cpu_ns)
assert r["task_cpu_ppm"] < 1200000, r["task_cpu_ppm"]   # one CPU and the others' work: see above
PY
	then ok "--logic-work $work at 24 Hz: the pair reports 0 % deadlines met, its threads' CPU their work"
	else bad "--logic-work $work at 24 Hz (exit $rc)" "long$work.txt"; fi
done

e2e_end
