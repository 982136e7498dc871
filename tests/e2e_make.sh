#!/bin/bash
# End to end: the Makefile with hostile input, on a throwaway clone of this tree (its Makefile
# as it is in the tree).  A version from a git tag or .tarball-version holding quotes, $, ( or #
# is refused with a message naming it, and nothing in it runs; a safe one is taken as it is.
# `make install` and `make uninstall` with a DESTDIR holding a space and a quote write and
# remove under it and nowhere else.  Runs no benchmark.
# Usage: e2e_make.sh BINARY
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin make "${1:?usage: $0 path/to/interbench}"
e2e_run_dir
# The clone: this tree's files (a git checkout's, or a copy's without git, as
# tests/fresh-machine.sh makes) committed to a new repository, so that its tags are the test's.
clone="$TMP/clone"
. "$E2E_TREE/tests/lib/copy-tree.sh"
mkdir "$clone" && copy_tree "$E2E_TREE" "$clone" && rm -f "$clone/.tarball-version" &&
	git -C "$clone" init -q && git -C "$clone" add -A &&
	git -C "$clone" -c user.name=e2e -c user.email=e2e@localhost commit -qm "this tree" >/dev/null ||
	{ bad "a git repository of this tree in $clone"; e2e_end; }
cp "$SRC" "$clone/interbench"

# listing DIR: every path under DIR (but .git), sorted.
listing() { (cd "$1" && find . -path ./.git -prune -o -print | LC_ALL=C sort); }

# install_case NAME: make install, then make uninstall, with DESTDIR=TMP/NAME: the 5 files
# there and nothing written outside it but the completion scripts the install builds; then all
# removed, and a file at TMP/dest (what an unquoted `rm -f $(DESTDIR)...` removes) kept.
install_case() {
	local dest="$TMP/$1" rc got left
	local want="./usr/bin/interbench ./usr/share/bash-completion/completions/interbench ./usr/share/interbench/interbench-result.schema.json ./usr/share/man/man8/interbench.8 ./usr/share/zsh/site-functions/_interbench "
	rm -f "$clone"/interbench.*-completion
	listing "$clone" >tree.before
	listing "$TMP" >tmp.before
	make -s -o interbench -W interbench -C "$clone" install DESTDIR="$dest" PREFIX=/usr >install.txt 2>&1
	rc=$?
	got=$( (cd "$dest" 2>/dev/null && find . -type f | LC_ALL=C sort | tr '\n' ' ') )
	if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then ok "make install DESTDIR=\"$1\": the 5 files under it"
	else echo "exit $rc; under DESTDIR: $got" >>install.txt; bad "make install DESTDIR=\"$1\"" install.txt; fi
	listing "$clone" | diff tree.before - | grep -v -e '^[0-9]' -e '> ./interbench\.\(bash\|zsh\)-completion$' >diff.txt
	listing "$TMP" | diff tmp.before - | grep -v -e '^[0-9]' -e "> ./$1" -e '> ./clone/' -e '> ./run/' >>diff.txt
	if [ -s diff.txt ]; then bad "make install DESTDIR=\"$1\" wrote outside it" diff.txt
	else ok "make install DESTDIR=\"$1\" wrote nothing outside it but the completion scripts it builds"; fi

	echo canary >"$TMP/dest"
	make -s -C "$clone" uninstall DESTDIR="$dest" PREFIX=/usr >uninstall.txt 2>&1
	rc=$?
	left=$(find "$dest" -type f 2>/dev/null | wc -l)
	if [ "$rc" = 0 ] && [ "$left" = 0 ] && [ "$(cat "$TMP/dest" 2>/dev/null)" = canary ]; then
		ok "make uninstall DESTDIR=\"$1\": its files gone, TMP/dest beside it kept"
	else echo "exit $rc; files left under DESTDIR: $left; TMP/dest: $(cat "$TMP/dest" 2>&1)" >>uninstall.txt
		bad "make uninstall DESTDIR=\"$1\"" uninstall.txt; fi
	rm -rf "$TMP/dest" "$dest"
}
install_case "dest dir"
install_case "dest dir'x"

# --- the version: hostile tags refused, nothing run; a safe tag taken
pwn="$TMP/pwned"
# refused WHAT: make .version in the clone fails naming the refusal, and runs nothing.
refused() {
	rm -f "$clone/.version" "$pwn"
	make -s -C "$clone" .version >version.txt 2>&1
	local rc=$?
	if [ "$rc" != 0 ] && grep -q "version '.*' refused" version.txt && [ ! -e "$pwn" ] && [ ! -e "$clone/.version" ]; then
		ok "$1: refused, nothing run ($(grep -o "version '[^']*'" version.txt))"
	else echo "exit $rc; $pwn: $([ -e "$pwn" ] && echo created || echo absent)" >>version.txt; bad "$1" version.txt; fi
}
# ($$ and $${IFS}: the shell's $ and ${IFS} once make has read the name as makefile text, as
# the Makefile of f224d61 did)
for tag in "v1'\$\$(touch\$\${IFS}$pwn)'" "v1'\$(touch\${IFS}$pwn)'" "v1\$\$(shell\${IFS}touch\${IFS}$pwn)" 'v1#x'; do
	git -C "$clone" tag -d $(git -C "$clone" tag -l) >/dev/null 2>&1
	git -C "$clone" tag "$tag" || { bad "git tag $tag"; continue; }
	refused "tag $tag"
done
git -C "$clone" tag -d $(git -C "$clone" tag -l) >/dev/null 2>&1
git -C "$clone" tag 'v9.8.7+rc1_a-b'
rm -f "$clone/.version"
if make -s -C "$clone" .version >version.txt 2>&1 && [ "$(cat "$clone/.version")" = "9.8.7+rc1_a-b" ]; then
	ok "tag v9.8.7+rc1_a-b: .version 9.8.7+rc1_a-b"
else bad "tag v9.8.7+rc1_a-b" version.txt; fi

# A release tarball's .tarball-version (no git checkout around it).
mkdir -p "$TMP/tarball/debian"
cp "$E2E_TREE/Makefile" "$TMP/tarball/"
cp "$E2E_TREE/debian/control" "$TMP/tarball/debian/"
printf "1'\$(touch %s)'\n" "$pwn" >"$TMP/tarball/.tarball-version"
clone="$TMP/tarball" refused ".tarball-version 1'\$(touch $pwn)'"

e2e_end
