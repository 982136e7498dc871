#!/usr/bin/env bash
# The task-file documentation against itself and the binary: doc/task-file.schema.json is a
# valid JSON Schema (draft 2020-12) that accepts every example under doc/tasks/ and refuses
# files the format refuses; the keys the tables of doc/task-file.md ("interbench's format")
# name are exactly the schema's, for the task and for a thread; and, when the binary reads task
# files (--task-file in --help-all), each example and rt-app's mp3-short.json (tests/taskfiles/rtapp/)
# runs for a second against None, its result valid against doc/interbench-result.schema.json,
# the task File with the file's name (File when it gives none) in run.task_file.name; a file asking for a realtime policy
# needs root (a skip, said, without); and each bad file of the doc's "Refusals" is refused with
# the line the doc gives, exit status 2, nothing written.
# Usage: tests/e2e_taskfile_docs.sh ./interbench
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin taskfile_docs "${1:-}"
e2e_run_dir
DOC="$E2E_TREE/doc/task-file.md"
TSCHEMA="$E2E_TREE/doc/task-file.schema.json"
TASKS="$E2E_TREE/doc/tasks"

# check NAME CMD...: CMD's status 0 is a pass, anything else a failure with its output.
check() {
	local name=$1
	shift
	if "$@" >check.out 2>&1; then ok "$name"; else bad "$name" check.out; fi
}

check "the schema is a valid draft 2020-12 schema" python3 -c '
import json, sys, jsonschema
jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))' "$TSCHEMA"

# Each example valid; at least the four built-ins and one graph of the doc's own.
check "every doc/tasks/*.json is valid against the schema" python3 -c '
import glob, json, os, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
files = sorted(glob.glob(os.path.join(sys.argv[2], "*.json")))
names = {os.path.basename(f) for f in files}
want = {"audio.json", "video.json", "proaudio.json", "pipeline.json"}
if not want <= names:
    sys.exit("missing: %s" % sorted(want - names))
bad = 0
for f in files:
    for e in v.iter_errors(json.load(open(f))):
        print("%s: %s: %s" % (f, "/".join(map(str, e.absolute_path)), e.message))
        bad += 1
sys.exit(bad != 0)' "$TSCHEMA" "$TASKS"

# The schema refuses what the format refuses: each case one change to audio.json.
check "the schema refuses an unknown key, a missing trigger, a priority of 100, times the parser refuses, 33 threads, version 2" python3 -c '
import copy, json, sys, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
good = json.load(open(sys.argv[2]))
def with_(f):
    d = copy.deepcopy(good); f(d); return d
cases = {
    "unknown key": with_(lambda d: d.update(frequency=20)),
    "missing trigger": with_(lambda d: d["threads"][0].pop("trigger")),
    "priority 100": with_(lambda d: d["threads"][0].update(policy="fifo", priority=100)),
    "time without a unit": with_(lambda d: d.update(period="50")),
    "time with a space": with_(lambda d: d.update(period="50 ms")),
    "time in exponent form": with_(lambda d: d.update(period="5e4us")),
    "time upper-case": with_(lambda d: d.update(period="50MS")),
    "fractional microseconds as a number": with_(lambda d: d["threads"][0].update(work=2.5)),
    "33 threads": with_(lambda d: d.update(threads=[dict(d["threads"][0], name="t%d" % i) for i in range(33)])),
    "version 2": with_(lambda d: d.update(interbench_task=2)),
}
if not v.is_valid(good):
    sys.exit("audio.json itself is invalid")
accepted = [k for k, d in cases.items() if v.is_valid(d)]
sys.exit("accepted: %s" % accepted if accepted else 0)' "$TSCHEMA" "$TASKS/audio.json"

# The tables' keys: the first column of each "| key | value | meaning |" table of the section
# "interbench's format", backquoted; the first table the task's, the second a thread's.
check "the doc's tables name exactly the schema's keys (task and thread)" python3 -c '
import json, re, sys
doc = open(sys.argv[1], encoding="utf-8").read()
sec = re.search(r"^## interbench.s format$(.*?)(?=^## )", doc, re.S | re.M)
if not sec:
    sys.exit("no section named: interbench format")
