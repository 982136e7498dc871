#!/usr/bin/env bash
# Golden tests: every output of the program, compared with the one stored in
# tests/golden/expected/, so a change of structure is proven to leave the outputs as they were.
#  - short fixed runs: the console (stdout, stderr, exit status), the logfile and the JSON,
#    normalized by tests/golden/normalize.py (the figures and machine facts masked, every
#    line, word, column, key and type kept);
#  - compare and export on the stored results of tests/golden/fixtures/: byte for byte.
# Usage: tests/e2e_golden.sh ./interbench [--update]   (--update rewrites the expected files;
# review the diff before committing it).  The runs need root (as CI runs them): their notes
# differ without privileges, so each is counted as a skip otherwise.
set -u
. "$(dirname "$0")/lib/e2e.sh"
e2e_begin golden "${1:-}"
UPDATE=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
GOLD="$HERE/golden"
export LC_ALL=C.UTF-8 TZ=UTC

# check NAME FILE: FILE against the expected tests/golden/expected/NAME (or stores it, --update).
check() {
	local want="$GOLD/expected/$1"
	if [ "$UPDATE" = --update ]; then
		cp "$2" "$want"; ok "$1 (updated)"
	elif diff -u "$want" "$2" >"$TMP/diff" 2>&1; then ok "$1 as stored"
	else bad "$1 differs from tests/golden/expected/$1" "$TMP/diff"; fi
}

# run_case NAME ARGS...: runs the benchmark with ARGS in a directory of its own and stores,
# normalized, its stdout, stderr, exit status, the names of the files it created, and each
# logfile and JSON document among them.
run_case() {
	local name=$1; shift
	local dir="$TMP/$name" out="$TMP/$name.golden"
	mkdir -p "$dir"
	(cd "$dir" && "$BIN" -l 1000000 "$@" >../"$name.stdout" 2>../"$name.stderr"; echo "exit $?" >../"$name.rc")
	{
		echo "== argv: $*"; cat "$TMP/$name.rc"
		echo "== stdout"
		if [ "$(head -c1 "$TMP/$name.stdout")" = "{" ]; then python3 "$GOLD/normalize.py" json "$TMP/$name.stdout"
		else python3 "$GOLD/normalize.py" text "$TMP/$name.stdout"; fi
		echo "== stderr"; python3 "$GOLD/normalize.py" text "$TMP/$name.stderr"
		for f in $(cd "$dir" && ls | sort); do
			echo "== file $f" | python3 "$GOLD/normalize.py" text /dev/stdin
			case $f in
			*.json) python3 "$GOLD/normalize.py" json "$dir/$f" ;;
			*.log) python3 "$GOLD/normalize.py" text "$dir/$f" ;;
			esac
		done
	} >"$out"
	check "$name" "$out"
}

# tool_case NAME ARGS...: runs a subcommand in the fixtures' directory and stores its stdout,
# stderr and exit status as they are.
tool_case() {
	local name=$1; shift
	local out="$TMP/$name.golden"
	(cd "$GOLD/fixtures" && { echo "== argv: $*"; "$BIN" "$@" >"$TMP/o" 2>"$TMP/e"; echo "exit $?"
		echo "== stdout"; cat "$TMP/o"; echo "== stderr"; cat "$TMP/e"; }) >"$out"
	check "$name" "$out"
}

if [ "$(id -u)" = 0 ]; then
	run_case basic -t 1 -q -W Audio -W ProAudio -w None -w Burn -m golden --json result.json
	run_case verbose -t 1 -q -c -v -W Video -W Gaming -w None
	run_case repeat -t 1 -q -c --repeat 2 -W Audio -w None
	run_case sweep -t 1 -q -c -W Audio -w None -N 0,19 --json sweep.json
	run_case realtime -t 1 -q -c -r -W X -w Ring
	run_case unsupported -t 1 -q -c -W Custom -w None
	run_case json-stdout -t 1 -q -W Audio -w Hack --json -
else
	for name in basic verbose repeat sweep realtime unsupported json-stdout; do
		skip "$name: the runs' golden outputs need root (their notes differ without privileges)"
	done
fi

tool_case compare-json compare a.json b.json
tool_case compare-log compare a.log b.json
tool_case compare-json-out compare --json - --threshold mean=5%,max=off a.json b.json
tool_case compare-match compare --match simulation,load a.json b.json
tool_case compare-sweep compare a.json c.json
tool_case compare-bad compare a.json missing.json
tool_case export-lava export a.json
tool_case export-against export --against a.json b.json
tool_case export-kcidb export --format kcidb --origin golden --build-id golden:1 --run r1 b.json
tool_case export-metrics export --format metrics b.json
tool_case export-log export a.log
tool_case export-csv export --format csv b.json
tool_case export-markdown export --format markdown c.json
tool_case export-histogram export --format histogram c.json
tool_case export-histogram-csv export --format histogram-csv c.json
tool_case usage-compare compare --help
tool_case usage-export export --help
tool_case usage-plot plot --help

e2e_end "golden: "
