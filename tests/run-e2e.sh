#!/usr/bin/env bash
# run-e2e.sh BINARY NAME...: runs the end-to-end scripts tests/NAME.sh on BINARY, every one
# even after a failure, each with how long it took, then one closing line over all of them:
# "e2e: P passed, F failed, S skipped" (the sums of the scripts' own closing lines,
# tests/lib/e2e.sh's e2e_end; a script that ends without one counts as one failure, named).
# Exits 1 when any check failed, else 0.  `make e2e` runs it inside tests/untouched.sh.
# Usage: tests/run-e2e.sh ./interbench e2e e2e_loads ...
set -u
bin=${1:?usage: $0 BINARY NAME...}
shift
here=$(cd "$(dirname "$0")" && pwd)
tally=$(mktemp /tmp/ib-e2e-tally.XXXXXX) || exit 1
trap 'rm -f "$tally"' EXIT
export E2E_TALLY="$tally"
pass=0 fail=0 skipped=0 broken=""
for t in "$@"; do
	echo "== tests/$t.sh"
	t0=$(date +%s)
	lines=$(wc -l <"$tally")
	bash "$here/$t.sh" "$bin"
	rc=$?
	echo "== tests/$t.sh took $(($(date +%s) - t0)) s"
	if [ "$(wc -l <"$tally")" = $((lines + 1)) ]; then
		read -r p f s < <(tail -n1 "$tally")
		pass=$((pass + p)) fail=$((fail + f)) skipped=$((skipped + s))
		[ "$rc" = 0 ] || [ "$f" != 0 ] || { fail=$((fail + 1)); broken="$broken $t.sh(exit $rc)"; }
	else
		fail=$((fail + 1)) broken="$broken $t.sh(exit $rc)"
	fi
done
[ -n "$broken" ] && echo "e2e: ended without their closing line, or failed after it:$broken"
echo "e2e: $pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
