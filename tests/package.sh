#!/usr/bin/env bash
# Release and package, as a distribution would take them: `make dist` twice on a clean clone
# of the tree's commit (the second after every file's mtime changed) gives the same bytes;
# the Debian packages build from that tarball alone (`dpkg-buildpackage -us -uc -b`);
# lintian finds no error and no warning that an override does not explain; the autopkgtest
# (debian/tests) passes against the built packages; and once installed, `interbench
# --version`, `man interbench` and the bash completion work.  As root it installs what it
# needs (debhelper, lintian, autopkgtest; `make deps` for the build) and removes the
# packages it installed from the tree at the end; without root it says so and stops.
# Usage: tests/package.sh        (CI runs it from .ci/run)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" != 0 ]; then
	echo "package: not root: cannot install the build tools or the packages; skipped"
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
work=$(mktemp -d /tmp/interbench-package.XXXXXX)
cleanup() {
	dpkg-query -W -f='${Status}\n' interbench 2>/dev/null | grep -q 'install ok installed' &&
		apt-get purge -y -qq interbench interbench-static >/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
ok() { echo "ok   - $*"; }
fail() { echo "FAIL - $*" >&2; exit 1; }
took() { echo "== $1 took $((SECONDS - $2)) s"; }
# failed_suites LOG: the whole output of each unit suite the build's tests named failed
# (tests/run-unit.sh: "unit: N suites, F failed: check_a check_b"), which the log's tail leaves out.
failed_suites() {
	local s
	for s in $(sed -n 's/^unit: [0-9]* suites, [0-9]* failed: //p' "$1"); do
		sed -n "/^== tests\/bin\/$s\$/,/^== tests\/bin\/$s: exit/p" "$1"
	done
}

t0=$SECONDS
apt-get install -y -qq --no-install-recommends debhelper lintian autopkgtest man-db >/dev/null
make -s -C "$src" deps
took "install the tools" "$t0"

# The tarball, twice, from a clean clone of this commit.
t0=$SECONDS
git clone -q "$src" "$work/clone"
(cd "$work/clone" && make -s dist >/dev/null && mv interbench-*.tar.gz "$work/first.tar.gz")
find "$work/clone" -path "$work/clone/.git" -prune -o -exec touch -d '2001-02-03 04:05' {} +
(cd "$work/clone" && make -s dist >/dev/null)
tarball=$(ls "$work/clone"/interbench-*.tar.gz)
name=$(basename "$tarball" .tar.gz)
a=$(sha256sum <"$work/first.tar.gz") b=$(sha256sum <"$tarball")
[ "$a" = "$b" ] || fail "make dist twice: $a against $b"
ok "make dist twice gives the same bytes: $name.tar.gz ${a%% *}"
tar -tzf "$tarball" | grep -qx "$name/.tarball-version" || fail "$name.tar.gz holds no .tarball-version"
if tar -tzf "$tarball" | grep -q '/\.git/'; then fail "$name.tar.gz holds git metadata"; fi
took "make dist" "$t0"

# The packages, from the tarball alone, with their build-time tests (make unit lint), built on
# every CPU (-J: DEB_BUILD_OPTIONS parallel=N, which debian/rules passes to make).  The unit
# suites' replication cases (tests/ck_synth.h CK_REPLICATIONS_TAG: the statistics' error rates,
# the same arithmetic repeated for about 70 s) are left out here: they measure the statistics,
# not the package, and CI's native `make check` (tests/fresh-machine.sh) ran them on this same
# commit; every other unit case runs against the package's own build.
t0=$SECONDS
mkdir "$work/build"
tar -C "$work/build" -xzf "$tarball"
(cd "$work/build/$name" && CK_EXCLUDE_TAGS=replications dpkg-buildpackage -us -uc -b -J"$(nproc)" >"$work/build.log" 2>&1) ||
	{ failed_suites "$work/build.log"; tail -40 "$work/build.log"; fail "dpkg-buildpackage -us -uc -b"; }
changes=$(ls "$work"/build/*.changes)
ok "dpkg-buildpackage -us -uc -b built $(cd "$work/build" && ls ./*.deb | tr '\n' ' ')"
took "dpkg-buildpackage" "$t0"

t0=$SECONDS
lintian --fail-on error,warning --display-info "$changes" >"$work/lintian.txt" 2>&1 ||
	{ cat "$work/lintian.txt"; fail "lintian $(basename "$changes")"; }
cat "$work/lintian.txt"
ok "lintian: no error, no warning ($(grep -c '^[A-Z]: ' "$work/lintian.txt" || true) lines of info or overrides)"
took "lintian" "$t0"

# The autopkgtest, on this machine (the null virtualisation server): it installs the
# packages and runs debian/tests from the unpacked tarball.
t0=$SECONDS
autopkgtest --no-built-binaries "$work"/build/*.deb "$work/build/$name/" -- null >"$work/autopkgtest.txt" 2>&1 ||
	{ tail -60 "$work/autopkgtest.txt"; fail "autopkgtest"; }
tail -3 "$work/autopkgtest.txt"
grep -Eq '^smoke +PASS' "$work/autopkgtest.txt" || fail "autopkgtest: smoke did not pass"
ok "autopkgtest: smoke PASS"
took "autopkgtest" "$t0"

# Installed, as a user meets it.
dpkg -i "$work"/build/*.deb >/dev/null
v=$(interbench --version)
[ "$v" = "interbench $(dpkg-query -W -f='${Version}' interbench)" ] || fail "interbench --version said '$v'"
ok "dpkg -i, then interbench --version: $v"
man -w interbench | grep -q '^/usr/share/man/man8/interbench.8' || fail "man -w interbench"
MANWIDTH=80 man interbench 2>/dev/null | grep -q 'Linux interactivity benchmark' || fail "man interbench"
ok "man interbench"
reply=$(bash -c '. /usr/share/bash-completion/completions/interbench
COMP_WORDS=(interbench --bench-po); COMP_CWORD=1; _interbench interbench --bench-po interbench
printf "%s\n" "${COMPREPLY[@]}"')
[ "$reply" = "--bench-policy" ] || fail "completion of --bench-po: '$reply'"
ok "bash completion: --bench-po completes to --bench-policy"
