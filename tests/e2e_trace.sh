#!/bin/bash
# End to end: --trace FILE, a trace in the Trace Event Format's JSON (doc/trace.md) that Perfetto
# opens.  Each trace is read back by tests/trace_check.py, which checks it against the format's
# rules (Google's "Trace Event Format" document: every event with ph, name, pid, tid and ts, X
# events with dur >= 0, B/E balanced, counters numeric, metadata with its arguments) and three
# a viewer needs (slices on one track nest; every process and track named; a tid in one
# process); then its contents against the run's JSON results: a sub-run slice per result,
# and as many late-period slices (missed, dropped, unfinished) as the results' missed
# deadlines.  Perfetto's own trace
# processor is not packaged where the tests run, so the format's rules are checked instead.
# Usage: e2e_trace.sh BINARY
set -u
CHECK=$(cd "$(dirname "$0")" && pwd)/trace_check.py
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin trace "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
e2e_calibrate

# The trace against the results: sub-runs, pair slices, late periods equal to the missed
# deadlines, a counter sample a period run, every late slice inside its process.
agrees() { # TRACE RESULTS [frames TIMELINE]
	python3 "$CHECK" "$1" --summary >sum.json && python3 - "$1" "$2" "${3:-}" "${4:-}" <<'PY'
import json, struct, sys
trace, res = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
s = json.load(open("sum.json"))
results = res["results"]
ev = trace["traceEvents"]
subruns = [e for e in ev if e["ph"] == "X" and e["cat"] == "subrun"]
assert len(subruns) == len(results), (len(subruns), len(results))
assert sorted(e["args"]["deadlines_missed"] for e in subruns) == sorted(r["deadlines_missed"] for r in results)
pairs = {(r["simulation"], r["load"], r["mode"], r["load_mode"]) for r in results}
assert len([e for e in ev if e["ph"] == "X" and e["cat"] == "pair"]) == len(pairs)
late = sum(s["by_name"].get(k, 0) for k in ("missed deadline", "dropped period", "unfinished period"))
missed = sum(r["deadlines_missed"] for r in results)
assert late == missed, (late, missed, s["by_name"])
assert s["counters"].get("lateness", 0) == sum(r["periods"] - r["periods_skipped"] for r in results), s["counters"]
assert trace["otherData"]["truncated"] is False, trace["otherData"]
assert "displayTimeUnit" not in trace   # Perfetto would read ts in its unit (doc/trace.md)
if sys.argv[3] == "frames":   # each frame a --timeline record with its vsync
    with open(sys.argv[4], "rb") as f:
        f.read(16)
        shown = sum(1 for rec in iter(lambda: f.read(80), b"") if struct.unpack("<IIQIIIIIIQ8I", rec)[9])
    assert s["by_name"].get("frame", 0) == shown > 0, (s["by_name"], shown)
    segments = ("input", "logic", "workers", "join", "render", "latch", "compose", "scanout")
    assert all(s["by_name"].get(k) == shown for k in segments), (s["by_name"], shown)   # every frame cut whole
print(late, "late periods,", missed, "missed deadlines,", len(subruns), "sub-runs")
PY
}

# 1. Audio against Burn, the brief's example; periods through the memory file (no --timeline).
"$BIN" -l "$LPMS" -t 2 -c -q -W Audio -w Burn --trace t.json --json r.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && agrees t.json r.json >>"$out" 2>&1 && ! grep -q timeline_pair r.json &&
   [ -z "$(find . -name '.t.json.*')" ]
then ok "Audio/Burn: a valid trace, its sub-run, pair and late periods as the results say"
else bad "Audio/Burn --trace (exit $rc)" "$out"; fi

# 2. A task that misses (100 % CPU each 10 ms beside a nice -20 Burn, as tests/e2e_stutter.sh
#    explains), two sub-runs, with --timeline: the periods read back from its file, and the
#    timeline written whole beside the trace.
"$BIN" -l "$LPMS" -t 1 -c -q -W Custom -C 100 -I 10000 -w Burn -N -20 --repeat 2 --trace m.json \
	--timeline m.bin --json m.r.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && agrees m.json m.r.json >>"$out" 2>&1 && python3 - <<'PY' >>"$out" 2>&1
import json
r = json.load(open("m.r.json"))["results"]
assert sum(x["deadlines_missed"] for x in r) > 0, r
assert sorted(x["timeline_pair"] for x in r) == [0, 1]
PY
then ok "missed deadlines: one late slice each, two sub-runs in one pair slice, --timeline beside"
else bad "missed deadlines in the trace (exit $rc)" "$out"; fi

# 3. A task stuck in its first period: no record at all, every deadline unfinished.
"$BIN" -t 1 -c -q -W ProAudio -w None -l 4294967295 --trace s.json --json s.r.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && agrees s.json s.r.json >>"$out" 2>&1 &&
   python3 -c 'import json; assert json.load(open("sum.json"))["by_name"]["unfinished period"] > 100'
then ok "a task stuck in its first period: each passed deadline an unfinished period"
else bad "stuck task's trace (exit $rc)" "$out"; fi

