#!/bin/bash
# The kernel matrix's input checks, without network, qemu or LAVA (ci/kernels/check.sh boots
# the kernels): matrix.sh refuses --args and --threshold that would corrupt or inject into
# job.yaml, the kernel command line or the guest's shell (exit 2, one line) and passes the
# accepted ones into a job that reads back as given; ci/kernels/lib.sh refuses a kernel cache
# reached through a symbolic link, one others can write and one of another user, writes a
# file over a planted link without following it, and fails an apt-get update whose mirror
# answers 503 (a local server) with planted package lists in place.  ci/kernels/merge.py
# merges a kernel's boots (a real run's result and variants of it) into one schema-valid
# result whose repeats are renumbered across the boots, refuses boots of different selections
# or kernels with one line, and writes over a planted link without following it.
# Usage: e2e_kernel_matrix.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin kernel-matrix "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
MATRIX="$E2E_TREE/ci/kernels/matrix.sh"
. "$E2E_TREE/ci/kernels/lib.sh"

# --- --args and --threshold
# refused OPTION VALUE: matrix.sh exits 2 at once with one line naming OPTION.
refused() {
	INTERBENCH=/nonexistent bash "$MATRIX" "$1" "$2" >m.out 2>&1
	local rc=$? v
	v=$(printf '%q' "$2")
	if [ "$rc" = 2 ] && [ "$(wc -l <m.out)" = 1 ] && grep -q "^matrix: $1: " m.out; then ok "$1 $v refused (exit 2): $(cat m.out)"
	else echo "exit $rc" >>m.out; bad "$1 $v" m.out; fi
}
for v in '-t 2 & reboot' '-t 2 | cat' $'-t 2\n-W Audio' '-W "Audio"' '-t $(id)' '-t 2; id' '-W Aud*' '-t,2' "-t '2'" '-t 2 #x' '-t\2'; do
	refused --args "$v"
done
for v in 'p99=10% x' 'p99=1|id' 'p99=1&' $'p99=1\nx'; do
	refused --threshold "$v"
done
for v in 0 100 two '' 01 '2;id'; do
	refused --boots "$v"
done
refused_path() {
	matrix_path_check OUT "$1" 2>m.out
	local rc=$?
	if [ "$rc" = 2 ] && grep -q '^matrix: OUT: ' m.out; then ok "OUT $(printf '%q' "$1") refused: $(cat m.out)"
	else bad "OUT $(printf '%q' "$1") (exit $rc)" m.out; fi
}
refused_path '/tmp/a&b'
refused_path '/tmp/a b'

args='-t 1 -W Audio --explain-threshold 1.5ms --cpus 0-1 --workdir /tmp/x+y --precision=p99=5%'
matrix_args_check "$args" && matrix_threshold_check 'p99=10%,deadlines=1' ||
	bad "the accepted arguments refused: $args"
job_yaml "$E2E_TREE/ci/kernels/lava/job.yaml.in" k-1 "$args" 'p99=10%,deadlines=1' /k/vmlinuz /k/initramfs.cpio.gz 3 >job.yaml
want='-kernel {kernel} -append "console=ttyS0,115200 panic=-1 ib_args=-t,1,-W,Audio,--explain-threshold,1.5ms,--cpus,0-1,--workdir,/tmp/x+y,--precision=p99=5% ib_threshold=p99=10%,deadlines=1"'
if python3 - job.yaml "$want" >y.out 2>&1 <<'PY'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
images = job["actions"][0]["deploy"]["images"]
assert images["kernel"]["image_arg"] == sys.argv[2], images["kernel"]["image_arg"]
assert images["kernel"]["url"] == "file:///k/vmlinuz" and images["ramdisk"]["url"] == "file:///k/initramfs.cpio.gz", images
assert job["job_name"] == "interbench on k-1" and job["timeouts"]["job"]["minutes"] == 8, job
PY
then ok "accepted --args and --threshold read back from job.yaml as given"
else bad "job.yaml of accepted arguments" y.out; fi

