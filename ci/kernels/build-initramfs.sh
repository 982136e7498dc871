#!/usr/bin/env bash
# Builds the test initramfs: Debian's static busybox, a static interbench and ci/kernels/init,
# as a gzip-compressed newc cpio (the format and compression every Debian kernel unpacks
# without modules).  With -s DIR, the static sched_ext schedulers in DIR (ci/kernels/build-scx.sh)
# go to /bin too, for interbench's --scheduler; scx_simple also as /bin/scx_simple_fifo, its
# FIFO mode (-f) as one word, since the guest's arguments travel as words, and as
# /bin/scx_simple_killed, killed 1.5 s after it starts (ci/kernels/check.sh's lost scheduler).
# Usage: build-initramfs.sh [-b BASELINE.json] [-s SCHEDULER_DIR] INTERBENCH_STATIC OUT.cpio.gz
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
baseline= scx_dir=
while [ $# -gt 2 ]; do
	case $1 in
	(-b) baseline=$2; shift 2 ;;
	(-s) scx_dir=$2; shift 2 ;;
	(*) break ;;
	esac
done
if [ $# -ne 2 ]; then
	echo "usage: $0 [-b BASELINE.json] [-s SCHEDULER_DIR] INTERBENCH_STATIC OUT.cpio.gz" >&2
	exit 2
fi
[ -z "$scx_dir" ] || [ -d "$scx_dir" ] || { echo "$0: $scx_dir: no such directory" >&2; exit 2; }
bin=$1 out=$2
busybox=${BUSYBOX:-/bin/busybox}
for f in "$bin" "$busybox" ${baseline:+"$baseline"}; do
	[ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 2; }
done
if LC_ALL=C readelf -l "$busybox" 2>/dev/null | grep -q INTERP; then
	echo "$0: $busybox is dynamically linked (install busybox-static)" >&2
	exit 2
fi
stage=$(mktemp -d "${TMPDIR:-/tmp}/interbench-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp}
install -m 0755 "$busybox" "$stage/bin/busybox"
install -m 0755 "$bin" "$stage/bin/interbench"
install -m 0755 "$here/init" "$stage/init"
install -m 0755 "$here/interbench-lava.sh" "$stage/bin/interbench-lava"
[ -z "$baseline" ] || install -m 0644 "$baseline" "$stage/baseline.json"
if [ -n "$scx_dir" ]; then
	for f in "$scx_dir"/scx_*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		install -m 0755 "$f" "$stage/bin/${f##*/}"
	done
	if [ -f "$stage/bin/scx_simple" ]; then
		printf '#!/bin/sh\nexec /bin/scx_simple -f "$@"\n' >"$stage/bin/scx_simple_fifo"
		# the check's scheduler lost mid-pair: scx_simple killed 1.5 s after it started
		printf '#!/bin/sh\n/bin/scx_simple & p=$!\nsleep 1.5\nkill -9 $p\nwait $p\nexec sleep 3600\n' \
			>"$stage/bin/scx_simple_killed"
		chmod 0755 "$stage/bin/scx_simple_fifo" "$stage/bin/scx_simple_killed"
	fi
fi
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
