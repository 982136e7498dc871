#!/bin/sh
# interbench as a LAVA test: runs the benchmark, prints its JSON result on the console between
# markers, and reports every figure as a test case (interbench export --format lava) through
# lava-test-case, or, where that is not on the PATH (outside lava-test-shell, e.g. the
# initramfs of ci/kernels/build-initramfs.sh), as the same <LAVA_SIGNAL_TESTCASE ...> console
# lines, which a LAVA monitor action matches.  POSIX sh: runs under busybox.
#
# Usage: interbench-lava.sh [INTERBENCH ARGUMENTS...]
# Without arguments, from the test definition's parameters (environment variables):
#   DURATION (-t, s, default 2), SIMS (-W, default "Audio Video"), LOADS (-w, default
#   "None Burn"), REPEAT (--repeat, default 1).
# Also: BASELINE (a result JSON: a figure fails where compare finds a regression against it),
#   THRESHOLD (compare's --threshold, with BASELINE), INTERBENCH (the binary, default
#   interbench), OUTPUT (directory of result.json and result.txt, default ./output; also the
#   benchmark's working directory).
# Console, in order:
#   interbench-lava: start
#   interbench-result-begin STATUS        (interbench's exit status)
#   base64 of the gzip of result.json, 76 columns a line (none when no result was written)
#   interbench-result-end
#   one test case a line: ID pass|fail [MEASUREMENT UNITS] (lava-test-case or a signal line)
#   the case interbench-run: pass when interbench exited 0
#   interbench-lava: done
# result.txt holds the cases as "ID pass|fail [MEASUREMENT UNITS]" lines (Linaro's format).
# Exit status: 0 when the cases were reported (the verdicts are in them), 1 when not.
INTERBENCH=${INTERBENCH:-interbench}
OUTPUT=${OUTPUT:-$(pwd)/output}
mkdir -p "$OUTPUT" || exit 1
if [ $# -eq 0 ]; then
	set -- -t "${DURATION:-2}" --repeat "${REPEAT:-1}"
	for s in ${SIMS:-Audio Video}; do set -- "$@" -W "$s"; done
	for l in ${LOADS:-None Burn}; do set -- "$@" -w "$l"; done
fi
echo "interbench-lava: start"
echo "interbench-lava: $(uname -r): $INTERBENCH $*"
rm -f "$OUTPUT/result.json"
(cd "$OUTPUT" && exec "$INTERBENCH" "$@" -q -c --json "$OUTPUT/result.json")
rc=$?
echo "interbench-result-begin $rc"
[ -s "$OUTPUT/result.json" ] && gzip -c "$OUTPUT/result.json" | base64
echo "interbench-result-end"

set --
if [ -n "${BASELINE:-}" ]; then
	set -- --against "$BASELINE"
	[ -n "${THRESHOLD:-}" ] && set -- "$@" --threshold "$THRESHOLD"
fi
: >"$OUTPUT/result.txt" || exit 1
if [ -s "$OUTPUT/result.json" ]; then
	"$INTERBENCH" export --format lava "$@" "$OUTPUT/result.json" >"$OUTPUT/result.txt"
	[ $? -le 1 ] || echo "interbench-export fail" >>"$OUTPUT/result.txt"  # 1: a case failed
fi
[ "$rc" = 0 ] && run=pass || run=fail
echo "interbench-run $run" >>"$OUTPUT/result.txt" || exit 1
while read -r id result value unit; do
	if command -v lava-test-case >/dev/null 2>&1; then
		lava-test-case "$id" --result "$result" ${value:+--measurement "$value" --units "$unit"}
	else
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id RESULT=$result${value:+ MEASUREMENT=$value UNITS=$unit}>"
	fi
done <"$OUTPUT/result.txt"
echo "interbench-lava: done"