# --- the kernel cache
# distrusted WHY DIR: trusted_dir DIR fails with a message holding WHY, creating nothing in DIR.
distrusted() {
	if trusted_dir "$2" 2>t.out; then bad "$2 trusted"; return; fi
	if grep -q -- "$1" t.out && [ "$(wc -l <t.out)" = 1 ]; then ok "cache $2 refused: $(cat t.out)"
	else bad "cache $2: not '$1'" t.out; fi
}
mkdir -m 0755 "$TMP/real"
ln -s real "$TMP/link"
distrusted "$TMP/link is a symbolic link; not followed" "$TMP/link/cache"
[ ! -e "$TMP/real/cache" ] || bad "trusted_dir made $TMP/real/cache through the link"
mkdir -m 0755 "$TMP/c"
ln -s "$TMP/real" "$TMP/c/debian-trixie"
distrusted "$TMP/c/debian-trixie is a symbolic link" "$TMP/c/debian-trixie/lists"
mkdir -m 0777 "$TMP/w"
distrusted "$TMP/w is writable by others (mode 0777)" "$TMP/w"
mkdir -m 1777 "$TMP/s"
distrusted "$TMP/s is writable by others (mode 1777)" "$TMP/s"
distrusted "$TMP/w is writable by others (mode 0777)" "$TMP/w/cache"
if trusted_dir "$TMP/s/cache" 2>t.out && [ -d "$TMP/s/cache" ]; then ok "cache under a sticky directory (as in /tmp): made and trusted"
else bad "cache under a sticky directory" t.out; fi
if [ "$(id -u)" = 0 ]; then
	mkdir -m 0755 "$TMP/o" && chown 65534 "$TMP/o"
	distrusted "$TMP/o belongs to uid 65534, not to the running user (uid 0) or root" "$TMP/o/cache"
else
	skip "a cache of another user: not root, cannot make one"
fi

echo precious >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/c/sources.list"
if echo "deb x" | safe_write "$TMP/c/sources.list" && [ "$(cat "$TMP/victim")" = precious ] &&
   [ ! -L "$TMP/c/sources.list" ] && [ "$(cat "$TMP/c/sources.list")" = "deb x" ]; then
	ok "safe_write over a planted link: the link replaced, its target untouched"
else bad "safe_write over a planted link: target '$(cat "$TMP/victim")'"; fi

# --- apt-get update against a mirror answering 503, planted lists in place
if command -v apt-get >/dev/null; then
	python3 -c 'import http.server as h, sys
class H(h.BaseHTTPRequestHandler):
    def do_GET(s): s.send_response(503); s.end_headers()
    do_HEAD = do_GET
    def log_message(s, *a): pass
srv = h.HTTPServer(("127.0.0.1", 0), H)
print(srv.server_port, flush=True)
srv.serve_forever()' >port.txt 2>/dev/null &
	server=$!
	e2e_at_exit "kill $server 2>/dev/null; wait $server 2>/dev/null"
	wait_for test -s port.txt
	d="$TMP/s/cache/debian-trixie"
	mkdir -p "$d/lists/partial" "$d/archives/partial"
	echo "deb [trusted=yes] http://127.0.0.1:$(cat port.txt)/debian trixie main" >"$d/sources.list"
	printf 'Package: linux-image-amd64\nVersion: 99\nArchitecture: amd64\nFilename: pool/evil.deb\nSize: 1\nSHA256: %064d\n' 0 \
		>"$d/lists/127.0.0.1:$(cat port.txt)_debian_dists_trixie_main_binary-amd64_Packages"
	apt=(-o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists="$d/lists"
	     -o Dir::Cache="$d" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o Dir::Etc::Preferences=/nonexistent
	     -o Dir::Etc::PreferencesParts=/nonexistent -o APT::Architectures=amd64 -o Acquire::Languages=none
	     -o Acquire::Retries=0)
	if apt_update "$d/update.log" "${apt[@]}" 2>u.out; then bad "apt-get update against a 503 mirror passed" "$d/update.log"
	elif grep -q "^matrix: apt-get update failed" u.out && grep -q ' 503 ' "$d/update.log"; then ok "apt-get update against a 503 mirror, planted lists in place: failed ($(sed -n 2p u.out))"
	else bad "apt-get update against a 503 mirror: no reason" u.out; fi
else
	skip "apt-get update against a 503 mirror: no apt-get here"
