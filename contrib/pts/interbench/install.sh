#!/bin/sh
# Phoronix Test Suite install script of the interbench profile: PTS runs it in the test's
# install directory (also $HOME meanwhile), where it has put the file downloads.xml names.
# It builds interbench from that source tarball with make (the build needs the packages
# `make deps` installs: contrib/pts/README.md) and installs interbench-run.sh as the test
# executable, ./interbench.  A non-zero ~/install-exit-status tells PTS the install failed.
tarball=interbench-1.0.0.tar.gz

fail() {
	echo "install.sh: $1" >&2
	echo 1 >~/install-exit-status
	exit 1
}

rm -rf interbench-src && mkdir interbench-src || fail "cannot create interbench-src"
tar -xzf "$tarball" -C interbench-src --strip-components=1 || fail "cannot unpack $tarball"
make -C interbench-src -j "${NUM_CPU_CORES:-1}" interbench || fail "make failed (missing packages? see contrib/pts/README.md)"

# The run script: the profile's own copy when PTS has it (a local profile), else the
# tarball's, which is the same file of the same release.
run=$(dirname "$0")/interbench-run.sh
[ -f "$run" ] || run=interbench-src/contrib/pts/interbench/interbench-run.sh
cp "$run" interbench && chmod +x interbench || fail "cannot install $run as ./interbench"
./interbench-src/interbench --version || fail "the binary does not run"
echo 0 >~/install-exit-status
