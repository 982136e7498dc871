#!/bin/bash
# End to end: task files (doc/task-file.md).  A chain of four threads in interbench's format,
# and a thread on its own timer listed before them, runs against Burn with --explain: its chain
# figures, each thread's wake-up p99 under its name, --explain's stages named after the file's
# threads (the chain's first), the compiled model and its digest in a
# schema-valid JSON.  -W file:PATH says --task-file PATH.  rt-app's own example mp3-short.json
# (Debian's rt-app package) runs as it is.  The built-in Audio and its file form
# (doc/tasks/audio.json) state the same pattern.  A bad file is refused before anything runs,
# one line naming the file, the line and the key's path, exit 2.  compare refuses two results of
# different task files, but with --allow-different-task.  A nice sweep of the task decides each
# setting against the first.  File runs as a load too.
# Usage: e2e_taskfile.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin taskfile "${1:?usage: $0 path/to/interbench}"
DOC=$(cd "$(dirname "$0")/.." && pwd)/doc
e2e_run_dir
e2e_calibrate
valid() { python3 -c 'import json,sys,jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' "$SCHEMA" "$1"; }

cat >chain.json <<'J'
{
  "interbench_task": 1,
  "name": "Chain4",
  "period": "10ms",
  "threads": [
    { "name": "tick", "trigger": { "every": "5ms" }, "work": "50us" },
    { "name": "capture", "trigger": "period", "work": "500us" },
    { "name": "dsp", "trigger": { "after": ["capture"] }, "work": "1ms" },
    { "name": "mix", "trigger": { "after": ["dsp"] }, "work": "1ms" },
    { "name": "out", "trigger": { "after": ["mix"] }, "work": "500us" }
  ]
}
J