fi

# --- ci/kernels/merge.py: one kernel's boots merged into one result of all their sub-runs
MERGE="$E2E_TREE/ci/kernels/merge.py"
# One real run stands for a boot: a sweep of two settings with 2 repeats, so that it carries
# decisions and sweeps (each a summary of that boot alone).
"$BIN" -c -l 1000000 -t 1 -W Audio -w None -B 0,5 --repeat 2 --json boot1.json >"$out" 2>&1 ||
	bad "the run standing for a boot failed" "$out"
# variant IN OUT PYTHON: OUT is IN with PYTHON applied to its document d.
variant() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))' "$@"; }
# boot 2: another minute, cut short after its first round; boot 3: as boot 1
variant boot1.json boot2.json 'd["run"]["datestamp"] = "202601010102"; d["run"]["interrupted_by"] = "SIGTERM"; d["results"] = [r for r in d["results"] if r["repeat"] == 1]'
cp boot1.json boot3.json
if python3 "$MERGE" --out k.json boot1.json boot2.json boot3.json >m.out 2>&1 &&
   python3 - "$SCHEMA" boot1.json k.json >v.out 2>&1 <<'PY'
import json, sys, jsonschema
one, k = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(k)
n = len(one["results"])
assert n == 4 and sorted({r["repeat"] for r in one["results"]}) == [1, 2], one["results"]
# every boot's results in the order given, boot k's repeats raised by the highest before it
want = [r["repeat"] for r in one["results"]] + [3] * (n // 2) + [r["repeat"] + 3 for r in one["results"]]
assert [r["repeat"] for r in k["results"]] == want, [r["repeat"] for r in k["results"]]
keys = [(r["simulation"], r["load"], r["mode"], r["repeat"]) for r in k["results"]]
assert len(set(keys)) == len(keys), keys
assert [(b["results"], b["repeat_offset"]) for b in k["boots"]] == [(n, 0), (n // 2, 2), (n, 3)], k["boots"]
assert k["boots"][1] == {"datestamp": "202601010102", "kernel_release": one["machine"]["kernel_release"],
                         "kernel_version": one["machine"]["kernel_version"], "results": 2,
                         "repeat_offset": 2, "interrupted_by": "SIGTERM"}, k["boots"][1]
assert "decisions" in one and "sweeps" in one and "decisions" not in k and "sweeps" not in k
assert all(k[key] == one[key] for key in ("machine", "run", "options", "generator", "schema_version"))
PY
then ok "merge.py: 3 boots (4, 2 and 4 results) into 10 sub-runs, repeats renumbered 1-2, 3, 4-5, schema-valid: $(cat m.out)"
else cat v.out >>m.out; bad "merge.py of 3 boots" m.out; fi
# (how many of them a row then uses depends on which the host disturbed: not asserted)
if "$BIN" compare boot1.json k.json >c.out 2>&1; [ $? -le 3 ] && grep -q '^NEW k.json (json, up to 5 sub-runs)$' c.out; then
	ok "compare reads the merged result's sub-runs of every boot (up to 5 a pair)"
else bad "compare of a merged result" c.out; fi

# refused_merge WHAT PATTERN FILE...: merge.py refuses FILE... (exit 2) with one line matching
# PATTERN, and writes no OUT.
refused_merge() {
	local what=$1 pat=$2 rc=0
	shift 2
	rm -f r.json
	python3 "$MERGE" --out r.json "$@" >m.out 2>&1 || rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <m.out)" = 1 ] && grep -Eq "^merge: $pat" m.out && [ ! -e r.json ]; then
		ok "merge.py refuses $what (exit 2): $(cat m.out)"
	else echo "exit $rc" >>m.out; bad "merge.py of $what" m.out; fi
}
variant boot1.json tasks.json 'd["options"]["sims"] = ["Video"]'
refused_merge "boots of other tasks" 'tasks.json: options.sims \["Video"\] differs from boot1.json.s \["Audio"\]; the boots of one kernel must be one selection' boot1.json tasks.json
variant boot1.json loads.json 'd["options"]["loads"] = ["None", "Burn"]'
refused_merge "boots of other loads" 'loads.json: options.loads ' boot1.json boot3.json loads.json
variant boot1.json nice.json 'd["options"]["bench_nice"] = [0, 10]'
refused_merge "boots of other settings" 'nice.json: options.bench_nice \[0, 10\] differs' boot1.json nice.json
variant boot1.json t2.json 'd["options"]["duration_s"] = 2'
refused_merge "boots of another -t" 't2.json: options.duration_s 2 differs from boot1.json.s 1' boot1.json t2.json
variant boot1.json kernel.json 'd["machine"]["kernel_release"] = "6.12.0-other"'
refused_merge "boots of another kernel" 'kernel.json: machine.kernel_release "6.12.0-other" differs .*not a boot of the same kernel' boot1.json kernel.json
variant boot1.json v2.json 'd["schema_version"] = 2'
refused_merge "boots of another schema version" 'v2.json: schema_version 2 differs' boot1.json v2.json
printf '{"schema_version": 3, "results": [' >cut.json
refused_merge "a file that is not JSON" 'cut.json: not JSON' boot1.json cut.json
variant boot1.json norep.json 'del d["results"][1]["repeat"]'
refused_merge "a result without a repeat" 'norep.json: results\[1\] has no repeat of 1 or more' norep.json
echo '[]' >list.json
refused_merge "a document that is not a result" 'list.json: not an interbench result' list.json
refused_merge "a missing file" 'none.json: No such file or directory' boot1.json none.json
echo precious >victim
ln -s victim out-link.json
if python3 "$MERGE" --out out-link.json boot1.json >m.out 2>&1 && [ "$(cat victim)" = precious ] && [ ! -L out-link.json ] &&
   python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))["boots"]) == 1' out-link.json; then
	ok "merge.py over a planted link at OUT: the link replaced, its target untouched"
