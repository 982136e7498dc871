#!/usr/bin/env bash
# The kernel matrix's check (`make kernel-matrix-check`, and CI): the test definition against
# LAVA's schema, each job against LAVA's job schema and through `lava-run --validate` (and a
# broken one of each refused), then real boots with a 1 s run: Debian's generic and
# PREEMPT_RT kernels through lava-run, each booted twice, alternating (generic, rt, generic,
# rt: matrix.sh --boots 2), each kernel's two boots merged into one result and compared on
# the sub-runs of both (the RT kernel in qemu's default CPU model,
# without RDRAND: the jansson seeding hang), and Debian 13's (debian:trixie, fetched through
# a private apt configuration) with qemu directly, and Debian's 7.2 (debian:sid) with the
# kernel's own scx_simple built for it (--scx: EEVDF against sched_ext in one boot, and a
# scheduler that fails its pair); each must leave its JSON result and test
# cases, and the lava-run boots their causes from --explain's BPF tracer (loaded by each
# guest's kernel and its verifier, not this host's).  Each guest's interbench has a watchdog
# (WATCHDOG_SECONDS, 60: a boot takes about 21 s in TCG, and LAVA gives up on a job after 2
# minutes without a test case): a kernel on which interbench did not finish has the guest's
# account of what its threads and the kernel were doing printed here, and is booted once more;
# the check passes when that boot gives its result, saying that interbench hung once, and fails
# on a second hang.  Installs its packages when root
# (lava-dispatcher: about a minute on a fresh machine; clang-19 for --scx); about a minute more
# in TCG, and the first time Debian 13's and 7.2's kernels and linux-source-7.2 (about 300 MB)
# into the kernel cache, and the scheduler's build (about a minute).
# Usage: ci/kernels/check.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
passed=0 failed=0
ok() { echo "ok   - $*"; passed=$((passed + 1)); }
fail() { echo "FAIL - $*"; failed=$((failed + 1)); }
# expect STATUS WHAT COMMAND...: passes when COMMAND exits with STATUS.
expect() {
	local want=$1 what=$2 rc=0
	shift 2
	"$@" >"$work/expect.out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ]; then ok "$what"; else fail "$what: exit $rc, not $want:"; tail -20 "$work/expect.out"; fi
}

"$here/deps.sh" --lava
make -s -C "$src" interbench interbench-static
work=$(mktemp -d /tmp/interbench-kernels.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The test definition, with LAVA's own schema (Debian's python3, where lava-common is):
# exit 0 valid, 10 refused by the schema (anything else: the check itself broke).
validate_testdef() {
	/usr/bin/python3 - "$1" <<'EOF'
import sys, yaml, voluptuous
from lava_common.schemas.test import testdef
try:
    testdef.validate(yaml.safe_load(open(sys.argv[1])))
except voluptuous.Invalid as e:
    print(e, file=sys.stderr)
    sys.exit(10)
EOF
}
expect 0 "ci/kernels/interbench.yaml passes LAVA's test definition schema" validate_testdef "$here/interbench.yaml"
grep -v 'format: Lava-Test' "$here/interbench.yaml" >"$work/broken-testdef.yaml"
expect 10 "LAVA's schema refuses a test definition without metadata.format" validate_testdef "$work/broken-testdef.yaml"

# The last console lines of a boot's log LOG (lava-run's, one YAML mapping a line, or a raw
# serial console), indented.
last_console_lines() {
	if grep -q '"lvl": "target"' "$1"; then
		/usr/bin/python3 -c 'import json, sys
lines = [json.loads(l).get("msg", "") for l in open(sys.argv[1]) if "\"lvl\": \"target\"" in l]
for m in lines[-25:]:
    print("         ", str(m)[:200])' "$1" 2>/dev/null || tail -5 "$1"
	else
		tail -25 "$1" | tr -cd '[:print:]\n' | cut -c1-200 | sed 's/^/          /'
	fi
}