# 4. The Pipeline: each frame shown, on frame tracks that nest; with --explain, who ran
#    instead under the late periods (the BPF tracer as root, else the schedstat floor).
"$BIN" -l "$LPMS" -t 3 -c -q -W Pipeline -w Burn -L 4 --explain --trace p.json --timeline p.bin \
	--json p.r.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && agrees p.json p.r.json frames p.bin >>"$out" 2>&1
then ok "Pipeline: every frame shown a slice from input to present, its 8 segments nested, frames in flight on tracks of their own"
else bad "Pipeline --trace (exit $rc)" "$out"; fi
if grep -q -- "--explain: no BPF tracer" "$out"; then
	skip "--trace's explanations with BPF: the tracer cannot run here: $(grep -- '--explain: no BPF' "$out")"
elif python3 - <<'PY' >>"$out" 2>&1
import json
ev = json.load(open("p.json"))["traceEvents"]
late = [e for e in ev if e["ph"] == "X" and e["name"] == "missed deadline"]
explained = [e["args"]["explain"] for e in late if "explain" in e["args"]]
assert explained or not late, "no late period explained"
for x in explained:
    assert {"culprits", "parts_ns", "softirq_ns", "stages"} <= x.keys(), x.keys()
    assert all({"comm", "pid", "ns"} <= c.keys() for c in x["culprits"]), x["culprits"]
sub = [e for e in ev if e["ph"] == "X" and e["cat"] == "subrun"]
assert all(e["args"]["explain"]["source"] == "bpf" for e in sub), [e["args"]["explain"]["source"] for e in sub]
print(len(late), "late periods,", len(explained), "explained")
PY
then ok "--explain: the late periods' causes (culprits, interrupts, stages) in their args"
else bad "--explain in the trace" "$out"; fi

# 5. Hostile names: a symbolic link or a FIFO at FILE is refused at once, nothing written.
echo keep >victim; ln -s victim link.json; mkfifo fifo.json
"$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --trace link.json >"$out" 2>&1; rc1=$?
timeout 60 "$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --trace fifo.json >>"$out" 2>&1; rc2=$?
if [ "$rc1" = 2 ] && [ "$rc2" = 2 ] && [ "$(cat victim)" = keep ] && [ -L link.json ] && [ -p fifo.json ] &&
   grep -q -- '--trace: .*link.json is a symbolic link' "$out"
then ok "a link or FIFO at --trace: refused with exit 2, nothing written through it"
else bad "hostile --trace names (exit $rc1, $rc2)" "$out"; fi

# 6. A full disk (RLIMIT_FSIZE, as tests/e2e_outputs.sh does for --json): exit 1, the write's
#    errno named, the trace that was there before left whole, no temporary file.
echo '{"traceEvents": []}' >full.json; cp full.json full.before
fsize_limited 4096 "$out" "$BIN" -l "$LPMS" -t 1 -c -q -W Audio -w None --trace full.json; rc=$?
if [ "$rc" = 1 ] && grep -q -- '--trace full.json: write: File too large' "$out" && cmp -s full.json full.before &&
   [ -z "$(find . -name '.full.json.*')" ]
then ok "--trace on a full disk: exit 1, the errno said, the old trace whole, no temporary file"
else bad "--trace on a full disk (exit $rc)" "$out"; fi

# 7. A signal mid-pair: the trace keeps what was measured (the cut sub-run marked interrupted),
#    whole and valid; a second signal at once: no trace and no temporary file left.
two_children() { [ "$(pgrep -c -P "$1")" -ge 2 ]; }
mkdir -p int && cd int || exit 1
env --default-signal=INT "$BIN" -l "$LPMS" -t 5 -c -q -W Audio -w Burn --trace i.json >"$out" 2>&1 &
pid=$!
wait_for two_children "$pid"; sleep 0.5   # inside the window: load and bench running
kill -INT "$pid"; wait_within 60 "$pid"; rc=$?
if [ "$rc" = 130 ] && python3 "$CHECK" i.json >>"$out" 2>&1 && [ "$(ls -A)" = i.json ] && python3 - <<'PY' >>"$out" 2>&1
import json
sub = [e for e in json.load(open("i.json"))["traceEvents"] if e.get("cat") == "subrun"]
assert len(sub) == 1 and sub[0]["args"]["interrupted"] is True and sub[0]["dur"] < 5e6, sub
PY
then ok "SIGINT mid-pair: exit 130, the trace whole with the cut sub-run marked interrupted"
else bad "SIGINT mid-pair (exit $rc): left $(ls -A | tr '\n' ' ')" "$out"; fi
rm -f i.json
env --default-signal=INT "$BIN" -l "$LPMS" -t 5 -c -q -W Audio -w Burn --trace i.json >"$out" 2>&1 &
pid=$!
wait_for two_children "$pid"
kill -STOP "$pid"; kill -INT "$pid"; kill -TERM "$pid"; kill -CONT "$pid"   # distinct: never merged
wait_within 60 "$pid"; rc=$?
if [ "$rc" -ge 128 ] && [ -z "$(ls -A)" ]; then ok "a second signal: exit $rc at once, no trace and no temporary file left"
else bad "second signal (exit $rc): left $(ls -A | tr '\n' ' ')" "$out"; fi
cd .. || exit 1

e2e_end
