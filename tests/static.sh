#!/usr/bin/env bash
# The static binary: builds interbench-static, checks it needs no shared library, and runs a
# 1 s benchmark with it (with --explain: its BPF tracer too) where no library exists at all:
# as root, in a mount namespace chrooted into a directory holding only the binary (and /proc,
# /sys, /dev bound in); otherwise in place.
# Usage: tests/static.sh
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
make -s -C "$src" static
bin="$src/interbench-static"
if ! LC_ALL=C readelf -d "$bin" 2>&1 | grep -q 'There is no dynamic section'; then
	echo "FAIL - interbench-static has a dynamic section:"; readelf -d "$bin" | head
	exit 1
fi
echo "ok   - interbench-static needs no shared library"
root=$(mktemp -d /tmp/interbench-static.XXXXXX)
trap 'rm -rf "$root"' EXIT
args=(-t 1 -W Audio -w None -c --explain --json -)
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	mkdir -p "$root"/{proc,sys,dev,tmp,bin}
	cp "$bin" "$root/bin/interbench"
	where="a chroot holding only the binary"
	run=(unshare -m sh -c 'r=$1; shift; mount --make-rprivate / && mount -t proc proc "$r/proc" &&
		mount --rbind /sys "$r/sys" && mount --rbind /dev "$r/dev" &&
		exec chroot "$r" /bin/interbench "$@"' sh "$root" "${args[@]}")
else
	where="place (not root: no chroot)"
	run=("$bin" "${args[@]}")
fi
if ! env -i XDG_CACHE_HOME=/tmp/cache "${run[@]}" >"$root/out.json" 2>"$root/err"; then
	echo "FAIL - interbench-static in $where"; cat "$root/err"
	exit 1
fi
if ! python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["results"]; assert len(r)==1 and r[0]["samples"]>0, r' "$root/out.json"; then
	echo "FAIL - interbench-static in $where: no measured result"; cat "$root/err"
	exit 1
fi
echo "ok   - interbench-static measured Audio in $where"
# --explain: the BPF tracer is linked in too (libbpf, libelf and zlib static), where BPF can run
if grep -q -- '--explain: no BPF tracer' "$root/err" && [ -r /sys/kernel/btf/vmlinux ] && [ "$(id -u)" = 0 ]; then
	echo "FAIL - interbench-static could not load its BPF tracer in $where"; cat "$root/err"
	exit 1
fi
echo "ok   - interbench-static ran --explain ($(grep -q -- '--explain: no BPF' "$root/err" && echo "the schedstat floor" || echo "the BPF tracer"))"
