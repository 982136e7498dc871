#!/bin/bash
# End to end: --explain.  With the BPF tracer (root, kernel BTF): X against Burn names the
# Burn load's threads as most of the explained delay, the block under the row and the JSON
# agree and validate; with the load confined to the other CPU, Burn is no longer a cause.
# Without privileges: the schedstat floor with its one-line reason.  Where BPF cannot trace,
# the BPF cases are skipped with the reason printed.  Usage: e2e_explain.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin explain "${1:?usage: $0 path/to/interbench}"
e2e_run_dir

# The load's culprits' share of a result's explained delay arising in the periods themselves
# (less "carried", the overrun of the period before, whose own causes are counted there).
share_py='
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
e = r["explain"]
load = sum(c["ns"] for c in e["culprits"] if c["owner"] == "load")
own = e["delay_ns"] - e["parts_ns"]["carried"]
print(e["source"], e["explained_periods"], round(100 * load / max(own, 1), 1))
'

"$BIN" -t 11 -c -v --explain --explain-threshold 500us -W X -w Burn --json xb.json >xb.txt 2>&1; rc=$?
if grep -q -- "--explain: no BPF tracer" xb.txt; then
	echo "skip - the BPF tracer cannot run here: $(grep -- '--explain: no BPF' xb.txt)"
	bpf=0
else
	bpf=1
fi
if [ "$rc" = 0 ] && python3 - "$SCHEMA" xb.json <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
e = doc["results"][0]["explain"]
assert e["explained_periods"] > 0 and e["delay_ns"] > 0, e
assert 0 < len(e["periods"]) <= min(32, e["explained_periods"]), e
for p in e["periods"]:
    assert sum(p["parts_ns"].values()) >= p["delay_ns"], p   # unexplained is the rest
PY
then ok "X/Burn --explain: a schema-valid explain object with its periods"; else bad "X/Burn --explain JSON (exit $rc)" xb.txt; fi

if [ "$bpf" = 1 ]; then
	read -r src n pct < <(python3 -c "$share_py" xb.json)
	if [ "$src" = bpf ] && python3 -c "import sys; sys.exit(not float('$pct') >= 80)"; then
		ok "X/Burn: the Burn load's threads took $pct % of $n explained periods' delay"
	else
		bad "X/Burn: the load's share $pct % (source $src, $n periods)" xb.txt
	fi
	if grep -Eq '^ +why: [0-9]+ late periods explained, [0-9.]+ ms of delay in all \(bpf\):$' xb.txt &&
	   grep -Eq '^ +why: by [^ ]+ \(pid [0-9]+, the Burn load, SCHED_OTHER nice 0\) [0-9.]+ % in [0-9]+ switch-ins' xb.txt &&
	   grep -Eq '^ +why: .*tasks [0-9.]+ %' xb.txt
	then ok "-v: the why block names the Burn load's thread first"; else bad "-v why block" xb.txt; fi

	cpus=$(nproc)
	if [ "$cpus" -ge 2 ]; then
		"$BIN" -t 11 -c --explain --explain-threshold 500us -W X -w Burn --bench-cpus 0 --load-cpus 1 --json apart.json >apart.txt 2>&1; rc=$?
		read -r src n pct < <(python3 -c "$share_py" apart.json 2>/dev/null || echo "- 0 100")
		if [ "$rc" = 0 ] && python3 -c "import sys; sys.exit(not float('$pct') < 10)"; then
			ok "Burn confined to CPU 1: its threads took $pct % of the delay of $n periods on CPU 0"
		else
			bad "Burn confined to CPU 1: share $pct % (exit $rc)" apart.txt
		fi
	else
		echo "skip - one CPU: the load cannot be confined apart"
	fi
fi

# The floor: an unprivileged run explains from schedstat, saying why in one line.
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	mkdir -p "$TMP/user" && chmod 777 "$TMP/user"
	(cd "$TMP/user" && XDG_CACHE_HOME="$TMP/user" setpriv --reuid 65534 --regid 65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$BIN" -t 3 -c -v --explain-threshold 500us -W X -w Burn --json floor.json) \
		>floor.txt 2>&1; rc=$?
	if [ "$rc" = 0 ] && [ "$(grep -c -- '--explain: no BPF tracer' floor.txt)" = 1 ] &&
	   grep -q "explained only as time runnable against time run" floor.txt &&
	   python3 - "$SCHEMA" "$TMP/user/floor.json" <<'PY'
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc := json.load(open(sys.argv[2])))
e = doc["results"][0]["explain"]
assert e["source"] in ("schedstat", "none"), e
if e["explained_periods"]:
    assert e["parts_ns"]["runnable"] > 0, e
PY
	then ok "unprivileged --explain: the schedstat floor, its reason in one line"; else bad "unprivileged --explain (exit $rc)" floor.txt; fi
else
	echo "skip - the unprivileged floor needs root and setpriv to drop privileges"
fi

# Bad input: exit 2 naming the option, the value and what is accepted.
"$BIN" --explain-threshold 3x -t 1 -c >bad.txt 2>&1; rc=$?
if [ "$rc" = 2 ] && [ "$(wc -l <bad.txt)" = 1 ] && grep -q -- "--explain-threshold: invalid time '3x' (accepted: a time" bad.txt
then ok "--explain-threshold 3x refused (exit 2)"; else bad "--explain-threshold 3x (exit $rc)" bad.txt; fi

e2e_end
