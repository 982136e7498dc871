#!/usr/bin/env bash
# The README's first commands on a fresh machine: removes the Debian packages the build and
# the tests need (the Makefile's BUILD_PKGS and TEST_PKGS), then runs, each in a clean copy of
# the tree and in one go, `make deps run` (with a 1 s benchmark) and `make deps check`.  A
# missing install step or a Makefile that computes its flags before `deps` ran fails here.
# Removing packages needs root; without it the script says so and runs the commands on the
# machine as it is (which proves less).
# Usage: tests/fresh-machine.sh        (CI runs it from .ci/run)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/lib/copy-tree.sh"
pkgs=$(make -s -C "$src" print-BUILD_PKGS print-TEST_PKGS | tr '\n' ' ')
export DEBIAN_FRONTEND=noninteractive
work=$(mktemp -d /tmp/interbench-fresh.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Removes the packages and checks they are really gone (else this test would prove nothing).
strip_machine() {
	if [ "$(id -u)" != 0 ]; then
		echo "fresh-machine: not root: cannot remove $pkgs; running on the machine as it is"
		return 0
	fi
	echo "== removing $pkgs"
	apt-get remove -y -qq $pkgs >/dev/null
	for p in $pkgs; do
		if dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			echo "fresh-machine: $p is still installed after apt-get remove" >&2
			exit 1
		fi
	done
}

# step NAME COMMAND...: the command in a fresh copy of the tree, timed.
step() {
	local name=$1 t0
	shift
	strip_machine
	mkdir "$work/$name"
	copy_tree "$src" "$work/$name"
	echo "== $name: $*"
	t0=$(date +%s)
	(cd "$work/$name" && "$@")
	echo "== $name: passed in $(($(date +%s) - t0)) s"
}

step run make deps run ARGS="-t 1 -W Audio -w None -c"
step check make deps check
