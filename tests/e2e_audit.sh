#!/bin/bash
# End to end: the system audit (issue 15).  --audit prints every setting with its source and
# exits 1 exactly when a hint is printed; a run writes the audit to the logfile header and the
# JSON; compare lists machine differences and refuses different CPUs unless allowed.
# Usage: e2e_audit.sh BINARY
set -u
BIN=$(realpath "${1:?usage: $0 path/to/interbench}")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export XDG_CACHE_HOME="$TMP/cache"
mkdir -p "$TMP/cache" "$TMP/run" && cd "$TMP/run" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     /' "$2"; }
out="$TMP/out.txt"

"$BIN" --audit >"$out" 2>&1; rc=$?
hints=$(grep -c '^ *hint: ' "$out")
if { [ "$rc" = 0 ] && [ "$hints" = 0 ]; } || { [ "$rc" = 1 ] && [ "$hints" -gt 0 ]; } &&
   grep -q '^preemption ' "$out" && grep -q '^smt .*(/sys/devices/system/cpu/smt/active)$' "$out" &&
   grep -q '^deepest_idle_state ' "$out" && [ "$(grep -c '' "$out")" -ge 20 ]
then ok "--audit: every setting with its source, exit $rc with $hints hints"; else bad "--audit (exit $rc)" "$out"; fi
if [ ! -e "$(uname -r).log" ] && [ -z "$(ls)" ]; then ok "--audit writes nothing"; else bad "--audit wrote files"; fi

"$BIN" -t 1 -q -W Audio -w None --json run.json >"$out" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q '^Audit (interbench --audit):$' "$(uname -r).log" &&
   grep -q '^  clocksource ' "$(uname -r).log" &&
   python3 -c 'import json,sys; a = json.load(open(sys.argv[1]))["machine"]["audit"]; assert "smt" in a and "source" in a["smt"]' run.json
then ok "a run keeps the audit in the logfile header and the JSON"; else bad "audit in the results (exit $rc)" "$out"; fi
python3 - <<'PY'
import json
d = json.load(open("run.json"))
d["machine"]["cpu_model"] = "Another CPU"
json.dump(d, open("other.json", "w"))
d = json.load(open("run.json"))
d["machine"]["audit"]["smt"]["value"] = "changed"
json.dump(d, open("smt.json", "w"))
PY
"$BIN" compare run.json other.json >"$out" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -q "different machines (cpu_model: OLD '.*', NEW 'Another CPU')" "$out"
then ok "compare refuses different CPUs"; else bad "compare of different CPUs (exit $rc)" "$out"; fi
"$BIN" compare --allow-different-machine run.json other.json >"$out" 2>&1; rc=$?
if [ "$rc" != 2 ] && grep -q "^Warning: cpu_model differs" "$out"; then ok "--allow-different-machine compares with a warning"
else bad "--allow-different-machine (exit $rc)" "$out"; fi
"$BIN" compare run.json smt.json >"$out" 2>&1; rc=$?
if [ "$rc" != 2 ] && grep -q "^Warning: smt differs: OLD '.*', NEW 'changed'" "$out"; then ok "compare warns of a different setting"
else bad "setting difference (exit $rc)" "$out"; fi
"$BIN" compare --json cmp.json run.json smt.json >"$out" 2>&1; rc=$?
if [ "$rc" != 2 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["warnings"] == [{"setting": "smt", "old": d["warnings"][0]["old"], "new": "changed"}], d["warnings"]
assert d["pairs_compared"] == 1 and d["exit_status"] == '"$rc"' and d["latency_compared"] == "interbench"
assert any(f["figure"] == "p99 latency" and f["unit"] == "ms" for f in d["figures"])
' cmp.json; then ok "compare --json: the warnings, the figures and the verdict"; else bad "compare --json (exit $rc)" "$out"; fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
