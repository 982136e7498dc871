#!/bin/bash
# End to end: a short real run with --repeat and --json, the document validated against
# doc/interbench-result.schema.json, then compare's exit statuses.  Usage: e2e_results.sh BINARY
set -u
bin=$(realpath "${1:?usage: $0 path/to/interbench}")
schema=$(realpath "$(dirname "$0")/../doc/interbench-result.schema.json")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"   # calibrate into the temp dir, never the user's ~/.cache
mkdir "$tmp/run" && cd "$tmp/run" || exit 1
pass=0 fail=0
check() { # check NAME EXPECTED_STATUS COMMAND...
	local name=$1 want=$2; shift 2
	"$@" >"$tmp/out.txt" 2>&1
	local got=$?
	if [ "$got" = "$want" ]; then pass=$((pass + 1)); echo "ok   $name"
	else fail=$((fail + 1)); echo "FAIL $name: exit $got, expected $want"; sed 's/^/     /' "$tmp/out.txt"; fi
}

check "short run with --repeat 2 --json" 0 "$bin" -t 1 -c -W Audio -w None -w Burn --repeat 2 --json out.json
check "schema validation" 0 python3 -c '
import json, sys, jsonschema
doc = json.load(open("out.json"))
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc)
assert len(doc["results"]) == 4, "expected 2 pairs x 2 repeats"
' "$schema"
check "no files besides out.json with -c" 0 test "$(ls)" = "out.json"
check "compare with itself" 0 "$bin" compare out.json out.json
python3 - <<'PY'
import json
doc = json.load(open("out.json"))
for r in doc["results"]:
    if "latency_p99_ns" in r:
        r["latency_p99_ns"] = r["latency_p99_ns"] * 3 + 1000000
json.dump(doc, open("worse.json", "w"))
PY
check "compare with a doctored copy" 1 "$bin" compare out.json worse.json
# a repeat that took no latency sample (the task never ran) is the worst latency, not left out
python3 - <<'PY'
import json
doc = json.load(open("out.json"))
for r in doc["results"]:
    if r.get("load") == "Burn" and r.get("repeat") == 2:
        r["samples"] = 0
        for k in r:
            if k.startswith(("latency_", "interbench_latency_")) and k.endswith("_ns"):
                r[k] = None
json.dump(doc, open("starved.json", "w"))
PY
check "compare with a repeat starved" 1 "$bin" compare out.json starved.json
cp "$tmp/out.txt" "$tmp/starved.txt"
check "the starved repeat is named" 0 grep -q '^Audio  *Burn  *starved repeats  *0 of 2  *1 of 2 .*REGRESSION$' "$tmp/starved.txt"
# a --build-id jansson cannot take: the option, the value escaped, what is accepted
check "export --build-id not UTF-8" 2 "$bin" export -f kcidb --origin ci --build-id $'ci:caf\xe9' out.json
cp "$tmp/out.txt" "$tmp/build-id.txt"
check "export says why" 0 grep -qxF "interbench export: --build-id: 'ci:caf\\xe9' is not valid UTF-8 (accepted: 'ci:' followed by the build's id, valid UTF-8 text of at most 300 bytes)" "$tmp/build-id.txt"
head -c 300 out.json > truncated.json
printf 'not an interbench result\n' > garbage.txt
check "compare with garbage" 2 "$bin" compare out.json garbage.txt
check "compare with a truncated file" 2 "$bin" compare truncated.json out.json
check "compare with a missing file" 2 "$bin" compare out.json missing.json
check "compare with a directory" 2 "$bin" compare . out.json
# a comparison nobody could read is no pass: standard output on a full device
if [ -w /dev/full ]; then
	"$bin" compare out.json out.json >/dev/full 2>"$tmp/err.txt"; got=$?
	if [ "$got" = 2 ] && grep -q "compare: write standard output: No space left on device" "$tmp/err.txt"
	then pass=$((pass + 1)); echo "ok   compare to a full stdout: exit 2, said"
	else fail=$((fail + 1)); echo "FAIL compare to a full stdout: exit $got"; sed 's/^/     /' "$tmp/err.txt"; fi
fi
# Two real runs with logfiles (the load's throughput line under the Burn row), compared.
mkdir "$tmp/logs" && cd "$tmp/logs" || exit 1
log="$(uname -r).log"
check "first logged run" 0 "$bin" -t 1 -W Audio -w None -w Burn
mv "$log" old.log
check "second logged run" 0 "$bin" -t 1 -W Audio -w None -w Burn
mv "$log" new.log
check "the logfile carries the load's throughput" 0 grep -q '^ *load: Burn ' new.log
check "each run kept its own JSON beside the logfile" 0 test "$(ls -- *.json | wc -l)" = 2
"$bin" compare old.log new.log >"$tmp/cmp.txt" 2>&1
rc=$?
if [ "$rc" = 0 ] || [ "$rc" = 1 ]; then pass=$((pass + 1)); echo "ok   compare of two logfiles exits $rc"
else fail=$((fail + 1)); echo "FAIL compare of two logfiles: exit $rc, expected 0 or 1"; sed 's/^/     /' "$tmp/cmp.txt"; fi
check "compare prints the Audio/Burn pair" 0 grep -q '^Audio  *Burn ' "$tmp/cmp.txt"
cd "$tmp/run" || exit 1

check "--repeat 0 refused" 2 "$bin" --repeat 0
check "--repeat abc refused" 2 "$bin" --repeat abc

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