# The user-mode addresses where interbench's threads ran in the kernel's CPU backtraces of
# watchdog block FILE (sysrq l: "RIP: 0033:ADDR" after "Comm: interbench" or "Comm: ib-..."), as
# functions and lines of interbench-static, whose addresses are its own (not position independent).
where_it_ran() {
	local addrs
	LC_ALL=C readelf -h "$src/interbench-static" | grep -q 'Type: *EXEC' || return 0
	addrs=$(awk '/ Comm: / { c = $0; sub(/.* Comm: /, "", c); sub(/ .*/, "", c) }
		/RIP: 0033:0x/ && c ~ /^(interbench|ib-)/ && c != "interbench-lava" {
			a = $0; sub(/.*RIP: 0033:/, "", a); sub(/[^0-9a-fx].*/, "", a); print a }' "$1" | sort -u)
	[ -n "$addrs" ] || return 0
	echo "       where interbench's threads were running (addr2line -f -i -p -e interbench-static):"
	# shellcheck disable=SC2086 # one address a word
	addr2line -f -i -p -e "$src/interbench-static" $addrs | sed 's/^/         /'
}

# The kernels of matrix.sh's output FILE on which interbench did not finish while the job
# itself passed (no crash, no failed boot): the guest's watchdog stopped it, or the console
# never gave its result.
hung_kernels() {
	awk '/^== [A-Za-z0-9_.-]+: / { label = substr($2, 1, length($2) - 1) }
	     /^   job pass, / && /stopped by the watchdog|interbench did not finish/ { print label }' "$1" | sort -u
}

# What kernel LABEL's guests said of their hung interbench in matrix output directory DIR: the
# watchdog's block of each boot that has one (LABEL.watchdog.txt, LABEL.bootK.watchdog.txt
# with --boots), else (no block: the guest itself stopped) the last console lines of its boots.
show_hang() {
	local dir=$1 label=$2 f shown=false
	for f in "$dir/$label.watchdog.txt" "$dir/$label".boot[0-9]*.watchdog.txt; do
		[ -s "$f" ] || continue
		echo "       $label: the guest's watchdog (${f##*/}):"
		sed 's/^/         /' "$f"
		where_it_ran "$f"
		shown=true
	done
	$shown && return 0
	for f in "$dir/$label/log" "$dir/$label"/boot[0-9]*/log; do
		[ -f "$f" ] || continue
		echo "       $label: no watchdog block; the last console lines of ${f#"$dir/"}:"
		last_console_lines "$f"
	done
}

# Kernel LABEL's lines in matrix.sh's output FILE: its "== LABEL:" lines and their verdicts.
kernel_lines() {
	awk -v l="$2" '/^== / { on = $2 == l ":" } on && NF' "$1"
}

# matrix.sh into directory OUT with ARGS, its output in OUT.out; when interbench did not finish
# on a kernel, what the guest said of it, and the whole matrix once more (so that each kernel
# after the first is still compared with it; the first attempt kept as OUT.hung): passes
# saying so when that kernel then gives its result, fails when interbench hangs again.  Returns
# matrix.sh's (last) exit status.
matrix_once_more() {
	local out=$1 rc=0 hung="" new again label try
	shift
	OUT="$out" "$here/matrix.sh" "$@" >"$out.out" 2>&1 || rc=$?
	new=$(hung_kernels "$out.out")
	# each kernel may hang once: a run with a kernel that hung for the first time is run again
	# (at most three runs)
	for try in 1 2; do
		[ -n "$new" ] || break
		for label in $new; do
			echo "       $label: interbench did not finish; booted once more"
			show_hang "$out" "$label"
		done
		hung="$hung $new"
		rm -rf "$out.hung" "$out.hung.out"
		mv "$out" "$out.hung" && mv "$out.out" "$out.hung.out"
		rc=0
		OUT="$out" "$here/matrix.sh" "$@" >"$out.out" 2>&1 || rc=$?
		again=$(hung_kernels "$out.out")
		new=""
		for label in $again; do
			[[ " $hung " = *" $label "* ]] || new="$new $label"
		done
	done
	for label in $hung; do
		if kernel_lines "$out.out" "$label" | grep -q "^   job pass, interbench exit 0, " &&
		   ! kernel_lines "$out.out" "$label" | grep '^   job ' | grep -vq "^   job pass, interbench exit 0, "; then
			ok "$label: interbench hung once (threads above), passed on a second boot"
		elif [[ " $again " = *" $label "* ]]; then
			fail "$label: interbench hung on a second boot too:"; show_hang "$out" "$label"
		else
			fail "$label: interbench hung once (threads above), and its second boot failed:"
			kernel_lines "$out.out" "$label"
		fi
	done
	return "$rc"
}

# Real boots: both kernels twice through lava-run, alternating (each job first through
# lava-run --validate).
export TEST_MINUTES=3 INTERBENCH="$src/interbench" INTERBENCH_STATIC="$src/interbench-static" WATCHDOG_SECONDS=60
rc=0
matrix_once_more "$work/lava" --boots 2 --args "-t 1 -W Audio -w None --explain --explain-threshold 1us" || rc=$?
if [ "$rc" = 4 ]; then  # compare undecided: two sub-runs a side answer nothing (matrix.sh's exit 4)
	ok "generic and rt kernels booted twice each through lava-run, compared (exit $rc)"
	if grep -q '^matrix: TCG' "$work/lava.out"; then
		if grep -q 'plumbing, not performance' "$work/lava.out"; then ok "in TCG the figures are said to be plumbing, not performance"
		else fail "in TCG, no word that the figures are plumbing"; fi
	fi
else
	fail "kernel matrix through lava-run exited $rc:"; tail -20 "$work/lava.out"
	# what each guest printed last (the scratch directory goes with the run)
	for log in "$work"/lava/*/boot[0-9]*/log; do
		[ -f "$log" ] || continue
		echo "       the last console lines of ${log#"$work"/lava/}:"
		last_console_lines "$log"
	done
fi

# What each kernel left: a JSON result with a measured pair, and its test cases (CASES...:
# each boot's files of them; default LABEL.cases.txt).
check_result() {
	local dir=$1 label=$2 how=$3 cases
	shift 3
	[ $# -gt 0 ] || set -- "$label.cases.txt"
	if /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; assert r and all(x.get("samples",0)>0 for x in r), r' \
		"$dir/$label.json" 2>/dev/null; then
		ok "$label ($how): JSON result decoded from the console, every pair measured"
	else
		fail "$label ($how): no measured JSON result in $dir/$label.json"
	fi
	# the figure's verdict against the first kernel's result is TCG's noise: pass or fail
	for cases in "$@"; do
		if grep -Eq '^audio-none-p99-latency (pass|fail) [0-9]+\.[0-9]{6} ms$' "$dir/$cases" 2>/dev/null &&
		   grep -qx 'audio-none pass' "$dir/$cases" && grep -qx 'interbench-run pass' "$dir/$cases"; then
			ok "$label ($how): $cases: test cases audio-none-p99-latency (ms), audio-none and interbench-run pass"
		else
			fail "$label ($how): $cases: test cases missing:"; cat "$dir/$cases" 2>/dev/null || true
		fi
	done
}
# The causes travel: each guest's result explains its periods with the BPF tracer.
check_causes() {
	local label=$1
	if /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; assert all(x["explain"]["source"] == "bpf" and x["explain"]["explained_periods"] > 0 for x in r), [x.get("explain") for x in r]' \
		"$work/lava/$label.json" 2>"$work/causes.err"; then
		ok "$label (lava-run): --explain's causes from the BPF tracer in the guest"
	else
		fail "$label (lava-run): no BPF causes:"; tail -3 "$work/causes.err"; grep -h -- "--explain" "$work/lava/$label"/boot[0-9]*/log | head -3 || true
	fi
}
check_result "$work/lava" generic lava-run generic.boot1.cases.txt generic.boot2.cases.txt
check_result "$work/lava" rt lava-run rt.boot1.cases.txt rt.boot2.cases.txt
check_causes generic
check_causes rt

# --boots 2: the boots alternated, each kernel's two merged into a schema-valid result with
# repeats 1 and 2 (one a boot), and compare took both sub-runs of each side.
order=$(sed -n 's/^== \([a-z]*\): boot \([0-9]\) of 2, .*/\1 \2/p' "$work/lava.out" | tr '\n' ' ')
if [ "$order" = "generic 1 rt 1 generic 2 rt 2 " ]; then ok "--boots 2: the boots alternated: $order"
else fail "--boots 2: the boots did not alternate: '$order'"; fi
merged_ok() {
	/usr/bin/python3 - "$src/doc/interbench-result.schema.json" "$work/lava/$1.json" <<'EOF'
import json, sys, jsonschema
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc)
assert [b["results"] for b in doc["boots"]] == [1, 1], doc["boots"]
assert sorted(r["repeat"] for r in doc["results"]) == [1, 2], [r["repeat"] for r in doc["results"]]
EOF
}
for label in generic rt; do
	expect 0 "$label.json: its 2 boots merged, schema-valid, repeats 1 and 2" merged_ok "$label"
done
if grep -q '^OLD generic.json (json, up to 2 sub-runs)$' "$work/lava.out" &&
   grep -q '^NEW rt.json (json, up to 2 sub-runs)$' "$work/lava.out" &&
   grep -q '^== kernels, 2 boots each, alternating' "$work/lava.out"; then
	ok "compare judged generic and rt on 2 sub-runs a side, one from each boot; the summary says 2 boots each"
else
	fail "compare on 2 sub-runs a side:"; grep -E '^(OLD|NEW|== kernels)' "$work/lava.out"
fi

# Each generated job with LAVA's own job schema, as lava-server checks a submitted job
# (lava_common.schemas.validate, strict): exit 0 valid, 10 refused.
validate_job() {
	/usr/bin/python3 - "$1" <<'EOF'
import sys, yaml, voluptuous
from lava_common.schemas import validate
try:
    validate(yaml.safe_load(open(sys.argv[1])), strict=True)
except voluptuous.Invalid as e:
    print(e, file=sys.stderr)
    sys.exit(10)
EOF
}
for label in generic rt; do
	expect 0 "$label's job passes LAVA's job schema (what lava-server accepts)" validate_job "$work/lava/$label/boot1/job.yaml"
done
sed 's/^visibility: public/visibility: everyone/' "$work/lava/generic/boot1/job.yaml" >"$work/bad-visibility.yaml"
expect 10 "LAVA's job schema refuses a job whose visibility is not public, personal or group" \
	validate_job "$work/bad-visibility.yaml"

# lava-run --validate refuses a job the dispatcher cannot run (proof that it checks).
sed 's/method: qemu/method: no-such-method/' "$work/lava/generic/boot1/job.yaml" >"$work/broken-job.yaml"
expect 1 "lava-run --validate refuses a job with an unknown boot method" lava-run --validate --job-id 1 \
	--output-dir "$work/validate" --device "$work/lava/generic/boot1/device.yaml" \
	--dispatcher "$work/lava/generic/boot1/dispatcher.yaml" "$work/broken-job.yaml"

# The direct path: the same initramfs booted by qemu itself, with Debian 13's kernel fetched
# through the private apt configuration (the machine's apt sources and lists unchanged).
apt_state() { cat /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | sha256sum; ls -l /var/lib/apt/lists; }
before=$(apt_state)
rc=0
matrix_once_more "$work/direct" --direct --args "-t 1 -W Audio -w None" debian:trixie || rc=$?
if [ "$rc" = 0 ]; then ok "debian:trixie fetched and booted with qemu directly"
else fail "debian:trixie fetched and booted with qemu directly: exit $rc, not 0:"; tail -20 "$work/direct.out"; fi
check_result "$work/direct" trixie qemu
if [ "$(apt_state)" = "$before" ] && /usr/bin/python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["machine"]["audit"]
assert a["scheduler"]["value"] == "EEVDF", a["scheduler"]' "$work/direct/trixie.json" 2>"$work/eevdf.err"; then
	ok "trixie (qemu): its audit says EEVDF; the machine's apt sources and lists untouched"
else
	fail "trixie (qemu): EEVDF or the machine's apt:"; cat "$work/eevdf.err"
fi
# sched_ext: Debian's 7.2 (debian:sid, its image in linux-binary), scx_simple built from the
# suite's linux-source against the image's BTF (--scx), EEVDF against it in one boot, and a
# scheduler that exits at once and one killed mid-pair: their pairs fail with the reason, the
# run goes on.
rc=0
matrix_once_more "$work/scx" --direct --scx scx_simple \
	--args "-t 2 -W Audio -w None --scheduler fair --scheduler /bin/scx_simple --scheduler /bin/false --scheduler /bin/scx_simple_killed" \
	debian:sid || rc=$?
if [ "$rc" = 0 ] && /usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["machine"]["audit"]["sched_ext"]["value"] == "disabled", d["machine"]["audit"]["sched_ext"]
by = {r["bench_setting"]["scheduler"]: r for r in d["results"]}
assert set(by) == {"fair", "/bin/scx_simple", "/bin/false", "/bin/scx_simple_killed"}, set(by)
assert "lost during the pair" in by["/bin/scx_simple_killed"]["failed"], by["/bin/scx_simple_killed"]
assert "sched_ext_ops" not in by["fair"] and "failed" not in by["fair"], by["fair"]
assert by["/bin/scx_simple"]["sched_ext_ops"] == "simple" and "failed" not in by["/bin/scx_simple"], by["/bin/scx_simple"]
assert "exited with status 1 before the kernel enabled it" in by["/bin/false"]["failed"], by["/bin/false"]' \
	"$work/scx/sid.json" 2>"$work/scx.err"; then
	ok "debian:sid: scx_simple built from its linux-source, EEVDF against it in one boot; one that exits at once and one killed mid-pair failed their pairs"
else
	fail "debian:sid with --scx scx_simple: exit $rc:"; cat "$work/scx.err"; tail -20 "$work/scx.out"
fi
expect 2 "a kernel spec that names no Debian suite is refused" "$here/matrix.sh" --direct "debian:"
deb=$(ls -t "${KERNEL_CACHE:-$HOME/.cache/interbench-kernels}"/linux-image-[0-9]*-amd64_*.deb | grep -v -- '-rt-' | head -1)

# A kernel before 6.12 keeps no per-task slice: a slice sweep is refused before anything runs.
rc=0
OUT="$work/slice" "$here/matrix.sh" --direct --args "-t 1 -W Audio -w None --bench-slice 3000" "generic=$deb" \
	>"$work/slice.out" 2>&1 || rc=$?
if [ "$rc" = 3 ] && grep -q "^interbench: --bench-slice: 3000: this kernel kept no slice" "$work/slice/generic/log"; then
	ok "generic 6.1 refuses --bench-slice, saying the kernel kept no slice"
else
	fail "generic 6.1 --bench-slice (exit $rc):"; grep -h "^interbench" "$work/slice/generic/log" 2>/dev/null | head -5
fi

# The pieces refuse what they cannot use.
expect 1 "extract.py: an empty console is no result" \
	/usr/bin/python3 "$here/extract.py" --console /dev/null --json "$work/x.json" --cases "$work/x.txt"
# A console where the guest's watchdog stopped interbench: its block is kept, the boot failed.
printf '%s\n' 'interbench-lava: start' 'interbench-lava: no exit after 61 s (pid 118; processes 118); what runs, then SIGTERM' \
	'| 118     interbench       R     0   FIFO 99           998         0  0' 'interbench-lava: watchdog end' \
	'interbench-result-begin 143' 'interbench-result-end' '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=interbench-run RESULT=fail>' \
	'interbench-lava: done' >"$work/hung.console"
rc=0
/usr/bin/python3 "$here/extract.py" --console "$work/hung.console" --json "$work/x.json" --cases "$work/x.txt" \
	--watchdog "$work/x.watchdog.txt" >"$work/x.out" 2>&1 || rc=$?
if [ "$rc" = 1 ] && grep -q 'no exit after 61 s, stopped by the watchdog' "$work/x.out" &&
   [ "$(sed -n '1p;$p' "$work/x.watchdog.txt" | cut -c1-30)" = "$(printf '%s\n' 'interbench-lava: no exit after' 'interbench-lava: watchdog end')" ]; then
	ok "extract.py: a watchdog's block kept whole; the boot failed, 'no exit after 61 s, stopped by the watchdog'"
else
	fail "extract.py on a watchdog's block (exit $rc):"; cat "$work/x.out" "$work/x.watchdog.txt"
fi
expect 2 "matrix.sh refuses a WATCHDOG_SECONDS that is not whole seconds" env WATCHDOG_SECONDS=1m "$here/matrix.sh"
expect 2 "build-initramfs.sh refuses a missing binary" "$here/build-initramfs.sh" "$work/none" "$work/x.cpio.gz"
echo "kernel matrix check: $passed passed, $failed failed"
[ "$failed" = 0 ]
