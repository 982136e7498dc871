#!/bin/bash
# The kernel matrix's input checks, without network, qemu or LAVA (ci/kernels/check.sh boots
# the kernels): matrix.sh refuses --args and --threshold that would corrupt or inject into
# job.yaml, the kernel command line or the guest's shell (exit 2, one line) and passes the
# accepted ones into a job that reads back as given; ci/kernels/lib.sh refuses a kernel cache
# reached through a symbolic link, one others can write and one of another user, writes a
# file over a planted link without following it, and fails an apt-get update whose mirror
# answers 503 (a local server) with planted package lists in place.
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
e2e_end