else bad "merge.py over a planted link: victim '$(cat victim)'" m.out; fi

# --- matrix.sh --boots: alternating boots, each kept, merged, compared (no kernel booted)
# Stand-ins on PATH: qemu-system-x86_64 prints one boot's console (boot1.json as the guest's
# result, nothing for the boot FAKE_FAIL names) and logs which boot it was and whether its
# initramfs held a baseline; cpio lists the names it is given (the initramfs is then a list:
# build-initramfs.sh's archive is not what is tested here); dpkg-query says every package of
# ci/kernels/deps.sh is installed.
mkdir fake
cat >fake/qemu-system-x86_64 <<'SH'
#!/bin/bash
initrd=""
while [ $# -gt 0 ]; do case $1 in (-initrd) initrd=$2; shift 2 ;; (*) shift ;; esac; done
boot=${initrd%/initramfs.cpio.gz}
boot=${boot#"$FAKE_OUT/"}
echo "$boot baseline=$(gzip -dc "$initrd" | grep -c '^\./baseline\.json$')" >>"$FAKE_LOG"
if [ "$boot" = "$FAKE_FAIL" ]; then echo "Kernel panic - not syncing: no init found"; exit 0; fi
echo "interbench-result-begin 0"
gzip -c "$FAKE_RESULT" | base64 -w 76
echo "interbench-result-end"
echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=interbench-run RESULT=pass>"
SH
printf '#!/bin/sh\nexec cat\n' >fake/cpio
printf '#!/bin/sh\necho "install ok installed"\n' >fake/dpkg-query
chmod 755 fake/*
echo 'not a kernel' >vmlinuz-a
echo 'not a kernel either' >vmlinuz-b
# fake_matrix OUT FAIL ARGS...: matrix.sh --direct with the stand-ins, into OUT (its output in
# OUT.out, the boots in OUT.boots); the boot FAIL (LABEL/bootK, or LABEL) leaves no result.
fake_matrix() {
	local o=$PWD/$1 fail=$2
	shift 2
	: >"$o.boots"
	PATH="$PWD/fake:$PATH" ACCEL=tcg OUT="$o" KERNEL_CACHE="$TMP/kcache" INTERBENCH="$BIN" INTERBENCH_STATIC="$BIN" \
		BUSYBOX=fake/cpio FAKE_OUT="$o" FAKE_LOG="$o.boots" FAKE_FAIL="$fail" FAKE_RESULT="$PWD/boot1.json" \
		bash "$MATRIX" --direct --args "-t 1 -W Audio -w None" "$@" a="$PWD/vmlinuz-a" b="$PWD/vmlinuz-b" >"$o.out" 2>&1
}
rc=0
fake_matrix km b/boot2 --boots 2 || rc=$?
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["results"]))' boot1.json)
if [ "$rc" = 3 ] && [ "$(tr '\n' ' ' <km.boots)" = "a/boot1 baseline=0 b/boot1 baseline=1 a/boot2 baseline=0 b/boot2 baseline=1 " ] &&
   [ -s km/a.boot1.json ] && [ -s km/a.boot2.json ] && [ -s km/b.boot1.json ] && [ ! -e km/b.boot2.json ] &&
   [ -f km/b/boot2/log ] && [ -f km/b.boot2.cases.txt ] &&
   python3 - km/a.json km/b.json "$n" <<'PY'
import json, sys
a, b, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
assert [x["results"] for x in a["boots"]] == [n, n] and len(a["results"]) == 2 * n, a["boots"]
assert [x["results"] for x in b["boots"]] == [n] and len(b["results"]) == n, b["boots"]
PY
then ok "--boots 2 (b's second boot failed): a b a b, b's guests given a's first boot as baseline, each boot's outputs kept, a.json of 2 boots, b.json of 1, exit 3"
else echo "exit $rc; boots: $(tr '\n' ' ' <km.boots)" >>km.out; bad "--boots 2 with a failed boot" km.out; fi
if grep -q '^== kernels, 2 boots each, alternating' km.out && grep -q '^b: 1 of its 2 boots gave a result; b.json: 1 boot, ' km.out &&
   grep -q '^a: 2 of its 2 boots gave a result; a.json: 2 boots, ' km.out &&
   grep -Eq '^b +vmlinuz-b +boot 2 .* no result on the console' km.out &&
   grep -q '^   the sub-runs of every boot that gave a result: a.boot1.json a.boot2.json against b.boot1.json$' km.out &&
   grep -q '^NEW b.json (json, up to 2 sub-runs)$' km.out && grep -q '^OLD a.json (json, up to 4 sub-runs)$' km.out; then
	ok "the summary says 2 boots each, how many gave a result, the failed boot, and compare took a's 4 sub-runs against b's 2"
else bad "the summary of --boots 2" km.out; fi
rc=0
fake_matrix k1 "" || rc=$?
if [ "$rc" = 4 ] && [ "$(tr '\n' ' ' <k1.boots)" = "a baseline=0 b baseline=1 " ] && [ -s k1/a.json ] && [ -s k1/b.json ] &&
   [ -f k1/b/log ] && [ -z "$(find k1 -name '*boot*')" ] && ! grep -q boots k1.out &&
   ! python3 -c 'import json, sys; assert "boots" in json.load(open(sys.argv[1]))' k1/b.json 2>/dev/null; then
	ok "one boot a kernel (the default): today's names (LABEL.json, LABEL/log), no merge, exit 4 (undecided)"
else echo "exit $rc; boots: $(tr '\n' ' ' <k1.boots)" >>k1.out; bad "the default of one boot" k1.out; fi
rc=0
fake_matrix kf a/boot2 --boots 2 || rc=$?
if [ "$rc" = 3 ] && [ "$(wc -l <kf.boots)" = 4 ] && grep -q '^a: 1 of its 2 boots gave a result' kf.out &&
   grep -q '^OLD a.json (json, up to 2 sub-runs)$' kf.out; then
	ok "--boots 2, the first kernel's second boot failed: its first still the baseline and compared, exit 3"
else echo "exit $rc" >>kf.out; bad "--boots 2, the first kernel's second boot failed" kf.out; fi
rc=0
fake_matrix k0 a --boots 1 || rc=$?
if [ "$rc" = 3 ] && [ "$(wc -l <k0.boots)" = 1 ] && grep -q '^matrix: a: no result to compare against' k0.out; then
	ok "one boot, the first kernel failed: stopped there (nothing to compare against), exit 3"
else echo "exit $rc" >>k0.out; bad "one boot, the first kernel failed" k0.out; fi
e2e_end
