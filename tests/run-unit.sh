#!/usr/bin/env bash
# run-unit.sh SUITE...: runs the unit test programs (tests/bin/check_*, with CK_FORK=yes),
# as many at a time as there are CPUs (UNIT_JOBS sets another number), then prints each one's
# output whole, in the order given, under "== SUITE", and a closing line "unit: N suites, F
# failed" naming the failed ones.  Exits 1 when any failed, else 0.  Running them side by side
# is safe: no unit test asserts a time (the few that run real threads or sleep count periods
# or wait for a state, tests/check_deadline.c, tests/check_workload.c, tests/check_sim_body.c),
# and check's own timeouts only bound a hang.  The one long suite (check_decision's
# replications, about 70 s) then runs beside all the others (about 20 s together).
# `make unit` runs it.  Usage: tests/run-unit.sh tests/bin/check_foo tests/bin/check_bar ...
set -u
[ $# -gt 0 ] || { echo "usage: $0 tests/bin/check_NAME..." >&2; exit 2; }
jobs=${UNIT_JOBS:-$(nproc)}
case $jobs in
(*[!0-9]* | '' | 0) echo "run-unit.sh: UNIT_JOBS '$jobs' (accepted: a whole number, 1 or more)" >&2; exit 2 ;;
esac
out=$(mktemp -d /tmp/ib-unit.XXXXXX) || exit 1
trap 'rm -rf "$out"' EXIT
# Each suite's output and status into out/I.txt and out/I.rc (I its place in the list).
i=0
for t in "$@"; do
	printf '%s\0%s\0' "$i" "$t"
	i=$((i + 1))
done | xargs -0 -n 2 -P "$jobs" sh -c 'CK_FORK=yes "$2" >"$0/$1.txt" 2>&1; echo $? >"$0/$1.rc"' "$out"
failed=""
i=0
for t in "$@"; do
	echo "== $t"
	cat "$out/$i.txt"
	rc=$(cat "$out/$i.rc" 2>/dev/null || echo "none")
	[ "$rc" = 0 ] || { echo "== $t: exit $rc"; failed="$failed ${t##*/}"; }
	i=$((i + 1))
done
n_failed=$(echo $failed | wc -w)
echo "unit: $# suites, $n_failed failed${failed:+:$failed}"
[ -z "$failed" ]
