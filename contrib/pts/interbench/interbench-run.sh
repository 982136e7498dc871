#!/bin/sh
# The test executable of the Phoronix Test Suite profile (contrib/pts/interbench): one
# simulated task against one load for a fixed time, then the figures of that pair as
# "SIM.LOAD.FIGURE_UNIT: VALUE" lines (interbench export --format metrics), the lines
# results-definition.xml parses.  install.sh installs it as $HOME/interbench, which PTS
# runs in the test's install directory with the options of test-definition.xml, e.g.
#	./interbench -t 10 -W Audio -w Burn
# Usage: interbench-run.sh [-t SECONDS] -W TASK -w LOAD
#   -t SECONDS  how long the pair runs (interbench -t; default 10)
#   -W TASK     the simulated task (interbench -W), once
#   -w LOAD     the background load (interbench -w), once
# Environment:
#   INTERBENCH  the interbench binary (default: interbench-src/interbench beside this script)
#   LOG_FILE    set by PTS: all output goes there, and the exit status to
#               $HOME/test-exit-status (PTS's convention); unset: standard output
# The whole result stays in ./interbench-result.json (the last run's) for interbench
# compare, plot and export.  Exit status: interbench's (0 measured, 1 not measured, 2 bad
# options), or export's 2 when the JSON could not be read; export's 1 (a figure without a
# value, e.g. a starved latency) is not a failure: that figure has no line, the others do.

usage() {
	echo "usage: ${0##*/} [-t SECONDS] -W TASK -w LOAD  (INTERBENCH=path/to/interbench)" >&2
	exit 2
}

secs=10 task="" load=""
while getopts t:W:w:h opt; do
	case $opt in
	t) secs=$OPTARG ;;
	W) [ -z "$task" ] || usage; task=$OPTARG ;;
	w) [ -z "$load" ] || usage; load=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] && [ -n "$task" ] && [ -n "$load" ] || usage

ib=${INTERBENCH:-$(dirname "$0")/interbench-src/interbench}
json=interbench-result.json

finish() {
	[ -n "${LOG_FILE:-}" ] && echo "$1" >"${HOME:?}/test-exit-status"
	exit "$1"
}

[ -n "${LOG_FILE:-}" ] && exec >"$LOG_FILE" 2>&1
rm -f "$json"
"$ib" -c -t "$secs" -W "$task" -w "$load" --json "$json"
rc=$?
[ "$rc" = 0 ] || finish "$rc"
"$ib" export --format metrics "$json"
rc=$?
[ "$rc" -le 1 ] || finish "$rc"
finish 0
