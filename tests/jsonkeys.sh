#!/usr/bin/env bash
# Checks that the JSON result's keys are defined once: every key named by a constant in
# report/jsonkeys.h (JK_*) or explain/json.h (EK_*) is used through that constant by the
# writers (report/json_report.c, explain/json.c) and the readers (tools/result_json.c,
# tools/result_log.c, tools/plot.c, tools/plot_input.c), never typed there again as a quoted
# literal outside a comment.  (The figures' keys, defined by the figure table, are checked the
# same way by tests/check_figures.c.)  Exits 1 naming each literal, file and line.
set -euo pipefail
cd "$(dirname "$0")/.."
defs=(report/jsonkeys.h explain/json.h)
files=(report/json_report.c explain/json.c tools/result_json.c tools/result_log.c tools/plot.c tools/plot_input.c)
# The same word with another meaning, as FILE:WORD: an owner's name in --explain
# (explain/json.c owner_name: "load", "interbench", "other"), and the run option -r's key in
# the "options" object (run/options.c json_key), which compare does not take as a fact.
others=(explain/json.c:load tools/result_json.c:repeat)
rc=0

keys=$(sed -n 's/^#define [JE]K_[A-Z0-9_]*[[:space:]]*"\([a-z_0-9]*\)".*/\1/p' "${defs[@]}" | sort -u)
[ -n "$keys" ] || { echo "jsonkeys: no key constant found in ${defs[*]}"; exit 1; }

# code: FILE's lines with comments blanked (a line opening with /* or *, and /* ... */ spans).
code() {
	sed -e 's|/\*.*\*/||g' -e 's|^[[:space:]]*/\*.*||' -e 's|^[[:space:]]*\*.*||' "$1"
}

for f in "${files[@]}"; do
	while IFS=: read -r line text; do
		for k in $keys; do
			case "$text" in
			*"\"$k\""*)
				[[ " ${others[*]} " == *" $f:$k "* ]] && continue
				echo "jsonkeys: $f:$line types \"$k\" (use its constant from ${defs[*]})"
				rc=1 ;;
			esac
		done
	done < <(code "$f" | grep -n '"[a-z_0-9]*"' || true)
done
n=$(echo "$keys" | wc -l)
[ $rc -eq 0 ] && echo "jsonkeys: $n keys, each typed once (${defs[*]}), none again in ${files[*]}"
exit $rc
