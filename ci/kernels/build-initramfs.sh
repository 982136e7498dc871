#!/usr/bin/env bash
# Builds the test initramfs: Debian's static busybox, a static interbench and ci/kernels/init,
# as a gzip-compressed newc cpio (the format and compression every Debian kernel unpacks
# without modules).
# Usage: build-initramfs.sh [-b BASELINE.json] INTERBENCH_STATIC OUT.cpio.gz
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
baseline=
if [ "${1:-}" = -b ]; then baseline=$2; shift 2; fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [-b BASELINE.json] INTERBENCH_STATIC OUT.cpio.gz" >&2
	exit 2
fi
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
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