# a chain of four (and a thread on its own timer, first in the file) against Burn, explained: its
# figures, its threads by name, the model recorded
"$BIN" -q -l "$LPMS" -t 2 --task-file chain.json -w Burn --explain --explain-threshold 1us -v --json c.json >c.out 2>c.err; rc=$?
if [ "$rc" = 0 ] && valid c.json && python3 - c.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
tf = doc["run"]["task_file"]
assert tf["format"] == "interbench" and tf["name"] == "Chain4", tf
assert tf["threads"] == ["tick", "capture", "dsp", "mix", "out"], tf
assert tf["digest"].startswith("fnv1a64:") and tf["model"], tf
(r,) = doc["results"]
assert (r["simulation"], r["load"]) == ("File", "Burn"), r
assert r["chain_samples"] > 0 and r["chain_p99_ns"] >= r["chain_p50_ns"] > 0, r
# a period's chain is at least its work: 3 ms of CPU in a row
assert r["chain_p50_ns"] >= 3000000, r["chain_p50_ns"]
assert r["thread1_wake_p99_ns"] is None, "the root is woken by the engine: its latency is the task's"
assert all(r["thread%d_wake_p99_ns" % i] > 0 for i in (0, 2, 3, 4)), r
assert all(r["thread%d_wake_p99_ns" % i] is None for i in range(5, 32)), r
PY
then ok "a chain of four and a timer thread vs Burn: chain figures, wake-ups by thread, the model and its digest recorded"
else bad "chain of four (exit $rc)" c.err; fi
log=$(ls ./*.log | head -1)
if grep -qE '^          threads: wake-up p99 tick [0-9.]+ ms, capture -, dsp [0-9.]+ ms, mix [0-9.]+ ms, out [0-9.]+ ms$' "$log" &&
   grep -qF 'task Chain4: 5 threads from chain.json' "$log"; then
	ok "the logfile names the task, its file and each thread's wake-up p99"
else bad "the logfile's task lines" "$log"; fi
# --explain follows the chain, then the thread aside: each stage by the file's thread name, with
# how long it waited
src=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["explain"]["source"])' c.json 2>/dev/null)
if [ "$src" = bpf ]; then
	why_joined "$log" >c.joined
	if python3 -c 'import json,sys; st=json.load(open(sys.argv[1]))["results"][0]["explain"]["stages"]; assert [s["stage"] for s in st]==["capture","dsp","mix","out","tick"], st' c.json &&
	   grep -qE '^ +why: stages: capture waited [0-9.]+ % .*, dsp waited [0-9.]+ % .*, mix waited [0-9.]+ % .*, out waited [0-9.]+ % .*, tick waited [0-9.]+ %' c.joined; then
		ok "--explain: each stage of the chain named after the file's thread, with its wait, then the timer thread"
	else bad "--explain's stages" c.joined; fi
else
	skip "--explain's stages: no BPF tracer here (source $src)"
fi
rm -f ./*.log

# -W file:PATH is --task-file PATH; a path with a newline and an escape stays on the header's
# one line, escaped, and whole in the JSON
odd=$'odd\n\e[2Jname.json'
cp chain.json "$odd"
"$BIN" -q -l "$LPMS" -t 1 -W "file:$odd" -w None --json w.json >w.out 2>w.err; rc=$?
if [ "$rc" = 0 ] && python3 - w.json c.json <<'PY'
import json, sys
w, c = (json.load(open(p)) for p in sys.argv[1:])
assert [x["simulation"] for x in w["results"]] == ["File"], w["results"]
assert w["run"]["task_file"]["digest"] == c["run"]["task_file"]["digest"]
assert w["run"]["task_file"]["path"] == "odd\n\x1b[2Jname.json", w["run"]["task_file"]["path"]
PY
then ok "-W file:PATH runs the file as --task-file does, the same digest"
else bad "-W file:PATH (exit $rc)" w.err; fi
log=$(ls ./*.log | head -1)
if grep -qF 'task Chain4: 5 threads from odd\n\x1b[2Jname.json (' "$log" && ! grep -q $'\e' "$log"; then
	ok "a task file's path with a newline and an escape: escaped on the logfile's one line"
else bad "the odd path in the logfile" "$log"; fi
rm -f ./*.log

# the same task twice compares; a different one is refused
sed 's/"500us" }/"600us" }/' chain.json >chain2.json
"$BIN" -q -l "$LPMS" -t 1 --task-file chain2.json -w None --json w2.json >/dev/null 2>w2.err
"$BIN" compare w.json w.json >cs.out 2>cs.err; rc_same=$?
"$BIN" compare w.json w2.json >cd.out 2>cd.err; rc_diff=$?
if [ "$rc_same" != 2 ] && [ "$rc_diff" = 2 ] && [ "$(wc -l <cd.err)" = 1 ] &&
   grep -qE '^interbench compare: different tasks \(the task files.? models differ: OLD fnv1a64:[0-9a-f]{16}, NEW fnv1a64:[0-9a-f]{16};.* --allow-different-task compares them anyway' cd.err; then
	ok "compare: the same task file compares, a different one is refused in one line (exit 2)"
else bad "compare of task files (same $rc_same, different $rc_diff)" cd.err; fi
"$BIN" compare --allow-different-task --json ca.json w.json w2.json >ca.out 2>ca.err; rc=$?
if [ "$rc" != 2 ] && grep -qE "^Warning: task_file.digest differs: OLD 'fnv1a64:[0-9a-f]{16}', NEW 'fnv1a64:[0-9a-f]{16}'" ca.out &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(w["setting"]=="task_file.digest" for w in d["warnings"]) and d["figures"], d.keys()' ca.json; then
	ok "compare --allow-different-task: judged, the digests' difference a warning (exit $rc)"
else bad "compare --allow-different-task (exit $rc)" ca.out; fi

# rt-app's own example, as rt-app reads it (keys repeated in order)
MP3=/usr/share/doc/rt-app/examples/mp3-short.json
if [ -r "$MP3" ]; then
	"$BIN" -q -l "$LPMS" -t 2 --task-file "$MP3" -w None --json m.json >m.out 2>m.err; rc=$?
	if [ "$rc" = 0 ] && valid m.json && python3 - m.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
tf = doc["run"]["task_file"]
assert tf["format"] == "rt-app", tf
assert tf["threads"] == ["AudioTick", "AudioOut", "AudioTrack", "mp3.decoder", "OMXCall"], tf
(r,) = doc["results"]
assert r["samples"] > 0 and r["chain_samples"] > 0, r
# AudioOut, AudioTrack and mp3.decoder are resumed in a chain every 30 ms: each has wake-ups.
# OMXCall is woken by the decoder's signal, which, as in rt-app, is lost when OMXCall is not
# waiting yet; the two then wait on each other for good (doc/task-file.md): not asserted
assert all(r["thread%d_wake_p99_ns" % i] is not None for i in (1, 2, 3)), r
PY
	then ok "rt-app's mp3-short.json runs as it is: 5 threads, the resumed ones woken as rt-app wakes them"
	else bad "mp3-short.json (exit $rc)" m.err; fi
else
	skip "rt-app's examples not installed ($MP3)"
fi

# the built-in Audio and doc/tasks/audio.json state the same pattern
"$BIN" -q -l "$LPMS" -t 1 -W Audio -w None --json a.json >/dev/null 2>a.err
"$BIN" -q -l "$LPMS" -t 1 --task-file "$DOC/tasks/audio.json" -w None --json af.json >/dev/null 2>af.err; rc=$?
if [ "$rc" = 0 ] && python3 - a.json af.json <<'PY'
import json, sys
a, f = (json.load(open(p))["results"][0]["task_settings"] for p in sys.argv[1:])
for k in ("interval_us", "work_us", "fixed_work"):
    assert a[k] == f[k], (k, a[k], f[k])
PY
then ok "doc/tasks/audio.json: the built-in Audio's period, work and kind of work"
else bad "audio.json against Audio (exit $rc)" af.err; fi

# a bad file: one line naming the file, line and key path; nothing runs, nothing written
printf '{\n  "interbench_task": 1,\n  "period": "5ms",\n  "threads": [ { "name": "a", "trigger": "period", "work": "fast" } ]\n}\n' >bad.json
mkdir empty && (cd empty && "$BIN" -l "$LPMS" -t 1 --task-file ../bad.json -w None >../b.out 2>../b.err); rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <b.err)" = 1 ] && [ ! -s b.out ] && [ -z "$(ls -A empty)" ] &&
   grep -qxF 'interbench: --task-file: ../bad.json:4: threads[0].work: "fast" (accepted: a time, 0us..10s (an integer of microseconds, or a string with a unit: "2.5ms"), or {"uniform": [MIN, MAX]})' b.err; then
	ok "a bad file: exit 2, one line naming the file, its line and the key's path; nothing written"
else bad "a bad file (exit $rc)" b.err; fi
"$BIN" -q -l "$LPMS" -t 1 --task-file /nonexistent/t.json -w None >n.out 2>n.err; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <n.err)" = 1 ] && grep -qF '/nonexistent/t.json' n.err; then
	ok "a missing file: exit 2, one line naming it"
else bad "a missing file (exit $rc)" n.err; fi
mkfifo fifo.json
"$BIN" -q -l "$LPMS" -t 1 --task-file fifo.json -w None >ff.out 2>ff.err & pid=$!
wait_within 20 "$pid"; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <ff.err)" = 1 ]; then ok "a FIFO as the file: refused at once, not waited on"
else bad "a FIFO (exit $rc)" ff.err; fi

# a nice sweep of the file's task, repeated: each setting against the first, decided
"$BIN" -c -l "$LPMS" -t 1 --task-file chain.json -w None -B 0,5 --repeat 2 --json sw.json >sw.out 2>&1; rc=$?
if [ "$rc" = 0 ] && valid sw.json && grep -q '^Decisions: each setting against the first' sw.out && python3 - sw.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
figs = d["decisions"]["figures"]
assert figs and all(f["simulation"] == "File nice 5" and f["base"]["simulation"] == "File nice 0" for f in figs), figs
assert all(f["answer"] in ("DIFFERENT", "SAME", "UNKNOWN") for f in figs)
PY
then ok "a nice sweep of the file's task with --repeat 2: its decisions, each setting against the first"
else bad "a sweep of File (exit $rc)" sw.out; fi

# rt-app's browser-short.json has no timer: no period, a load only; refused as the task
BROWSER="$E2E_TREE/tests/taskfiles/rtapp/browser-short.json"
"$BIN" -q -l "$LPMS" -t 1 --task-file "$BROWSER" -w None >bt.out 2>bt.err; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <bt.err)" = 1 ] && grep -q 'no task has a timer, so the file has no period and no task figures: it runs as a load only' bt.err &&
   [ ! -s bt.out ]; then
	ok "a file without a timer as the task: refused in one line (exit 2), nothing run"
else bad "a periodless file as the task (exit $rc)" bt.err; fi
"$BIN" -q -l "$LPMS" -t 2 -W Audio -w File --task-file "$BROWSER" --json bl.json >bl.out 2>bl.err; rc=$?
if [ "$rc" = 0 ] && valid bl.json && python3 - bl.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(r,) = d["results"]
assert (r["simulation"], r["load"]) == ("Audio", "File"), r
assert d["run"]["task_file"]["model"]["periodless"] is True, d["run"]["task_file"]["model"]
# BrowserMain's first phase sleeps 400 ms, then runs 15 ms and wakes Browser: work was done
assert r["load_work"]["burn_loops_thousands"] > 0, r["load_work"]
PY
then ok "a file without a timer as a load behind Audio: its threads' work counted, the model periodless"
else bad "a periodless file as a load (exit $rc)" bl.err; fi

# File as a load behind Audio
"$BIN" -q -l "$LPMS" -t 1 -W Audio -w File --task-file chain.json --json l.json >l.out 2>l.err; rc=$?
if [ "$rc" = 0 ] && python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; assert [(x["simulation"], x["load"]) for x in r] == [("Audio", "File")], r' l.json
then ok "File as a load behind Audio"
else bad "File as a load (exit $rc)" l.err; fi
if pgrep -f "$BIN" >/dev/null; then bad "a process of the runs is left"; else ok "no process left"; fi

e2e_end
