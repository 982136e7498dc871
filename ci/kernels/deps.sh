#!/usr/bin/env bash
# Installs the Debian packages the kernel matrix needs (as root), or prints the line to run:
# qemu, Debian's static busybox, cpio, python3-yaml; with --lava LAVA's dispatcher
# (lava-dispatcher, without its recommends: about 170 packages, a minute to install); with --scx
# what ci/kernels/build-scx.sh builds sched_ext schedulers with (clang-19: clang 16 or later).
# Usage: ci/kernels/deps.sh [--lava] [--scx]
set -euo pipefail
pkgs="qemu-system-x86 busybox-static cpio python3-yaml"
for a in "$@"; do
	case $a in
	(--lava) pkgs="$pkgs lava-dispatcher" ;;
	(--scx) pkgs="$pkgs clang-19 make gcc libc6-dev libelf-dev zlib1g-dev xz-utils" ;;
	(*) echo "deps.sh: $a: unknown option (accepted: --lava, --scx)" >&2; exit 2 ;;
	esac
done
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "kernel matrix: missing packages; run as root: apt-get update && apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "kernel matrix: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
