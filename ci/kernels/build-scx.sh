#!/usr/bin/env bash
# Builds the kernel's own example sched_ext schedulers (tools/sched_ext: scx_simple, scx_qmap,
# scx_central, ...) from a Debian linux-source package, against the BTF of the kernel image they
# will run on (extracted with the source's own scripts/extract-vmlinux: no running kernel of
# that version is needed), linked statically so the test initramfs needs nothing else.  The
# source's Makefile builds its own libbpf and bpftool from the same tree (tools/lib/bpf,
# tools/bpf/bpftool), so the machine's libbpf version does not matter; it needs clang 16 or
# later (clang-19 in Debian 12), make, a C compiler, libelf-dev and zlib1g-dev.
# Usage: build-scx.sh LINUX_SOURCE.deb VMLINUZ OUTDIR [SCHEDULER...]   (default: scx_simple)
# Each SCHEDULER is installed as OUTDIR/SCHEDULER; the build's log is OUTDIR/build-scx.log.
set -euo pipefail
if [ $# -lt 3 ]; then
	echo "usage: $0 LINUX_SOURCE.deb VMLINUZ OUTDIR [SCHEDULER...]" >&2
	exit 2
fi
src_deb=$1 image=$2 out=$3
shift 3
scheds=("$@")
[ ${#scheds[@]} -gt 0 ] || scheds=(scx_simple)
for s in "${scheds[@]}"; do
	case $s in (scx_[a-z0-9]*) ;; (*) echo "build-scx: $s: not a tools/sched_ext scheduler name (scx_NAME)" >&2; exit 2 ;; esac
done
for tool in make cc xz dpkg-deb; do
	command -v "$tool" >/dev/null || { echo "build-scx: $tool: not installed (make deps installs it)" >&2; exit 2; }
done
# clang 16 or later: older ones leave the BTF of the schedulers' __ksym kfunc declarations out
# ("failed to find BTF info for global/extern symbol" when bpftool links them).  CLANG, else
# the newest clang-N installed, else clang.
clang_major() { "$1" -dumpversion 2>/dev/null | cut -d. -f1; }
clang=${CLANG:-}
if [ -z "$clang" ]; then
	for v in 21 20 19 18 17 16; do command -v "clang-$v" >/dev/null && { clang=clang-$v; break; }; done
	clang=${clang:-clang}
fi
major=$(clang_major "$clang")
if [ -z "$major" ] || [ "$major" -lt 16 ]; then
	echo "build-scx: $clang: ${major:+version $major, }not clang 16 or later (install clang-19; CLANG=... names one)" >&2
	exit 2
fi
for f in "$src_deb" "$image"; do
	[ -f "$f" ] || { echo "build-scx: $f: no such file" >&2; exit 2; }
done
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/interbench-scx.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$out/build-scx.log"
: >"$log"

# The tarball inside the package (/usr/src/linux-source-X.Y.tar.xz), and the parts of the tree
# the schedulers' build reads.
tarball=$(dpkg-deb -c "$src_deb" | awk '$6 ~ /^\.\/usr\/src\/linux-source-[0-9.]+\.tar\.xz$/ { print $6; exit }')
[ -n "$tarball" ] || { echo "build-scx: $src_deb holds no /usr/src/linux-source-*.tar.xz" >&2; exit 2; }
top=$(basename "$tarball" .tar.xz)
dpkg-deb --fsys-tarfile "$src_deb" | tar -xO "$tarball" | xz -dc |
	tar -x -C "$work" --wildcards "$top/tools/*" "$top/scripts/*" "$top/include/*" "$top/arch/x86/include/*" "$top/kernel/bpf/*" "$top/Makefile"
tree="$work/$top"

# The image's BTF, in the uncompressed vmlinux.
"$tree/scripts/extract-vmlinux" "$image" >"$work/vmlinux" 2>>"$log" ||
	{ echo "build-scx: scripts/extract-vmlinux found no vmlinux in $image (see $log)" >&2; exit 1; }

# The source's own build (its libbpf and bpftool too), then each scheduler linked once more,
# statically, from the same objects (LDFLAGS=-static on make's command line would reach
# libbpf's shared library too).
build="$tree/tools/sched_ext/build"
if ! make -C "$tree/tools/sched_ext" -j"$(nproc)" CLANG="$clang" VMLINUX_BTF="$work/vmlinux" "${scheds[@]}" >>"$log" 2>&1; then
	echo "build-scx: the build failed; its last lines ($log):" >&2
	tail -15 "$log" >&2
	exit 1
fi
for s in "${scheds[@]}"; do
	cc -static -o "$work/$s" "$build/obj/sched_ext/$s.o" "$build/obj/libbpf/libbpf.a" -lelf -lz -lpthread >>"$log" 2>&1 ||
		{ echo "build-scx: linking $s statically failed ($log):" >&2; tail -5 "$log" >&2; exit 1; }
	install -m 0755 "$work/$s" "$out/$s"
	if LC_ALL=C readelf -l "$out/$s" | grep -q INTERP; then
		echo "build-scx: $out/$s is dynamically linked; the initramfs needs it static" >&2
		exit 1
	fi
	echo "$out/$s"
done