tables, cur = [], None
for line in sec.group(1).splitlines():
    if re.match(r"\|\s*key\s*\|\s*value\s*\|", line):
        cur = set(); tables.append(cur); continue
    if cur is not None and line.startswith("|"):
        cell = line.split("|")[1]
        cur.update(re.findall(r"`([a-z_]+)`", cell))
    elif not line.startswith("|"):
        cur = None
if len(tables) != 2:
    sys.exit("%d key tables, 2 expected" % len(tables))
s = json.load(open(sys.argv[2]))
want = [set(s["properties"]), set(s["$defs"]["thread"]["properties"])]
diff = []
for what, doc_keys, schema_keys in zip(("task", "thread"), tables, want):
    if doc_keys - schema_keys:
        diff.append("%s: in the doc, not the schema: %s" % (what, sorted(doc_keys - schema_keys)))
    if schema_keys - doc_keys:
        diff.append("%s: in the schema, not the doc: %s" % (what, sorted(schema_keys - doc_keys)))
sys.exit("\n".join(diff) if diff else 0)' "$DOC" "$TSCHEMA"

# Each example run, when this binary reads task files.
if "$BIN" --help-all 2>&1 | grep -q -- '--task-file'; then
	e2e_calibrate
	for f in "$TASKS"/*.json "$E2E_TREE/tests/taskfiles/rtapp/mp3-short.json"; do
		base=$(basename "$f" .json)
		# rt-app's file has no "name" and repeats keys (read by grep, not by python's json)
		if grep -q '"interbench_task"' "$f"; then
			name=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("name", "File"))' "$f")
		else
			name=File
		fi
		if [ "$(id -u)" != 0 ] && grep -qE '"policy" *: *"(fifo|rr|deadline)"' "$f"; then
			skip "$base.json asks for a realtime policy: needs root"
			continue
		fi
		if "$BIN" -t 1 -c -l "$LPMS" --task-file "$f" -w None --json "$base.json" >"$base.out" 2>&1 &&
			python3 -c '
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(doc)
sims = {r["simulation"] for r in doc["results"]}
name = doc["run"]["task_file"]["name"]
ok = sims == {"File"} and name == sys.argv[3] and all(r.get("samples") for r in doc["results"])
sys.exit(0 if ok else "results: %s, task_file.name %s" % (sorted(sims), name))' \
				"$base.json" "$SCHEMA" "$name" >>"$base.out" 2>&1; then
			ok "$base.json runs as $name, its result valid"
		else
			bad "$base.json runs as $name, its result valid" "$base.out"
		fi
	done
	# The doc's refusals: each ```json block of "## Refusals" saved under the name the message
	# after it gives, then refused with that message, exit status 2, no result written.
	python3 - "$DOC" >refusals.tsv <<'PY'
import re, sys
doc = open(sys.argv[1], encoding="utf-8").read()
sec = doc[doc.index("## Refusals"):]
sec = sec[:sec.index("\n## ", 1)]
for body, msg, name in re.findall(r"```json\n(.*?)```\n```\n(interbench: --task-file: ([^:\s/]+):[^\n]*)\n```", sec, re.S):
    open(name, "w").write(body)
    print(name + "\t" + msg)
PY
	[ "$(wc -l <refusals.tsv)" -ge 5 ] || bad "the doc's refusals: $(wc -l <refusals.tsv) examples found, 5 expected" refusals.tsv
	while IFS=$'\t' read -r f msg; do
		rc=0
		"$BIN" -t 1 -c -l "$LPMS" --task-file "$f" -w None --json "refused-$f" >"$f.out" 2>&1 || rc=$?
		if [ "$rc" = 2 ] && grep -qxF -- "$msg" "$f.out" && [ ! -e "refused-$f" ]; then
			ok "the doc's refusal of $f: its message, exit 2, nothing written"
		else
			echo "exit $rc; expected the line: $msg" >>"$f.out"
			bad "the doc's refusal of $f: its message, exit 2, nothing written" "$f.out"
		fi
	done <refusals.tsv
else
	skip "doc/tasks/*.json run and the doc's refusals: this binary has no --task-file"
fi
e2e_end
